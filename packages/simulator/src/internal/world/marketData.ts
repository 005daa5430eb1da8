/**
 * Each market's book and market data as of any height, derived from the exchange's order table,
 * trades and positions (not from the live book, which holds only the current state), so a node
 * that lags reads the book it had.
 *
 * - **Depth** counts what the data node's market depth service counts (service/market_depth.go,
 *   entities/market_depth.go at v0.75.8): it ignores market orders and IOC and FOK orders (network
 *   orders are FOK), and holds every other order while it is ACTIVE with something remaining, by
 *   price level: the number of orders and the sum of their remaining size. Bids highest first,
 *   asks lowest first. The simulator has no pegged orders, so the static best prices are the best
 *   prices.
 * - **Depth updates**: at the end of a block the service publishes, per market whose levels
 *   changed, each level every order change touched, once per touch and in the order touched, with
 *   the level's state at the end of the block (it keeps pointers to the levels): a level emptied
 *   is written with no orders and no volume. A market's sequence number moves with every order
 *   event the service takes in, even one that changes no level; the previous sequence number of an
 *   update is the sequence number at the market's last update.
 * - **Book at a height** from the order versions visible at it: the resting versions of each
 *   market, with checkpoints every {@link CHECKPOINT_BLOCKS} blocks of what rests there (kept once
 *   the height is settled, below the world's), so a height is read from its checkpoint and the
 *   blocks after it.
 * - **Open interest** (the sum of the long open volumes) is recorded at the end of each block
 *   ({@link MarketData.settle}), since positions forget old versions.
 */
import type { Chain } from "./chain.js"
import type { MarketInfo, Party } from "./catalog.js"
import { EventTimes, FIRST_SEQUENCE } from "./eventTime.js"
import type { Funding, FundingState } from "./funding.js"
import { LpStatus, type LiquidityProvisions } from "./liquidity.js"
import { type Exchange, MARK_WINDOW, pnl } from "./orders.js"
import type { OrderRow, OrderSide } from "./orderTable.js"
import type { Positions } from "./positions.js"
import type { TradeRow } from "./trades.js"
import { compareStrings, upperBound, visibleAt } from "./versioned.js"

/** Blocks between two checkpoints of a market's resting orders. */
export const CHECKPOINT_BLOCKS = 64

/**
 * The markets' price monitoring triggers (`priceMonitoringSettings` of every market) and the band
 * each allows around the reference price, in thousandths: the bands are the simulator's choice
 * (the core derives them from the risk model).
 */
export const PRICE_MONITORING_TRIGGERS = [
  { horizon: 4320n, probability: "0.9999999", auctionExtension: 300n, bandPerMille: 50n },
  { horizon: 1440n, probability: "0.9999999", auctionExtension: 180n, bandPerMille: 30n }
] as const

/** `targetStakeParameters.scalingFactor` of every market, as a fraction. */
export const TARGET_STAKE_SCALING = { numerator: 5n, denominator: 100n, json: 0.05 } as const

/** `liquidationStrategy.disposalTimeStep` of every market, seconds. */
export const DISPOSAL_TIME_STEP_SECONDS = 10

/** One price level of a side. */
export interface DepthLevel {
  readonly price: bigint
  readonly orders: number
  readonly volume: bigint
}

/** A market's depth as the depth service holds it. */
export interface Depth {
  readonly buy: ReadonlyArray<DepthLevel>
  readonly sell: ReadonlyArray<DepthLevel>
  /** 0 while the service has taken in no order of the market. */
  readonly sequenceNumber: bigint
}

/** What one block changed in a market's depth. */
export interface DepthUpdate {
  readonly buy: ReadonlyArray<DepthLevel>
  readonly sell: ReadonlyArray<DepthLevel>
  readonly sequenceNumber: bigint
  readonly previousSequenceNumber: bigint
}

/** A liquidity provider of a market at a height. */
export interface Provider {
  readonly party: Party
  readonly commitment: bigint
}

