/**
 * The exchange: each market's limit order book, matching and the trades it makes, and how fills
 * move positions on both sides.
 *
 * - **Mark price.** Each market's mark price is its reference price moved by a whole number of
 *   steps between −50 and +50 (a step is a thousandth of the reference price, so the mark stays
 *   within ±5% of it), drawn anew every {@link MARK_WINDOW} blocks from the seed, the market and
 *   the window. It stands for the market's mark price source: it does not follow the trades.
 * - **Market makers.** One of the world's parties per market ({@link Exchange.makerOf}) quotes
 *   {@link LADDER_LEVELS} price levels on each side, one step apart from the mark outwards, each
 *   {@link QUOTE_SIZE} in position units. When the mark moves it amends its quotes to the levels
 *   around the new mark; a quote filled in full is placed again at the end of the block.
 * - **Takers.** Each block some of the world's parties with positions send market orders (IOC) of
 *   1 to 1,000 units against the book (`activity.positionTrades` of them).
 * - **Matching** by price, then time: an aggressive order trades with the best opposite level
 *   first, each fill at the passive order's price, partly or in full; FOK orders trade in full or
 *   not at all (STOPPED); the rest of an IOC order is stopped (PARTIALLY_FILLED when some traded,
 *   STOPPED otherwise); the rest of a GTC, GTT or GFN limit order rests on the book (ACTIVE). An
 *   aggressive order that meets an order of its own party stops there (a wash trade: STOPPED,
 *   reason ORDER_ERROR_SELF_TRADING, what traded before stands), as the core's matching engine
 *   stops self-trades. A GTT order expires at the first block whose time is at or after its
 *   `expiresAt`.
 * - **Close-outs.** A position that goes CLOSED_OUT is taken over by the network party at the
 *   mark price: a trade of type TYPE_NETWORK_CLOSE_OUT_BAD between the network and the party,
 *   through one network order (TYPE_NETWORK, FILLED) named on both sides.
 * - **Fees** as `fees.ts` says: the aggressor pays.
 * - **Position update** (integers only, in the units the positions table uses: volume in position
 *   decimals, prices in market decimals, PnL in settlement-asset units). A fill of signed size `q`
 *   (+ for BUY, − for SELL) at price `P` on a position of volume `V`, average entry `A` and realised
 *   PnL `R`:
 *   - opening or adding (`V = 0` or same sign): `A' = (A·|V| + P·|q|) / (|V| + |q|)`, `R' = R`;
 *   - reducing, closing or flipping: `R' = R + pnl((P − A) · min(|q|, |V|) · sign(V))`;
 *     `A' = A` while some of the position is left, `0` when it is closed, `P` when it flips;
 *   - `V' = V + q`; `unrealisedPnl = pnl((mark − A') · V')` with the mark price of the block.
 *   `pnl(x) = x · 10^(assetDecimals − priceDecimals − positionDecimals)`. Divisions round half away
 *   from zero.
 *
 * Ids: a user's order is named by its transaction (hex(SHA3-256(signature bytes))), as the core
 * names it; every other order and every trade by hex(SHA3-256(block hash, counter)), a
 * deterministic stand-in for the core's per-block id generator. Pegged orders are not modelled.
 *
 * Event numbers: the data node keys a trade by its block time plus the sequence number of its
 * event in the block (`TradeRow.syntheticTime`). The exchange numbers the events of its changes
 * in each block from 3 (the block's BEGIN_BLOCK and TIME_UPDATE events come first), one per order
 * change and one per trade, in the order made: the numbers the event bus gives the block's own
 * trading, which comes first in the block. Trades made by transactions come later on the bus
 * (after the block's other changes and the results of the transactions before), so their numbers
 * here are lower than the bus's: still distinct, and in the same order.
 */
