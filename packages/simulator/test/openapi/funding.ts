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