/** A price monitoring bound at a height. */
export interface Bound {
  readonly trigger: (typeof PRICE_MONITORING_TRIGGERS)[number]
  readonly min: bigint
  readonly max: bigint
  readonly reference: bigint
}

/** The market data the core emits for a market at the end of a block, as far as it is modelled. */
export interface MarketDataRecord {
  readonly market: MarketInfo
  readonly height: number
  /** Block time, unix microseconds. */
  readonly vt: number
  /** `synthetic_time`, unix microseconds. */
  readonly synthetic: number
  readonly markPrice: bigint
  /** 0 when the side is empty (volumes too). */
  readonly bestBidPrice: bigint
  readonly bestBidVolume: bigint
  readonly bestOfferPrice: bigint
  readonly bestOfferVolume: bigint
  /** Half the sum of the best prices, rounded down; 0 unless both sides have orders. */
  readonly midPrice: bigint
  readonly openInterest: bigint
  /** 0 before the market's first trade. */
  readonly lastTradedPrice: bigint
  readonly targetStake: bigint
  readonly suppliedStake: bigint
  /** The ACTIVE provisions, by party id. */
  readonly providers: ReadonlyArray<Provider>
  readonly bounds: ReadonlyArray<Bound>
  /** Unix microseconds. */
  readonly nextMarkToMarket: number
  readonly nextNetworkCloseout: number
  /** Perpetuals with both prices: the funding period in progress. */
  readonly funding?: FundingState
}

/** Whether the depth service takes an order change in (service/market_depth.go `AddOrder`). */
export const countsInDepth = (row: OrderRow): boolean =>
  row.type !== "TYPE_MARKET" && row.timeInForce !== "TIME_IN_FORCE_FOK" && row.timeInForce !== "TIME_IN_FORCE_IOC"

/** Whether the version rests on the book as the depth service sees it. */
const rests = (row: OrderRow | undefined): boolean =>
  row !== undefined && countsInDepth(row) && row.status === "STATUS_ACTIVE" && row.remaining > 0n

/** The statuses that take a known order out of the depth (entities/market_depth.go `AddOrderUpdate`). */
const LEAVES_DEPTH = new Set([
  "STATUS_CANCELLED",
  "STATUS_EXPIRED",
  "STATUS_STOPPED",
  "STATUS_FILLED",
  "STATUS_PARTIALLY_FILLED",
  "STATUS_REJECTED",
  "STATUS_PARKED"
])

const fromOf = (row: OrderRow): number => row.from

interface MarketIndex {
  /** The order changes the depth service takes in, in the order made. */
  readonly changes: Array<OrderRow>
  /** Those of them that changed a level. */
  readonly changing: Array<OrderRow>
  /** The versions that rest on the book, in the order made. */
  readonly resting: Array<OrderRow>
  /** What rests at each checkpoint height (a multiple of {@link CHECKPOINT_BLOCKS}). */
  readonly checkpoints: Map<number, ReadonlyArray<OrderRow>>
  /** The open interest from each height on where it changed. */
  readonly interestHeights: Array<number>
  readonly interestValues: Array<bigint>
}

/** A level being replayed: the state the service's pointer shows at the end of the block. */
interface MutableLevel {
  readonly side: OrderSide
  readonly price: bigint
  orders: number
  volume: bigint
}

export class MarketData {
  /** Sequence numbers and synthetic times of order changes and trades. */
  readonly times: EventTimes
  private readonly markets: ReadonlyArray<MarketIndex>
  /** Order changes already indexed. */
  private synced = 0

