/**
 * Perpetuals' funding, as the core's perpetual product and settlement engine run it
 * (`core/products/perpetual.go`, `core/settlement/engine.go` `SettleFundingPeriod`,
 * `core/execution/future/market.go` `settlementDataPerp`, v0.75.8).
 *
 * - **Periods.** A perpetual's first period starts when the market opens; its schedule
 *   ({@link FundingSchedule}) ends one and starts the next at each trigger. The trigger is seen at
 *   the first block whose time reaches it, before that block's own prices.
 * - **Prices.** Two series per period, each with a running time-weighted average (TWAP) in asset
 *   decimals. Internal: the mark price, submitted when the market opened and at each
 *   mark-to-market (every {@link MARK_WINDOW} blocks) from block 1 on that changed it (the world
 *   samples no mark price between the opening and its first block), its time truncated to the
 *   second (the core also submits an unchanged price after a trade: the world does not). External:
 *   the world's price oracle, publishing from the world's first block on, every
 *   {@link MARK_WINDOW} blocks (heights 1, 11, 21, …): the mark price off by a few basis points,
 *   the same offset through a period ({@link indexOffsetBps}), signed data with no time of its
 *   own, so the core stamps it with the block's time in seconds (`vega-time`,
 *   `core/datasource/spec/engine.go` and `common/data.go` `GetDataTimestampNano`, v0.75.8).
 *   When a period starts, each series carries over its last point, recorded again under the new
 *   sequence number. A TWAP is taken over `[max(start, first point), t]`, truncated to an integer.
 * - **Payment.** At a trigger with points of both series at or before it, the funding payment is
 *   internal TWAP − external TWAP (the markets' interest rate is zero and they set no scaling or
 *   bounds) and the rate payment / external TWAP, rounded to 16 places as Go's decimal divides;
 *   without external points the period ends with neither (as the first one does: the oracle starts
 *   publishing after it). Each position with open volume pays `volume × payment`, scaled by the
 *   position decimals and truncated ({@link flowsOf}): a long pays a positive payment, a short
 *   receives it. Losses are collected first, then wins paid (`accounts.ts` `settleFunding`); the
 *   payments and the realised PnL of each position that paid or received one are written at that
 *   block. The core leaves zero flows out unless nobody wins.
 *
 * Payments are made only at triggers after the block the world starts from: a snapshot holds no
 * payment rows of its history. Everything follows from the chain and the mark prices.
 */
