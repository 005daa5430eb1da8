/**
 * Orders as the data node stores them: a row per change of an order (placed, partly filled,
 * amended, filled, cancelled, expired, stopped, rejected), each visible from the height of the
 * block that made it until the next change of that order. Changes made in one block are all kept
 * (in the order they were made, `seq`), but a view at a height sees only the last of them.
 */
import type { MarketInfo, Party } from "./catalog.js"
import { Placements } from "./placements.js"
import type { Versioned } from "./versioned.js"

export type OrderSide = "SIDE_BUY" | "SIDE_SELL"

export type OrderStatus =
  | "STATUS_ACTIVE"
  | "STATUS_EXPIRED"
  | "STATUS_CANCELLED"
  | "STATUS_STOPPED"
  | "STATUS_FILLED"
  | "STATUS_REJECTED"
  | "STATUS_PARTIALLY_FILLED"

export type OrderType = "TYPE_LIMIT" | "TYPE_MARKET" | "TYPE_NETWORK"

export type OrderTimeInForce =
  | "TIME_IN_FORCE_GTC"
  | "TIME_IN_FORCE_GTT"
  | "TIME_IN_FORCE_IOC"
  | "TIME_IN_FORCE_FOK"
  | "TIME_IN_FORCE_GFA"
  | "TIME_IN_FORCE_GFN"

export interface OrderRow extends Versioned {
  readonly id: string
  readonly party: Party
  readonly market: MarketInfo
  readonly side: OrderSide
  /** Market decimals; 0 for market and network orders. */
  readonly price: bigint
  /** Position decimals. */
  readonly size: bigint
  readonly remaining: bigint
  readonly timeInForce: OrderTimeInForce
  readonly type: OrderType
  readonly status: OrderStatus
  /** The `vega.OrderError` name of a rejected or stopped order. */
  readonly reason?: string
  /** Unix microseconds. */
  readonly createdAt: number
  /** Unix microseconds of the change; 0 until the order first changes. */
  readonly updatedAt: number
  /** Unix nanoseconds; 0 when it does not expire. */
  readonly expiresAt: bigint
  readonly reference: string
  /** 1, then one more per amendment. */
  readonly version: number
  readonly postOnly: boolean
  readonly reduceOnly: boolean
  /** The block time of this change, unix microseconds (`vega_time`). */
  readonly vt: number
  /** The change's place among every order change of the world. */
  readonly seq: number
}

/** Whether an order in this state is still on the book. */
export const isLive = (row: OrderRow): boolean => row.status === "STATUS_ACTIVE"

export class OrderTable extends Placements<OrderRow> {
  /** Every change, in the order made. */
  readonly log: Array<OrderRow> = []
  private seq = 0

  /** Writes a change at `height` (the first one of an order places it). */
  write(row: Omit<OrderRow, "seq" | "from" | "to">, height: number): OrderRow {
    const written: OrderRow = { ...row, seq: this.seq++, from: height, to: Infinity }
    this.add(written)
    this.log.push(written)
    return written
  }
}
