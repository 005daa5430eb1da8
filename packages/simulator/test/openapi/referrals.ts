/**
 * Referral sets and referees, the current programs, the volume discount statistics and activity
 * streaks: pages both ways, each filter, and errors.
 */
import type { Recorder } from "./exchanges.js"

export const referrals = async (r: Recorder) => {
  const setsTemplate = "/api/v2/referral-sets"
  await r.pages(setsTemplate, "referralSets")
  const sets = await r.query(setsTemplate)
  const set = sets?.referralSets?.edges?.[0]?.node
  if (set !== undefined) {
    await r.query(setsTemplate, { referralSetId: set.id })
    await r.query(setsTemplate, { referrer: set.referrer })
  }
  await r.query(setsTemplate, { referee: "xyz" })

  const refereesTemplate = "/api/v2/referral-sets/referees"
  await r.pages(refereesTemplate, "referralSetReferees")
  const referees = await r.query(refereesTemplate, { aggregationEpochs: "2" })
  const referee = referees?.referralSetReferees?.edges?.[0]?.node?.referee
  if (set !== undefined) await r.query(refereesTemplate, { referralSetId: set.id })
  if (referee !== undefined) await r.query(refereesTemplate, { referee })
  await r.query(refereesTemplate, { referrer: "xyz" })

  await r.query("/api/v2/referral-programs/current")
  await r.query("/api/v2/volume-discount-programs/current")

  const statsTemplate = "/api/v2/volume-discount-programs/stats"
  await r.pages(statsTemplate, "stats")
  const stats = await r.query(statsTemplate)
  const party = stats?.stats?.edges?.[0]?.node?.partyId
  if (party !== undefined) await r.query(statsTemplate, { partyId: party })
  await r.query(statsTemplate, { atEpoch: "2" })
  await r.query(statsTemplate, { "pagination.after": Buffer.from("[1]").toString("base64") })

  const streakTemplate = "/api/v2/party/activity/streak/{partyId}"
  if (referee !== undefined) {
    await r.query(streakTemplate, {}, { partyId: referee })
    await r.query(streakTemplate, { epoch: "1" }, { partyId: referee })
  }
  await r.query(streakTemplate, {}, { partyId: "cd".repeat(32) })
  await r.query(streakTemplate, {}, { partyId: "xyz" })
}
