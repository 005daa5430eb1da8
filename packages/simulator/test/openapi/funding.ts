/** Funding period data points: a perpetual's points over pages, each filter, a future and a bad id. */
import type { Recorder } from "./exchanges.js"

export const fundingDataPoints = async (r: Recorder) => {
  const markets = await r.query("/api/v2/markets", {})
  const edges: Array<{ node: { id: string; tradableInstrument: { instrument: Record<string, unknown> } } }> =
    markets?.markets?.edges ?? []
  const perpetual = edges.find((e) => e.node.tradableInstrument.instrument.perpetual !== undefined)?.node.id
  const future = edges.find((e) => e.node.tradableInstrument.instrument.perpetual === undefined)?.node.id
  const template = "/api/v2/funding-periods/data-points/{marketId}"
  const market = { marketId: perpetual ?? "cd".repeat(32) }
  await r.pages(template, "fundingPeriodDataPoints", {}, market)
  const latest = await r.query(template, { "pagination.first": "1" }, market)
  const seq = latest?.fundingPeriodDataPoints?.edges?.[0]?.node?.seq
  if (seq !== undefined) await r.query(template, { seq, "pagination.first": "5" }, market)
  await r.query(template, { source: "SOURCE_INTERNAL", "pagination.last": "3" }, market)
  await r.query(template, { source: "SOURCE_EXTERNAL" }, market)
  await r.query(template, { "dateRange.startTimestamp": "1700000000000000000", "pagination.first": "3" }, market)
  await r.query(template, {}, { marketId: future ?? "cd".repeat(32) })
  await r.query(template, {}, { marketId: "xyz" })
}

/** Funding payments: a party's (first page, one market's, the refused second page) and bad ids. */
export const fundingPayments = async (r: Recorder) => {
  const positions = await r.query("/api/v2/positions", { "pagination.first": "200" })
  const open: Array<{ node: { partyId: string; marketId: string; openVolume: string } }> =
    positions?.positions?.edges ?? []
  const template = "/api/v2/funding-payments"
  for (const { node } of open.filter((e) => e.node.openVolume !== "0").slice(0, 5)) {
    const page = await r.query(template, { partyId: node.partyId, "pagination.first": "2" })
    if ((page?.fundingPayments?.edges ?? []).length === 0) continue
    await r.query(template, { partyId: node.partyId, marketId: node.marketId })
    const after = page.fundingPayments.pageInfo.endCursor
    await r.query(template, { partyId: node.partyId, "pagination.first": "2", "pagination.after": after })
    break
  }
  await r.query(template, {})
  await r.query(template, { partyId: "cd".repeat(32), marketId: "xyz" })
}
