/**
 * Markets as served by `GET /api/v2/markets` and `GET /api/v2/market/{marketId}`.
 *
 * `decimalPlaces` decodes to {@link Scaling.PriceDecimals} (prices) and `positionDecimalPlaces`
 * to {@link Scaling.PositionDecimals} (volumes, may be negative), so the two cannot be mixed up.
 *
 * Members are in the order the node writes them (`vega.Market` declaration order). Not modelled,
 * and kept as raw JSON (typed `unknown`, written back unchanged) when present: `fees`,
 * `openingAuction`, `priceMonitoringSettings`, `liquidityMonitoringParameters`,
 * `liquiditySlaParams`, `liquidationStrategy`, `markPriceConfiguration`,
 * `tradableInstrument.marginCalculator` and its risk model (`logNormalRiskModel` /
 * `simpleRiskModel`), and the data source specs and bindings of futures and perpetuals
 * (`dataSourceSpecFor…`, `dataSourceSpecBinding`, `internalCompositePriceConfig`). Those members
 * are optional here, although a real node always writes the non-`optional` ones.
 *
 * The facts checked for v0.75 cover `id`, the instrument, both decimals, `state`, `tradingMode`,
 * `tickSize` and `marketTimestamps`; the other scalar members follow the v0.79 proto and are
 * optional, as are the members v0.76+ nodes append after `tickSize`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { Decimal, DecimalOrEmpty } from "./Decimal.js"
import * as Enum from "./Enum.js"
import { AssetId, MarketId, PartyId } from "./Ids.js"
import { Uint64 } from "./Integer.js"
import { Opaque, oneof, optional } from "./internal/proto.js"
import * as Pagination from "./Pagination.js"
import type * as Scaling from "./Scaling.js"
import { PositionDecimalsFromString, PriceDecimalsFromString } from "./Scaling.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * `vega.Market.State`
 *
 * @since 0.1.0
 * @category Enums
 */
export const MarketState = Enum.make("vega.Market.State", {
  STATE_UNSPECIFIED: 0,
  STATE_PROPOSED: 1,
  STATE_REJECTED: 2,
  STATE_PENDING: 3,
  STATE_CANCELLED: 4,
  STATE_ACTIVE: 5,
  STATE_SUSPENDED: 6,
  STATE_CLOSED: 7,
  STATE_TRADING_TERMINATED: 8,
  STATE_SETTLED: 9,
  STATE_SUSPENDED_VIA_GOVERNANCE: 10
})
/**
 * The values of the `MarketState` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type MarketState = Enum.Type<typeof MarketState>

/**
 * `vega.Market.TradingMode`. The last two values come from nodes newer than v0.75.
 *
 * @since 0.1.0
 * @category Enums
 */