  constructor(
    private readonly chain: Chain,
    private readonly exchange: Exchange,
    private readonly funding: Funding,
    private readonly positions: Positions,
    private readonly provisions: LiquidityProvisions,
    markets: ReadonlyArray<MarketInfo>,
    /** The first height with market data: the exchange opens there. */
    readonly firstHeight: number,
    /** The world's height: versions below it are settled. */
    private readonly worldHeight: () => number
  ) {
    this.times = new EventTimes(chain, exchange.orders, exchange.trades)
    this.markets = markets.map(() => ({
      changes: [],
      changing: [],
      resting: [],
      checkpoints: new Map(),
      interestHeights: [],
      interestValues: []
    }))
  }

  /** Indexes the order changes written since the last call. */
  private sync(): void {
    const { byId, log } = this.exchange.orders
    for (; this.synced < log.length; this.synced++) {
      const row = log[this.synced]
      if (!countsInDepth(row)) continue
      const index = this.markets[row.market.index]
      index.changes.push(row)
      const versions = byId.get(row.id)!
      const previous = versions[versions.lastIndexOf(row) - 1]
      if (rests(row) || rests(previous)) index.changing.push(row)
      if (rests(row)) index.resting.push(row)
    }
  }

  /** The resting versions of a market visible at `height`, in the order made. */
  restingAt(market: MarketInfo, height: number): ReadonlyArray<OrderRow> {
    this.sync()
    const index = this.markets[market.index]
    const settled = this.worldHeight()
    const checkpoint = Math.floor(height / CHECKPOINT_BLOCKS) * CHECKPOINT_BLOCKS
    // the latest checkpoint known at or below, then forward checkpoint by checkpoint
    // nothing rests below the first height, so the checkpoint below it is empty
    let at = Math.floor((this.firstHeight - 1) / CHECKPOINT_BLOCKS) * CHECKPOINT_BLOCKS
    let rows: ReadonlyArray<OrderRow> = []
    for (let c = checkpoint; c > at; c -= CHECKPOINT_BLOCKS) {
      const known = index.checkpoints.get(c)
      if (known !== undefined) {
        at = c
        rows = known
        break
      }
    }
    while (at < checkpoint) {
      const next = at + CHECKPOINT_BLOCKS
      rows = this.advanceRows(index, rows, at, next)
      if (next < settled) index.checkpoints.set(next, rows)
      at = next
    }
    return this.advanceRows(index, rows, at, height)
  }

  /** What rests at `to`, from what rested at `from` (<= `to`) and the versions made between. */
  private advanceRows(index: MarketIndex, rows: ReadonlyArray<OrderRow>, from: number, to: number) {
    const out = rows.filter((row) => row.to > to)
    const { resting } = index
    for (let i = upperBound(resting, from, fromOf); i < resting.length && resting[i].from <= to; i++) {
      if (resting[i].to > to) out.push(resting[i])
    }
    return out
  }

  /** A market's depth at `height`: every level, or `maxDepth` a side when it is above 0. */
  depthAt(market: MarketInfo, height: number, maxDepth = 0): Depth {
    const levels = new Map<string, MutableLevel>()
    for (const row of this.restingAt(market, height)) {
      const key = `${row.side}:${row.price}`
      const level = levels.get(key)
      if (level === undefined) levels.set(key, { side: row.side, price: row.price, orders: 1, volume: row.remaining })
      else {
        level.orders++
        level.volume += row.remaining
      }
    }
    const side = (which: OrderSide) => {
      const out = [...levels.values()]
        .filter((l) => l.side === which)
        .sort((a, b) => (a.price === b.price ? 0 : a.price > b.price === (which === "SIDE_BUY") ? -1 : 1))
        .map(({ orders, price, volume }) => ({ price, orders, volume }))
      return maxDepth > 0 ? out.slice(0, maxDepth) : out
    }
    return { buy: side("SIDE_BUY"), sell: side("SIDE_SELL"), sequenceNumber: this.sequenceAt(market, height) }
  }

  /** The market's depth sequence number at `height`: its last order event's (0 before any). */
  sequenceAt(market: MarketInfo, height: number): bigint {
    this.sync()
    const { changes } = this.markets[market.index]
    const at = upperBound(changes, height, fromOf)
    return at === 0 ? 0n : this.times.depthSequence(changes[at - 1])
  }

