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

/** Paid liquidity fees: the last epoch's, a market's history, a party's, a page and its cursor. */
export const paidLiquidityFees = async (r: Recorder) => {
  const template = "/api/v2/liquidity/paidfees"
  const page = await r.query(template, {})
  const row = page?.paidLiquidityFees?.edges?.[0]?.node
  if (row !== undefined) {
    await r.query(template, { marketId: row.market, assetId: row.asset })
    await r.query(template, { partyIds: row.feesPaidPerParty?.[0]?.party, "pagination.newestFirst": "false" })
  }
  const first = await r.query(template, { "pagination.first": "1" })
  const cursor = first?.paidLiquidityFees?.pageInfo?.endCursor
  if (cursor) await r.query(template, { "pagination.first": "1", "pagination.after": cursor })
  await r.query(template, { marketId: "xyz" })
}

/** Liquidity providers: a market's, a party's, a first page and its cursor, and the error bodies. */
export const liquidityProviders = async (r: Recorder, market: string) => {
  const template = "/api/v2/liquidity/providers"
  const page = await r.query(template, { marketId: market })
  const party = page?.liquidityProviders?.edges?.[0]?.node?.partyId
  if (party !== undefined) await r.query(template, { partyId: party, "pagination.newestFirst": "false" })
  const first = await r.query(template, { marketId: market, "pagination.first": "1" })
  const cursor = first?.liquidityProviders?.pageInfo?.endCursor
  if (cursor) await r.query(template, { marketId: market, "pagination.after": cursor })
  await r.query(template, {})
  await r.query(template, { partyId: "xyz" })
}

/** The deprecated liquidity provisions route: a market's rows over pages, live ones, an error. */
export const deprecatedProvisions = async (r: Recorder, market: string) => {
  const template = "/api/v2/liquidity/provisions"
  await r.pages(template, "liquidityProvisions", { marketId: market })
  await r.query(template, { marketId: market, live: "true" })
  await r.query(template, { partyId: "xyz" })
}

/** Funding periods: a perpetual's over pages both ways, a date range, a future's, a bad id. */
export const fundingPeriods = async (r: Recorder) => {
  const markets = await r.query("/api/v2/markets", {})
  const instruments: Array<{ id: string; perpetual: boolean }> = (markets?.markets?.edges ?? []).map(
    (e: { node: { id: string; tradableInstrument: { instrument: Record<string, unknown> } } }) => ({
      id: e.node.id,
      perpetual: e.node.tradableInstrument.instrument.perpetual !== undefined
    })
  )
  const perpetual = instruments.find((m) => m.perpetual)?.id ?? "cd".repeat(32)
  const future = instruments.find((m) => !m.perpetual)?.id ?? "cd".repeat(32)
  const template = "/api/v2/funding-periods/{marketId}"
  await r.pages(template, "fundingPeriods", {}, { marketId: perpetual })
  await r.query(template, { "pagination.last": "2" }, { marketId: perpetual })
  await r.query(template, { "dateRange.startTimestamp": "1700000000000000000" }, { marketId: perpetual })
  await r.query(template, {}, { marketId: future })
  await r.query(template, {}, { marketId: "xyz" })
}
