/**
 * Candles from the trades, as the data node's continuous aggregates compute them and its candle
 * store reads them (sqlstore/migrations/0012_candles_add_notional.sql and
 * 0075_additional_candle_intervals.sql, sqlstore/candles.go at v0.75.8).
 *
 * - **Intervals**: one view per interval, `trades_candle_<interval>` (the interval with its spaces
 *   as `_`): 1, 5, 15 and 30 minutes, 1, 4, 6, 8 and 12 hours, 1 and 7 days, and `block`.
 * - **A candle** per market and bucket with trades: the bucket is `time_bucket(interval,
 *   synthetic_time)`, aligned as TimescaleDB aligns buckets by default, on 2000-01-03T00:00:00Z (a
 *   Monday, so 7-day buckets start on Mondays; the shorter ones fall on whole minutes, hours and
 *   days). `open` and `close` are the prices of its first and last trade by synthetic time, `high`
 *   and `low` the extremes, `volume` the sum of the sizes, `notional` the sum of size × price (in
 *   market × position decimals), and `last_update_in_period` the synthetic time of its last trade.
 *   The `block` view groups by block time instead: one candle per block with trades, starting at
 *   the block's time. The aggregates are taken to be real-time (recent trades included before the
 *   refresh policy materialises them, TimescaleDB's default for the releases the node runs).
 * - **Reading** ({@link Candles.series}): with both a start and an end the store selects the
 *   candles with `start <= period_start < end`, gaps left out. Otherwise (and when the market has
 *   candles at all) it fills the gaps with `time_bucket_gapfill`, between the start (or the first
 *   candle) and the end (exclusive, or the last candle, inclusive): a bucket without trades has
 *   zero prices and volume, and the last update of the candle before it (`locf`), or its own start
 *   when none came before in the range. The gap-filled buckets begin at the bucket holding the
 *   start, so a start inside a bucket gives that bucket as a gap (its candle starts before the
 *   start and is left out). The `block` candles are gap-filled in 1-minute buckets, each taking one
 *   block's candle (the store's `first` aggregate takes whichever row comes first; here the
 *   earliest block of the minute, which the sources do not settle).
 */
import type { MarketInfo } from "./catalog.js"
import type { EventTimes } from "./eventTime.js"
import type { TradeRow, Trades } from "./trades.js"
import { upperBound } from "./versioned.js"

/** A candle interval the node offers. */
export interface CandleInterval {
  /** As the node names it: its view's name after `trades_candle_`, with `_` as spaces. */
  readonly name: string
  /** Bucket width in microseconds; `undefined` for `block` (a candle per block with trades). */
  readonly micros: number | undefined
}

const MINUTE = 60_000_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The node's candle views, shortest first (the node lists them in no fixed order). */
export const CANDLE_INTERVALS: ReadonlyArray<CandleInterval> = [
  { name: "block", micros: undefined },
  { name: "1 minute", micros: MINUTE },
  { name: "5 minutes", micros: 5 * MINUTE },
  { name: "15 minutes", micros: 15 * MINUTE },
  { name: "30 minutes", micros: 30 * MINUTE },
  { name: "1 hour", micros: HOUR },
  { name: "4 hours", micros: 4 * HOUR },
  { name: "6 hours", micros: 6 * HOUR },
  { name: "8 hours", micros: 8 * HOUR },
  { name: "12 hours", micros: 12 * HOUR },
  { name: "1 day", micros: DAY },
  { name: "7 days", micros: 7 * DAY }
]

/** TimescaleDB's default bucket origin, 2000-01-03T00:00:00Z, in unix microseconds. */
export const BUCKET_ORIGIN = Date.UTC(2000, 0, 3) * 1000

/** The start of the bucket of width `micros` holding `time` (unix microseconds). */
export const bucketStart = (time: number, micros: number): number =>
  BUCKET_ORIGIN + Math.floor((time - BUCKET_ORIGIN) / micros) * micros

/** A candle as the store reads it; a gap has zero prices and volume. */
export interface Candle {
  /** `period_start`, unix microseconds. */
  readonly start: number
  /** `last_update_in_period`, unix microseconds. */
  readonly lastUpdate: number
  readonly open: bigint
  readonly close: bigint
  readonly high: bigint
  readonly low: bigint
  readonly volume: bigint
  readonly notional: bigint
}

/** A candle being built, with the trades it holds (indexes into the market's trades). */
interface Building {
  start: number
  lastUpdate: number
  open: bigint
  close: bigint
  high: bigint
  low: bigint
  volume: bigint
  notional: bigint
  readonly first: number
  last: number
}

interface Built {
  readonly candles: Array<Building>
  /** The market's trades taken in so far. */
  count: number
}

/** The bounds of a read, unix microseconds (the node's nanoseconds truncated, as Postgres keeps them). */
export interface CandleRange {
  readonly from?: number
  readonly to?: number
}

