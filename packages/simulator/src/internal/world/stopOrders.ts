/**
 * Stop orders: an order submission held aside until the market's price crosses a trigger, then
 * sent to the market's book (core/execution/stoporders/*.go, core/execution/future/market.go
 * `SubmitStopOrdersWithIDGeneratorAndOrderIDs`, `triggerStopOrders`, `removeExpiredStopOrders`,
 * core/types/stop_orders.go, v0.75.8). What the world models:
 *
 * - **Submission.** One stop order per side given (falls below, rises above); both together are an
 *   OCO pair, each naming the other. Ids come from the transaction's id generator: the first id is
 *   the transaction's deterministic id, each next one the SHA3-256 of the one before; falls below
 *   takes the first, rises above the next. The checks, in the core's order, each rejecting both
 *   halves (STATUS_REJECTED with its reason): an expiry before the block time
 *   (EXPIRY_IN_THE_PAST), an order that is not reduce-only (MUST_BE_REDUCE_ONLY), both halves
 *   expiring at the same time (CANNOT_MATCH_OCO_EXPIRY_TIMES), more pending stop orders in the
 *   market than the network parameter `spam.protection.max.stopOrdersPerMarket` allows (its
 *   default, {@link MAX_STOP_ORDERS_PER_MARKET}: MAX_STOP_ORDERS_PER_PARTY_REACHED), no position
 *   in the market (NOT_ALLOWED_WITHOUT_A_POSITION), and a side that would not reduce the position
 *   or the position its live orders could make (NOT_CLOSING_THE_POSITION). A price trigger the last
 *   traded price has already crossed triggers at once: its order (id: the generator's next) goes
 *   to the book and the other half is STOPPED. Else both are PENDING.
 * - **Triggers** follow the market's last traded price, as the core's do (not the mark price): a
 *   falls-below price trigger fires at or below its price, a rises-above one at or above it. A
 *   trailing one remembers the best price seen since it was placed (highest for falls below,
 *   lowest for rises above) and fires once the price has moved back by its offset from it. A
 *   triggered stop order is TRIGGERED, its order (an id of the block's id generator) is submitted
 *   to the book as any order is, and its OCO partner is STOPPED.
 * - **Expiry** at the first block whose time is at or after `expiresAt`: EXPIRED, and the partner
 *   STOPPED; with the SUBMIT strategy its order is sent to the book as it expires.
 * - **Cancellation** of one stop order (with its partner), of a party's in a market, or of all.
 *
 * Simplifications: prices are checked once per block, after the block's own trading (the core
 * checks after every order), so a stop order a transaction's trade would trigger fires in the
 * next block; the size override (`SIZE_OVERRIDE_SETTING_POSITION`) is kept and served but the
 * order goes in at its own size; `updatedAt` is never served, as the node's
 * `entities.StopOrder.ToProto` never sets it; stop orders are not on the event bus. The world's own parties place a few stop orders of
 * their own (see {@link StopOrders.generate}).
 *
 * Every change is a new version of the stop order, visible from the height that made it.
 */
import { createHash } from "node:crypto"
import type { Commands } from "@vega-effect/schema"
import type { Random } from "../random.js"
import type { MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Exchange } from "./orders.js"
import type { Positions } from "./positions.js"
import { Placements } from "./placements.js"
import type { Versioned } from "./versioned.js"

/** The default of `spam.protection.max.stopOrdersPerMarket` (core/netparams/defaults.go, v0.75.8). */
export const MAX_STOP_ORDERS_PER_MARKET = 4

export type StopOrderStatus =
  "STATUS_PENDING" | "STATUS_CANCELLED" | "STATUS_STOPPED" | "STATUS_TRIGGERED" | "STATUS_EXPIRED" | "STATUS_REJECTED"

export type TriggerDirection = "TRIGGER_DIRECTION_RISES_ABOVE" | "TRIGGER_DIRECTION_FALLS_BELOW"

