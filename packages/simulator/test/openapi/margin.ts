/** Margin levels (list and stream), margin modes, risk factors and the three estimates, with their errors. */
import { Commands } from "@vega-effect/schema"
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import { type HttpStream, openHttpStream, sleep } from "../support/streams.js"
import { buildTransaction, chainOf, key, post, transactionJson } from "../support/tx.js"
import type { Recorder } from "./exchanges.js"

type RecordFrames = (r: Recorder, template: string, stream: HttpStream, max?: number) => Promise<void>

export const margin = async (r: Recorder, sim: Simulator.Service, market: string, recordFrames: RecordFrames) => {
  const stream = openHttpStream(r.url, "/api/v2/stream/margin/levels")
  // a margin mode update (cross margin) for the list of margin modes
  const chain = await chainOf(r.url)
  const update = Commands.command("updateMarginMode", { marketId: market, mode: "MODE_CROSS_MARGIN" })
  await post(r.url, "/transaction", {
    tx: transactionJson(buildTransaction(chain, { key: key(19), command: update })),
    type: "TYPE_SYNC"
  })
  await sleep(100)
  await Effect.runPromise(sim.advance(2))
  await recordFrames(r, "/api/v2/stream/margin/levels", stream, 20)

  await r.pages("/api/v2/margin/levels", "marginLevels")
  const first = (await r.query("/api/v2/margin/levels", { "pagination.first": "1" }))?.marginLevels?.edges?.[0]?.node
  await r.query("/api/v2/margin/levels", { partyId: first?.partyId as string })
  await r.query("/api/v2/margin/levels", { marketId: market })
  await r.query("/api/v2/margin/levels", { partyId: "xyz" })
  await r.pages("/api/v2/margin-modes", "partyMarginModes")
  await r.query("/api/v2/margin-modes", { marketId: market })
  await r.query("/api/v2/margin-modes", { partyId: "nope" })

  await r.query("/api/v2/market/{marketId}/risk/factors", {}, { marketId: market })
  await r.query("/api/v2/market/{marketId}/risk/factors", {}, { marketId: "ab".repeat(32) })
  await r.query("/api/v2/market/{marketId}/risk/factors", {}, { marketId: "xyz" })

  await r.query("/api/v2/estimate/fee", { marketId: market, price: "100000", size: "10" })
  await r.query("/api/v2/estimate/fee", { marketId: market, size: "10" })
  await r.query("/api/v2/estimate/fee", { marketId: "ab".repeat(32), price: "1", size: "1" })
  const party = first?.partyId as string
  await r.query("/api/v2/estimate/margin", { marketId: market, partyId: party, side: "SIDE_BUY", size: "10" })
  await r.query("/api/v2/estimate/margin", {
    marketId: market,
    side: "SIDE_SELL",
    type: "TYPE_LIMIT",
    price: "100000",
    size: "3"
  })
  await r.query("/api/v2/estimate/margin", { marketId: market, size: "3" })
  const position = {
    marketId: market,
    openVolume: "-25",
    averageEntryPrice: "100000",
    marginAccountBalance: "1000",
    generalAccountBalance: "100000000000000000000",
    orderMarginAccountBalance: "0"
  }
  await r.query("/api/v2/estimate/position", { ...position, marginMode: "MARGIN_MODE_CROSS_MARGIN" })
  await r.query("/api/v2/estimate/position", {
    ...position,
    marginMode: "MARGIN_MODE_ISOLATED_MARGIN",
    marginFactor: "0.3",
    scaleLiquidationPriceToMarketDecimals: "true"
  })
  await r.query("/api/v2/estimate/position", { ...position, marginAccountBalance: "x" })
  await r.query("/api/v2/estimate/position", { ...position, marketId: "" })
}
