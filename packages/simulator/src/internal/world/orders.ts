/**
 * Orders, and how they move positions. The simulator does not keep a full limit order book with
 * counterparties; it uses a small deterministic fill model instead:
 *
 * - **Mark price.** Each market has a mark price per block: its reference price moved by a whole
 *   number of steps between −50 and +50, a step being a thousandth of the reference price (so the
 *   mark stays within ±5% of it). It is a function of the seed, the market and the height.
 * - **Marketable orders fill in full at the mark price** of the block that includes them: MARKET
 *   orders, BUY limits priced at or above the mark and SELL limits priced at or below it, whatever
 *   their time in force (IOC, FOK, GTC, GTT, GFN).
 * - **Other limit orders** rest (GTC, GTT, GFN) with id hex(SHA3-256(signature bytes)), or stop
 *   unfilled (IOC, FOK; the transaction still succeeds, as on the node). A resting order fills in
 *   full, **at its own price**, at the first later block whose mark price reaches it; a GTT order
 *   expires at the first block whose time is at or after its `expiresAt`. Resting orders can be
 *   amended (price, size, time in force, expiry; a marketable amendment fills at the mark price, a
 *   size of 0 or less cancels) and cancelled by id, by market or all at once.
 * - **Position update** (integers only, in the units the positions table uses: volume in position
 *   decimals, prices in market decimals, PnL in settlement-asset units). A fill of signed size `q`
 *   (+ for BUY, − for SELL) at price `P` on a position of volume `V`, average entry `A` and realised
 *   PnL `R`:
 *   - opening or adding (`V = 0` or same sign): `A' = (A·|V| + P·|q|) / (|V| + |q|)`, `R' = R`;
 *   - reducing, closing or flipping: `R' = R + pnl((P − A) · min(|q|, |V|) · sign(V))`;
 *     `A' = A` while some of the position is left, `0` when it is closed, `P` when it flips;
 *   - `V' = V + q`; `unrealisedPnl = pnl((mark − A') · V')` with the mark price of the block.
 *   `pnl(x) = x · 10^(assetDecimals − priceDecimals − positionDecimals)`. Divisions round half away
 *   from zero. The status and loss socialisation amount stay as they were (new positions:
 *   POSITION_STATUS_UNSPECIFIED, 0).
 *
 * Pegged orders are not modelled. Only the submitter's position moves: there is no counterparty.
 */