export interface StopOrderRow extends Versioned {
  readonly id: string
  readonly party: Party
  readonly market: MarketInfo
  readonly ocoLinkId: string
  /** Unix nanoseconds, when it expires. */
  readonly expiresAt?: bigint
  readonly expiryStrategy?: Commands.StopOrderExpiryStrategy
  readonly direction: TriggerDirection
  readonly status: StopOrderStatus
  /** Unix microseconds. */
  readonly createdAt: number
  /** The order it submitted, once triggered ("" before). */
  readonly orderId: string
  /** A price trigger (market decimals), or a trailing percent offset (decimal text). */
  readonly price?: bigint
  readonly trailing?: string
  readonly rejectionReason?: string
  readonly submission: Commands.OrderSubmission
  readonly sizeOverrideSetting?: Commands.StopOrderSizeOverrideSetting
  readonly sizeOverrideValue?: string
  /** Block time of this change, unix microseconds. */
  readonly vt: number
  readonly seq: number
}

/** A trailing trigger's offset as a fraction: numerator over 10^scale. */
const fraction = (text: string): { readonly n: bigint; readonly scale: bigint } => {
  const [whole, decimals = ""] = text.split(".")
  return { n: BigInt(whole + decimals), scale: 10n ** BigInt(decimals.length) }
}

/** Pending stop orders' trailing state: the best price seen since placed. */
interface Trail {
  best: bigint
}

const REJECT = {
  expiry: "REJECTION_REASON_EXPIRY_IN_THE_PAST",
  reduceOnly: "REJECTION_REASON_MUST_BE_REDUCE_ONLY",
  sameExpiry: "REJECTION_REASON_STOP_ORDER_CANNOT_MATCH_OCO_EXPIRY_TIMES",
  max: "REJECTION_REASON_MAX_STOP_ORDERS_PER_PARTY_REACHED",
  noPosition: "REJECTION_REASON_STOP_ORDER_NOT_ALLOWED_WITHOUT_A_POSITION",
  notClosing: "REJECTION_REASON_STOP_ORDER_NOT_CLOSING_THE_POSITION"
} as const

/** The core's texts (core/execution/common/errors.go, core/execution/engine.go, v0.75.8). */
export const StopOrderErrors = {
  marketDoesNotExist: "market does not exist",
  expiryInThePast: "stop order expiry in the past",
  mustBeReduceOnly: "stop order must be reduce only",
  sameExpiry: "stop order OCOs must not have the same expiry time",
  maxReached: "max stop orders per party reached",
  noPosition: "stop order submission not allowed without existing position",
  notClosing: "side used in stop order does not close the position",
  notFound: "stop order not found",
  marketIdRequired: "market id required when order id specified",
  invalidMarketId: "OrderError: Invalid Market ID"
} as const

const REASON_ERROR: Record<string, string> = {
  [REJECT.expiry]: StopOrderErrors.expiryInThePast,
  [REJECT.reduceOnly]: StopOrderErrors.mustBeReduceOnly,
  [REJECT.sameExpiry]: StopOrderErrors.sameExpiry,
  [REJECT.max]: StopOrderErrors.maxReached,
  [REJECT.noPosition]: StopOrderErrors.noPosition,
  [REJECT.notClosing]: StopOrderErrors.notClosing
}

/** The core's deterministic id generator: the root id, then SHA3-256 of the id before. */
export const idGenerator = (root: string): (() => string) => {
  let next = Buffer.from(root, "hex")
  return () => {
    const id = next.toString("hex")
    next = createHash("sha3-256").update(next).digest()
    return id
  }
}

type Draft = Omit<StopOrderRow, "seq" | "from" | "to" | "vt">

export class StopOrders extends Placements<StopOrderRow> {
  /** The pending stop orders by id, in the order placed. */
  private readonly pending = new Map<string, StopOrderRow>()
  private readonly trails = new Map<string, Trail>()
  private seq = 0

  constructor(
    private readonly chain: Chain,
    private readonly exchange: Exchange,
    private readonly positions: Positions
  ) {
    super()
  }

  private write(row: Draft, height: number): StopOrderRow {
    const written: StopOrderRow = {
      ...row,
      vt: this.chain.blockTime(height),
      seq: this.seq++,
      from: height,
      to: Infinity
    }
    this.add(written)
    if (written.status === "STATUS_PENDING") this.pending.set(row.id, written)
    else {
      this.pending.delete(row.id)
      this.trails.delete(row.id)
    }
    return written
  }

