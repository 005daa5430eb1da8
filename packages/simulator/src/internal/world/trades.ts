/**
 * Trades: one row per fill, never changed after the block that made it. A trade's price is the
 * passive order's; the aggressor pays the fees (`fees.ts`).
 */
import type { MarketInfo, Party } from "./catalog.js"
import type { TradeFees } from "./fees.js"
import type { OrderSide } from "./orderTable.js"

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
  /** Its place among the world's trades. */
  readonly seq: number
}

export class Trades {
  /** Every trade, in the order made. */
  readonly log: Array<TradeRow> = []
  /** Trades by market index, and by party id (a party's trades on either side, once each). */
  readonly byMarket: Array<Array<TradeRow> | undefined> = []
  readonly byParty = new Map<string, Array<TradeRow>>()

  record(row: Omit<TradeRow, "seq">): TradeRow {
    const trade: TradeRow = { ...row, seq: this.log.length }
    this.log.push(trade)
    ;(this.byMarket[trade.market.index] ??= []).push(trade)
    this.indexParty(trade.buyer.id, trade)
    if (trade.seller !== trade.buyer) this.indexParty(trade.seller.id, trade)
    return trade
  }

  private indexParty(id: string, trade: TradeRow): void {
    let own = this.byParty.get(id)
    if (own === undefined) this.byParty.set(id, (own = []))
    own.push(trade)
  }
}
