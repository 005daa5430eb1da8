import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { Option } from "effect"
import { microsToRfc3339 } from "../src/internal/goTime.js"
import { BUCKET_ORIGIN, CANDLE_INTERVALS, type CandleInterval } from "../src/internal/world/candles.js"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import type { TradeRow } from "../src/internal/world/trades.js"
import { World } from "../src/World.js"
import { call, cursorJson, decoded, nodeOf, walk } from "./harness.js"

const tiny = (seed: number, positionTrades = 10) =>
  new World({
    seed,
    scale: { parties: 30, markets: 3, positions: 90, liquidityProvisions: 6, stakeLinkings: 20, epochs: 2 },
    activity: { positionTrades },
    blocksPerEpoch: 20
  })

const intervalNamed = (name: string): CandleInterval => CANDLE_INTERVALS.find((i) => i.name === name)!

/** The candle of a set of trades, computed on its own. */
const direct = (trades: ReadonlyArray<TradeRow>) => {
  const prices = trades.map((t) => t.price)
  return {
    open: prices[0],
    close: prices[prices.length - 1],
    high: prices.reduce((a, b) => (b > a ? b : a)),
    low: prices.reduce((a, b) => (b < a ? b : a)),
    volume: trades.reduce((s, t) => s + t.size, 0n),
    notional: trades.reduce((s, t) => s + t.size * t.price, 0n)
  }
}

/**
 * Each candle's prices and volume against the trades of its interval, taken straight from the
 * world's trades: a trade belongs to the bucket of its block time (a block's trades stay within
 * its second, so within its bucket), and every trade is in exactly one candle.
 */
const checkCandles = (world: World, market: MarketInfo, interval: CandleInterval, height: number) => {
  const trades = (world.exchange.trades.byMarket[market.index] ?? []).filter((t) => t.height <= height)
  const candles = world.candles.candlesAt(market, interval, height)
  let counted = 0
  for (const candle of candles) {
    const inside = trades.filter((t) =>
      interval.micros === undefined
        ? t.vt === candle.start
        : t.vt >= candle.start && t.vt < candle.start + interval.micros
    )
    expect(inside.length).toBeGreaterThan(0)
    counted += inside.length
    const { close, high, low, notional, open, volume } = candle
    expect({ open, close, high, low, volume, notional }).toEqual(direct(inside))
    expect(candle.lastUpdate).toBeGreaterThan(inside[inside.length - 1].vt)
    expect(candle.lastUpdate).toBeLessThan(inside[inside.length - 1].vt + 1_000)
    if (interval.micros !== undefined) expect((candle.start - BUCKET_ORIGIN) % interval.micros).toBe(0)
  }
  expect(counted).toBe(trades.length)
  for (let i = 1; i < candles.length; i++) expect(candles[i].start).toBeGreaterThan(candles[i - 1].start)
}

describe("candles from the trades", () => {
  it("hold each interval's open, high, low, close and volume, over several seeds and lengths", () => {
    for (const [seed, blocks] of [
      [1, 30],
      [2, 140],
      [3, 400]
    ]) {
      const world = tiny(seed)
      world.advance(blocks)
      for (const market of world.catalog.markets) {
        for (const interval of CANDLE_INTERVALS) checkCandles(world, market, interval, world.height)
      }
      const minutes = world.candles.candlesAt(world.catalog.markets[0], intervalNamed("1 minute"), world.height)
      expect(minutes.length).toBeGreaterThanOrEqual(Math.floor(blocks / 60))
    }
  })

  it("leave out the trades above a lagging height, also in a candle still open", () => {
    const world = tiny(4)
    world.advance(90)
    const market = world.catalog.markets[1]
    const minute = intervalNamed("1 minute")
    const now = world.candles.candlesAt(market, minute, world.height)
    for (const height of [world.height - 1, world.height - 20, world.height - 61, world.marketData.firstHeight]) {
      for (const interval of [minute, intervalNamed("block"), intervalNamed("1 day")]) {
        checkCandles(world, market, interval, height)
      }
    }
    // reading an older height changes nothing of what a newer one reads
    expect(world.candles.candlesAt(market, minute, world.height)).toEqual(now)
    world.advance(5)
    checkCandles(world, market, minute, world.height)
  })
})