  /** The market's last traded price, if it traded. */
  private lastPrice(market: MarketInfo): bigint | undefined {
    const trades = this.exchange.trades.byMarket[market.index]
    return trades === undefined || trades.length === 0 ? undefined : trades[trades.length - 1].price
  }

  private pendingCount(party: Party, market: MarketInfo): number {
    let n = 0
    for (const row of this.pending.values()) if (row.party === party && row.market === market) n++
    return n
  }

  /** The first reason to reject a submission (see the module's checks), if any. */
  private rejection(party: Party | undefined, market: MarketInfo, halves: ReadonlyArray<Draft>, now: bigint) {
    for (const half of halves) {
      if (half.expiresAt !== undefined && half.expiresAt < now) return REJECT.expiry
      if (!half.submission.reduceOnly) return REJECT.reduceOnly
    }
    const [a, b] = halves
    if (b !== undefined && a.expiresAt !== undefined && a.expiresAt === b.expiresAt) return REJECT.sameExpiry
    if (party !== undefined && this.pendingCount(party, market) + halves.length > MAX_STOP_ORDERS_PER_MARKET) {
      return REJECT.max
    }
    const position = party === undefined ? undefined : this.positions.current.get(this.positions.keyOf(party, market))
    if (party === undefined || position === undefined) return REJECT.noPosition
    const size = BigInt(position.openVolume)
    let potential = size
    for (const order of this.exchange.liveOrdersOf(party.id)) {
      if (order.market === market) potential += order.side === "SIDE_BUY" ? order.remaining : -order.remaining
    }
    const side = a.submission.side
    if (side === "SIDE_BUY" && potential >= 0n && size >= 0n) return REJECT.notClosing
    if (side === "SIDE_SELL" && potential <= 0n && size <= 0n) return REJECT.notClosing
    return undefined
  }

  /**
   * Applies a `StopOrdersSubmission` for `party` (undefined: one the world has not seen, which has
   * no position). `nextId` is the transaction's id generator. Returns the failure the engine
   * gives, if any (the core's transaction result does not report it).
   */
  submit(
    party: Party | undefined,
    asParty: () => Party,
    markets: ReadonlyMap<string, MarketInfo>,
    cmd: Commands.StopOrdersSubmission,
    nextId: () => string,
    ids: { readonly fallsBelow?: string; readonly risesAbove?: string },
    height: number
  ): string | undefined {
    const first = cmd.fallsBelow ?? cmd.risesAbove
    const market = markets.get(first?.orderSubmission?.marketId ?? "")
    if (market === undefined) return StopOrderErrors.marketDoesNotExist
    const vt = this.chain.blockTime(height)
    const draft = (setup: Commands.StopOrderSetup, id: string, other: string, direction: TriggerDirection): Draft => ({
      id,
      party: party ?? asParty(),
      market,
      ocoLinkId: other,
      ...(setup.expiresAt === undefined ? {} : { expiresAt: setup.expiresAt, expiryStrategy: setup.expiryStrategy! }),
      direction,
      status: "STATUS_PENDING",
      createdAt: vt,
      orderId: "",
      ...(setup.price === undefined ? { trailing: setup.trailingPercentOffset! } : { price: BigInt(setup.price) }),
      submission: setup.orderSubmission!,
      ...(setup.sizeOverrideSetting === undefined ? {} : { sizeOverrideSetting: setup.sizeOverrideSetting }),
      ...(setup.sizeOverrideValue === undefined ? {} : { sizeOverrideValue: setup.sizeOverrideValue.percentage })
    })
    const halves: Array<Draft> = []
    const fallsId = ids.fallsBelow ?? ""
    const risesId = ids.risesAbove ?? ""
    if (cmd.fallsBelow !== undefined) {
      halves.push(draft(cmd.fallsBelow, fallsId, risesId, "TRIGGER_DIRECTION_FALLS_BELOW"))
    }
    if (cmd.risesAbove !== undefined) {
      halves.push(draft(cmd.risesAbove, risesId, fallsId, "TRIGGER_DIRECTION_RISES_ABOVE"))
    }
    const reason = this.rejection(party, market, halves, this.exchange.nanosAt(height))
    if (reason !== undefined) {
      for (const half of halves) this.write({ ...half, status: "STATUS_REJECTED", rejectionReason: reason }, height)
      return REASON_ERROR[reason]
    }
    const last = this.lastPrice(market)
    const fired = halves.find(
      (half) =>
        last !== undefined &&
        half.price !== undefined &&
        (half.direction === "TRIGGER_DIRECTION_FALLS_BELOW" ? last <= half.price : last >= half.price)
    )
    if (fired === undefined) {
      for (const half of halves) {
        const row = this.write(half, height)
        if (row.trailing !== undefined && last !== undefined) this.trails.set(row.id, { best: last })
      }
      return undefined
    }
    const orderId = nextId()
    for (const half of halves) {
      if (half === fired) this.write({ ...half, status: "STATUS_TRIGGERED", orderId }, height)
      else this.write({ ...half, status: "STATUS_STOPPED" }, height)
    }
    return this.exchange.submit(fired.party, () => fired.party, market, fired.submission, orderId, height)
  }

