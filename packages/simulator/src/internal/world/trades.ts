/**
 * Trades: one row per fill, never changed after the block that made it. A trade's price is the
 * passive order's; the aggressor pays the fees (`fees.ts`).
 *
 * The data node keys its trades table by a synthetic time (`datanode/entities/trade.go`,
 * `TradeFromProto`, v0.75.8): the block time plus the trade event's sequence number in the block,
 * in microseconds; it lists trades in that order. The lists here are kept in that order too.
 */
import type { MarketInfo, Party } from "./catalog.js"
import type { TradeFees } from "./fees.js"
import type { OrderSide } from "./orderTable.js"
import { insertSorted } from "./versioned.js"

export type TradeType = "TYPE_DEFAULT" | "TYPE_NETWORK_CLOSE_OUT_GOOD" | "TYPE_NETWORK_CLOSE_OUT_BAD"

export interface TradeRow {
  readonly id: string
  readonly market: MarketInfo
  /** Market decimals. */
  readonly price: bigint
  /** Position decimals. */
  readonly size: bigint
  readonly buyer: Party
  readonly seller: Party
  readonly aggressor: OrderSide | "SIDE_UNSPECIFIED"
  readonly buyOrder: string
  readonly sellOrder: string
  readonly type: TradeType
  readonly buyerFee: TradeFees
  readonly sellerFee: TradeFees
  /** The height of the block that made it. */
  readonly height: number
  /** Block time, unix microseconds. */
  readonly vt: number
  /** Block time plus the trade event's sequence number in the block, unix microseconds. */
  readonly syntheticTime: number
  /** Its place among the world's trades, in the order made. */
  readonly seq: number
}

const bySyntheticTime = (a: TradeRow, b: TradeRow): number => a.syntheticTime - b.syntheticTime

/**
 * Appends in synthetic-time order: a trade goes at the end unless the block before made so many
 * events that its synthetic times reach past this block's time.
 */
const add = (rows: Array<TradeRow>, trade: TradeRow): void => {
  if (rows.length === 0 || rows[rows.length - 1].syntheticTime <= trade.syntheticTime) rows.push(trade)
  else insertSorted(rows, trade, bySyntheticTime)
}

export class Trades {
  /** Every trade, in synthetic-time order (the order made, but for blocks of very many events). */
  readonly log: Array<TradeRow> = []
  /**
   * Trades by market index, and by party id (a party's trades on either side, once each), in
   * synthetic-time order.
   */
  readonly byMarket: Array<Array<TradeRow> | undefined> = []
  readonly byParty = new Map<string, Array<TradeRow>>()

  record(row: Omit<TradeRow, "seq">): TradeRow {
    const trade: TradeRow = { ...row, seq: this.log.length }
    add(this.log, trade)
    add((this.byMarket[trade.market.index] ??= []), trade)
    this.indexParty(trade.buyer.id, trade)
    if (trade.seller !== trade.buyer) this.indexParty(trade.seller.id, trade)
    return trade
  }

  private indexParty(id: string, trade: TradeRow): void {
    let own = this.byParty.get(id)
    if (own === undefined) this.byParty.set(id, (own = []))
    add(own, trade)
  }
}
