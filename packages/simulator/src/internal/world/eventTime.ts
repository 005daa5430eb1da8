/**
 * Where an order or trade change sits within its block, and the times the data node derives from
 * that place.
 *
 * The node stamps each row it stores from an event with the event's sequence number in the block
 * (`seq_num`), and derives from it:
 *
 * - a row's `synthetic_time`: the block time plus the sequence number in microseconds
 *   (sqlsubscribers/market_data.go and entities/trade.go at v0.75.8), which orders rows
 *   within a block and is what the candle aggregates bucket and what `lastUpdate` shows;
 * - the market depth's `sequenceNumber`: the block time in nanoseconds (truncated to microseconds)
 *   plus the sequence number of the last order event it took in (service/market_depth.go).
 *
 * The simulator's event bus numbers a block's events across every kind of change and the
 * transactions' results, which the world does not keep once the block is published. So here each
 * kind is numbered on its own: a block's order changes from {@link FIRST_SEQUENCE} in the order
 * made, and its trades likewise. The numbers are increasing within a block as the node's are, and
 * every derived time keeps its order, but they are not the bus event numbers (a stand-in, chosen
 * so a row's times depend on the world alone).
 */
import type { Chain } from "./chain.js"
import type { OrderRow, OrderTable } from "./orderTable.js"
import type { TradeRow, Trades } from "./trades.js"
import { lowerBound } from "./versioned.js"

/** BEGIN_BLOCK and TIME_UPDATE are a block's first two events: its changes come from 3. */
export const FIRST_SEQUENCE = 3

/** Block time in unix nanoseconds. */
export const nanosOf = (micros: number): bigint => BigInt(micros) * 1000n

/** Sequence numbers and synthetic times of a world's order changes and trades. */
export class EventTimes {
  constructor(
    private readonly chain: Chain,
    private readonly orders: OrderTable,
    private readonly trades: Trades
  ) {}

  /** The place of an order change among its block's order changes, from {@link FIRST_SEQUENCE}. */
  orderSequence(row: OrderRow): number {
    // a change's `seq` is its index in the log, which is sorted by height
    const first = lowerBound(this.orders.log, row.from, (r, h: number) => r.from - h)
    return row.seq - first + FIRST_SEQUENCE
  }

  /** The place of a trade among its block's trades, from {@link FIRST_SEQUENCE}. */
  tradeSequence(trade: TradeRow): number {
    const first = lowerBound(this.trades.log, trade.height, (t, h: number) => t.height - h)
    return trade.seq - first + FIRST_SEQUENCE
  }

  /** A trade's `synthetic_time`, unix microseconds. */
  tradeTime(trade: TradeRow): number {
    return trade.vt + this.tradeSequence(trade)
  }

  /** The depth sequence number an order change gives its market: block nanoseconds + sequence. */
  depthSequence(row: OrderRow): bigint {
    return nanosOf(this.chain.blockTime(row.from)) + BigInt(this.orderSequence(row))
  }
}