  /** Cancels pending stop orders and their partners, in id order. */
  private cancelAll(rows: ReadonlyArray<StopOrderRow>, height: number): void {
    const ids = new Set<string>()
    for (const row of rows) {
      ids.add(row.id)
      if (row.ocoLinkId !== "" && this.pending.has(row.ocoLinkId)) ids.add(row.ocoLinkId)
    }
    for (const id of [...ids].sort()) this.write({ ...this.pending.get(id)!, status: "STATUS_CANCELLED" }, height)
  }

  /**
   * Applies a `StopOrdersCancellation`: one stop order and its partner (market and id), a party's
   * in a market (market only: the core's engine then answers `OrderError: Invalid Market ID` even
   * when it cancelled them), or all of the party's. Returns the engine's failure, if any.
   */
  cancel(
    partyId: string,
    markets: ReadonlyMap<string, MarketInfo>,
    cmd: Commands.StopOrdersCancellation,
    height: number
  ): string | undefined {
    const marketId = cmd.marketId ?? ""
    const orderId = cmd.stopOrderId ?? ""
    if (orderId !== "" && marketId === "") return StopOrderErrors.marketIdRequired
    const own = [...this.pending.values()].filter((row) => row.party.id === partyId)
    if (marketId === "") {
      this.cancelAll(own, height)
      return undefined
    }
    const market = markets.get(marketId)
    if (market === undefined) return StopOrderErrors.invalidMarketId
    const inMarket = own.filter((row) => row.market === market)
    if (orderId === "") {
      this.cancelAll(inMarket, height)
      return StopOrderErrors.invalidMarketId
    }
    const row = inMarket.find((candidate) => candidate.id === orderId)
    if (row === undefined) return StopOrderErrors.notFound
    this.cancelAll([row], height)
    return undefined
  }

  /** Whether a pending stop order's trigger is crossed by `price` (updating a trailing one's best). */
  private crossed(row: StopOrderRow, price: bigint): boolean {
    const falls = row.direction === "TRIGGER_DIRECTION_FALLS_BELOW"
    if (row.price !== undefined) return falls ? price <= row.price : price >= row.price
    let trail = this.trails.get(row.id)
    if (trail === undefined) this.trails.set(row.id, (trail = { best: price }))
    if (falls ? price > trail.best : price < trail.best) trail.best = price
    const { n, scale } = fraction(row.trailing!)
    // falls below: price <= best·(1 − offset); rises above: price >= best·(1 + offset)
    return falls ? price * scale <= trail.best * (scale - n) : price * scale >= trail.best * (scale + n)
  }

  /** Sends a stop order's order to the book with a new id of the block. */
  private send(row: StopOrderRow, status: "STATUS_TRIGGERED" | "STATUS_EXPIRED", height: number): void {
    const orderId = this.exchange.nextId(height)
    this.write({ ...row, status, orderId }, height)
    this.exchange.submit(row.party, () => row.party, row.market, row.submission, orderId, height)
  }