  /** What block `height` changed in a market's depth, replayed as the service does; none when nothing. */
  depthUpdateAt(market: MarketInfo, height: number): DepthUpdate | undefined {
    this.sync()
    const index = this.markets[market.index]
    const { changes, changing } = index
    const first = upperBound(changes, height - 1, fromOf)
    if (first === changes.length || changes[first].from !== height) return undefined
    const live = new Map<string, { side: OrderSide; price: bigint; remaining: bigint }>()
    const levels = new Map<string, MutableLevel>()
    const keyOf = (side: OrderSide, price: bigint) => `${side}:${price}`
    const add = (order: { side: OrderSide; price: bigint; remaining: bigint }, id: string): MutableLevel => {
      live.set(id, { ...order })
      const key = keyOf(order.side, order.price)
      let level = levels.get(key)
      if (level === undefined) {
        level = { side: order.side, price: order.price, orders: 1, volume: order.remaining }
        levels.set(key, level)
      } else {
        level.orders++
        level.volume += order.remaining
      }
      return level
    }
    const remove = (order: { side: OrderSide; price: bigint; remaining: bigint }, id: string): MutableLevel => {
      const key = keyOf(order.side, order.price)
      const level = levels.get(key)!
      level.orders--
      level.volume -= order.remaining
      if (level.orders === 0) levels.delete(key)
      live.delete(id)
      return level
    }
    for (const row of this.restingAt(market, height - 1)) add(row, row.id)
    const touched: Array<MutableLevel> = []
    for (let i = first; i < changes.length && changes[i].from === height; i++) {
      const row = changes[i]
      const known = live.get(row.id)
      if (known === undefined) {
        if (rests(row)) touched.push(add(row, row.id))
      } else if (LEAVES_DEPTH.has(row.status)) {
        touched.push(remove(known, row.id))
      } else if (known.price === row.price) {
        const level = levels.get(keyOf(known.side, known.price))!
        level.volume += row.remaining - known.remaining
        known.remaining = row.remaining
        touched.push(level)
      } else {
        touched.push(remove(known, row.id))
        if (row.remaining > 0n) touched.push(add(row, row.id))
      }
    }
    if (touched.length === 0) return undefined
    const out = (side: OrderSide) =>
      touched.filter((l) => l.side === side).map(({ orders, price, volume }) => ({ price, orders, volume }))
    // the market's previous update: the last block before with a change, as its sequence ended it
    const before = upperBound(changing, height - 1, fromOf)
    return {
      buy: out("SIDE_BUY"),
      sell: out("SIDE_SELL"),
      sequenceNumber: this.sequenceAt(market, height),
      previousSequenceNumber: before === 0 ? 0n : this.sequenceAt(market, changing[before - 1].from)
    }
  }

  /** The market's last trade made at or below `height`. */
  lastTradeAt(market: MarketInfo, height: number): TradeRow | undefined {
    const trades = this.exchange.trades.byMarket[market.index] ?? []
    const at = upperBound(trades, height, (t) => t.height)
    return at === 0 ? undefined : trades[at - 1]
  }

  /** Records the open interest each market ends block `height` with (called once the block is done). */
  settle(height: number): void {
    const totals = this.openInterestNow()
    for (const [i, index] of this.markets.entries()) {
      const last = index.interestValues.length - 1
      if (last >= 0 && index.interestHeights[last] >= height) continue
      if (last >= 0 && index.interestValues[last] === totals[i]) continue
      index.interestHeights.push(height)
      index.interestValues.push(totals[i])
    }
  }

  private openInterestNow(): Array<bigint> {
    const totals = this.markets.map(() => 0n)
    for (const row of this.positions.current.values()) {
      const volume = BigInt(row.openVolume)
      if (volume > 0n) totals[row.market.index] += volume
    }
    return totals
  }