import { createHash } from "node:crypto"
import type { Commands } from "@vega-effect/schema"
import { mix } from "../random.js"
import type { MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import { type PositionRow, PositionStatus, type Positions } from "./positions.js"

/**
 * The node's texts for the failures the model produces, inferred from the core's code, not
 * observed on a node: the execution engine returns `types.OrderError` values (aliases of the
 * proto enum `vega.OrderError`, e.g. `ErrInvalidMarketID = OrderErrorInvalidMarketID`) whose
 * `Error()` spells the enum name in words, e.g. `ORDER_ERROR_INVALID_MARKET_ID` →
 * `OrderError: Invalid Market ID`.
 */
export const OrderErrors = {
  invalidMarketId: "OrderError: Invalid Market ID",
  orderNotFound: "OrderError: Not Found",
  invalidPartyId: "OrderError: Invalid Party ID",
  expiryBeforeCreation: "OrderError: ExpiryAt Before CreatedAt",
  gfaDuringContinuousTrading: "OrderError: Cannot Send GFA Order During Continuous Trading",
  postOnlyWouldTrade: "OrderError: Post Only Order Would Trade",
  reduceOnlyWouldNotReduce: "OrderError: Reduce Only Order Would Not Reduce Position",
  cannotAmendToFokOrIoc: "OrderError: Cannot Amend To FOK or IOC",
  cannotAmendPeggedDetails: "OrderError: Cannot Amend Pegged Order Details On Non Pegged Order",
  /** An order id without a market id (`core/execution/engine.go` `ErrInvalidOrderCancellation`). */
  invalidCancellation: "invalid order cancellation",
  /** The simulator's own text: the model has no best bid, best ask or mid to peg to. */
  peggedNotModelled: "pegged orders are not modelled by the simulator"
} as const

/** The deterministic id of a transaction: hex(SHA3-256(signature bytes)). */
export const deterministicId = (signature: string): string =>
  createHash("sha3-256").update(Buffer.from(signature, "hex")).digest("hex")

export type Side = "buy" | "sell"

export interface RestingOrder {
  readonly id: string
  readonly party: Party
  readonly market: MarketInfo
  readonly side: Side
  /** Limit price, market decimals. */
  readonly price: bigint
  /** Remaining size, position decimals (resting orders are never partly filled). */
  readonly size: bigint
  readonly timeInForce: "TIME_IN_FORCE_GTC" | "TIME_IN_FORCE_GTT" | "TIME_IN_FORCE_GFN"
  /** Unix nanoseconds; 0 when the order does not expire. */
  readonly expiresAt: bigint
  readonly reference: string
  /** The height of the block that placed it. */
  readonly height: number
}

/** The parts of a position a fill changes. */
export interface Exposure {
  readonly openVolume: bigint
  readonly averageEntryPrice: bigint
  readonly realisedPnl: bigint
}

/** `n / d` rounded half away from zero (`d > 0`). */
export const divRound = (n: bigint, d: bigint): bigint => {
  const q = n / d
  const r = n % d
  return 2n * (r < 0n ? -r : r) >= d ? q + (n < 0n ? -1n : 1n) : q
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n)

/** A price difference times a volume (market decimals × position decimals) in settlement-asset units. */
export const pnl = (market: MarketInfo, priceTimesVolume: bigint): bigint => {
  const exponent = market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
  return exponent >= 0
    ? priceTimesVolume * 10n ** BigInt(exponent)
    : divRound(priceTimesVolume, 10n ** BigInt(-exponent))
}

/** A position after a fill of signed `size` at `price` (see the module's rules). */
export const afterFill = (market: MarketInfo, before: Exposure, size: bigint, price: bigint): Exposure => {
  const { averageEntryPrice: a, openVolume: v, realisedPnl: r } = before
  const volume = v + size
  if (v === 0n || v > 0n === size > 0n) {
    return {
      openVolume: volume,
      averageEntryPrice: divRound(a * abs(v) + price * abs(size), abs(volume)),
      realisedPnl: r
    }
  }
  const closed = abs(size) < abs(v) ? abs(size) : abs(v)
  return {
    openVolume: volume,
    averageEntryPrice: volume === 0n ? 0n : abs(size) > abs(v) ? price : a,
    realisedPnl: r + pnl(market, (price - a) * closed * (v > 0n ? 1n : -1n))
  }
}

/** The mark price stream of {@link OrderBook.markPrice}. */
const MARK_STREAM = 0x6d61726b

/**
 * The resting orders of every market, and the fills that move positions.
 */
export class OrderBook {
  /** Resting orders by id, in the order they were placed (an amended order keeps its place). */
  readonly resting = new Map<string, RestingOrder>()

  constructor(
    private readonly seed: number,
    private readonly chain: Chain,
    private readonly positions: Positions
  ) {}

  /** The market's mark price at `height`, in market decimals. */
  markPrice(market: MarketInfo, height: number): bigint {
    const reference = BigInt(market.referencePrice)
    const step = reference >= 1000n ? reference / 1000n : 1n
    return reference + step * BigInt((mix(this.seed, MARK_STREAM, market.index, height) % 101) - 50)
  }

  /** Block time of `height` in unix nanoseconds. */
  nanosAt(height: number): bigint {
    return BigInt(this.chain.blockTime(height)) * 1000n
  }

  /** Whether a limit order at `price` trades at once against the mark price of `height`. */
  marketable(market: MarketInfo, side: Side, price: bigint | undefined, height: number): boolean {
    if (price === undefined) return true
    const mark = this.markPrice(market, height)
    return side === "buy" ? price >= mark : price <= mark
  }

  /** The open volume of a party's position (0 when it has none). */
  openVolume(party: Party | undefined, market: MarketInfo): bigint {
    if (party === undefined) return 0n
    const row = this.positions.current.get(this.positions.keyOf(party, market))
    return row === undefined ? 0n : BigInt(row.openVolume)
  }

  /** Fills `size` (signed: + buys, − sells) at `price` and writes the new version of the position. */
  fill(party: Party, market: MarketInfo, size: bigint, price: bigint, height: number): PositionRow {
    const previous = this.positions.current.get(this.positions.keyOf(party, market))
    const before: Exposure =
      previous === undefined
        ? { openVolume: 0n, averageEntryPrice: 0n, realisedPnl: 0n }
        : {
            openVolume: BigInt(previous.openVolume),
            averageEntryPrice: BigInt(previous.averageEntryPrice),
            realisedPnl: BigInt(previous.realisedPnl)
          }
    const after = afterFill(market, before, size, price)
    const mark = this.markPrice(market, height)
    const row: PositionRow = {
      party,
      market,
      from: height,
      to: Infinity,
      vt: this.chain.blockTime(height),
      openVolume: after.openVolume,
      realisedPnl: after.realisedPnl,
      unrealisedPnl: after.openVolume === 0n ? 0n : pnl(market, (mark - after.averageEntryPrice) * after.openVolume),
      averageEntryPrice: after.averageEntryPrice,
      lossSocialisation: previous?.lossSocialisation ?? 0,
      status: previous?.status ?? PositionStatus.UNSPECIFIED
    }
    this.positions.record(row)
    return row
  }

  /** Fills a resting order in full at its own price and takes it off the book. */
  private fillResting(order: RestingOrder, height: number): void {
    this.resting.delete(order.id)
    this.fill(order.party, order.market, order.side === "buy" ? order.size : -order.size, order.price, height)
  }

  /**
   * One block: expires GTT orders whose time has come and fills, at their own price, the resting
   * orders the block's mark price reaches.
   */
  advance(height: number): void {
    if (this.resting.size === 0) return
    const now = this.nanosAt(height)
    for (const order of [...this.resting.values()]) {
      if (order.expiresAt > 0n && order.expiresAt <= now) this.resting.delete(order.id)
      else if (this.marketable(order.market, order.side, order.price, height)) this.fillResting(order, height)
    }
  }

  /**
   * Applies an `OrderSubmission` (already checked by `CommandValidation`) for a party that may be
   * new (`join` adds it once the submission succeeds). Returns the failure text, if any.
   */
  submit(
    party: Party | undefined,
    join: () => Party,
    market: MarketInfo | undefined,
    cmd: Commands.OrderSubmission,
    id: string,
    height: number
  ): string | undefined {
    if (market === undefined) return OrderErrors.invalidMarketId
    if (cmd.peggedOrder !== undefined) return OrderErrors.peggedNotModelled
    const tif = cmd.timeInForce
    if (tif === "TIME_IN_FORCE_GFA") return OrderErrors.gfaDuringContinuousTrading
    if (tif === "TIME_IN_FORCE_GTT" && cmd.expiresAt <= this.nanosAt(height)) return OrderErrors.expiryBeforeCreation
    const side: Side = cmd.side === "SIDE_BUY" ? "buy" : "sell"
    const price = cmd.type === "TYPE_MARKET" ? undefined : BigInt(cmd.price)
    const marketable = this.marketable(market, side, price, height)
    if (cmd.postOnly && marketable) return OrderErrors.postOnlyWouldTrade
    let size = cmd.size
    if (cmd.reduceOnly) {
      const open = this.openVolume(party, market)
      if (open === 0n || open > 0n === (side === "buy")) return OrderErrors.reduceOnlyWouldNotReduce
      if (size > abs(open)) size = abs(open)
    }
    const owner = join()
    if (marketable) {
      this.fill(owner, market, side === "buy" ? size : -size, this.markPrice(market, height), height)
    } else if (tif === "TIME_IN_FORCE_GTC" || tif === "TIME_IN_FORCE_GTT" || tif === "TIME_IN_FORCE_GFN") {
      this.resting.set(id, {
        id,
        party: owner,
        market,
        side,
        price: price!,
        size,
        timeInForce: tif,
        expiresAt: tif === "TIME_IN_FORCE_GTT" ? cmd.expiresAt : 0n,
        reference: cmd.reference,
        height
      })
    }
    // a non-marketable IOC or FOK order stops without trading
    return undefined
  }

  /**
   * Applies an `OrderCancellation`: one order (order and market ids), every order of the party in
   * a market (market id only) or every order of the party (neither). Cancelling nothing succeeds.
   */
  cancel(
    partyId: string,
    markets: ReadonlyMap<string, MarketInfo>,
    cmd: Commands.OrderCancellation
  ): string | undefined {
    if (cmd.orderId !== "" && cmd.marketId === "") return OrderErrors.invalidCancellation
    let market: MarketInfo | undefined
    if (cmd.marketId !== "") {
      market = markets.get(cmd.marketId)
      if (market === undefined) return OrderErrors.invalidMarketId
    }
    if (cmd.orderId !== "") {
      const order = this.resting.get(cmd.orderId)
      if (order === undefined || order.market !== market) return OrderErrors.orderNotFound
      if (order.party.id !== partyId) return OrderErrors.invalidPartyId
      this.resting.delete(order.id)
      return undefined
    }
    for (const order of [...this.resting.values()]) {
      if (order.party.id === partyId && (market === undefined || order.market === market)) {
        this.resting.delete(order.id)
      }
    }
    return undefined
  }

  /** Applies an `OrderAmendment` (already checked by `CommandValidation`) to a resting order. */
  amend(
    partyId: string,
    markets: ReadonlyMap<string, MarketInfo>,
    cmd: Commands.OrderAmendment,
    height: number
  ): string | undefined {
    const market = markets.get(cmd.marketId)
    if (market === undefined) return OrderErrors.invalidMarketId
    const order = this.resting.get(cmd.orderId)
    if (order === undefined || order.market !== market) return OrderErrors.orderNotFound
    if (order.party.id !== partyId) return OrderErrors.invalidPartyId
    if (cmd.peggedOffset !== "" || cmd.peggedReference !== "PEGGED_REFERENCE_UNSPECIFIED") {
      return OrderErrors.cannotAmendPeggedDetails
    }
    let timeInForce = order.timeInForce
    switch (cmd.timeInForce) {
      case "TIME_IN_FORCE_UNSPECIFIED":
        break
      case "TIME_IN_FORCE_GTC":
      case "TIME_IN_FORCE_GTT":
        timeInForce = cmd.timeInForce
        break
      default:
        return OrderErrors.cannotAmendToFokOrIoc
    }
    const expiresAt = timeInForce === "TIME_IN_FORCE_GTT" ? (cmd.expiresAt ?? order.expiresAt) : 0n
    if (timeInForce === "TIME_IN_FORCE_GTT" && expiresAt <= this.nanosAt(height)) {
      return OrderErrors.expiryBeforeCreation
    }
    const size = cmd.size ?? order.size + cmd.sizeDelta
    if (size <= 0n) {
      this.resting.delete(order.id)
      return undefined
    }
    const amended: RestingOrder = {
      ...order,
      price: cmd.price === undefined ? order.price : BigInt(cmd.price),
      size,
      timeInForce,
      expiresAt
    }
    if (this.marketable(market, amended.side, amended.price, height)) {
      this.resting.delete(order.id)
      this.fill(order.party, market, amended.side === "buy" ? size : -size, this.markPrice(market, height), height)
    } else {
      this.resting.set(order.id, amended)
    }
    return undefined
  }

  /** The resting orders of a party, in the order they were placed. */
  ordersOf(partyId: string): Array<RestingOrder> {
    return [...this.resting.values()].filter((order) => order.party.id === partyId)
  }
}