describe("the candle store's reads", () => {
  const world = tiny(5)
  world.advance(200)
  const market = world.catalog.markets[2]
  const minute = intervalNamed("1 minute")
  const real = world.candles.candlesAt(market, minute, world.height)
  const all = (range: { from?: number; to?: number }, interval = minute) => {
    const series = world.candles.series(market, interval, range, world.height)
    return Array.from({ length: series.size }, (_, i) => series.at(i))
  }

  it("without bounds, are the candles from the first to the last", () => {
    expect(all({})).toEqual(real)
  })

  it("with both bounds, select the candles starting in [from, to), without filling gaps", () => {
    const from = real[1].start - 1
    const to = real[3].start
    expect(all({ from, to })).toEqual(real.slice(1, 3))
    expect(all({ from: real[0].start - 10 * 60_000_000, to: real[0].start })).toEqual([])
  })

  it("with one bound, fill the gaps from the bucket of the start, zero and carrying the last update", () => {
    const minuteMicros = 60_000_000
    const from = real[0].start - 3 * minuteMicros + 1234
    const filled = all({ from })
    // the bucket holding the start opens the series, as a gap: its candle would start before it
    expect(filled[0].start).toBe(real[0].start - 3 * minuteMicros)
    expect(filled.slice(0, 3).map((c) => [c.volume, c.open, c.lastUpdate])).toEqual([
      [0n, 0n, real[0].start - 3 * minuteMicros],
      [0n, 0n, real[0].start - 2 * minuteMicros],
      [0n, 0n, real[0].start - minuteMicros]
    ])
    expect(filled.slice(3)).toEqual(real)
    const to = real[real.length - 1].start + 3 * minuteMicros
    const after = all({ to })
    expect(after.slice(0, real.length)).toEqual(real)
    expect(after.slice(real.length).map((c) => [c.start, c.volume, c.lastUpdate])).toEqual([
      [to - 2 * minuteMicros, 0n, real[real.length - 1].lastUpdate],
      [to - minuteMicros, 0n, real[real.length - 1].lastUpdate]
    ])
  })

  it("gap-fill block candles in minutes, one block's candle a minute", () => {
    const blocks = world.candles.candlesAt(market, intervalNamed("block"), world.height)
    const filled = all({}, intervalNamed("block"))
    expect(filled.map((c) => c.start)).toEqual(real.map((c) => c.start))
    for (const candle of filled) {
      const first = blocks.find((b) => b.start >= candle.start)!
      expect({ ...first, start: candle.start }).toEqual(candle)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// The routes
// ---------------------------------------------------------------------------------------------

describe("GET /api/v2/candle/intervals", () => {
  const world = tiny(6)
  const node = nodeOf(world)
  const intervals = (marketId: string) => call(node, "/api/v2/candle/intervals", { marketId })

  it("names a candle id per view, for the market id as given", () => {
    const id = world.catalog.markets[0].id.toUpperCase()
    const body = decoded(DataNode.ListCandleIntervalsResponse, intervals(id))
    expect(body.intervalToCandleId.map((i) => i.interval)).toEqual([
      "block",
      "1 minute",
      "5 minutes",
      "15 minutes",
      "30 minutes",
      "1 hour",
      "4 hours",
      "6 hours",
      "8 hours",
      "12 hours",
      "1 day",
      "7 days"
    ])
    expect(body.intervalToCandleId[1].candleId).toBe(`trades_candle_1_minute_${id}`)
    // the store does not look at the market
    expect(intervals("ab".repeat(32)).status).toBe(200)
  })

  it("refuses an empty or malformed market id", () => {
    expect(intervals("").body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10003,"message":"empty or missing market ID","inner":""}]}'
    )
    const bad = intervals("xyz")
    expect([bad.status, JSON.parse(bad.body).details[0].code, JSON.parse(bad.body).details[0].message]).toEqual([
      400,
      10000,
      "invalid market ID"
    ])
  })
})

describe("GET /api/v2/candle", () => {
  const world = tiny(7)
  world.advance(150)
  const node = nodeOf(world)
  const market = world.catalog.markets[0]
  const minute = intervalNamed("1 minute")
  const id = `trades_candle_1_minute_${market.id}`
  const list = (query: Parameters<typeof call>[2], n = node) =>
    decoded(DataNode.ListCandleDataResponse, call(n, "/api/v2/candle", query))
  const nanos = (micros: number) => BigInt(micros) * 1000n

  it("pages the candles newest first, cursors by period start", () => {
    const real = world.candles.candlesAt(market, minute, world.height)
    const rows = walk((after) => {
      const page = list({
        candleId: id,
        "pagination.first": 1,
        ...(after === undefined ? {} : { "pagination.after": after })
      }).candles
      return { nodes: page.edges.map((e) => e.node), next: page.pageInfo!.hasNextPage, end: page.pageInfo!.endCursor }
    })
    expect(rows.map((c) => [c.start, c.open, c.close, c.volume])).toEqual(
      [...real].reverse().map((c) => [nanos(c.start), Option.some(c.open), Option.some(c.close), c.volume])
    )
    const edge = list({ candleId: id, "pagination.first": 1 }).candles.edges[0]
    expect(cursorJson(edge.cursor)).toBe(`{"periodStart":"${microsToRfc3339(real[real.length - 1].start)}"}`)
  })

  it("fills gaps only when a bound is missing, writing their prices empty", () => {
    const real = world.candles.candlesAt(market, minute, world.height)
    const from = nanos(real[0].start - 120_000_000)
    const filled = JSON.parse(
      call(node, "/api/v2/candle", { candleId: id, fromTimestamp: from, "pagination.newestFirst": false }).body
    ).candles.edges.map((e: { node: unknown }) => e.node)
    expect(filled.length).toBe(real.length + 2)
    expect(filled[0]).toEqual({
      start: String(from),
      lastUpdate: String(from),
      high: "",
      low: "",
      open: "",
      close: "",
      volume: "0",
      notional: "0"
    })
    const bounded = list({ candleId: id, fromTimestamp: from, toTimestamp: nanos(real[1].start) + 1000n }).candles.edges
    expect(bounded.map((e) => e.node.start)).toEqual([nanos(real[1].start), nanos(real[0].start)])
  })

  it("leaves out a lagging node's future trades", () => {
    const lagging = nodeOf(world, { height: world.height - 30 })
    const page = list({ candleId: `trades_candle_1_hour_${market.id}` }, lagging).candles.edges
    const [hour] = world.candles.candlesAt(market, intervalNamed("1 hour"), world.height - 30)
    expect(page.map((e) => e.node.volume)).toEqual([hour.volume])
    expect(hour.volume).toBeLessThan(world.candles.candlesAt(market, intervalNamed("1 hour"), world.height)[0].volume)
  })

  it("answers the node's errors, in the node's order", () => {
    const detail = (query: Parameters<typeof call>[2]) => {
      const reply = call(node, "/api/v2/candle", query)
      const d = JSON.parse(reply.body).details[0]
      return [reply.status, d.code, d.message, d.inner]
    }
    expect(detail({ fromTimestamp: 5n, toTimestamp: 4n, "pagination.first": 0 })).toEqual([
      400,
      10000,
      "invalid candle timestamps range",
      ""
    ])
    expect(detail({ "pagination.first": 0 })).toEqual([
      400,
      10028,
      "invalid pagination",
      "pagination limit must be in range 0-5000"
    ])
    expect(detail({})).toEqual([400, 10030, "candle id is a required parameter", ""])
    const failed = (inner: string) => [500, 60001, "failed to get candle data", inner]
    expect(detail({ candleId: "nounderscore" })).toEqual(
      failed("getting candle data for time span: invalid candle id:nounderscore")
    )
    expect(detail({ candleId: `candles_1_minute_${market.id}` })).toEqual(
      failed(
        `getting candle data for time span: parsing candle id, view name has unexpected format:candles_1_minute_${market.id}`
      )
    )
    expect(detail({ candleId: "trades_candle_1_minute_xyz" })).toEqual(
      failed("getting candle data for time span: not a valid market id: xyz")
    )
    expect(detail({ candleId: `trades_candle_2_minutes_${market.id}` })).toEqual(
      failed(`no candle exists for candle id:trades_candle_2_minutes_${market.id}`)
    )
    expect(detail({ candleId: `trades_candle_soon_${market.id}` })).toEqual(
      failed(
        'getting candles for time span:candle exists:checking if view exists for interval:ERROR: invalid input syntax for type interval: "soon" (SQLSTATE 22007)'
      )
    )
    // the same length of time under another name: the store queries a view that is not there
    expect(detail({ candleId: `trades_candle_60_minutes_${market.id}` })).toEqual(
      failed(
        'gap fill query failure: querying candles date range: scany: query one result row: ERROR: relation "trades_candle_60_minutes" does not exist (SQLSTATE 42P01)'
      )
    )
    expect(detail({ candleId: `trades_candle_60_minutes_${market.id}`, fromTimestamp: 1n, toTimestamp: 2n })).toEqual(
      failed(
        'querying candles: scany: query multiple result rows: ERROR: relation "trades_candle_60_minutes" does not exist (SQLSTATE 42P01)'
      )
    )
    const bad = Buffer.from("xyz").toString("base64")
    expect(detail({ candleId: id, "pagination.first": 1, "pagination.after": bad })).toEqual(
      failed("parsing cursor: parsing cursor: invalid character 'x' looking for beginning of value")
    )
    // another case of a real view's name is that view (Postgres folds unquoted names)
    expect(call(node, "/api/v2/candle", { candleId: `trades_candle_1_Minute_${market.id.toUpperCase()}` }).body).toBe(
      call(node, "/api/v2/candle", { candleId: id }).body
    )
  })
})
