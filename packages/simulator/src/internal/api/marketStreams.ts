/**
 * The v2 streams of markets, as the v0.75.8 data node runs them (datanode/api/trading_data_v2.go,
 * api/observe.go, utils/observer.go, service/market_data.go, service/market_depth.go,
 * candlesv2/candle_updates.go):
 *
 * - `GET /api/v2/stream/markets/data` (ObserveMarketsData), `…/markets/depth` (ObserveMarketsDepth)
 *   and `…/markets/depth/updates` (ObserveMarketsDepthUpdates): query `marketIds` (repeated). Each
 *   id must name a market (looked up as bytes, so any case); the first that does not fails the
 *   stream at once with `no market found for id: <id>: malformed request` (unmapped code 10000,
 *   and Internal: pkg/errors' wrapping hides the invalid-argument type from formatE). The
 *   observers then keep a value when its market id is one of the ids exactly as given: with no
 *   ids, or ids in another case, nothing ever comes.
 *   - Market data: once per block, when the node commits it, one message with the block's data
 *     of the requested markets (`{"result":{"marketData":[…]}}`), in market order.
 *   - Depth: at the end of each block, for each market whose levels changed, one message of its
 *     own: the whole depth (`{"result":{"marketDepth":[…]}}`) or what changed
 *     (`{"result":{"update":[…]}}`, see world/marketData.ts). The service goes through its
 *     markets in Go's map order; the simulator in market order.
 * - `GET /api/v2/stream/candle/data` (ObserveCandleData): query `candleId`. A candle id the store
 *   cannot read fails the stream with 60002 "failed to subscribe to candle data" (Internal). The
 *   subscribers of a candle id share one poller, which reads the store every second while it has
 *   subscribers (forgetting its last candle when it has none): first the latest candle, then the
 *   candles from the last one's start whose last update is later. A subscriber that joins when
 *   the poller has a last candle gets it at once. A candle id the store accepts but cannot read
 *   (an equivalent interval under another name) subscribes and never sends.
 *
 * Messages are in stream form (enums as numbers, defaults left out). A slow consumer is closed as
 * the observers close it: `channel closed` (the candle stream's own error for the candles).
 */
import { DataNodeApi, GatewayError, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { param, type Params, type StreamRoute, type StreamSink } from "../route.js"
import type { Candle } from "../world/candles.js"
import type { MarketInfo } from "../world/catalog.js"
import { candleValue, lookupCandle } from "./candles.js"
import { levelValue } from "./depth.js"
import { marketDataValue, withBoundsOf } from "./marketData.js"
import type { NodeVersion } from "./nodeVersion.js"
import { followWatched, watchStream } from "./observers.js"
import { type StreamNode, strings } from "./streams.js"

const encodeDataFrame = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveMarketsData.message))
const encodeDepthFrame = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveMarketsDepth.message))
const encodeUpdatesFrame = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveMarketsDepthUpdates.message))
const encodeCandleFrame = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveCandleData.message))

/** The refusal of a market id that names no market. */
const noMarket = (id: string): GatewayError.ErrorBody =>
  GatewayError.internal(GatewayError.ErrorDetailCode.Unmapped, `no market found for id: ${id}: malformed request`)

/** How the candle handler ends when its subscription is closed: `ErrChannelClosed` alone. */
const CANDLES_CLOSED = GatewayError.internal(10002, "channel closed")

/** Timings of the market streams (the node's are fixed; tests shorten them). */
export interface MarketStreamTiming {
  /** How often a stream looks whether a lagging node reached a published block, ms. */
  readonly pollInterval: number
  /** How often a candle id's poller reads the store, ms (the node's: 1 second). */
  readonly candleInterval: number
}

/**
 * The markets a stream observes, in market order, or the refusal of the first id that names none.
 */
const observed = (
  node: StreamNode,
  params: Params
): { readonly markets: ReadonlyArray<MarketInfo> } | { readonly refused: GatewayError.ErrorBody } => {
  const ids = strings(params, "marketIds")
  const { catalog } = node.world
  for (const id of ids) {
    if (catalog.marketById.get(id.toLowerCase()) === undefined) return { refused: noMarket(id) }
  }
  const exact = new Set(ids)
  return { markets: catalog.markets.filter((m) => exact.has(m.id)) }
}

/** A stream of each block's messages for the observed markets. */
const perBlock =
  (
    path: string,
    messages: (node: StreamNode, markets: ReadonlyArray<MarketInfo>, height: number) => ReadonlyArray<string>
  ) =>
  (pollInterval: number): StreamRoute<StreamNode> => ({
    method: "GET",
    path,
    params: [param("marketIds", "string", true)],
    open: (params, node, sink) => {
      const found = observed(node, params)
      if ("refused" in found) {
        sink.fail(found.refused)
        return { close: () => {} }
      }
      return followWatched(node, "markets", sink, pollInterval, (block) => {
        if (block.height < node.world.marketData.firstHeight) return
        for (const frame of messages(node, found.markets, block.height)) sink.send(frame)
      })
    }
  })

const versionOf = (node: StreamNode): NodeVersion => node.nodeVersion ?? "v0.75"

const marketsData = perBlock(DataNodeApi.ObserveMarketsData.path, (node, markets, height) => {
  if (markets.length === 0) return []
  const frame = encodeDataFrame({
    result: { marketData: markets.map((m) => marketDataValue(node.world.marketData.recordAt(m, height))) }
  }) as { result: { marketData: ReadonlyArray<object> } }
  const version = versionOf(node)
  const marketData = frame.result.marketData.map((md) => withBoundsOf(md, version))
  return [JSON.stringify({ result: { marketData } })]
})

