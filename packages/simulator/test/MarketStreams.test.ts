import { describe, expect, it } from "@effect/vitest"
import { DataNode, StreamForm } from "@vega-effect/schema"
import { Effect, Schema } from "effect"
import { makeMarketStreamRoutes } from "../src/internal/api/marketStreams.js"
import { StreamControls } from "../src/internal/api/streamControls.js"
import type { StreamNode } from "../src/internal/api/streams.js"
import { Core } from "../src/internal/core/core.js"
import { makeHandler } from "../src/internal/http/handler.js"
import { listen } from "../src/internal/http/listen.js"
import { CANDLE_INTERVALS } from "../src/internal/world/candles.js"
import type { DepthLevel } from "../src/internal/world/marketData.js"
import { World } from "../src/World.js"
import { connect, openHttpStream, sleep, within } from "./support/streams.js"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A node over a small world and its core, serving the market streams with short timings. */
const standalone = Effect.gen(function* () {
  const world = new World({
    seed: 21,
    scale: { parties: 30, markets: 3, positions: 90, liquidityProvisions: 6, stakeLinkings: 20, epochs: 2 },
    blocksPerEpoch: 20
  })
  const core = new Core(world)
  const node: StreamNode = {
    world,
    get height() {
      return world.height
    },
    get readableHeight() {
      return world.height
    },
    feed: core.feed,
    controls: new StreamControls()
  }
  const { url } = yield* listen(
    makeHandler({
      routes: [],
      streams: makeMarketStreamRoutes({ pollInterval: 20, candleInterval: 40 }),
      node,
      block: () => ({ height: world.height, timestampNanos: "0" })
    })
  )
  const advance = (blocks = 1): void => {
    for (let i = 0; i < blocks; i++) {
      world.advance(1)
      core.sync()
    }
  }
  return { url, world, advance }
})

const query = (ids: ReadonlyArray<string>) => ids.map((id) => `marketIds=${id}`).join("&")

const decodeData = Schema.decodeUnknownSync(StreamForm.frame(StreamForm.make(DataNode.ObserveMarketsDataResponse)))
const decodeUpdates = Schema.decodeUnknownSync(
  StreamForm.frame(StreamForm.make(DataNode.ObserveMarketsDepthUpdatesResponse))
)
const decodeDepth = Schema.decodeUnknownSync(StreamForm.frame(StreamForm.make(DataNode.ObserveMarketsDepthResponse)))
const decodeCandle = Schema.decodeUnknownSync(StreamForm.frame(StreamForm.make(DataNode.ObserveCandleDataResponse)))

const resultOf = <A>(frame: unknown): A => {
  if (typeof frame !== "object" || frame === null || !("result" in frame)) throw new Error("not a result frame")
  return frame.result as A
}

const levels = (ls: ReadonlyArray<{ price: bigint; numberOfOrders: bigint; volume: bigint }>): Array<DepthLevel> =>
  ls.map((l) => ({ price: l.price, orders: Number(l.numberOfOrders), volume: l.volume }))

describe("market data stream", () => {
  it.scopedLive("sends each block's data of the requested markets, in stream form", () =>
    Effect.gen(function* () {
      const { advance, url, world } = yield* standalone
      const [a, b] = world.catalog.markets
      const stream = openHttpStream(url, `/api/v2/stream/markets/data?${query([b.id, a.id])}`)
      yield* promise(() => sleep(50))
      for (let i = 0; i < 3; i++) {
        advance()
        const line = yield* promise(() => stream.lines.next())
        const { marketData } = resultOf<DataNode.ObserveMarketsDataResponse>(decodeData(JSON.parse(line)))
        expect(marketData.map((md) => md.market)).toEqual([a.id, b.id])
        for (const [j, market] of [a, b].entries()) {
          const book = world.exchange.books[market.index]
          expect(marketData[j].bestBidPrice).toBe(book.bids[0].price)
          expect(marketData[j].markPrice).toBe(world.exchange.markPrice(market, world.height))
          expect(marketData[j].timestamp).toBe(BigInt(world.chain.blockTime(world.height)) * 1000n)
        }
        // enums as numbers, defaults left out
        expect(line).toContain('"marketTradingMode":1')
        expect(line).not.toContain('"auctionEnd"')
      }
      stream.close()
    })
  )

  it.scopedLive("sends nothing without ids or for ids in another case, and refuses an unknown market", () =>
    Effect.gen(function* () {
      const { advance, url, world } = yield* standalone
      const none = yield* promise(() => connect(url, "/api/v2/stream/markets/data"))
      const upper = yield* promise(() =>
        connect(url, `/api/v2/stream/markets/data?${query([world.catalog.markets[0].id.toUpperCase()])}`)
      )
      yield* promise(() => sleep(50))
      advance(3)
      expect(yield* promise(() => within(none.frames.next(), 200))).toBe("timeout")
      expect(yield* promise(() => within(upper.frames.next(), 50))).toBe("timeout")
      none.ws.close()
      upper.ws.close()
      const unknown = "ab".repeat(32)
      const refused = openHttpStream(
        url,
        `/api/v2/stream/markets/depth?${query([world.catalog.markets[0].id, unknown])}`
      )
      expect((yield* promise(() => refused.response)).statusCode).toBe(500)
      expect(yield* promise(() => refused.lines.next())).toBe(
        `{"error":{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"no market found for id: ${unknown}: malformed request"}]}}`
      )
    })
  )
})

