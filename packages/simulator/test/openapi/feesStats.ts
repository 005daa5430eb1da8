/** Fees statistics: a market's and an asset's, one party's, an epoch, and the error bodies. */
import type { Recorder } from "./exchanges.js"

export const feesStats = async (r: Recorder, market: string) => {
  const template = "/api/v2/fees/stats"
  const stats = await r.query(template, { marketId: market })
  await r.query(template, { marketId: market, epochSeq: "1" })
  const asset = stats?.feesStats?.asset
  if (asset !== undefined) await r.query(template, { assetId: asset })
  const taker = stats?.feesStats?.makerFeesGenerated?.[0]?.taker
  if (taker !== undefined) await r.query(template, { marketId: market, partyId: taker })
  await r.query(template, {})
  await r.query(template, { marketId: "cd".repeat(32) })
  const party = stats?.feesStats?.totalMakerFeesReceived?.[0]?.party
  const forParty = "/api/v2/fees/stats/parties/{partyId}"
  if (party !== undefined) {
    await r.query(forParty, {}, { partyId: party })
    await r.query(forParty, { fromEpoch: "1" }, { partyId: party })
    if (asset !== undefined) await r.query(forParty, { assetId: asset }, { partyId: party })
  }
  await r.query(forParty, {}, { partyId: "xyz" })
}