import { VegaEvents } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import { createHash } from "node:crypto"
import { divide } from "../goDecimal.js"
import type { Accounts } from "./accounts.js"
import type { Catalog, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import { type Exchange, MARK_WINDOW } from "./orders.js"
import type { PositionRow, Positions } from "./positions.js"
import { compareStrings } from "./versioned.js"

/** A perpetual's settlement schedule: a trigger at `initialMicros`, then every `everyMicros`. */
export interface FundingSchedule {
  readonly initialMicros: number
  readonly everyMicros: number
}

export type PointSource = Exclude<keyof typeof VegaEvents.FundingPeriodDataPointSource.values, "SOURCE_UNSPECIFIED">

export interface FundingDataPointRow {
  readonly market: MarketInfo
  readonly seq: number
  readonly source: PointSource
  /** Unix microseconds, a whole second (internal points truncated, external ones their `vega-time`). */
  readonly timestamp: number
  /** Asset decimals. */
  readonly price: bigint
  /** The source's TWAP with this point added. */
  readonly twap: bigint
  /** The block that recorded it. */
  readonly height: number
}

export interface FundingPeriodRow {
  readonly market: MarketInfo
  readonly seq: number
  /** Unix microseconds. */
  readonly start: number
  /** The block that started it. */
  readonly height: number
  /** As the period started (each TWAP at its start; none without points). */
  readonly internalTwap: bigint | undefined
  readonly externalTwap: bigint | undefined
  readonly ended: EndedPeriod | undefined
}

export interface EndedPeriod {
  readonly end: number
  /** The block that ended it. */
  readonly height: number
  readonly internalTwap: bigint | undefined
  readonly externalTwap: bigint | undefined
  /** Both set when the period had points of both series. */
  readonly payment: bigint | undefined
  readonly rate: BigDecimal.BigDecimal | undefined
}

export interface FundingPaymentRow {
  readonly market: MarketInfo
  readonly party: Party
  readonly seq: number
  /** Block time, unix microseconds. */
  readonly vt: number
  readonly height: number
  /** Asset decimals; positive when received. */
  readonly amount: bigint
}

/** A price the world's oracle published for a perpetual (a signed data submission). */
export interface OraclePrice {
  readonly market: MarketInfo
  readonly height: number
  /** Block time, unix microseconds. */
  readonly vt: number
  /** Market decimals, as the oracle's spec reads it. */
  readonly index: bigint
}

/** A perpetual's funding as of a block: what its market data reports. */
export interface FundingState {
  readonly seq: number
  readonly start: number
  readonly internalTwap: bigint
  readonly externalTwap: bigint
  readonly payment: bigint
  readonly rate: BigDecimal.BigDecimal
  readonly indexPrice: bigint
}

/** The external price's offset from the mark, in basis points, for one period: from −25 to 25. */
const indexOffsetBps = (chain: Chain, market: MarketInfo, seq: number): bigint => {
  const digest = createHash("sha256").update(`${chain.chainId}/index/${market.id}/${seq}`).digest()
  return BigInt((digest.readUInt32BE(0) % 51) - 25)
}

/** A market price in the asset's decimals. */
const toAssetPrice = (market: MarketInfo, price: bigint): bigint =>
  price * 10n ** BigInt(market.settlementAsset.decimals - market.priceDecimals)

/** payment / external TWAP (zero when that is). */
const rateOf = (payment: bigint, externalTwap: bigint): BigDecimal.BigDecimal =>
  externalTwap === 0n ? BigDecimal.fromBigInt(0n) : divide(payment, externalTwap)

/** What a position of `openVolume` pays (negative) or receives: `-volume × payment` scaled by the position decimals, truncated toward zero. */
const flowsOf = (market: MarketInfo, payment: bigint): ((openVolume: bigint) => bigint) => {
  const d = market.positionDecimals
  const scale = 10n ** BigInt(Math.abs(d))
  return d >= 0 ? (v) => (-v * payment) / scale : (v) => -v * payment * scale
}

const truncateToSecond = (micros: number): number => micros - (((micros % 1_000_000) + 1_000_000) % 1_000_000)

/** The last block at or before a time (a block a second from genesis; before it, the count goes on). */
const blockAt = (chain: Chain, micros: number): number => {
  const height = Math.floor((micros - chain.genesisMicros) / 1_000_000) + 1
  return height >= 1 && chain.blockTime(height) > micros ? height - 1 : height
}

/** The first block at or after a time. */
const blockFrom = (chain: Chain, micros: number): number => {
  const height = blockAt(chain, micros)
  return chain.blockTime(height) >= micros ? height : height + 1
}

interface Point {
  readonly t: number
  readonly price: bigint
}

/** One source's points of the period in progress, with the running sum of price × time since its start. */
class Series {
  points: Array<Point> = []
  /** Σ price × duration from the TWAP's start to the last point. */
  private sum = 0n

  constructor(private start: number) {}

  private from(): number {
    return Math.max(this.start, this.points[0].t)
  }

  /** The TWAP at `t` (at or after the last point); none without points. */
  at(t: number): bigint | undefined {
    if (this.points.length === 0) return undefined
    const from = this.from()
    const last = this.points[this.points.length - 1]
    if (t <= from) return this.points[0].price
    return (this.sum + last.price * BigInt(t - Math.max(last.t, from))) / BigInt(t - from)
  }

  /** Adds a point (never before the last); the TWAP with it. */
  add(point: Point): bigint {
    const first = this.points[0]
    if (first !== undefined && point.t <= this.start && first.t < this.start) {
      // a point at the start replaces the carried one
      this.points = [point]
      this.sum = 0n
      return point.price
    }
    if (first === undefined) {
      this.points = [point]
      return point.price
    }
    const last = this.points[this.points.length - 1]
    this.sum += last.price * BigInt(point.t - Math.max(last.t, this.from()))
    this.points.push(point)
    return this.at(point.t)!
  }

  /** A new period from `start`, carrying the last point over. */
  restart(start: number): Point | undefined {
    const carried = this.points[this.points.length - 1]
    this.start = start
    this.points = carried === undefined ? [] : [carried]
    this.sum = 0n
    return carried
  }
}

/** One perpetual's funding, recorded block by block up to the highest height asked for. */
class PerpetualLog {
  readonly points: Array<FundingDataPointRow> = []
  readonly publications: Array<OraclePrice> = []
  readonly periods: Array<FundingPeriodRow> = []
  private readonly internal: Series
  private readonly external: Series
  /** Recorded up to this height (inclusive). */
  private height: number
  private lastInternal: bigint
  private nextTrigger: number

  constructor(
    private readonly chain: Chain,
    private readonly markPrice: (market: MarketInfo, height: number) => bigint,
    private readonly market: MarketInfo,
    private readonly schedule: FundingSchedule
  ) {
    const open = market.openMicros
    const opened = blockFrom(chain, open)
    const price = toAssetPrice(market, markPrice(market, blockAt(chain, open)))
    this.internal = new Series(open)
    this.external = new Series(open)
    this.periods.push({
      market,
      seq: 1,
      start: open,
      height: opened,
      internalTwap: price,
      externalTwap: undefined,
      ended: undefined
    })
    this.internal.add({ t: open, price })
    this.points.push({ market, seq: 1, source: "SOURCE_INTERNAL", timestamp: open, price, twap: price, height: opened })
    this.lastInternal = price
    this.height = opened
    this.nextTrigger = schedule.initialMicros
    while (this.nextTrigger <= open) this.nextTrigger += schedule.everyMicros
  }

  private get seq(): number {
    return this.periods.length
  }

  recordTo(height: number): void {
    while (this.height < height) {
      const trigger = blockFrom(this.chain, this.nextTrigger)
      // the world samples no mark price before its first block
      const mtm = (Math.floor(Math.max(this.height, 0) / MARK_WINDOW) + 1) * MARK_WINDOW
      const published = this.height < 1 ? 1 : (Math.floor((this.height - 1) / MARK_WINDOW) + 1) * MARK_WINDOW + 1
      const next = Math.min(trigger, mtm, published)
      if (next > height) break
      if (next === trigger) this.endPeriod(next)
      if (next === mtm) this.submitInternal(next)
      if (next === published) this.publishExternal(next)
      this.height = next
    }
    this.height = Math.max(this.height, height)
  }

  private endPeriod(height: number): void {
    const end = this.nextTrigger
    this.nextTrigger += this.schedule.everyMicros
    const current = this.periods[this.seq - 1]
    const internalTwap = this.internal.at(end)
    const externalTwap = this.external.at(end)
    const priced =
      internalTwap !== undefined && externalTwap !== undefined && end !== current.start
        ? { payment: internalTwap - externalTwap, rate: rateOf(internalTwap - externalTwap, externalTwap) }
        : { payment: undefined, rate: undefined }
    this.periods[this.seq - 1] = { ...current, ended: { end, height, internalTwap, externalTwap, ...priced } }
    const seq = this.seq + 1
    const carry = (series: Series, source: PointSource) => {
      const point = series.restart(end)
      if (point === undefined) return undefined
      this.points.push({
        market: this.market,
        seq,
        source,
        timestamp: point.t,
        price: point.price,
        twap: point.price,
        height
      })
      return point.price
    }
    const carriedExternal = carry(this.external, "SOURCE_EXTERNAL")
    const carriedInternal = carry(this.internal, "SOURCE_INTERNAL")
    this.periods.push({
      market: this.market,
      seq,
      start: end,
      height,
      internalTwap: carriedInternal,
      externalTwap: carriedExternal,
      ended: undefined
    })
  }

  private submitInternal(height: number): void {
    const price = toAssetPrice(this.market, this.markPrice(this.market, height))
    if (price === this.lastInternal) return
    this.lastInternal = price
    this.record("SOURCE_INTERNAL", this.internal, truncateToSecond(this.chain.blockTime(height)), price, height)
  }

  private publishExternal(height: number): void {
    // the oracle publishes in market decimals (its spec's), which the core scales to the asset's
    const index =
      (this.markPrice(this.market, height) * (10_000n + indexOffsetBps(this.chain, this.market, this.seq))) / 10_000n
    const price = toAssetPrice(this.market, index)
    const vt = this.chain.blockTime(height)
    this.publications.push({ market: this.market, height, vt, index })
    this.record("SOURCE_EXTERNAL", this.external, truncateToSecond(vt), price, height)
  }

  private record(source: PointSource, series: Series, timestamp: number, price: bigint, height: number): void {
    const twap = series.add({ t: timestamp, price })
    this.points.push({ market: this.market, seq: this.seq, source, timestamp, price, twap, height })
  }

  /** The period in progress at `height` and both TWAPs at the block's time, truncated to the second. */
  stateAt(height: number): FundingState | undefined {
    const period = this.periods[upTo(this.periods, height) - 1]
    const t = truncateToSecond(this.chain.blockTime(height))
    const internal = this.twapAt(height, period, "SOURCE_INTERNAL", t)
    const external = this.twapAt(height, period, "SOURCE_EXTERNAL", t)
    if (internal === undefined || external === undefined) return undefined
    const payment = internal.twap - external.twap
    return {
      seq: period.seq,
      start: period.start,
      internalTwap: internal.twap,
      externalTwap: external.twap,
      payment,
      rate: rateOf(payment, external.twap),
      indexPrice: external.price
    }
  }

  /** A source's TWAP at `t` from its points of the period recorded by `height`. */
  private twapAt(height: number, period: FundingPeriodRow, source: PointSource, t: number) {
    const series = new Series(period.start)
    for (let i = upTo(this.points, period.height - 1); i < upTo(this.points, height); i++) {
      const p = this.points[i]
      if (p.seq === period.seq && p.source === source) series.add({ t: p.timestamp, price: p.price })
    }
    const twap = series.at(t)
    return twap === undefined ? undefined : { twap, price: series.points[series.points.length - 1].price }
  }

  /** The period that a trigger at `height` ended, if any. */
  endedAt(height: number): FundingPeriodRow | undefined {
    const at = upTo(this.periods, height) - 2
    const period = this.periods[at]
    return period?.ended?.height === height ? period : undefined
  }
}

const SOURCE_ORDER = VegaEvents.FundingPeriodDataPointSource.values

/** The store's order within a market: timestamp, sequence number, source (as its enum number). */
const comparePoints = (a: FundingDataPointRow, b: FundingDataPointRow): number =>
  a.timestamp - b.timestamp || a.seq - b.seq || SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source]