export const TradingMode = Enum.make("vega.Market.TradingMode", {
  TRADING_MODE_UNSPECIFIED: 0,
  TRADING_MODE_CONTINUOUS: 1,
  TRADING_MODE_BATCH_AUCTION: 2,
  TRADING_MODE_OPENING_AUCTION: 3,
  TRADING_MODE_MONITORING_AUCTION: 4,
  TRADING_MODE_NO_TRADING: 5,
  TRADING_MODE_SUSPENDED_VIA_GOVERNANCE: 6,
  TRADING_MODE_LONG_BLOCK_AUCTION: 7,
  TRADING_MODE_PROTOCOL_AUTOMATED_PURCHASE_AUCTION: 8
})
/**
 * The values of the `TradingMode` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type TradingMode = Enum.Type<typeof TradingMode>

/**
 * `vega.FutureCap`: a capped future; `maxPrice` is in market price units.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const FutureCap = Schema.Struct({
  maxPrice: Amount,
  binarySettlement: optional(Schema.Boolean),
  fullyCollateralised: optional(Schema.Boolean)
}).annotations({ identifier: "FutureCap" })
/**
 * The decoded form of the `FutureCap` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type FutureCap = typeof FutureCap.Type

/**
 * `vega.Future`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Future = Schema.Struct({
  settlementAsset: AssetId,
  quoteName: Schema.String,
  dataSourceSpecForSettlementData: optional(Opaque),
  dataSourceSpecForTradingTermination: optional(Opaque),
  dataSourceSpecBinding: optional(Opaque),
  cap: optional(FutureCap)
}).annotations({ identifier: "Future" })
/**
 * The decoded form of the `Future` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Future = typeof Future.Type

/**
 * `vega.Spot`. `name` is sent by v0.75 nodes and dropped by later ones.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Spot = Schema.Struct({
  baseAsset: AssetId,
  quoteAsset: AssetId,
  name: optional(Schema.String)
}).annotations({ identifier: "Spot" })
/**
 * The decoded form of the `Spot` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Spot = typeof Spot.Type

/**
 * `vega.Perpetual`. Factors and bounds are exact decimals.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Perpetual = Schema.Struct({
  settlementAsset: AssetId,
  quoteName: Schema.String,
  marginFundingFactor: Decimal,
  interestRate: Decimal,
  clampLowerBound: Decimal,
  clampUpperBound: Decimal,
  dataSourceSpecForSettlementSchedule: optional(Opaque),
  dataSourceSpecForSettlementData: optional(Opaque),
  dataSourceSpecBinding: optional(Opaque),
  fundingRateScalingFactor: optional(Decimal),
  fundingRateLowerBound: optional(Decimal),
  fundingRateUpperBound: optional(Decimal),
  internalCompositePriceConfig: optional(Opaque)
}).annotations({ identifier: "Perpetual" })
/**
 * The decoded form of the `Perpetual` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Perpetual = typeof Perpetual.Type

/**
 * `vega.InstrumentMetadata`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const InstrumentMetadata = Schema.Struct({
  tags: Schema.Array(Schema.String)
}).annotations({ identifier: "InstrumentMetadata" })
/**
 * The decoded form of the `InstrumentMetadata` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type InstrumentMetadata = typeof InstrumentMetadata.Type

/**
 * `vega.Instrument`. The `product` oneof is laid out flat: at most one of `future`, `spot` and
 * `perpetual` is present (none when a newer node sends a product kind unknown here).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Instrument = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  name: Schema.String,
  metadata: InstrumentMetadata,
  future: optional(Future),
  spot: optional(Spot),
  perpetual: optional(Perpetual)
}).pipe(oneof("product", ["future", "spot", "perpetual"]), Schema.annotations({ identifier: "Instrument" }))
/**
 * The decoded form of the `Instrument` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Instrument = typeof Instrument.Type

/**
 * `vega.TradableInstrument`: the instrument, with its margin calculator and risk model kept as raw
 * JSON.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TradableInstrument = Schema.Struct({
  instrument: Instrument,
  marginCalculator: optional(Opaque),
  logNormalRiskModel: optional(Opaque),
  simpleRiskModel: optional(Opaque)
}).pipe(
  oneof("riskModel", ["logNormalRiskModel", "simpleRiskModel"]),
  Schema.annotations({ identifier: "TradableInstrument" })
)
/**
 * The decoded form of the `TradableInstrument` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type TradableInstrument = typeof TradableInstrument.Type

/**
 * `vega.MarketTimestamps`: unix nanoseconds, `0` for a step not reached yet.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const MarketTimestamps = Schema.Struct({
  proposed: VegaTimestamp,
  pending: VegaTimestamp,
  open: VegaTimestamp,
  close: VegaTimestamp
}).annotations({ identifier: "MarketTimestamps" })
/**
 * The decoded form of the `MarketTimestamps` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type MarketTimestamps = typeof MarketTimestamps.Type

/**
 * `vega.Market`. `tickSize` is in price units. The slippage factors and `lpPriceRange` decode to
 * `Option` because deprecated or not-applicable ones (spot markets) are written as `""`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Market = Schema.Struct({
  id: MarketId,
  tradableInstrument: TradableInstrument,
  decimalPlaces: PriceDecimalsFromString,
  fees: optional(Opaque),
  openingAuction: optional(Opaque),
  priceMonitoringSettings: optional(Opaque),
  liquidityMonitoringParameters: optional(Opaque),
  tradingMode: TradingMode,
  state: MarketState,
  marketTimestamps: MarketTimestamps,
  positionDecimalPlaces: PositionDecimalsFromString,
  lpPriceRange: optional(DecimalOrEmpty),
  linearSlippageFactor: optional(DecimalOrEmpty),
  quadraticSlippageFactor: optional(DecimalOrEmpty),
  parentMarketId: optional(MarketId),
  insurancePoolFraction: optional(Decimal),
  successorMarketId: optional(MarketId),
  liquiditySlaParams: optional(Opaque),
  liquidationStrategy: optional(Opaque),
  markPriceConfiguration: optional(Opaque),
  tickSize: Amount,
  enableTransactionReordering: optional(Schema.Boolean),
  allowedEmptyAmmLevels: optional(Uint64),
  allowedSellers: optional(Schema.Array(PartyId))
}).annotations({ identifier: "Market" })
/**
 * The decoded form of the `Market` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Market = typeof Market.Type

/**
 * The decimals that scale the market's prices.
 *
 * @since 0.1.0
 * @category Getters
 */
export const priceDecimals = (market: Market): Scaling.PriceDecimals => market.decimalPlaces

/**
 * The decimals that scale the market's volumes.
 *
 * @since 0.1.0
 * @category Getters
 */
export const positionDecimals = (market: Market): Scaling.PositionDecimals => market.positionDecimalPlaces

/**
 * The asset margins and PnL are paid in: the settlement asset of a future or perpetual, the quote
 * asset of a spot market; `undefined` for an unknown product.
 *
 * @since 0.1.0
 * @category Getters
 */
export const settlementAsset = (market: Market): AssetId | undefined => {
  const { future, perpetual, spot } = market.tradableInstrument.instrument
  return future?.settlementAsset ?? perpetual?.settlementAsset ?? spot?.quoteAsset
}

/**
 * Request of `GET /api/v2/market/{marketId}`; `marketId` goes in the path.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetMarketRequest = Schema.Struct({
  marketId: MarketId
}).annotations({ identifier: "GetMarketRequest" })
/**
 * The decoded form of the `GetMarketRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetMarketRequest = typeof GetMarketRequest.Type

/**
 * Response of `GET /api/v2/market/{marketId}`. An unknown market is a 404 with detail code 30002.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetMarketResponse = Schema.Struct({
  market: Market
}).annotations({ identifier: "GetMarketResponse" })
/**
 * The decoded form of the `GetMarketResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetMarketResponse = typeof GetMarketResponse.Type

/**
 * Request of `GET /api/v2/markets`: query `includeSettled` and `pagination.*`.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListMarketsRequest = Schema.Struct({
  includeSettled: optional(Schema.Boolean),
  pagination: optional(Pagination.PaginationParams)
}).annotations({ identifier: "ListMarketsRequest" })
/**
 * The decoded form of the `ListMarketsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListMarketsRequest = typeof ListMarketsRequest.Type

/**
 * Response of `GET /api/v2/markets`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListMarketsResponse = Schema.Struct({
  markets: Pagination.Connection(Market)
}).annotations({ identifier: "ListMarketsResponse" })
/**
 * The decoded form of the `ListMarketsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListMarketsResponse = typeof ListMarketsResponse.Type