const marketsDepth = perBlock(DataNodeApi.ObserveMarketsDepth.path, (node, markets, height) => {
  const { marketData } = node.world
  return markets.flatMap((market) => {
    if (marketData.depthUpdateAt(market, height) === undefined) return []
    const depth = marketData.depthAt(market, height)
    const value = {
      marketId: market.id,
      buy: depth.buy.map(levelValue),
      sell: depth.sell.map(levelValue),
      sequenceNumber: depth.sequenceNumber
    }
    return [JSON.stringify(encodeDepthFrame({ result: { marketDepth: [value] } } as never))]
  })
})

const marketsDepthUpdates = perBlock(DataNodeApi.ObserveMarketsDepthUpdates.path, (node, markets, height) =>
  markets.flatMap((market) => {
    const update = node.world.marketData.depthUpdateAt(market, height)
    if (update === undefined) return []
    const value = {
      marketId: market.id,
      buy: update.buy.map(levelValue),
      sell: update.sell.map(levelValue),
      sequenceNumber: update.sequenceNumber,
      previousSequenceNumber: update.previousSequenceNumber
    }
    return [JSON.stringify(encodeUpdatesFrame({ result: { update: [value] } } as never))]
  })
)

// ---------------------------------------------------------------------------------------------
// Candles
// ---------------------------------------------------------------------------------------------

/** One subscriber of a candle poller. */
interface CandleSubscriber {
  readonly send: (candle: Candle) => void
}

/** A candle id's poller, shared by its subscribers on one node. */
class CandlePoller {
  readonly subscribers = new Set<CandleSubscriber>()
  private last: Candle | undefined
  private readonly timer: ReturnType<typeof setInterval>

  constructor(
    private readonly node: StreamNode,
    private readonly candleId: string,
    interval: number
  ) {
    this.timer = setInterval(() => this.tick(), interval)
    this.timer.unref()
  }

  subscribe(subscriber: CandleSubscriber): void {
    this.subscribers.add(subscriber)
    if (this.last !== undefined) subscriber.send(this.last)
  }

  stop(): void {
    clearInterval(this.timer)
  }

  /** What the store gives the poller now; undefined when it fails (the poller logs it and goes on). */
  private updates(): ReadonlyArray<Candle> | undefined {
    const found = lookupCandle(this.candleId)
    if (found._tag !== "Found" || found.interval === undefined) return undefined
    const { world } = this.node
    const market = world.catalog.marketById.get(found.marketId)
    if (market === undefined) return []
    const height = this.node.readableHeight
    const last = this.last
    if (last === undefined) {
      const series = world.candles.series(market, found.interval, {}, height)
      return series.size === 0 ? [] : [series.at(series.size - 1)]
    }
    const series = world.candles.series(market, found.interval, { from: last.start }, height)
    const out: Array<Candle> = []
    for (let i = 0; i < series.size; i++) {
      const candle = series.at(i)
      if (candle.lastUpdate > last.lastUpdate) out.push(candle)
    }
    return out
  }

  private tick(): void {
    if (this.subscribers.size === 0) {
      this.last = undefined
      return
    }
    const candles = this.updates()
    if (candles === undefined) return
    if (candles.length > 0) this.last = candles[candles.length - 1]
    for (const subscriber of [...this.subscribers]) for (const candle of candles) subscriber.send(candle)
  }
}

const pollers = new WeakMap<StreamNode, Map<string, CandlePoller>>()

const candleData = (timing: MarketStreamTiming): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveCandleData.path,
  params: [param("candleId", "string")],
  open: (params, node, sink: StreamSink) => {
    const candleId = String(params.query.get("candleId") ?? "")
    const found = lookupCandle(candleId)
    const refuse = (inner: string) => {
      sink.fail(
        GatewayError.fromApiError(
          GatewayError.ApiErrors.CandleServiceSubscribeToCandles,
          `subscribing to candles:${inner}`
        )
      )
      return { close: () => {} }
    }
    if (found._tag === "BadId" || found._tag === "BadInterval") return refuse(`candle exists:${found.reason}`)
    if (found._tag === "NoView") {
      sink.fail(
        GatewayError.fromApiError(
          GatewayError.ApiErrors.CandleServiceSubscribeToCandles,
          `no candle exists for candle id:${candleId}`
        )
      )
      return { close: () => {} }
    }
    const byId = pollers.get(node) ?? new Map<string, CandlePoller>()
    pollers.set(node, byId)
    const poller = byId.get(candleId) ?? new CandlePoller(node, candleId, timing.candleInterval)
    byId.set(candleId, poller)
    const { closedAsSlow, release } = watchStream(node, "candles", sink, CANDLES_CLOSED)
    let closed = false
    const close = (): void => {
      if (closed) return
      closed = true
      release()
      poller.subscribers.delete(subscriber)
      if (poller.subscribers.size === 0) {
        poller.stop()
        if (byId.get(candleId) === poller) byId.delete(candleId)
      }
    }
    const subscriber: CandleSubscriber = {
      send: (candle) => {
        if (closed) return
        if (closedAsSlow()) return close()
        sink.send(JSON.stringify(encodeCandleFrame({ result: { candle: candleValue(candle) } } as never)))
      }
    }
    poller.subscribe(subscriber)
    return { close }
  }
})

/** The market streams, with the node's timings unless told otherwise. */
export const makeMarketStreamRoutes = (
  timing: MarketStreamTiming = { pollInterval: 50, candleInterval: 1_000 }
): ReadonlyArray<StreamRoute<StreamNode>> => [
  marketsData(timing.pollInterval),
  marketsDepth(timing.pollInterval),
  marketsDepthUpdates(timing.pollInterval),
  candleData(timing)
]
