/** Successor markets: a market's lineage over pages, a page past its end, and bad or unknown ids. */
import type { Recorder } from "./exchanges.js"

export const successorMarkets = async (r: Recorder, market: string) => {
  const template = "/api/v2/successor_markets/{marketId}"
  await r.pages(template, "successorMarkets", {}, { marketId: market })
  const page = await r.query(template, { includeFullHistory: "true" }, { marketId: market })
  const cursor = page?.successorMarkets?.edges?.[0]?.cursor
  if (cursor !== undefined) await r.query(template, { "pagination.after": cursor }, { marketId: market })
  await r.query(template, {}, { marketId: "cd".repeat(32) })
  await r.query(template, {}, { marketId: "xyz" })
}
