/**
 * One market's live limit order book: price levels per side, best first, each a queue of resting
 * orders in time priority. It holds only what is on the book now; every state an order went
 * through is in the order table.
 */
import type { Party } from "./catalog.js"
import type { OrderRow, OrderSide } from "./orderTable.js"

export interface Resting {
  readonly id: string
  readonly party: Party
  readonly side: OrderSide
  readonly price: bigint
  remaining: bigint
  /** The order's latest change. */
  row: OrderRow
}

export interface Level {
  readonly price: bigint
  readonly orders: Array<Resting>
}

/** Whether `price` is better than `than` for a side (higher bids, lower asks). */
const better = (side: OrderSide, price: bigint, than: bigint): boolean =>
  side === "SIDE_BUY" ? price > than : price < than

export class MarketBook {
  /** Bids, highest first. */
  readonly bids: Array<Level> = []
  /** Asks, lowest first. */
  readonly asks: Array<Level> = []
  readonly byId = new Map<string, Resting>()

  side(side: OrderSide): Array<Level> {
    return side === "SIDE_BUY" ? this.bids : this.asks
  }

  /** Where a price's level is, or would go, on a side. */
  private indexOf(levels: ReadonlyArray<Level>, side: OrderSide, price: bigint): number {
    let lo = 0
    let hi = levels.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (better(side, levels[mid].price, price)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Puts an order at the back of its price level. */
  add(order: Resting): void {
    const levels = this.side(order.side)
    const at = this.indexOf(levels, order.side, order.price)
    if (at < levels.length && levels[at].price === order.price) levels[at].orders.push(order)
    else levels.splice(at, 0, { price: order.price, orders: [order] })
    this.byId.set(order.id, order)
  }

  remove(id: string): Resting | undefined {
    const order = this.byId.get(id)
    if (order === undefined) return undefined
    this.byId.delete(id)
    const levels = this.side(order.side)
    const at = this.indexOf(levels, order.side, order.price)
    const level = levels[at]
    level.orders.splice(level.orders.indexOf(order), 1)
    if (level.orders.length === 0) levels.splice(at, 1)
    return order
  }

  best(side: OrderSide): Level | undefined {
    return this.side(side)[0]
  }

  /**
   * The volume an order of `side` limited at `limit` (none: any price) could take before it
   * meets an order of `party` (a wash trade stops it there).
   */
  available(side: OrderSide, limit: bigint | undefined, party: Party): bigint {
    const opposite = side === "SIDE_BUY" ? this.asks : this.bids
    let total = 0n
    for (const level of opposite) {
      if (limit !== undefined && (side === "SIDE_BUY" ? level.price > limit : level.price < limit)) break
      for (const order of level.orders) {
        if (order.party === party) return total
        total += order.remaining
      }
    }
    return total
  }
}