  /** The sum of the long open volumes of a market at `height`. */
  openInterestAt(market: MarketInfo, height: number): bigint {
    const { interestHeights, interestValues } = this.markets[market.index]
    const last = interestHeights.length - 1
    // a height not yet settled is the world's own: what the positions hold now
    if (last < 0 || (height > interestHeights[last] && height >= this.worldHeight())) {
      return this.openInterestNow()[market.index]
    }
    const at = upperBound(interestHeights, height, (h) => h)
    return at === 0 ? 0n : interestValues[at - 1]
  }

  /**
   * The parties with ACTIVE liquidity provisions in a market at `height`, by party id, each with
   * its provisions' commitments summed (the core keeps fee shares per party).
   */
  providersAt(market: MarketInfo, height: number): Array<Provider> {
    const byParty = new Map<Party, bigint>()
    for (const row of this.provisions.byMarket.get(market.id) ?? []) {
      if (visibleAt(row, height) && row.status === LpStatus.ACTIVE) {
        byParty.set(row.party, (byParty.get(row.party) ?? 0n) + row.commitment)
      }
    }
    return [...byParty.entries()]
      .sort(([a], [b]) => compareStrings(a.key, b.key))
      .map(([party, commitment]) => ({ party, commitment }))
  }

  /**
   * `synthetic_time` of a market's data at `height`: block time plus the event's sequence number
   * in microseconds. The core emits a block's market data at its end; the simulator numbers them
   * from 3 in market order instead (see eventTime.ts), which keeps them within the block's
   * microseconds however busy the block.
   */
  syntheticTime(market: MarketInfo, height: number): number {
    return this.chain.blockTime(height) + FIRST_SEQUENCE + market.index
  }

  /** The market data of `market` at the end of block `height` (>= {@link firstHeight}). */
  recordAt(market: MarketInfo, height: number): MarketDataRecord {
    const vt = this.chain.blockTime(height)
    const markPrice = this.exchange.markPrice(market, height)
    const depth = this.depthAt(market, height, 1)
    const bid = depth.buy[0]
    const ask = depth.sell[0]
    const openInterest = this.openInterestAt(market, height)
    const providers = this.providersAt(market, height)
    const suppliedStake = providers.reduce((sum, p) => sum + p.commitment, 0n)
    const { denominator, numerator } = TARGET_STAKE_SCALING
    const nextWindow = (Math.floor(height / MARK_WINDOW) + 1) * MARK_WINDOW
    const step = DISPOSAL_TIME_STEP_SECONDS * 1_000_000
    const sinceOpen = vt - market.openMicros
    const funding = this.funding.stateAt(market, height)
    return {
      market,
      height,
      vt,
      synthetic: this.syntheticTime(market, height),
      markPrice,
      bestBidPrice: bid?.price ?? 0n,
      bestBidVolume: bid?.volume ?? 0n,
      bestOfferPrice: ask?.price ?? 0n,
      bestOfferVolume: ask?.volume ?? 0n,
      midPrice: bid !== undefined && ask !== undefined ? (bid.price + ask.price) / 2n : 0n,
      openInterest,
      lastTradedPrice: this.lastTradeAt(market, height)?.price ?? 0n,
      targetStake: (pnl(market, markPrice * openInterest) * numerator) / denominator,
      suppliedStake,
      providers,
      bounds: PRICE_MONITORING_TRIGGERS.map((trigger) => ({
        trigger,
        reference: markPrice,
        min: (markPrice * (1000n - trigger.bandPerMille)) / 1000n,
        max: (markPrice * (1000n + trigger.bandPerMille)) / 1000n
      })),
      nextMarkToMarket: this.chain.blockTime(nextWindow),
      nextNetworkCloseout: market.openMicros + (Math.floor(sinceOpen / step) + 1) * step,
      ...(funding === undefined ? {} : { funding })
    }
  }
}
