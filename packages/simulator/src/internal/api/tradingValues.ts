/**
 * Orders and trades as the node writes them (`vega.Order`, `vega.Trade`), from the exchange's
 * rows: the data node's form for its REST routes and streams, and the core's form for the event
 * bus, which carries the core's own events.
 *
 * The two differ where the data node stores less than the core sends (v0.75.8):
 * - an order's times pass through `NanosToPostgresTimestamp` (`datanode/entities/order.go`,
 *   `OrderFromProto`), which truncates them to microseconds: a GTT order's `expiresAt` is answered
 *   without the nanoseconds it was submitted with;
 * - a trade's `assetPrice` is not a column of the data node's trades table and
 *   `entities.Trade.ToProto` does not set it (`datanode/entities/trade.go`), so the data node
 *   answers `""`; the core's trade event sets it to the price in asset decimals
 *   (`core/events/trade.go`).
 *
 * A v0.79 data node writes three more members of each fee (`vega.Fee` and `entities.Trade.ToProto`
 * at v0.79.0): the treasury, buy-back and high-volume maker fees, `"0"` here, as no simulated
 * market charges them. The schema knows the v0.75 `vega.Fee`, so {@link tradeJsonAs} adds them to
 * the encoded trade.
 */
import { type Vega } from "@vega-effect/schema"
import * as Option from "effect/Option"
import type { TradeFees } from "../world/fees.js"
import type { OrderRow } from "../world/orderTable.js"
import type { TradeRow } from "../world/trades.js"
import { type NodeVersion, since } from "./nodeVersion.js"

const nanos = (micros: number): bigint => BigInt(micros) * 1000n

/** Unix nanoseconds truncated to whole microseconds, as Go's `Truncate(time.Microsecond)` does. */
const toMicros = (n: bigint): bigint => {
  const r = n % 1000n
  return n - (r < 0n ? r + 1000n : r)
}

const orderOf = (row: OrderRow, expiresAt: bigint): Vega.Order =>
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
    expiresAt,
    reference: row.reference,
    ...(row.reason === undefined ? {} : { reason: row.reason }),
    updatedAt: nanos(row.updatedAt),
    version: BigInt(row.version),
    batchId: 0n,
    liquidityProvisionId: "",
    postOnly: row.postOnly,
    reduceOnly: row.reduceOnly
  }) as Vega.Order

/** An order as the data node answers it. */
export const orderValue = (row: OrderRow): Vega.Order => orderOf(row, toMicros(row.expiresAt))

/** An order as the core's order event carries it. */
export const coreOrderValue = (row: OrderRow): Vega.Order => orderOf(row, row.expiresAt)

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

const tradeOf = (row: TradeRow, assetPrice: Option.Option<bigint>): Vega.Trade =>
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
    assetPrice
  }) as Vega.Trade

/** A trade as the data node answers it: no `assetPrice`. */
export const tradeValue = (row: TradeRow): Vega.Trade => tradeOf(row, Option.none())

/** A trade as the core's trade event carries it, with its price in asset decimals. */
export const coreTradeValue = (row: TradeRow): Vega.Trade =>
  tradeOf(row, Option.some(row.price * 10n ** BigInt(row.market.settlementAsset.decimals - row.market.priceDecimals)))

/** The fee members v0.79 nodes add, after the v0.75 ones (field numbers 10 to 12). */
const V079_FEES = { treasuryFee: "0", buyBackFee: "0", highVolumeMakerFee: "0" } as const

const feeAs = (fee: unknown): unknown =>
  typeof fee === "object" && fee !== null ? { ...(fee as Record<string, unknown>), ...V079_FEES } : fee

/** An encoded trade (REST or stream form) as the data node of `version` writes it. */
export const tradeJsonAs = (encoded: Record<string, unknown>, version: NodeVersion): Record<string, unknown> =>
  since(version, "v0.79")
    ? { ...encoded, buyerFee: feeAs(encoded.buyerFee), sellerFee: feeAs(encoded.sellerFee) }
    : encoded
