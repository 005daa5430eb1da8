/**
 * Perpetuals' funding periods. A perpetual's settlement schedule triggers every
 * {@link FUNDING_PERIOD_SECONDS} from its opening, each trigger ending a period and starting the
 * next (numbered from 1), as the market data's `perpetualData` reports the period in progress.
 *
 * The world's perpetuals pay no funding (no external price is ever published), so an ended
 * period's funding payment and rate are zero, and both its TWAPs are the mark price of the last
 * block at or before its end; the period in progress carries the mark price at its start
 * (the core writes a period's TWAPs as of its start when it begins and as of its end when it is
 * settled: `core/products/perpetual.go`, v0.75.8). No funding payment is ever made: the core
 * settles nothing when the payment is zero (`core/settlement/engine.go` `SettleFundingPeriod`).
 * Derived from the chain and the mark prices: nothing random is drawn.
 */
import type { MarketInfo } from "./catalog.js"
import type { Chain } from "./chain.js"
import { FUNDING_PERIOD_SECONDS } from "./marketData.js"
import { MARK_WINDOW } from "./orders.js"

const PERIOD_MICROS = FUNDING_PERIOD_SECONDS * 1_000_000

export interface FundingPeriodRow {
  readonly market: MarketInfo
  readonly seq: number
  /** Unix microseconds. */
  readonly start: number
  /** Unix microseconds, when ended. */
  readonly end: number | undefined
  /** Both TWAPs (market decimals, as the market data writes them). */
  readonly twap: bigint
}

/** The last block at or before a time (a block a second from genesis; before it, the count goes on). */
export const blockAt = (chain: Chain, micros: number): number => {
  const height = Math.floor((micros - chain.genesisMicros) / 1_000_000) + 1
  return height >= 1 && chain.blockTime(height) > micros ? height - 1 : height
}

/** The period in progress at a time (0 before the market opened). */
export const currentSeq = (market: MarketInfo, micros: number): number =>
  micros < market.openMicros ? 0 : Math.floor((micros - market.openMicros) / PERIOD_MICROS) + 1

/** A perpetual's funding periods as of a node's time, oldest first; none for a future. */
export const fundingPeriods = (
  chain: Chain,
  markPrice: (market: MarketInfo, height: number) => bigint,
  market: MarketInfo,
  nowMicros: number
): Array<FundingPeriodRow> => {
  if (market.product !== "perpetual") return []
  const rows: Array<FundingPeriodRow> = []
  const current = currentSeq(market, nowMicros)
  for (let seq = 1; seq <= current; seq++) {
    const start = market.openMicros + (seq - 1) * PERIOD_MICROS
    const end = seq < current ? start + PERIOD_MICROS : undefined
    rows.push({ market, seq, start, end, twap: markPrice(market, blockAt(chain, end ?? start)) })
  }
  return rows
}

/**
 * A funding period data point: the core records one each time a perpetual's internal price is
 * submitted (`core/products/perpetual.go` `SubmitDataPoint`, v0.75.8). With no composite price
 * configured, the market submits its mark price when it leaves the opening auction and at each
 * mark-to-market whose price changed (`core/execution/future/market.go`, v0.75.8). The world's
 * mark-to-market runs every {@link MARK_WINDOW} blocks (as the market data's `nextMarkToMarket`
 * says), so a point is recorded at such a block when its mark price differs from the last one
 * submitted (the core also submits an unchanged price after a trade: the world does not).
 * Timestamps are truncated to the second, as the core does. When a period starts, the core carries
 * over the last point at or before its start, recording it again under the new sequence number
 * with its own timestamp (`startNewFundingPeriod`). No external point is ever recorded: no
 * external price is published in this world.
 *
 * The TWAP is the core's running time-weighted average since the period's start (a carried point
 * counts from the start; a point at the start replaces it), truncated to an integer; the first
 * point of a period carries its own price. Prices are in market decimals, like the periods'.
 */