/** Rows read by index, in ascending `start` (gap-filled series can be long: they are made on demand). */
export interface CandleSeries {
  readonly size: number
  readonly at: (index: number) => Candle
}

const arraySeries = (candles: ReadonlyArray<Candle>): CandleSeries => ({
  size: candles.length,
  at: (i) => candles[i]
})

const startOf = (c: Candle): number => c.start

export class Candles {
  private readonly built = new Map<string, Built>()

  constructor(
    private readonly trades: Trades,
    private readonly times: EventTimes
  ) {}

  /** The bucket a trade falls in. */
  private bucketOf(trade: TradeRow, interval: CandleInterval): number {
    return interval.micros === undefined ? trade.vt : bucketStart(this.times.tradeTime(trade), interval.micros)
  }

  /** Adds a trade to the candle it belongs to (the last one, or a new one after it). */
  private take(candles: Array<Building>, trade: TradeRow, index: number, interval: CandleInterval): void {
    const start = this.bucketOf(trade, interval)
    const time = this.times.tradeTime(trade)
    const last = candles[candles.length - 1]
    if (last !== undefined && last.start === start) {
      last.close = trade.price
      if (trade.price > last.high) last.high = trade.price
      if (trade.price < last.low) last.low = trade.price
      last.volume += trade.size
      last.notional += trade.size * trade.price
      last.lastUpdate = time
      last.last = index
      return
    }
    candles.push({
      start,
      lastUpdate: time,
      open: trade.price,
      close: trade.price,
      high: trade.price,
      low: trade.price,
      volume: trade.size,
      notional: trade.size * trade.price,
      first: index,
      last: index
    })
  }

  /** A market's candles of an interval from its trades made at or below `height`, oldest first. */
  candlesAt(market: MarketInfo, interval: CandleInterval, height: number): ReadonlyArray<Candle> {
    const trades = this.trades.byMarket[market.index] ?? []
    const key = `${market.index} ${interval.name}`
    let built = this.built.get(key)
    if (built === undefined) this.built.set(key, (built = { candles: [], count: 0 }))
    // trades are only ever appended, in height order: the candles so far stay as they are
    for (; built.count < trades.length; built.count++)
      this.take(built.candles, trades[built.count], built.count, interval)
    const n = upperBound(trades, height, (t) => t.height)
    const { candles } = built
    // every candle but the last is final; the last one can still take trades, so it is copied
    const whole = Math.min(
      upperBound(candles, n - 1, (c) => c.last),
      candles.length - 1
    )
    const out: Array<Candle> = candles.slice(0, Math.max(0, whole))
    const next = candles[out.length]
    if (next !== undefined && next.first < n) {
      if (next.last < n) out.push({ ...next })
      else {
        // the candle holding the last visible trade, without the trades made above `height`
        const again: Array<Building> = []
        for (let i = next.first; i < n; i++) this.take(again, trades[i], i, interval)
        out.push(again[0])
      }
    }
    return out
  }

  /** What the candle store reads for a market and interval at `height`, over a range (see the module). */
  series(market: MarketInfo, interval: CandleInterval, range: CandleRange, height: number): CandleSeries {
    const candles = this.candlesAt(market, interval, height)
    const { from, to } = range
    if (from !== undefined && to !== undefined) {
      return arraySeries(candles.filter((c) => c.start >= from && c.start < to))
    }
    if (candles.length === 0) return arraySeries([])
    const width = interval.micros ?? MINUTE
    const first = from ?? candles[0].start
    const max = candles[candles.length - 1].start
    // a start past the end fills nothing (taken to be empty: the sources do not settle it)
    if (to === undefined ? first > max : first >= to) return arraySeries([])
    const inRange = (start: number) => start >= first && (to === undefined ? start <= max : start < to)
    // the rows in range, one per gap-fill bucket
    const rows: Array<Candle> = []
    for (const candle of candles) {
      if (!inRange(candle.start)) continue
      const bucket = bucketStart(candle.start, width)
      if (rows.length > 0 && rows[rows.length - 1].start === bucket) continue
      rows.push(bucket === candle.start ? candle : { ...candle, start: bucket })
    }
    const firstBucket = bucketStart(first, width)
    const end = to === undefined ? max + 1 : to
    const size = end > firstBucket ? Math.ceil((end - firstBucket) / width) : 0
    return {
      size,
      at: (i) => {
        const start = firstBucket + i * width
        const at = upperBound(rows, start, startOf)
        const before = rows[at - 1]
        if (before !== undefined && before.start === start) return before
        return {
          start,
          lastUpdate: before?.lastUpdate ?? start,
          open: 0n,
          close: 0n,
          high: 0n,
          low: 0n,
          volume: 0n,
          notional: 0n
        }
      }
    }
  }
}