import { createHash } from "node:crypto"
import type { Commands } from "@vega-effect/schema"
import { mix, type Random } from "../random.js"
import { MarketBook, type Resting } from "./book.js"
import type { Catalog, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import { feesOf, NO_FEES } from "./fees.js"
import type { Accounts } from "./accounts.js"
import type { Journal } from "./journal.js"
import { type OrderRow, type OrderSide, type OrderStatus, OrderTable, type OrderTimeInForce } from "./orderTable.js"
import type { PositionRow, Positions } from "./positions.js"
import { type TradeRow, Trades } from "./trades.js"

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

/** Blocks a mark price holds before the next is drawn. */
export const MARK_WINDOW = 10
/** Price levels a market maker quotes on each side. */
export const LADDER_LEVELS = 5
/** The size of each quote, position units. */
export const QUOTE_SIZE = 5_000n
/** The largest market order a taker sends, position units. */
const MAX_TAKE = 1_000

/** The sequence number of the first event after BEGIN_BLOCK and TIME_UPDATE. */
const FIRST_EVENT = 3

/** The mark price stream of {@link Exchange.markPrice}. */
const MARK_STREAM = 0x6d61726b

const opposite = (side: OrderSide): OrderSide => (side === "SIDE_BUY" ? "SIDE_SELL" : "SIDE_BUY")

/** What a trade is made of, before the exchange names it and prices its fees. */
type Fill = Pick<
  TradeRow,
  "market" | "buyer" | "seller" | "price" | "size" | "aggressor" | "buyOrder" | "sellOrder" | "type"
>

/** What an order asks of the book when it arrives. */
interface Incoming {
  readonly id: string
  readonly party: Party
  readonly market: MarketInfo
  readonly side: OrderSide
  /** Undefined for market orders: any price. */
  readonly limit: bigint | undefined
  readonly size: bigint
  readonly timeInForce: OrderTimeInForce
  readonly expiresAt: bigint
  readonly reference: string
  readonly postOnly: boolean
  readonly reduceOnly: boolean
  /** For an amended order: its creation time and version. */
  readonly createdAt?: number
  readonly version?: number
  /** For an amended order that traded before: its size as placed (remaining = what is left of it). */
  readonly placedSize?: bigint
}

/** The time in force an amendment leaves (GTC and GTT only; unspecified keeps it), or none when refused. */
const amendedTimeInForce = (
  current: OrderTimeInForce,
  asked: Commands.OrderAmendment["timeInForce"]
): OrderTimeInForce | undefined => {
  switch (asked) {
    case "TIME_IN_FORCE_UNSPECIFIED":
      return current
    case "TIME_IN_FORCE_GTC":
    case "TIME_IN_FORCE_GTT":
      return asked
    default:
      return undefined
  }
}

/**
 * Every market's book, the order table and the trades, and the fills that move positions.
 */
export class Exchange {
  readonly orders = new OrderTable()
  readonly trades = new Trades()
  readonly books: ReadonlyArray<MarketBook>
  /** The market maker's quotes per market: the order ids of its ladder, bids then asks. */
  private readonly ladders: Array<Array<string>>
  /** The mark price each market's ladder was last quoted around. */
  private readonly quotedAt: Array<bigint> = []
  private readonly expiring = new Set<string>()
  private idHeight = -1
  private idCounter = 0
  private eventHeight = -1
  private eventCounter = FIRST_EVENT

  constructor(
    private readonly seed: number,
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly positions: Positions,
    private readonly accounts?: Accounts,
    private readonly journal?: Journal
  ) {
    this.books = catalog.markets.map(() => new MarketBook())
    this.ladders = catalog.markets.map(() => [])
  }

  /** The market's mark price at `height`, in market decimals. */
  markPrice(market: MarketInfo, height: number): bigint {
    const window = Math.floor(height / MARK_WINDOW)
    return (
      this.referencePrice(market) +
      this.step(market) * BigInt((mix(this.seed, MARK_STREAM, market.index, window) % 101) - 50)
    )
  }

  private referencePrice(market: MarketInfo): bigint {
    return BigInt(market.referencePrice)
  }

  /** A thousandth of the reference price, at least one tick. */
  step(market: MarketInfo): bigint {
    const step = this.referencePrice(market) / 1000n
    return step > market.tickSize ? step - (step % market.tickSize) : market.tickSize
  }

  /** The party that makes the market: one of the world's own parties, never the network. */
  makerOf(market: MarketInfo): Party {
    const parties = this.catalog.parties
    return parties[1 + ((market.index * 7 + 3) % (parties.length - 1))]
  }

  /** Block time of `height` in unix nanoseconds. */
  nanosAt(height: number): bigint {
    return BigInt(this.chain.blockTime(height)) * 1000n
  }

  /** The next id of the block's id generator. */
  nextId(height: number): string {
    if (height !== this.idHeight) {
      this.idHeight = height
      this.idCounter = 0
    }
    const counter = Buffer.alloc(8)
    counter.writeUInt32BE(this.idCounter++, 4)
    return createHash("sha3-256")
      .update(Buffer.from(this.chain.blockHash(height), "hex"))
      .update(counter)
      .digest("hex")
  }

  /** The sequence number of the next event of block `height` (see the module's event numbers). */
  private nextEvent(height: number): number {
    if (height !== this.eventHeight) {
      this.eventHeight = height
      this.eventCounter = FIRST_EVENT
    }
    return this.eventCounter++
  }

  /** The open volume of a party's position (0 when it has none). */
  openVolume(party: Party | undefined, market: MarketInfo): bigint {
    if (party === undefined) return 0n
    const row = this.positions.current.get(this.positions.keyOf(party, market))
    return row === undefined ? 0n : BigInt(row.openVolume)
  }

  /** Fills `size` (signed: + buys, − sells) at `price` and writes the new version of the position. */
  /** Returns the PnL the fill realised. */
  private fill(party: Party, market: MarketInfo, size: bigint, price: bigint, height: number): bigint {
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
      status: previous?.status ?? 0
    }
    this.positions.record(row)
    this.accounts?.settle(party, market, after.realisedPnl - before.realisedPnl, after.openVolume, mark, height)
    return after.realisedPnl - before.realisedPnl
  }

  private writeOrder(row: Omit<OrderRow, "seq" | "from" | "to">, height: number): OrderRow {
    const written = this.orders.write(row, height)
    this.nextEvent(height)
    this.journal?.record(height, { _tag: "Order", row: written })
    return written
  }

  /** Records a fill and moves both positions; the aggressor pays the fees. */
  private trade(fill: Fill, height: number): TradeRow {
    const { aggressor, buyer, market, price, seller, size } = fill
    const fees = feesOf(market, price, size)
    const vt = this.chain.blockTime(height)
    const trade = this.trades.record({
      ...fill,
      id: this.nextId(height),
      buyerFee: aggressor === "SIDE_BUY" ? fees : NO_FEES,
      sellerFee: aggressor === "SIDE_SELL" ? fees : NO_FEES,
      height,
      vt,
      syntheticTime: vt + this.nextEvent(height)
    })
    const [payer, maker] = aggressor === "SIDE_BUY" ? [buyer, seller] : [seller, buyer]
    this.accounts?.payFees(market, payer, maker, fees, height)
    this.fill(buyer, market, size, price, height)
    this.fill(seller, market, -size, price, height)
    this.journal?.record(height, { _tag: "Trade", row: trade })
    return trade
  }

  /** Trades an incoming order with the opposite side, best level first, until it is done or stops. */
  private match(order: Incoming, height: number): { readonly remaining: bigint; readonly washed: boolean } {
    const book = this.books[order.market.index]
    let remaining = order.size
    let washed = false
    const levels = book.side(opposite(order.side))
    while (remaining > 0n && levels.length > 0) {
      const level = levels[0]
      if (
        order.limit !== undefined &&
        (order.side === "SIDE_BUY" ? level.price > order.limit : level.price < order.limit)
      ) {
        break
      }
      const passive = level.orders[0]
      if (passive.party === order.party) {
        washed = true
        break
      }
      const size = remaining < passive.remaining ? remaining : passive.remaining
      remaining -= size
      this.fillPassive(order, book, passive, level.price, size, height)
    }
    return { remaining, washed }
  }

  /**
   * Matches an incoming order against the book, writes its final state, and rests what is left
   * when its time in force says so. Returns the order's final row.
   */
  private place(order: Incoming, height: number): OrderRow {
    const book = this.books[order.market.index]
    const vt = this.chain.blockTime(height)
    const base = {
      id: order.id,
      party: order.party,
      market: order.market,
      side: order.side,
      price: order.limit ?? 0n,
      size: order.placedSize ?? order.size,
      timeInForce: order.timeInForce,
      type: order.limit === undefined ? ("TYPE_MARKET" as const) : ("TYPE_LIMIT" as const),
      createdAt: order.createdAt ?? vt,
      updatedAt: order.createdAt === undefined ? 0 : vt,
      expiresAt: order.expiresAt,
      reference: order.reference,
      version: order.version ?? 1,
      postOnly: order.postOnly,
      reduceOnly: order.reduceOnly,
      vt
    }
    const tif = order.timeInForce
    if (tif === "TIME_IN_FORCE_FOK" && book.available(order.side, order.limit, order.party) < order.size) {
      return this.writeOrder({ ...base, remaining: order.size, status: "STATUS_STOPPED" }, height)
    }
    const { remaining, washed } = this.match(order, height)
    let status: OrderStatus
    let reason: string | undefined
    if (remaining === 0n) status = "STATUS_FILLED"
    else if (washed) {
      status = "STATUS_STOPPED"
      reason = "ORDER_ERROR_SELF_TRADING"
    } else if (tif === "TIME_IN_FORCE_IOC" || tif === "TIME_IN_FORCE_FOK" || order.limit === undefined) {
      status = remaining < order.size ? "STATUS_PARTIALLY_FILLED" : "STATUS_STOPPED"
    } else status = "STATUS_ACTIVE"
    const row = this.writeOrder(
      {
        ...base,
        remaining,
        status,
        ...(reason === undefined ? {} : { reason })
      },
      height
    )
    if (status === "STATUS_ACTIVE") {
      book.add({ id: order.id, party: order.party, side: order.side, price: order.limit!, remaining, row })
      if (order.expiresAt > 0n) this.expiring.add(order.id)
    }
    return row
  }

  /** Trades `size` of a resting order with an incoming one, and writes the resting order's new state. */
  private fillPassive(
    order: Incoming,
    book: MarketBook,
    passive: Resting,
    price: bigint,
    size: bigint,
    height: number
  ): void {
    const vt = this.chain.blockTime(height)
    passive.remaining -= size
    const [buyer, seller] = order.side === "SIDE_BUY" ? [order.party, passive.party] : [passive.party, order.party]
    const [buyOrder, sellOrder] = order.side === "SIDE_BUY" ? [order.id, passive.id] : [passive.id, order.id]
    const { market, side: aggressor } = order
    this.trade({ market, buyer, seller, price, size, aggressor, buyOrder, sellOrder, type: "TYPE_DEFAULT" }, height)
    const done = passive.remaining === 0n
    if (done) {
      book.remove(passive.id)
      this.expiring.delete(passive.id)
    }
    const status = done ? ("STATUS_FILLED" as const) : ("STATUS_ACTIVE" as const)
    passive.row = this.writeOrder({ ...passive.row, remaining: passive.remaining, status, updatedAt: vt, vt }, height)
  }

  /** Takes a resting order off the book with its final status. */
  private retire(market: MarketInfo, id: string, status: OrderStatus, height: number): void {
    const order = this.books[market.index].remove(id)
    if (order === undefined) return
    this.expiring.delete(id)
    const vt = this.chain.blockTime(height)
    this.writeOrder({ ...order.row, status, updatedAt: vt, vt }, height)
  }

  /**
   * The market maker's ladder around the mark price of `height`: its quotes still on the book are
   * amended to their new prices (a new version each, to the back of the new level), the others
   * placed anew.
   */
  private quote(market: MarketInfo, height: number): void {
    const maker = this.makerOf(market)
    const book = this.books[market.index]
    const mark = this.markPrice(market, height)
    const step = this.step(market)
    const ladder = this.ladders[market.index]
    // the side moving away from the other goes first, so the maker never meets its own quotes
    const rising = mark > (this.quotedAt[market.index] ?? mark)
    this.quotedAt[market.index] = mark
    const sides = rising ? (["SIDE_SELL", "SIDE_BUY"] as const) : (["SIDE_BUY", "SIDE_SELL"] as const)
    for (const side of sides) {
      for (let level = 1; level <= LADDER_LEVELS; level++) {
        const slot = (side === "SIDE_BUY" ? 0 : LADDER_LEVELS) + level - 1
        const price = side === "SIDE_BUY" ? mark - step * BigInt(level) : mark + step * BigInt(level)
        const resting = book.byId.get(ladder[slot] ?? "")
        if (resting === undefined) {
          ladder[slot] = this.placeQuote(market, maker, side, price, height)
          continue
        }
        if (resting.price === price) continue
        book.remove(resting.id)
        const { row } = resting
        this.place(
          {
            id: row.id,
            party: maker,
            market,
            side,
            limit: price,
            size: resting.remaining,
            placedSize: row.size,
            timeInForce: row.timeInForce,
            expiresAt: 0n,
            reference: "",
            postOnly: false,
            reduceOnly: false,
            createdAt: row.createdAt,
            version: row.version + 1
          },
          height
        )
      }
    }
  }

  private placeQuote(market: MarketInfo, maker: Party, side: OrderSide, price: bigint, height: number): string {
    const id = this.nextId(height)
    this.place(
      {
        id,
        party: maker,
        market,
        side,
        limit: price,
        size: QUOTE_SIZE,
        timeInForce: "TIME_IN_FORCE_GTC",
        expiresAt: 0n,
        reference: "",
        postOnly: false,
        reduceOnly: false
      },
      height
    )
    return id
  }

  /** Places again, at the same price, each quote of the ladder that was filled in full. */
  private replenish(market: MarketInfo, height: number): void {
    const ladder = this.ladders[market.index]
    const book = this.books[market.index]
    for (let i = 0; i < ladder.length; i++) {
      if (book.byId.has(ladder[i])) continue
      const filled = this.orders.current(ladder[i])!
      if (filled.status !== "STATUS_FILLED") continue
      ladder[i] = this.placeQuote(market, filled.party, filled.side, filled.price, height)
    }
  }

  /** The first quotes, at the height the world starts from. */
  open(height: number): void {
    for (const market of this.catalog.markets) this.quote(market, height)
  }

  /** The network takes over a closed-out position at the mark price. */
  closeOut(position: PositionRow, height: number): void {
    const volume = BigInt(position.openVolume)
    if (volume === 0n) return
    const { market } = position
    const network = this.catalog.network
    const mark = this.markPrice(market, height)
    const vt = this.chain.blockTime(height)
    const size = volume < 0n ? -volume : volume
    // the party sells a long position to the network, buys back a short one from it
    const networkSide: OrderSide = volume > 0n ? "SIDE_BUY" : "SIDE_SELL"
    const id = this.nextId(height)
    this.writeOrder(
      {
        id,
        party: network,
        market,
        side: networkSide,
        price: 0n,
        size,
        remaining: 0n,
        timeInForce: "TIME_IN_FORCE_FOK",
        type: "TYPE_NETWORK",
        status: "STATUS_FILLED",
        createdAt: vt,
        updatedAt: 0,
        expiresAt: 0n,
        reference: "",
        version: 1,
        postOnly: false,
        reduceOnly: false,
        vt
      },
      height
    )
    const [buyer, seller] = volume > 0n ? [network, position.party] : [position.party, network]
    const type = "TYPE_NETWORK_CLOSE_OUT_BAD"
    this.trade(
      { market, buyer, seller, price: mark, size, aggressor: networkSide, buyOrder: id, sellOrder: id, type },
      height
    )
  }

  /**
   * One block of the world's own trading: GTT orders whose time has come expire, market makers
   * requote when the mark moves, takers trade, filled quotes are placed again.
   */
  advance(random: Random, height: number, takers: number): void {
    const now = this.nanosAt(height)
    for (const id of [...this.expiring]) {
      const row = this.orders.current(id)!
      if (row.expiresAt <= now) this.retire(row.market, id, "STATUS_EXPIRED", height)
    }
    if (Math.floor(height / MARK_WINDOW) !== Math.floor((height - 1) / MARK_WINDOW)) {
      for (const market of this.catalog.markets) this.quote(market, height)
    }
    const traded = new Set<MarketInfo>()
    for (let i = 0; i < takers; i++) {
      const position = this.positions.pickGenerated(random)
      if (position === undefined) break
      const { market, party } = position
      if (party === this.catalog.network || party === this.makerOf(market)) continue
      const volume = BigInt(position.openVolume)
      // takers lean towards closing positions that grew large
      const side: OrderSide =
        volume > 50_000n ? "SIDE_SELL" : volume < -50_000n ? "SIDE_BUY" : random.chance(0.5) ? "SIDE_BUY" : "SIDE_SELL"
      this.place(
        {
          id: this.nextId(height),
          party,
          market,
          side,
          limit: undefined,
          size: BigInt(1 + random.int(MAX_TAKE)),
          timeInForce: "TIME_IN_FORCE_IOC",
          expiresAt: 0n,
          reference: "",
          postOnly: false,
          reduceOnly: false
        },
        height
      )
      traded.add(market)
    }
    for (const market of traded) this.replenish(market, height)
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
    const tif = cmd.timeInForce as OrderTimeInForce
    if (tif === "TIME_IN_FORCE_GFA") return OrderErrors.gfaDuringContinuousTrading
    if (tif === "TIME_IN_FORCE_GTT" && cmd.expiresAt <= this.nanosAt(height)) return OrderErrors.expiryBeforeCreation
    const side = cmd.side as OrderSide
    const limit = cmd.type === "TYPE_MARKET" ? undefined : BigInt(cmd.price)
    const book = this.books[market.index]
    const best = book.best(opposite(side))
    const crosses =
      best !== undefined && (limit === undefined || (side === "SIDE_BUY" ? limit >= best.price : limit <= best.price))
    if (cmd.postOnly && crosses) return OrderErrors.postOnlyWouldTrade
    let size = cmd.size
    if (cmd.reduceOnly) {
      const open = this.openVolume(party, market)
      if (open === 0n || open > 0n === (side === "SIDE_BUY")) return OrderErrors.reduceOnlyWouldNotReduce
      const most = open < 0n ? -open : open
      if (size > most) size = most
    }
    this.place(
      {
        id,
        party: join(),
        market,
        side,
        limit,
        size,
        timeInForce: tif,
        expiresAt: tif === "TIME_IN_FORCE_GTT" ? cmd.expiresAt : 0n,
        reference: cmd.reference,
        postOnly: cmd.postOnly,
        reduceOnly: cmd.reduceOnly
      },
      height
    )
    return undefined
  }

  /**
   * Applies an `OrderCancellation`: one order (order and market ids), every order of the party in
   * a market (market id only) or every order of the party (neither). Cancelling nothing succeeds.
   */
  cancel(
    partyId: string,
    markets: ReadonlyMap<string, MarketInfo>,
    cmd: Commands.OrderCancellation,
    height: number
  ): string | undefined {
    if (cmd.orderId !== "" && cmd.marketId === "") return OrderErrors.invalidCancellation
    let market: MarketInfo | undefined
    if (cmd.marketId !== "") {
      market = markets.get(cmd.marketId)
      if (market === undefined) return OrderErrors.invalidMarketId
    }
    if (cmd.orderId !== "") {
      const order = this.books[market!.index].byId.get(cmd.orderId)
      if (order === undefined) return OrderErrors.orderNotFound
      if (order.party.id !== partyId) return OrderErrors.invalidPartyId
      this.retire(market!, order.id, "STATUS_CANCELLED", height)
      return undefined
    }
    for (const order of this.liveOrdersOf(partyId)) {
      if (market === undefined || order.market === market)
        this.retire(order.market, order.id, "STATUS_CANCELLED", height)
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
    const book = this.books[market.index]
    const resting = book.byId.get(cmd.orderId)
    if (resting === undefined) return OrderErrors.orderNotFound
    const order = resting.row
    if (order.party.id !== partyId) return OrderErrors.invalidPartyId
    if (cmd.peggedOffset !== "" || cmd.peggedReference !== "PEGGED_REFERENCE_UNSPECIFIED") {
      return OrderErrors.cannotAmendPeggedDetails
    }
    const timeInForce = amendedTimeInForce(order.timeInForce, cmd.timeInForce)
    if (timeInForce === undefined) return OrderErrors.cannotAmendToFokOrIoc
    const expiresAt = timeInForce === "TIME_IN_FORCE_GTT" ? (cmd.expiresAt ?? order.expiresAt) : 0n
    if (timeInForce === "TIME_IN_FORCE_GTT" && expiresAt <= this.nanosAt(height)) {
      return OrderErrors.expiryBeforeCreation
    }
    const traded = order.size - order.remaining
    const size = cmd.size ?? order.size + cmd.sizeDelta
    const remaining = size - traded
    if (remaining <= 0n) {
      this.retire(market, order.id, "STATUS_CANCELLED", height)
      return undefined
    }
    const price = cmd.price === undefined ? order.price : BigInt(cmd.price)
    const vt = this.chain.blockTime(height)
    const amended = {
      ...order,
      price,
      size,
      remaining,
      timeInForce,
      expiresAt,
      version: order.version + 1,
      updatedAt: vt,
      vt
    }
    if (price === order.price && remaining <= order.remaining) {
      // a smaller order at the same price keeps its place in the queue
      resting.remaining = remaining
      resting.row = this.writeOrder(amended, height)
      if (expiresAt > 0n) this.expiring.add(order.id)
      else this.expiring.delete(order.id)
      return undefined
    }
    // a new price or a larger size goes to the back of its level, and may trade
    book.remove(order.id)
    this.expiring.delete(order.id)
    this.place(
      {
        id: order.id,
        party: order.party,
        market,
        side: order.side,
        limit: price,
        size: remaining,
        placedSize: size,
        timeInForce,
        expiresAt,
        reference: order.reference,
        postOnly: order.postOnly,
        reduceOnly: order.reduceOnly,
        createdAt: order.createdAt,
        version: order.version + 1
      },
      height
    )
    return undefined
  }

  /** The orders of a party on the book now, in the order they were placed. */
  liveOrdersOf(partyId: string): Array<OrderRow> {
    const out: Array<OrderRow> = []
    for (const placed of this.orders.byParty.get(partyId) ?? []) {
      const row = this.orders.current(placed.id)!
      if (row.status === "STATUS_ACTIVE") out.push(row)
    }
    return out
  }
}
