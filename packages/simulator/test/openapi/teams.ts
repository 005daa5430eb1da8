/**
 * Teams: the teams over pages and one by team or party, a team's referees, a referee's history,
 * the teams' and the members' statistics, with filters, unknown and invalid ids.
 */
import type { Recorder } from "./exchanges.js"

export const teams = async (r: Recorder) => {
  await r.pages("/api/v2/teams", "teams")
  const all = await r.query("/api/v2/teams", { "pagination.first": "100" })
  const team: string = all?.teams?.edges?.[0]?.node?.teamId ?? "ab".repeat(32)
  const referrer: string = all?.teams?.edges?.[0]?.node?.referrer ?? "ab".repeat(32)
  await r.query("/api/v2/teams", { teamId: team })
  await r.query("/api/v2/teams", { partyId: referrer })
  await r.query("/api/v2/teams", { teamId: "cd".repeat(32) })
  await r.query("/api/v2/teams", { teamId: "xyz" })

  const referees = "/api/v2/teams/referees/{teamId}"
  await r.pages(referees, "teamReferees", {}, { teamId: team })
  const page = await r.query(referees, { "pagination.first": "1" }, { teamId: team })
  const referee: string = page?.teamReferees?.edges?.[0]?.node?.referee ?? referrer
  await r.query(referees, {}, { teamId: "xyz" })

  const history = "/api/v2/teams/referees/history/{referee}"
  await r.pages(history, "teamRefereeHistory", {}, { referee })
  await r.query(history, {}, { referee: referrer })
  await r.query(history, {}, { referee: "xyz" })

  await r.pages("/api/v2/teams/stats", "statistics")
  const first = await r.query("/api/v2/teams/stats", { "pagination.first": "1" })
  const after = first?.statistics?.pageInfo?.endCursor
  if (after) await r.query("/api/v2/teams/stats", { "pagination.first": "1", "pagination.after": after })
  await r.query("/api/v2/teams/stats", { teamId: team, aggregationEpochs: "3" })
  await r.query("/api/v2/teams/stats", { teamId: "xyz" })

  const members = "/api/v2/teams/{teamId}/stats"
  await r.pages(members, "statistics", {}, { teamId: team })
  await r.query(members, { partyId: referee, aggregationEpochs: "2" }, { teamId: team })
  await r.query(members, {}, { teamId: "xyz" })
}
