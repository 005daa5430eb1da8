import { describe, expect, it } from "@effect/vitest"
import { BUCKET_ORIGIN, CANDLE_INTERVALS, type CandleInterval } from "../src/internal/world/candles.js"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import type { TradeRow } from "../src/internal/world/trades.js"
import { World } from "../src/World.js"

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