/** How many of `rows` (in height order) were recorded by `height`. */
const upTo = <A extends { readonly height: number }>(rows: ReadonlyArray<A>, height: number): number => {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (rows[mid].height <= height) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Every perpetual's funding, and the payments made. */
export class Funding {
  private readonly logs = new Map<number, PerpetualLog>()
  private readonly sortedPoints = new Map<number, { height: number; rows: ReadonlyArray<FundingDataPointRow> }>()
  /** Every payment, in the order made. */
  readonly payments: Array<FundingPaymentRow> = []

  constructor(
    private readonly chain: Chain,
    private readonly catalog: Catalog,
    private readonly exchange: Pick<Exchange, "markPrice">,
    private readonly positions: Positions,
    private readonly accounts: Accounts,
    /** The height the world starts from: its history before is a snapshot, with no payments. */
    private readonly startHeight: number
  ) {}

  private log(market: MarketInfo, height: number): PerpetualLog | undefined {
    if (market.funding === undefined) return undefined
    let log = this.logs.get(market.index)
    if (log === undefined) {
      log = new PerpetualLog(this.chain, (m, h) => this.exchange.markPrice(m, h), market, market.funding)
      this.logs.set(market.index, log)
    }
    log.recordTo(height)
    return log
  }

  /** A perpetual's periods started by blocks at or before `height`, oldest first; none for a future. */
  periods(market: MarketInfo, height: number): ReadonlyArray<FundingPeriodRow> {
    const log = this.log(market, height)
    if (log === undefined) return []
    return log.periods
      .slice(0, upTo(log.periods, height))
      .map((p) => (p.ended !== undefined && p.ended.height > height ? { ...p, ended: undefined } : p))
  }

  /**
   * A perpetual's data points recorded by blocks at or before `height`, in the store's order
   * (timestamp, sequence number, source); the last height asked for is kept sorted.
   */
  dataPoints(market: MarketInfo, height: number): ReadonlyArray<FundingDataPointRow> {
    const log = this.log(market, height)
    if (log === undefined) return []
    const kept = this.sortedPoints.get(market.index)
    if (kept?.height === height) return kept.rows
    // recorded in block order, which only the carried points and the two sources' interleaving unsort
    const rows = log.points.slice(0, upTo(log.points, height)).sort(comparePoints)
    this.sortedPoints.set(market.index, { height, rows })
    return rows
  }

  /** Every perpetual's oracle prices published by blocks at or before `height`, in block then market order. */
  oraclePrices(height: number): ReadonlyArray<OraclePrice> {
    const all: Array<OraclePrice> = []
    for (const market of this.catalog.markets) {
      const log = this.log(market, height)
      if (log !== undefined) all.push(...log.publications.slice(0, upTo(log.publications, height)))
    }
    return all.sort((a, b) => a.height - b.height || a.market.index - b.market.index)
  }

  /** A perpetual's funding as its market data at `height` reports it; none for a future or without both prices. */
  stateAt(market: MarketInfo, height: number): FundingState | undefined {
    return this.log(market, height)?.stateAt(height)
  }

  /**
   * The triggers of block `height` (before its trades): each perpetual period ending there with a
   * payment is settled on the positions of the block before.
   */
  settle(height: number): void {
    if (height <= this.startHeight) return
    const changed: Array<{ readonly row: PositionRow; readonly amount: bigint }> = []
    for (const market of this.catalog.markets) {
      const period = this.log(market, height)?.endedAt(height)
      const payment = period?.ended?.payment
      if (period === undefined || payment === undefined || payment === 0n) continue
      changed.push(...this.pay(market, period.seq, payment, height))
    }
    // written in the table's order (all at this block's time), so each version is appended
    changed.sort(
      (a, b) => compareStrings(a.row.party.key, b.row.party.key) || compareStrings(a.row.market.id, b.row.market.id)
    )
    const vt = this.chain.blockTime(height)
    for (const { row, amount } of changed) {
      this.positions.record({ ...row, from: height, to: Infinity, vt, realisedPnl: BigInt(row.realisedPnl) + amount })
    }
  }

  /** A market's payments, made and settled; the positions whose realised PnL they move. */
  private pay(market: MarketInfo, seq: number, payment: bigint, height: number) {
    const flowOf = flowsOf(market, payment)
    const flows: Array<{ readonly row: PositionRow; readonly amount: bigint }> = []
    for (const row of this.positions.byMarket[market.index] ?? []) {
      if (row.to !== Infinity) continue
      const volume = BigInt(row.openVolume)
      if (volume !== 0n) flows.push({ row, amount: flowOf(volume) })
    }
    const paid = flows.some((f) => f.amount > 0n) ? flows.filter((f) => f.amount !== 0n) : flows
    const vt = this.chain.blockTime(height)
    this.accounts.settleFunding(
      market,
      paid.map((f) => [f.row.party, f.amount] as const),
      height
    )
    for (const { row, amount } of paid) this.payments.push({ market, party: row.party, seq, vt, height, amount })
    return paid.filter((f) => f.amount !== 0n)
  }
}
