/**
 * Orders and trades as the node writes them (`vega.Order`, `vega.Trade`), from the exchange's
 * rows: the REST routes, the streams and the event bus all write these values.
 */
import { Vega } from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { TradeFees } from "../world/fees.js"
import type { OrderRow } from "../world/orderTable.js"
import type { TradeRow } from "../world/trades.js"
import { type NodeVersion, since } from "./nodeVersion.js"

const nanos = (micros: number): bigint => BigInt(micros) * 1000n

export const orderValue = (row: OrderRow): Vega.Order =>
  ({
    id: row.id,
    marketId: row.market.id,
    partyId: row.party.id,
    side: row.side,
    price: row.price,
    size: row.size,
    remaining: row.remaining,
    timeInForce: row.timeInForce,
    type: row.type,
    createdAt: nanos(row.createdAt),
    status: row.status,
    expiresAt: row.expiresAt,
    reference: row.reference,
    ...(row.reason === undefined ? {} : { reason: row.reason }),
    updatedAt: nanos(row.updatedAt),
    version: BigInt(row.version),
    batchId: 0n,
    liquidityProvisionId: "",
    postOnly: row.postOnly,
    reduceOnly: row.reduceOnly
  }) as Vega.Order

/** A fee as the node writes it: the discounts it records are zero (no programs run here). */
const feeValue = (fee: TradeFees): Vega.Fee => ({
  makerFee: fee.makerFee,
  infrastructureFee: fee.infrastructureFee,
  liquidityFee: fee.liquidityFee,
  makerFeeVolumeDiscount: Option.some(0n),
  infrastructureFeeVolumeDiscount: Option.some(0n),
  liquidityFeeVolumeDiscount: Option.some(0n),
  makerFeeReferrerDiscount: Option.some(0n),
  infrastructureFeeReferrerDiscount: Option.some(0n),
  liquidityFeeReferrerDiscount: Option.some(0n)
})

export const tradeValue = (row: TradeRow): Vega.Trade =>
  ({
    id: row.id,
    marketId: row.market.id,
    price: row.price,
    size: row.size,
    buyer: row.buyer.id,
    seller: row.seller.id,
    aggressor: row.aggressor,
    buyOrder: row.buyOrder,
    sellOrder: row.sellOrder,
    timestamp: nanos(row.vt),
    type: row.type,
    buyerFee: feeValue(row.buyerFee),
    sellerFee: feeValue(row.sellerFee),
    buyerAuctionBatch: 0n,
    sellerAuctionBatch: 0n,
    // the trade's price in asset decimals, as the core sets it
    assetPrice: Option.some(row.price * 10n ** BigInt(row.market.settlementAsset.decimals - row.market.priceDecimals))
  }) as Vega.Trade

const encodeTrade = Schema.encodeSync(Vega.Trade)

/** v0.79's fees add the treasury, buy-back and high-volume maker fees: none is charged here. */
const laterFees = (fee: Vega.FeeEncoded | null): object | null =>
  fee === null ? null : { ...fee, treasuryFee: "0", buyBackFee: "0", highVolumeMakerFee: "0" }

/** A trade as the REST gateway of a node of `version` writes it. */
export const tradeJson = (row: TradeRow, version: NodeVersion): string => {
  const encoded = encodeTrade(tradeValue(row))
  if (!since(version, "v0.79")) return JSON.stringify(encoded)
  return JSON.stringify({ ...encoded, buyerFee: laterFees(encoded.buyerFee), sellerFee: laterFees(encoded.sellerFee) })
}