describe("market depth streams", () => {
  it.scopedLive("updates take the depth a client read to the book of each block", () =>
    Effect.gen(function* () {
      const { advance, url, world } = yield* standalone
      const market = world.catalog.markets[1]
      const updates = openHttpStream(url, `/api/v2/stream/markets/depth/updates?${query([market.id])}`)
      const depths = openHttpStream(url, `/api/v2/stream/markets/depth?${query([market.id])}`)
      yield* promise(() => sleep(50))
      const start = world.marketData.depthAt(market, world.height)
      let buy: ReadonlyArray<DepthLevel> = start.buy
      let sell: ReadonlyArray<DepthLevel> = start.sell
      let sequence: bigint | undefined
      for (let i = 0; i < 12; i++) {
        const height = world.height + 1
        advance()
        const update = world.marketData.depthUpdateAt(market, height)
        if (update === undefined) continue
        const [message] = resultOf<DataNode.ObserveMarketsDepthUpdatesResponse>(
          decodeUpdates(JSON.parse(yield* promise(() => updates.lines.next())))
        ).update
        expect(message.marketId).toBe(market.id)
        const apply = (ls: ReadonlyArray<DepthLevel>, changed: ReadonlyArray<DepthLevel>, bids: boolean) => {
          const byPrice = new Map(ls.map((l) => [l.price, l]))
          for (const l of changed) {
            if (l.orders === 0) byPrice.delete(l.price)
            else byPrice.set(l.price, l)
          }
          return [...byPrice.values()].sort((x, y) => (x.price === y.price ? 0 : x.price > y.price === bids ? -1 : 1))
        }
        buy = apply(buy, levels(message.buy), true)
        sell = apply(sell, levels(message.sell), false)
        const book = world.exchange.books[market.index]
        expect(buy.map((l) => l.price)).toEqual(book.bids.map((l) => l.price))
        expect(sell.map((l) => [l.price, l.orders])).toEqual(book.asks.map((l) => [l.price, l.orders.length]))
        if (sequence !== undefined) expect(message.previousSequenceNumber).toBe(sequence)
        sequence = message.sequenceNumber
        const [depth] = resultOf<DataNode.ObserveMarketsDepthResponse>(
          decodeDepth(JSON.parse(yield* promise(() => depths.lines.next())))
        ).marketDepth
        expect(levels(depth.buy)).toEqual(buy)
        expect(levels(depth.sell)).toEqual(sell)
        expect(depth.sequenceNumber).toBe(message.sequenceNumber)
      }
      expect(sequence).toBeDefined()
      updates.close()
      depths.close()
    })
  )
})

describe("candle stream", () => {
  it.scopedLive("sends the latest candle, then each update, and a late subscriber the last one at once", () =>
    Effect.gen(function* () {
      const { advance, url, world } = yield* standalone
      const market = world.catalog.markets[0]
      const minute = CANDLE_INTERVALS.find((i) => i.name === "1 minute")!
      advance(3)
      const path = `/api/v2/stream/candle/data?candleId=trades_candle_1_minute_${market.id}`
      const first = openHttpStream(url, path)
      const candleOf = (line: string) =>
        resultOf<DataNode.ObserveCandleDataResponse>(decodeCandle(JSON.parse(line))).candle!
      const latest = () => {
        const all = world.candles.candlesAt(market, minute, world.height)
        return all[all.length - 1]
      }
      const opening = candleOf(yield* promise(() => first.lines.next()))
      expect([opening.start, opening.lastUpdate, opening.volume]).toEqual([
        BigInt(latest().start) * 1000n,
        BigInt(latest().lastUpdate) * 1000n,
        latest().volume
      ])
      // nothing new, nothing sent
      expect(yield* promise(() => first.lines.next(150).then(String, () => "timeout"))).toBe("timeout")
      advance()
      const next = candleOf(yield* promise(() => first.lines.next()))
      expect(next.lastUpdate).toBe(BigInt(latest().lastUpdate) * 1000n)
      expect(next.lastUpdate).toBeGreaterThan(opening.lastUpdate)
      const late = openHttpStream(url, path)
      expect(candleOf(yield* promise(() => late.lines.next(100)))).toEqual(next)
      first.close()
      late.close()
    })
  )

  it.scopedLive("refuses a candle id the store cannot read", () =>
    Effect.gen(function* () {
      const { url } = yield* standalone
      const refused = openHttpStream(url, "/api/v2/stream/candle/data?candleId=trades_candle_1_minute_xyz")
      expect((yield* promise(() => refused.response)).statusCode).toBe(500)
      expect(yield* promise(() => refused.lines.next())).toBe(
        '{"error":{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":60002,"message":"failed to subscribe to candle data","inner":"subscribing to candles:candle exists:not a valid market id: xyz"}]}}'
      )
    })
  )
})