export interface FundingDataPointRow {
  readonly market: MarketInfo
  readonly seq: number
  /** Unix microseconds, a whole second. */
  readonly timestamp: number
  readonly price: bigint
  readonly twap: bigint
  /** The block that recorded it. */
  readonly height: number
}

const truncateToSecond = (micros: number): number => micros - (((micros % 1_000_000) + 1_000_000) % 1_000_000)

/** The first block at or after a time. */
const blockFrom = (chain: Chain, micros: number): number => {
  const height = blockAt(chain, micros)
  return chain.blockTime(height) >= micros ? height : height + 1
}

/** A perpetual's data points, recorded block by block up to the highest height asked for. */
class DataPointLog {
  readonly rows: Array<FundingDataPointRow> = []
  /** Recorded up to this height (inclusive). */
  private height: number
  private seq = 1
  private periodStart: number
  private lastTime: number
  private lastPrice: bigint
  private sum = 0n
  private nextMtm: number

  constructor(
    private readonly chain: Chain,
    private readonly markPrice: (market: MarketInfo, height: number) => bigint,
    private readonly market: MarketInfo
  ) {
    const open = market.openMicros
    const price = markPrice(market, blockAt(chain, open))
    const opened = blockFrom(chain, open)
    this.rows.push({ market, seq: 1, timestamp: open, price, twap: price, height: opened })
    this.height = opened
    this.periodStart = open
    this.lastTime = open
    this.lastPrice = price
    this.nextMtm = (Math.floor(opened / MARK_WINDOW) + 1) * MARK_WINDOW
  }

  /** Starts the periods whose settlement cue falls at or before `height`. */
  private startPeriods(height: number): void {
    for (;;) {
      const start = this.market.openMicros + this.seq * PERIOD_MICROS
      const cue = blockFrom(this.chain, start)
      if (cue > height) return
      this.seq += 1
      this.periodStart = start
      const last = this.rows[this.rows.length - 1]
      this.rows.push({ ...last, seq: this.seq, twap: last.price, height: cue })
      this.lastTime = start
      this.sum = 0n
    }
  }

  recordTo(height: number): void {
    while (this.nextMtm <= height) {
      const h = this.nextMtm
      this.nextMtm += MARK_WINDOW
      this.startPeriods(h)
      const price = this.markPrice(this.market, h)
      if (price === this.lastPrice) continue
      const t = truncateToSecond(this.chain.blockTime(h))
      let twap = price
      if (t === this.periodStart) {
        this.sum = 0n
      } else {
        this.sum += this.lastPrice * BigInt((t - this.lastTime) / 1_000_000)
        twap = this.sum / BigInt((t - this.periodStart) / 1_000_000)
      }
      this.lastTime = t
      this.lastPrice = price
      this.rows.push({ market: this.market, seq: this.seq, timestamp: t, price, twap, height: h })
    }
    this.startPeriods(height)
    this.height = Math.max(this.height, height)
  }

  recordedTo(): number {
    return this.height
  }
}

const logs = new WeakMap<Chain, Map<number, DataPointLog>>()

/**
 * A perpetual's data points recorded by blocks at or before `height`, in the store's order
 * (timestamp, then sequence number: both never decrease along it); none for a future.
 */
export const fundingDataPoints = (
  chain: Chain,
  markPrice: (market: MarketInfo, height: number) => bigint,
  market: MarketInfo,
  height: number
): ReadonlyArray<FundingDataPointRow> => {
  if (market.product !== "perpetual") return []
  let byMarket = logs.get(chain)
  if (byMarket === undefined) {
    byMarket = new Map()
    logs.set(chain, byMarket)
  }
  let log = byMarket.get(market.index)
  if (log === undefined) {
    log = new DataPointLog(chain, markPrice, market)
    byMarket.set(market.index, log)
  }
  if (log.recordedTo() < height) log.recordTo(height)
  const rows = log.rows
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (rows[mid].height <= height) lo = mid + 1
    else hi = mid
  }
  return rows.slice(0, lo)
}