  /**
   * One block: stop orders whose expiry has come expire (their partners stopped, SUBMIT ones
   * sent), then those whose trigger the last traded price crossed fire, until none does.
   */
  advance(height: number): void {
    const now = this.exchange.nanosAt(height)
    const expired = [...this.pending.values()].filter((row) => row.expiresAt !== undefined && row.expiresAt <= now)
    const partners = new Set<string>()
    for (const row of expired) {
      if (row.ocoLinkId !== "" && !expired.some((other) => other.id === row.ocoLinkId)) partners.add(row.ocoLinkId)
    }
    for (const row of [...expired, ...[...partners].map((id) => this.pending.get(id)!)].sort((a, b) =>
      a.id < b.id ? -1 : 1
    )) {
      if (!this.pending.has(row.id)) continue
      if (partners.has(row.id)) this.write({ ...row, status: "STATUS_STOPPED" }, height)
      else if (row.expiryStrategy === "EXPIRY_STRATEGY_SUBMIT") this.send(row, "STATUS_EXPIRED", height)
      else this.write({ ...row, status: "STATUS_EXPIRED" }, height)
    }
    for (let round = 0; round < 8 && this.pending.size > 0; round++) {
      const fired: Array<StopOrderRow> = []
      for (const row of this.pending.values()) {
        const price = this.lastPrice(row.market)
        if (price !== undefined && this.crossed(row, price)) fired.push(row)
      }
      if (fired.length === 0) break
      for (const row of fired) {
        if (!this.pending.has(row.id)) continue
        const partner = row.ocoLinkId === "" ? undefined : this.pending.get(row.ocoLinkId)
        this.send(row, "STATUS_TRIGGERED", height)
        if (partner !== undefined) this.write({ ...partner, status: "STATUS_STOPPED" }, height)
      }
    }
  }

  /**
   * A stop order of one of the world's own parties: a party with a position in a market protects
   * it with a reduce-only market order on the closing side, triggered a few price steps beyond
   * the last traded price (or trailing by 1–5%), sometimes as an OCO pair, sometimes expiring
   * within a few dozen blocks.
   */
  generate(random: Random, height: number): void {
    const position = this.positions.pickGenerated(random)
    if (position === undefined) return
    const { market, party } = position
    const volume = BigInt(position.openVolume)
    // before the market's first trade, its mark price
    const last = this.lastPrice(market) ?? this.exchange.markPrice(market, height)
    if (volume === 0n || party === this.exchange.makerOf(market)) return
    const side: Commands.Side = volume > 0n ? "SIDE_SELL" : "SIDE_BUY"
    const step = this.exchange.step(market)
    const most = volume < 0n ? -volume : volume
    const order: Commands.OrderSubmission = {
      marketId: market.id,
      price: "",
      size: BigInt(1 + random.int(most > 500n ? 500 : Number(most))),
      side,
      timeInForce: "TIME_IN_FORCE_IOC",
      expiresAt: 0n,
      type: "TYPE_MARKET",
      reference: "",
      postOnly: false,
      reduceOnly: true
    }
    const expiry = (): Partial<Commands.StopOrderSetup> =>
      random.chance(0.5)
        ? {
            expiresAt: this.exchange.nanosAt(height) + BigInt(1 + random.int(40)) * 1_000_000_000n,
            expiryStrategy: random.chance(0.5) ? "EXPIRY_STRATEGY_CANCELS" : "EXPIRY_STRATEGY_SUBMIT"
          }
        : {}
    const setup = (above: boolean): Commands.StopOrderSetup =>
      ({
        orderSubmission: order,
        ...expiry(),
        ...(random.chance(0.25)
          ? { trailingPercentOffset: `0.0${1 + random.int(5)}` }
          : { price: String(last + (above ? 1n : -1n) * step * BigInt(2 + random.int(8))) })
      }) as Commands.StopOrderSetup
    const both = random.chance(0.4)
    const cmd: Commands.StopOrdersSubmission =
      both || side === "SIDE_SELL"
        ? { fallsBelow: setup(false), ...(both ? { risesAbove: setup(true) } : {}) }
        : { risesAbove: setup(true) }
    const nextId = () => this.exchange.nextId(height)
    const ids = {
      ...(cmd.fallsBelow === undefined ? {} : { fallsBelow: nextId() }),
      ...(cmd.risesAbove === undefined ? {} : { risesAbove: nextId() })
    }
    this.submit(party, () => party, new Map([[market.id, market]]), cmd, nextId, ids, height)
  }
}
