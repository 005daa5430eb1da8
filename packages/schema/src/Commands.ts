/**
 * The commands a party submits in a transaction (`vega.commands.v1`), as the REST gateway writes
 * them in JSON (golang/protobuf jsonpb, `EmitDefaults: true`): lowerCamel names in proto
 * declaration order, 64-bit integers as decimal strings, enums as names, unset singular message
 * fields as `null`, proto3 `optional` fields and oneof members omitted when unset, repeated fields
 * always present.
 *
 * The decoded types mirror the proto messages: `string` fields (ids, prices, amounts, factors) are
 * kept as strings and enums are open, so an invalid command can be represented and then checked
 * with `CommandValidation`, which reports it in the node's own words.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as Enum from "./Enum.js"
import * as Integer from "./Integer.js"
import { nullable, oneof, optional } from "./internal/proto.js"

// -------------------------------------------------------------------------------------------------
// Enums
// -------------------------------------------------------------------------------------------------

/**
 * `vega.Side`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const Side = Enum.make("vega.Side", { SIDE_UNSPECIFIED: 0, SIDE_BUY: 1, SIDE_SELL: 2 })
/**
 * The values of the `Side` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type Side = Enum.Type<typeof Side>

/**
 * `vega.Order.Type`. `TYPE_NETWORK` is reserved for the network's own orders.
 *
 * @since 0.1.0
 * @category Enums
 */
export const OrderType = Enum.make("vega.Order.Type", {
  TYPE_UNSPECIFIED: 0,
  TYPE_LIMIT: 1,
  TYPE_MARKET: 2,
  TYPE_NETWORK: 3
})
/**
 * The values of the `OrderType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type OrderType = Enum.Type<typeof OrderType>

/**
 * `vega.Order.TimeInForce`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const TimeInForce = Enum.make("vega.Order.TimeInForce", {
  TIME_IN_FORCE_UNSPECIFIED: 0,
  TIME_IN_FORCE_GTC: 1,
  TIME_IN_FORCE_GTT: 2,
  TIME_IN_FORCE_IOC: 3,
  TIME_IN_FORCE_FOK: 4,
  TIME_IN_FORCE_GFA: 5,
  TIME_IN_FORCE_GFN: 6
})
/**
 * The values of the `TimeInForce` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type TimeInForce = Enum.Type<typeof TimeInForce>

/**
 * `vega.PeggedReference`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const PeggedReference = Enum.make("vega.PeggedReference", {
  PEGGED_REFERENCE_UNSPECIFIED: 0,
  PEGGED_REFERENCE_MID: 1,
  PEGGED_REFERENCE_BEST_BID: 2,
  PEGGED_REFERENCE_BEST_ASK: 3
})
/**
 * The values of the `PeggedReference` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type PeggedReference = Enum.Type<typeof PeggedReference>

/**
 * `vega.AccountType` (8 is unused). 24, `ACCOUNT_TYPE_REWARD_AVERAGE_POSITION`, is a v0.75 value
 * that v0.78 reserved; rows stored before keep it.
 *
 * @since 0.1.0
 * @category Enums
 */
export const AccountType = Enum.make("vega.AccountType", {
  ACCOUNT_TYPE_UNSPECIFIED: 0,
  ACCOUNT_TYPE_INSURANCE: 1,
  ACCOUNT_TYPE_SETTLEMENT: 2,
  ACCOUNT_TYPE_MARGIN: 3,
  ACCOUNT_TYPE_GENERAL: 4,
  ACCOUNT_TYPE_FEES_INFRASTRUCTURE: 5,
  ACCOUNT_TYPE_FEES_LIQUIDITY: 6,
  ACCOUNT_TYPE_FEES_MAKER: 7,
  ACCOUNT_TYPE_BOND: 9,
  ACCOUNT_TYPE_EXTERNAL: 10,
  ACCOUNT_TYPE_GLOBAL_INSURANCE: 11,
  ACCOUNT_TYPE_GLOBAL_REWARD: 12,
  ACCOUNT_TYPE_PENDING_TRANSFERS: 13,
  ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES: 14,
  ACCOUNT_TYPE_REWARD_MAKER_RECEIVED_FEES: 15,
  ACCOUNT_TYPE_REWARD_LP_RECEIVED_FEES: 16,
  ACCOUNT_TYPE_REWARD_MARKET_PROPOSERS: 17,
  ACCOUNT_TYPE_HOLDING: 18,
  ACCOUNT_TYPE_LP_LIQUIDITY_FEES: 19,
  ACCOUNT_TYPE_LIQUIDITY_FEES_BONUS_DISTRIBUTION: 20,
  ACCOUNT_TYPE_NETWORK_TREASURY: 21,
  ACCOUNT_TYPE_VESTING_REWARDS: 22,
  ACCOUNT_TYPE_VESTED_REWARDS: 23,
  ACCOUNT_TYPE_REWARD_AVERAGE_POSITION: 24,
  ACCOUNT_TYPE_REWARD_RELATIVE_RETURN: 25,
  ACCOUNT_TYPE_REWARD_RETURN_VOLATILITY: 26,
  ACCOUNT_TYPE_REWARD_VALIDATOR_RANKING: 27,
  ACCOUNT_TYPE_PENDING_FEE_REFERRAL_REWARD: 28,
  ACCOUNT_TYPE_ORDER_MARGIN: 29,
  ACCOUNT_TYPE_REWARD_REALISED_RETURN: 30,
  ACCOUNT_TYPE_BUY_BACK_FEES: 31,
  ACCOUNT_TYPE_REWARD_AVERAGE_NOTIONAL: 32,
  ACCOUNT_TYPE_REWARD_ELIGIBLE_ENTITIES: 33,
  ACCOUNT_TYPE_LOCKED_FOR_STAKING: 34
})
/**
 * The values of the `AccountType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type AccountType = Enum.Type<typeof AccountType>

/**
 * `vega.Vote.Value`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const VoteValue = Enum.make("vega.Vote.Value", { VALUE_UNSPECIFIED: 0, VALUE_NO: 1, VALUE_YES: 2 })
/**
 * The values of the `VoteValue` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type VoteValue = Enum.Type<typeof VoteValue>

/**
 * `vega.commands.v1.UndelegateSubmission.Method`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const UndelegateMethod = Enum.make("vega.commands.v1.UndelegateSubmission.Method", {
  METHOD_UNSPECIFIED: 0,
  METHOD_NOW: 1,
  METHOD_AT_END_OF_EPOCH: 2
})
/**
 * The values of the `UndelegateMethod` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type UndelegateMethod = Enum.Type<typeof UndelegateMethod>

/**
 * `vega.commands.v1.UpdateMarginMode.Mode`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const MarginMode = Enum.make("vega.commands.v1.UpdateMarginMode.Mode", {
  MODE_UNSPECIFIED: 0,
  MODE_CROSS_MARGIN: 1,
  MODE_ISOLATED_MARGIN: 2
})
/**
 * The values of the `MarginMode` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type MarginMode = Enum.Type<typeof MarginMode>

/**
 * `vega.StopOrder.ExpiryStrategy`: what happens to a stop order when it expires.
 *
 * @since 0.1.0
 * @category Enums
 */
export const StopOrderExpiryStrategy = Enum.make("vega.StopOrder.ExpiryStrategy", {
  EXPIRY_STRATEGY_UNSPECIFIED: 0,
  EXPIRY_STRATEGY_CANCELS: 1,
  EXPIRY_STRATEGY_SUBMIT: 2
})
/**
 * The values of the `StopOrderExpiryStrategy` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type StopOrderExpiryStrategy = Enum.Type<typeof StopOrderExpiryStrategy>

/**
 * `vega.StopOrder.SizeOverrideSetting`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const StopOrderSizeOverrideSetting = Enum.make("vega.StopOrder.SizeOverrideSetting", {
  SIZE_OVERRIDE_SETTING_UNSPECIFIED: 0,
  SIZE_OVERRIDE_SETTING_NONE: 1,
  SIZE_OVERRIDE_SETTING_POSITION: 2
})
/**
 * The values of the `StopOrderSizeOverrideSetting` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type StopOrderSizeOverrideSetting = Enum.Type<typeof StopOrderSizeOverrideSetting>

/**
 * `vega.DispatchMetric`: the metric a recurring reward transfer pays out on.
 *
 * @since 0.1.0
 * @category Enums
 */
export const DispatchMetric = Enum.make("vega.DispatchMetric", {
  DISPATCH_METRIC_UNSPECIFIED: 0,
  DISPATCH_METRIC_MAKER_FEES_PAID: 1,
  DISPATCH_METRIC_MAKER_FEES_RECEIVED: 2,
  DISPATCH_METRIC_LP_FEES_RECEIVED: 3,
  DISPATCH_METRIC_MARKET_VALUE: 4,
  // v0.75 nodes; reserved from v0.78, when AVERAGE_NOTIONAL replaced it
  DISPATCH_METRIC_AVERAGE_POSITION: 5,
  DISPATCH_METRIC_RELATIVE_RETURN: 6,
  DISPATCH_METRIC_RETURN_VOLATILITY: 7,
  DISPATCH_METRIC_VALIDATOR_RANKING: 8,
  DISPATCH_METRIC_REALISED_RETURN: 9,
  DISPATCH_METRIC_AVERAGE_NOTIONAL: 10,
  DISPATCH_METRIC_ELIGIBLE_ENTITIES: 11
})
/**
 * The values of the `DispatchMetric` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type DispatchMetric = Enum.Type<typeof DispatchMetric>

/**
 * `vega.EntityScope`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const EntityScope = Enum.make("vega.EntityScope", {
  ENTITY_SCOPE_UNSPECIFIED: 0,
  ENTITY_SCOPE_INDIVIDUALS: 1,
  ENTITY_SCOPE_TEAMS: 2
})
/**
 * The values of the `EntityScope` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type EntityScope = Enum.Type<typeof EntityScope>

/**
 * `vega.IndividualScope`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const IndividualScope = Enum.make("vega.IndividualScope", {
  INDIVIDUAL_SCOPE_UNSPECIFIED: 0,
  INDIVIDUAL_SCOPE_ALL: 1,
  INDIVIDUAL_SCOPE_IN_TEAM: 2,
  INDIVIDUAL_SCOPE_NOT_IN_TEAM: 3,
  INDIVIDUAL_SCOPE_AMM: 4
})
/**
 * The values of the `IndividualScope` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type IndividualScope = Enum.Type<typeof IndividualScope>

/**
 * `vega.DistributionStrategy`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const DistributionStrategy = Enum.make("vega.DistributionStrategy", {
  DISTRIBUTION_STRATEGY_UNSPECIFIED: 0,
  DISTRIBUTION_STRATEGY_PRO_RATA: 1,
  DISTRIBUTION_STRATEGY_RANK: 2,
  DISTRIBUTION_STRATEGY_RANK_LOTTERY: 3
})
/**
 * The values of the `DistributionStrategy` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type DistributionStrategy = Enum.Type<typeof DistributionStrategy>

// -------------------------------------------------------------------------------------------------
// Orders
// -------------------------------------------------------------------------------------------------

const PeggedOrder_ = Schema.Struct({
  reference: PeggedReference,
  offset: Schema.String
})
/**
 * The decoded form of the `PeggedOrder` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface PeggedOrder extends Schema.Schema.Type<typeof PeggedOrder_> {}
/**
 * The encoded form of the `PeggedOrder` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface PeggedOrderEncoded extends Schema.Schema.Encoded<typeof PeggedOrder_> {}
/**
 * `vega.PeggedOrder`: `1 reference`, `2 offset` (an unsigned integer in market price units).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PeggedOrder: Schema.Schema<PeggedOrder, PeggedOrderEncoded> = PeggedOrder_.annotations({
  identifier: "vega.PeggedOrder"
})

const IcebergOpts_ = Schema.Struct({
  peakSize: Integer.Uint64,
  minimumVisibleSize: Integer.Uint64
})
/**
 * The decoded form of the `IcebergOpts` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface IcebergOpts extends Schema.Schema.Type<typeof IcebergOpts_> {}
/**
 * The encoded form of the `IcebergOpts` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface IcebergOptsEncoded extends Schema.Schema.Encoded<typeof IcebergOpts_> {}
/**
 * `vega.commands.v1.IcebergOpts`: `1 peak_size`, `2 minimum_visible_size`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const IcebergOpts: Schema.Schema<IcebergOpts, IcebergOptsEncoded> = IcebergOpts_.annotations({
  identifier: "vega.commands.v1.IcebergOpts"
})

const OrderSubmission_ = Schema.Struct({
  marketId: Schema.String,
  price: Schema.String,
  size: Integer.Uint64,
  side: Side,
  timeInForce: TimeInForce,
  expiresAt: Integer.Int64,
  type: OrderType,
  reference: Schema.String,
  peggedOrder: nullable(PeggedOrder),
  postOnly: Schema.Boolean,
  reduceOnly: Schema.Boolean,
  icebergOpts: optional(IcebergOpts)
})
/**
 * The decoded form of the `OrderSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderSubmission extends Schema.Schema.Type<typeof OrderSubmission_> {}
/**
 * The encoded form of the `OrderSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderSubmissionEncoded extends Schema.Schema.Encoded<typeof OrderSubmission_> {}
/**
 * `vega.commands.v1.OrderSubmission` (InputData field 1001). `price` is an unsigned integer in
 * market price units, `expiresAt` Unix nanoseconds (GTT only), `peggedOrder` is `null` on the wire
 * when unset and `icebergOpts` (proto3 `optional`) is omitted.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OrderSubmission: Schema.Schema<OrderSubmission, OrderSubmissionEncoded> = OrderSubmission_.annotations({
  identifier: "vega.commands.v1.OrderSubmission"
})

const OrderCancellation_ = Schema.Struct({
  orderId: Schema.String,
  marketId: Schema.String
})
/**
 * The decoded form of the `OrderCancellation` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderCancellation extends Schema.Schema.Type<typeof OrderCancellation_> {}
/**
 * The encoded form of the `OrderCancellation` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderCancellationEncoded extends Schema.Schema.Encoded<typeof OrderCancellation_> {}
/**
 * `vega.commands.v1.OrderCancellation` (InputData field 1002). An empty `orderId` cancels every
 * order of the market, an empty `marketId` every order of the party.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OrderCancellation: Schema.Schema<OrderCancellation, OrderCancellationEncoded> =
  OrderCancellation_.annotations({ identifier: "vega.commands.v1.OrderCancellation" })

const OrderAmendment_ = Schema.Struct({
  orderId: Schema.String,
  marketId: Schema.String,
  price: optional(Schema.String),
  sizeDelta: Integer.Int64,
  expiresAt: optional(Integer.Int64),
  timeInForce: TimeInForce,
  peggedOffset: Schema.String,
  peggedReference: PeggedReference,
  size: optional(Integer.Uint64)
})
/**
 * The decoded form of the `OrderAmendment` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderAmendment extends Schema.Schema.Type<typeof OrderAmendment_> {}
/**
 * The encoded form of the `OrderAmendment` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OrderAmendmentEncoded extends Schema.Schema.Encoded<typeof OrderAmendment_> {}
/**
 * `vega.commands.v1.OrderAmendment` (InputData field 1003). `price`, `expiresAt` and `size` are
 * proto3 `optional` (omitted when unset).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OrderAmendment: Schema.Schema<OrderAmendment, OrderAmendmentEncoded> = OrderAmendment_.annotations({
  identifier: "vega.commands.v1.OrderAmendment"
})

// -------------------------------------------------------------------------------------------------
// Stop orders
// -------------------------------------------------------------------------------------------------

const StopOrderSizeOverrideValue_ = Schema.Struct({
  percentage: Schema.String
})
/**
 * The decoded form of the `StopOrderSizeOverrideValue` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrderSizeOverrideValue extends Schema.Schema.Type<typeof StopOrderSizeOverrideValue_> {}
/**
 * The encoded form of the `StopOrderSizeOverrideValue` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrderSizeOverrideValueEncoded extends Schema.Schema.Encoded<typeof StopOrderSizeOverrideValue_> {}
/**
 * `vega.StopOrder.SizeOverrideValue`: `1 percentage` (a decimal string).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StopOrderSizeOverrideValue: Schema.Schema<StopOrderSizeOverrideValue, StopOrderSizeOverrideValueEncoded> =
  StopOrderSizeOverrideValue_.annotations({ identifier: "vega.StopOrder.SizeOverrideValue" })

const StopOrderSetup_ = Schema.Struct({
  orderSubmission: nullable(OrderSubmission),
  expiresAt: optional(Integer.Int64),
  expiryStrategy: optional(StopOrderExpiryStrategy),
  sizeOverrideSetting: optional(StopOrderSizeOverrideSetting),
  sizeOverrideValue: optional(StopOrderSizeOverrideValue),
  // oneof trigger
  price: optional(Schema.String),
  trailingPercentOffset: optional(Schema.String)
}).pipe(oneof("trigger", ["price", "trailingPercentOffset"]))
/**
 * The decoded form of the `StopOrderSetup` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrderSetup extends Schema.Schema.Type<typeof StopOrderSetup_> {}
/**
 * The encoded form of the `StopOrderSetup` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrderSetupEncoded extends Schema.Schema.Encoded<typeof StopOrderSetup_> {}
/**
 * `vega.commands.v1.StopOrderSetup`. The trigger is the oneof `price` (100) /
 * `trailingPercentOffset` (101); at most one of them may be set.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StopOrderSetup: Schema.Schema<StopOrderSetup, StopOrderSetupEncoded> = StopOrderSetup_.annotations({
  identifier: "vega.commands.v1.StopOrderSetup"
})

const StopOrdersSubmission_ = Schema.Struct({
  risesAbove: optional(StopOrderSetup),
  fallsBelow: optional(StopOrderSetup)
})
/**
 * The decoded form of the `StopOrdersSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrdersSubmission extends Schema.Schema.Type<typeof StopOrdersSubmission_> {}
/**
 * The encoded form of the `StopOrdersSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrdersSubmissionEncoded extends Schema.Schema.Encoded<typeof StopOrdersSubmission_> {}
/**
 * `vega.commands.v1.StopOrdersSubmission` (InputData field 1016). Setting both sides makes a
 * one-cancels-other pair.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StopOrdersSubmission: Schema.Schema<StopOrdersSubmission, StopOrdersSubmissionEncoded> =
  StopOrdersSubmission_.annotations({ identifier: "vega.commands.v1.StopOrdersSubmission" })

const StopOrdersCancellation_ = Schema.Struct({
  marketId: optional(Schema.String),
  stopOrderId: optional(Schema.String)
})
/**
 * The decoded form of the `StopOrdersCancellation` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrdersCancellation extends Schema.Schema.Type<typeof StopOrdersCancellation_> {}
/**
 * The encoded form of the `StopOrdersCancellation` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StopOrdersCancellationEncoded extends Schema.Schema.Encoded<typeof StopOrdersCancellation_> {}
/**
 * `vega.commands.v1.StopOrdersCancellation` (InputData field 1017).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StopOrdersCancellation: Schema.Schema<StopOrdersCancellation, StopOrdersCancellationEncoded> =
  StopOrdersCancellation_.annotations({ identifier: "vega.commands.v1.StopOrdersCancellation" })

// -------------------------------------------------------------------------------------------------
// Margin mode and batches
// -------------------------------------------------------------------------------------------------

const UpdateMarginMode_ = Schema.Struct({
  marketId: Schema.String,
  mode: MarginMode,
  marginFactor: optional(Schema.String)
})
/**
 * The decoded form of the `UpdateMarginMode` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateMarginMode extends Schema.Schema.Type<typeof UpdateMarginMode_> {}
/**
 * The encoded form of the `UpdateMarginMode` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateMarginModeEncoded extends Schema.Schema.Encoded<typeof UpdateMarginMode_> {}
/**
 * `vega.commands.v1.UpdateMarginMode` (InputData field 1021).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const UpdateMarginMode: Schema.Schema<UpdateMarginMode, UpdateMarginModeEncoded> = UpdateMarginMode_.annotations(
  { identifier: "vega.commands.v1.UpdateMarginMode" }
)

const BatchMarketInstructions_ = Schema.Struct({
  cancellations: Schema.Array(OrderCancellation),
  amendments: Schema.Array(OrderAmendment),
  submissions: Schema.Array(OrderSubmission),
  stopOrdersCancellation: Schema.Array(StopOrdersCancellation),
  stopOrdersSubmission: Schema.Array(StopOrdersSubmission),
  updateMarginMode: Schema.Array(UpdateMarginMode)
})
/**
 * The decoded form of the `BatchMarketInstructions` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface BatchMarketInstructions extends Schema.Schema.Type<typeof BatchMarketInstructions_> {}
/**
 * The encoded form of the `BatchMarketInstructions` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface BatchMarketInstructionsEncoded extends Schema.Schema.Encoded<typeof BatchMarketInstructions_> {}
/**
 * `vega.commands.v1.BatchMarketInstructions` (InputData field 1015).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BatchMarketInstructions: Schema.Schema<BatchMarketInstructions, BatchMarketInstructionsEncoded> =
  BatchMarketInstructions_.annotations({ identifier: "vega.commands.v1.BatchMarketInstructions" })

// -------------------------------------------------------------------------------------------------
// Liquidity provision
// -------------------------------------------------------------------------------------------------

const LiquidityProvisionSubmission_ = Schema.Struct({
  marketId: Schema.String,
  commitmentAmount: Schema.String,
  fee: Schema.String,
  reference: Schema.String
})
/**
 * The decoded form of the `LiquidityProvisionSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionSubmission extends Schema.Schema.Type<typeof LiquidityProvisionSubmission_> {}
/**
 * The encoded form of the `LiquidityProvisionSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionSubmissionEncoded extends Schema.Schema.Encoded<
  typeof LiquidityProvisionSubmission_
> {}
/**
 * `vega.commands.v1.LiquidityProvisionSubmission` (InputData field 1007): `1 market_id`,
 * `2 commitment_amount`, `3 fee`, `6 reference`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvisionSubmission: Schema.Schema<
  LiquidityProvisionSubmission,
  LiquidityProvisionSubmissionEncoded
> = LiquidityProvisionSubmission_.annotations({ identifier: "vega.commands.v1.LiquidityProvisionSubmission" })

const LiquidityProvisionAmendment_ = Schema.Struct({
  marketId: Schema.String,
  commitmentAmount: Schema.String,
  fee: Schema.String,
  reference: Schema.String
})
/**
 * The decoded form of the `LiquidityProvisionAmendment` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionAmendment extends Schema.Schema.Type<typeof LiquidityProvisionAmendment_> {}
/**
 * The encoded form of the `LiquidityProvisionAmendment` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionAmendmentEncoded extends Schema.Schema.Encoded<
  typeof LiquidityProvisionAmendment_
> {}
/**
 * `vega.commands.v1.LiquidityProvisionAmendment` (InputData field 1011).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvisionAmendment: Schema.Schema<
  LiquidityProvisionAmendment,
  LiquidityProvisionAmendmentEncoded
> = LiquidityProvisionAmendment_.annotations({ identifier: "vega.commands.v1.LiquidityProvisionAmendment" })

const LiquidityProvisionCancellation_ = Schema.Struct({
  marketId: Schema.String
})
/**
 * The decoded form of the `LiquidityProvisionCancellation` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionCancellation extends Schema.Schema.Type<typeof LiquidityProvisionCancellation_> {}
/**
 * The encoded form of the `LiquidityProvisionCancellation` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LiquidityProvisionCancellationEncoded extends Schema.Schema.Encoded<
  typeof LiquidityProvisionCancellation_
> {}
/**
 * `vega.commands.v1.LiquidityProvisionCancellation` (InputData field 1010).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvisionCancellation: Schema.Schema<
  LiquidityProvisionCancellation,
  LiquidityProvisionCancellationEncoded
> = LiquidityProvisionCancellation_.annotations({ identifier: "vega.commands.v1.LiquidityProvisionCancellation" })

// -------------------------------------------------------------------------------------------------
// Transfers
// -------------------------------------------------------------------------------------------------

const Rank_ = Schema.Struct({
  startRank: Integer.Uint32,
  shareRatio: Integer.Uint32
})
/**
 * The decoded form of the `Rank` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Rank extends Schema.Schema.Type<typeof Rank_> {}
/**
 * The encoded form of the `Rank` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RankEncoded extends Schema.Schema.Encoded<typeof Rank_> {}
/**
 * `vega.Rank`: a band of a rank table, `1 start_rank`, `2 share_ratio` (both uint32).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Rank: Schema.Schema<Rank, RankEncoded> = Rank_.annotations({ identifier: "vega.Rank" })

const DispatchStrategy_ = Schema.Struct({
  assetForMetric: Schema.String,
  metric: DispatchMetric,
  markets: Schema.Array(Schema.String),
  entityScope: EntityScope,
  individualScope: IndividualScope,
  teamScope: Schema.Array(Schema.String),
  nTopPerformers: Schema.String,
  stakingRequirement: Schema.String,
  notionalTimeWeightedAveragePositionRequirement: Schema.String,
  windowLength: Integer.Uint64,
  lockPeriod: Integer.Uint64,
  distributionStrategy: DistributionStrategy,
  rankTable: Schema.Array(Rank),
  capRewardFeeMultiple: optional(Schema.String),
  transferInterval: optional(Integer.Int32),
  targetNotionalVolume: optional(Schema.String),
  // Newest field: tolerated when absent so that output of nodes predating it still decodes.
  eligibleKeys: Schema.optionalWith(Schema.Array(Schema.String), { exact: true, default: () => [] })
})
/**
 * The decoded form of the `DispatchStrategy` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DispatchStrategy extends Schema.Schema.Type<typeof DispatchStrategy_> {}
/**
 * The encoded form of the `DispatchStrategy` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DispatchStrategyEncoded extends Schema.Schema.Encoded<typeof DispatchStrategy_> {}
/**
 * `vega.DispatchStrategy`: how a recurring transfer into a reward account is paid out.
 * `capRewardFeeMultiple`, `transferInterval` and `targetNotionalVolume` are proto3 `optional`.
 * `eligibleKeys` decodes to `[]` when absent and is always encoded.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DispatchStrategy: Schema.Schema<DispatchStrategy, DispatchStrategyEncoded> = DispatchStrategy_.annotations(
  { identifier: "vega.DispatchStrategy" }
)

const OneOffTransfer_ = Schema.Struct({
  deliverOn: Integer.Int64
})
/**
 * The decoded form of the `OneOffTransfer` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OneOffTransfer extends Schema.Schema.Type<typeof OneOffTransfer_> {}
/**
 * The encoded form of the `OneOffTransfer` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OneOffTransferEncoded extends Schema.Schema.Encoded<typeof OneOffTransfer_> {}
/**
 * `vega.commands.v1.OneOffTransfer`: `1 deliver_on` (Unix nanoseconds, 0 = now).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OneOffTransfer: Schema.Schema<OneOffTransfer, OneOffTransferEncoded> = OneOffTransfer_.annotations({
  identifier: "vega.commands.v1.OneOffTransfer"
})

const RecurringTransfer_ = Schema.Struct({
  startEpoch: Integer.Uint64,
  endEpoch: optional(Integer.Uint64),
  factor: Schema.String,
  dispatchStrategy: nullable(DispatchStrategy)
})
/**
 * The decoded form of the `RecurringTransfer` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RecurringTransfer extends Schema.Schema.Type<typeof RecurringTransfer_> {}
/**
 * The encoded form of the `RecurringTransfer` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RecurringTransferEncoded extends Schema.Schema.Encoded<typeof RecurringTransfer_> {}
/**
 * `vega.commands.v1.RecurringTransfer`: `1 start_epoch`, `2 optional end_epoch`, `3 factor`,
 * `4 dispatch_strategy` (`null` when unset).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RecurringTransfer: Schema.Schema<RecurringTransfer, RecurringTransferEncoded> =
  RecurringTransfer_.annotations({ identifier: "vega.commands.v1.RecurringTransfer" })

const Transfer_ = Schema.Struct({
  fromAccountType: AccountType,
  to: Schema.String,
  toAccountType: AccountType,
  asset: Schema.String,
  amount: Schema.String,
  reference: Schema.String,
  from: optional(Schema.String),
  // oneof kind
  oneOff: optional(OneOffTransfer),
  recurring: optional(RecurringTransfer)
}).pipe(oneof("kind", ["oneOff", "recurring"]))
/**
 * The decoded form of the `Transfer` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Transfer extends Schema.Schema.Type<typeof Transfer_> {}
/**
 * The encoded form of the `Transfer` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface TransferEncoded extends Schema.Schema.Encoded<typeof Transfer_> {}
/**
 * `vega.commands.v1.Transfer` (InputData field 1012). The kind is the oneof `oneOff` (101) /
 * `recurring` (102); at most one of them may be set.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Transfer: Schema.Schema<Transfer, TransferEncoded> = Transfer_.annotations({
  identifier: "vega.commands.v1.Transfer"
})

const CancelTransfer_ = Schema.Struct({
  transferId: Schema.String
})
/**
 * The decoded form of the `CancelTransfer` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CancelTransfer extends Schema.Schema.Type<typeof CancelTransfer_> {}
/**
 * The encoded form of the `CancelTransfer` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CancelTransferEncoded extends Schema.Schema.Encoded<typeof CancelTransfer_> {}
/**
 * `vega.commands.v1.CancelTransfer` (InputData field 1013).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CancelTransfer: Schema.Schema<CancelTransfer, CancelTransferEncoded> = CancelTransfer_.annotations({
  identifier: "vega.commands.v1.CancelTransfer"
})

// -------------------------------------------------------------------------------------------------
// Withdrawals
// -------------------------------------------------------------------------------------------------

const Erc20WithdrawExt_ = Schema.Struct({
  receiverAddress: Schema.String
})
/**
 * The decoded form of the `Erc20WithdrawExt` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Erc20WithdrawExt extends Schema.Schema.Type<typeof Erc20WithdrawExt_> {}
/**
 * The encoded form of the `Erc20WithdrawExt` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Erc20WithdrawExtEncoded extends Schema.Schema.Encoded<typeof Erc20WithdrawExt_> {}
/**
 * `vega.Erc20WithdrawExt`: `1 receiver_address`, the Ethereum address that receives the funds.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Erc20WithdrawExt: Schema.Schema<Erc20WithdrawExt, Erc20WithdrawExtEncoded> = Erc20WithdrawExt_.annotations(
  { identifier: "vega.Erc20WithdrawExt" }
)

const WithdrawExt_ = Schema.Struct({
  // oneof ext
  erc20: optional(Erc20WithdrawExt)
})
/**
 * The decoded form of the `WithdrawExt` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface WithdrawExt extends Schema.Schema.Type<typeof WithdrawExt_> {}
/**
 * The encoded form of the `WithdrawExt` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface WithdrawExtEncoded extends Schema.Schema.Encoded<typeof WithdrawExt_> {}
/**
 * `vega.WithdrawExt`: the oneof `ext` with its only member `erc20` (1).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const WithdrawExt: Schema.Schema<WithdrawExt, WithdrawExtEncoded> = WithdrawExt_.annotations({
  identifier: "vega.WithdrawExt"
})

const WithdrawSubmission_ = Schema.Struct({
  amount: Schema.String,
  asset: Schema.String,
  ext: nullable(WithdrawExt)
})
/**
 * The decoded form of the `WithdrawSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface WithdrawSubmission extends Schema.Schema.Type<typeof WithdrawSubmission_> {}
/**
 * The encoded form of the `WithdrawSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface WithdrawSubmissionEncoded extends Schema.Schema.Encoded<typeof WithdrawSubmission_> {}
/**
 * `vega.commands.v1.WithdrawSubmission` (InputData field 1004).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const WithdrawSubmission: Schema.Schema<WithdrawSubmission, WithdrawSubmissionEncoded> =
  WithdrawSubmission_.annotations({ identifier: "vega.commands.v1.WithdrawSubmission" })

// -------------------------------------------------------------------------------------------------
// Governance and staking
// -------------------------------------------------------------------------------------------------

const VoteSubmission_ = Schema.Struct({
  proposalId: Schema.String,
  value: VoteValue
})
/**
 * The decoded form of the `VoteSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface VoteSubmission extends Schema.Schema.Type<typeof VoteSubmission_> {}
/**
 * The encoded form of the `VoteSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface VoteSubmissionEncoded extends Schema.Schema.Encoded<typeof VoteSubmission_> {}
/**
 * `vega.commands.v1.VoteSubmission` (InputData field 1006).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const VoteSubmission: Schema.Schema<VoteSubmission, VoteSubmissionEncoded> = VoteSubmission_.annotations({
  identifier: "vega.commands.v1.VoteSubmission"
})

const DelegateSubmission_ = Schema.Struct({
  nodeId: Schema.String,
  amount: Schema.String
})
/**
 * The decoded form of the `DelegateSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DelegateSubmission extends Schema.Schema.Type<typeof DelegateSubmission_> {}
/**
 * The encoded form of the `DelegateSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DelegateSubmissionEncoded extends Schema.Schema.Encoded<typeof DelegateSubmission_> {}
/**
 * `vega.commands.v1.DelegateSubmission` (InputData field 1008).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DelegateSubmission: Schema.Schema<DelegateSubmission, DelegateSubmissionEncoded> =
  DelegateSubmission_.annotations({ identifier: "vega.commands.v1.DelegateSubmission" })

const UndelegateSubmission_ = Schema.Struct({
  nodeId: Schema.String,
  amount: Schema.String,
  method: UndelegateMethod
})
/**
 * The decoded form of the `UndelegateSubmission` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UndelegateSubmission extends Schema.Schema.Type<typeof UndelegateSubmission_> {}
/**
 * The encoded form of the `UndelegateSubmission` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UndelegateSubmissionEncoded extends Schema.Schema.Encoded<typeof UndelegateSubmission_> {}
/**
 * `vega.commands.v1.UndelegateSubmission` (InputData field 1009).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const UndelegateSubmission: Schema.Schema<UndelegateSubmission, UndelegateSubmissionEncoded> =
  UndelegateSubmission_.annotations({ identifier: "vega.commands.v1.UndelegateSubmission" })

// -------------------------------------------------------------------------------------------------
// Parties, referral sets and teams
// -------------------------------------------------------------------------------------------------

const Metadata_ = Schema.Struct({
  key: Schema.String,
  value: Schema.String
})
/**
 * The decoded form of the `Metadata` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Metadata extends Schema.Schema.Type<typeof Metadata_> {}
/**
 * The encoded form of the `Metadata` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface MetadataEncoded extends Schema.Schema.Encoded<typeof Metadata_> {}
/**
 * `vega.Metadata`: a `key`/`value` pair of a party profile.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Metadata: Schema.Schema<Metadata, MetadataEncoded> = Metadata_.annotations({ identifier: "vega.Metadata" })

const UpdatePartyProfile_ = Schema.Struct({
  alias: Schema.String,
  metadata: Schema.Array(Metadata)
})
/**
 * The decoded form of the `UpdatePartyProfile` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdatePartyProfile extends Schema.Schema.Type<typeof UpdatePartyProfile_> {}
/**
 * The encoded form of the `UpdatePartyProfile` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdatePartyProfileEncoded extends Schema.Schema.Encoded<typeof UpdatePartyProfile_> {}
/**
 * `vega.commands.v1.UpdatePartyProfile` (InputData field 1024).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const UpdatePartyProfile: Schema.Schema<UpdatePartyProfile, UpdatePartyProfileEncoded> =
  UpdatePartyProfile_.annotations({ identifier: "vega.commands.v1.UpdatePartyProfile" })

const CreateReferralSetTeam_ = Schema.Struct({
  name: Schema.String,
  teamUrl: optional(Schema.String),
  avatarUrl: optional(Schema.String),
  closed: Schema.Boolean,
  allowList: Schema.Array(Schema.String)
})
/**
 * The decoded form of the `CreateReferralSetTeam` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CreateReferralSetTeam extends Schema.Schema.Type<typeof CreateReferralSetTeam_> {}
/**
 * The encoded form of the `CreateReferralSetTeam` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CreateReferralSetTeamEncoded extends Schema.Schema.Encoded<typeof CreateReferralSetTeam_> {}
/**
 * `vega.commands.v1.CreateReferralSet.Team`: `10 name`, `11 optional team_url`,
 * `12 optional avatar_url`, `13 closed`, `14 allow_list`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CreateReferralSetTeam: Schema.Schema<CreateReferralSetTeam, CreateReferralSetTeamEncoded> =
  CreateReferralSetTeam_.annotations({ identifier: "vega.commands.v1.CreateReferralSet.Team" })

const CreateReferralSet_ = Schema.Struct({
  isTeam: Schema.Boolean,
  team: optional(CreateReferralSetTeam),
  doNotCreateReferralSet: Schema.Boolean
})
/**
 * The decoded form of the `CreateReferralSet` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CreateReferralSet extends Schema.Schema.Type<typeof CreateReferralSet_> {}
/**
 * The encoded form of the `CreateReferralSet` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CreateReferralSetEncoded extends Schema.Schema.Encoded<typeof CreateReferralSet_> {}
/**
 * `vega.commands.v1.CreateReferralSet` (InputData field 1018).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CreateReferralSet: Schema.Schema<CreateReferralSet, CreateReferralSetEncoded> =
  CreateReferralSet_.annotations({ identifier: "vega.commands.v1.CreateReferralSet" })

const UpdateReferralSetTeam_ = Schema.Struct({
  name: optional(Schema.String),
  teamUrl: optional(Schema.String),
  avatarUrl: optional(Schema.String),
  closed: optional(Schema.Boolean),
  allowList: Schema.Array(Schema.String)
})
/**
 * The decoded form of the `UpdateReferralSetTeam` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateReferralSetTeam extends Schema.Schema.Type<typeof UpdateReferralSetTeam_> {}
/**
 * The encoded form of the `UpdateReferralSetTeam` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateReferralSetTeamEncoded extends Schema.Schema.Encoded<typeof UpdateReferralSetTeam_> {}
/**
 * `vega.commands.v1.UpdateReferralSet.Team`: every field but `allow_list` is proto3 `optional`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const UpdateReferralSetTeam: Schema.Schema<UpdateReferralSetTeam, UpdateReferralSetTeamEncoded> =
  UpdateReferralSetTeam_.annotations({ identifier: "vega.commands.v1.UpdateReferralSet.Team" })

const UpdateReferralSet_ = Schema.Struct({
  id: Schema.String,
  isTeam: Schema.Boolean,
  team: optional(UpdateReferralSetTeam)
})
/**
 * The decoded form of the `UpdateReferralSet` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateReferralSet extends Schema.Schema.Type<typeof UpdateReferralSet_> {}
/**
 * The encoded form of the `UpdateReferralSet` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface UpdateReferralSetEncoded extends Schema.Schema.Encoded<typeof UpdateReferralSet_> {}
/**
 * `vega.commands.v1.UpdateReferralSet` (InputData field 1019).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const UpdateReferralSet: Schema.Schema<UpdateReferralSet, UpdateReferralSetEncoded> =
  UpdateReferralSet_.annotations({ identifier: "vega.commands.v1.UpdateReferralSet" })

const ApplyReferralCode_ = Schema.Struct({
  id: Schema.String,
  doNotJoinTeam: Schema.Boolean
})
/**
 * The decoded form of the `ApplyReferralCode` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ApplyReferralCode extends Schema.Schema.Type<typeof ApplyReferralCode_> {}
/**
 * The encoded form of the `ApplyReferralCode` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ApplyReferralCodeEncoded extends Schema.Schema.Encoded<typeof ApplyReferralCode_> {}
/**
 * `vega.commands.v1.ApplyReferralCode` (InputData field 1020).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ApplyReferralCode: Schema.Schema<ApplyReferralCode, ApplyReferralCodeEncoded> =
  ApplyReferralCode_.annotations({ identifier: "vega.commands.v1.ApplyReferralCode" })

const JoinTeam_ = Schema.Struct({
  id: Schema.String
})
/**
 * The decoded form of the `JoinTeam` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export interface JoinTeam extends Schema.Schema.Type<typeof JoinTeam_> {}
/**
 * The encoded form of the `JoinTeam` schema: the JSON the REST gateway reads and writes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface JoinTeamEncoded extends Schema.Schema.Encoded<typeof JoinTeam_> {}
/**
 * `vega.commands.v1.JoinTeam` (InputData field 1022).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const JoinTeam: Schema.Schema<JoinTeam, JoinTeamEncoded> = JoinTeam_.annotations({
  identifier: "vega.commands.v1.JoinTeam"
})

// -------------------------------------------------------------------------------------------------
// Constructors with proto defaults
// -------------------------------------------------------------------------------------------------

/**
 * An `OrderSubmission` with every field not given set to its proto zero value.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const orderSubmission = (fields: Partial<OrderSubmission> = {}): OrderSubmission => ({
  marketId: "",
  price: "",
  size: 0n,
  side: "SIDE_UNSPECIFIED",
  timeInForce: "TIME_IN_FORCE_UNSPECIFIED",
  expiresAt: 0n,
  type: "TYPE_UNSPECIFIED",
  reference: "",
  postOnly: false,
  reduceOnly: false,
  ...fields
})

/**
 * A `PeggedOrder` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or the
 * `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const peggedOrder = (fields: Partial<PeggedOrder> = {}): PeggedOrder => ({
  reference: "PEGGED_REFERENCE_UNSPECIFIED",
  offset: "",
  ...fields
})

/**
 * A `IcebergOpts` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or the
 * `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const icebergOpts = (fields: Partial<IcebergOpts> = {}): IcebergOpts => ({
  peakSize: 0n,
  minimumVisibleSize: 0n,
  ...fields
})

/**
 * A `OrderCancellation` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const orderCancellation = (fields: Partial<OrderCancellation> = {}): OrderCancellation => ({
  orderId: "",
  marketId: "",
  ...fields
})

/**
 * A `OrderAmendment` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or
 * the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const orderAmendment = (fields: Partial<OrderAmendment> = {}): OrderAmendment => ({
  orderId: "",
  marketId: "",
  sizeDelta: 0n,
  timeInForce: "TIME_IN_FORCE_UNSPECIFIED",
  peggedOffset: "",
  peggedReference: "PEGGED_REFERENCE_UNSPECIFIED",
  ...fields
})

/**
 * A `StopOrderSetup` from the fields given; all of its fields are optional.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const stopOrderSetup = (fields: Partial<StopOrderSetup> = {}): StopOrderSetup => ({ ...fields })

/**
 * A `StopOrdersSubmission` from the fields given; all of its fields are optional.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const stopOrdersSubmission = (fields: Partial<StopOrdersSubmission> = {}): StopOrdersSubmission => ({
  ...fields
})

/**
 * A `StopOrdersCancellation` from the fields given; all of its fields are optional.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const stopOrdersCancellation = (fields: Partial<StopOrdersCancellation> = {}): StopOrdersCancellation => ({
  ...fields
})

/**
 * A `UpdateMarginMode` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const updateMarginMode = (fields: Partial<UpdateMarginMode> = {}): UpdateMarginMode => ({
  marketId: "",
  mode: "MODE_UNSPECIFIED",
  ...fields
})

/**
 * A `BatchMarketInstructions` from the fields given, with its proto zero value (`""`, `0`, `false`,
 * `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const batchMarketInstructions = (fields: Partial<BatchMarketInstructions> = {}): BatchMarketInstructions => ({
  cancellations: [],
  amendments: [],
  submissions: [],
  stopOrdersCancellation: [],
  stopOrdersSubmission: [],
  updateMarginMode: [],
  ...fields
})

/**
 * A `LiquidityProvisionSubmission` from the fields given, with its proto zero value (`""`, `0`,
 * `false`, `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const liquidityProvisionSubmission = (
  fields: Partial<LiquidityProvisionSubmission> = {}
): LiquidityProvisionSubmission => ({
  marketId: "",
  commitmentAmount: "",
  fee: "",
  reference: "",
  ...fields
})

/**
 * A `LiquidityProvisionAmendment` from the fields given, with its proto zero value (`""`, `0`,
 * `false`, `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const liquidityProvisionAmendment = (
  fields: Partial<LiquidityProvisionAmendment> = {}
): LiquidityProvisionAmendment => ({
  marketId: "",
  commitmentAmount: "",
  fee: "",
  reference: "",
  ...fields
})

/**
 * A `LiquidityProvisionCancellation` from the fields given, with its proto zero value (`""`, `0`,
 * `false`, `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const liquidityProvisionCancellation = (
  fields: Partial<LiquidityProvisionCancellation> = {}
): LiquidityProvisionCancellation => ({
  marketId: "",
  ...fields
})

/**
 * A `Rank` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or the
 * `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const rank = (fields: Partial<Rank> = {}): Rank => ({ startRank: 0, shareRatio: 0, ...fields })

/**
 * A `DispatchStrategy` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const dispatchStrategy = (fields: Partial<DispatchStrategy> = {}): DispatchStrategy => ({
  assetForMetric: "",
  metric: "DISPATCH_METRIC_UNSPECIFIED",
  markets: [],
  entityScope: "ENTITY_SCOPE_UNSPECIFIED",
  individualScope: "INDIVIDUAL_SCOPE_UNSPECIFIED",
  teamScope: [],
  nTopPerformers: "",
  stakingRequirement: "",
  notionalTimeWeightedAveragePositionRequirement: "",
  windowLength: 0n,
  lockPeriod: 0n,
  distributionStrategy: "DISTRIBUTION_STRATEGY_UNSPECIFIED",
  rankTable: [],
  eligibleKeys: [],
  ...fields
})

/**
 * A `OneOffTransfer` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or
 * the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const oneOffTransfer = (fields: Partial<OneOffTransfer> = {}): OneOffTransfer => ({ deliverOn: 0n, ...fields })

/**
 * A `RecurringTransfer` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const recurringTransfer = (fields: Partial<RecurringTransfer> = {}): RecurringTransfer => ({
  startEpoch: 0n,
  factor: "",
  ...fields
})

/**
 * A `Transfer` with proto defaults. The kind (`oneOff` or `recurring`) must be given for the node
 * to accept it.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const transfer = (fields: Partial<Transfer> = {}): Transfer => ({
  fromAccountType: "ACCOUNT_TYPE_UNSPECIFIED",
  to: "",
  toAccountType: "ACCOUNT_TYPE_UNSPECIFIED",
  asset: "",
  amount: "",
  reference: "",
  ...fields
})

/**
 * A `CancelTransfer` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or
 * the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const cancelTransfer = (fields: Partial<CancelTransfer> = {}): CancelTransfer => ({
  transferId: "",
  ...fields
})

/**
 * A `WithdrawSubmission` with proto defaults; `receiverAddress`, when given, becomes the `erc20`
 * extension.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const withdrawSubmission = (
  fields: Partial<WithdrawSubmission> & { readonly receiverAddress?: string } = {}
): WithdrawSubmission => {
  const { receiverAddress, ...rest } = fields
  return {
    amount: "",
    asset: "",
    ...(receiverAddress === undefined ? {} : { ext: { erc20: { receiverAddress } } }),
    ...rest
  }
}

/**
 * A `VoteSubmission` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or
 * the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const voteSubmission = (fields: Partial<VoteSubmission> = {}): VoteSubmission => ({
  proposalId: "",
  value: "VALUE_UNSPECIFIED",
  ...fields
})

/**
 * A `DelegateSubmission` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const delegateSubmission = (fields: Partial<DelegateSubmission> = {}): DelegateSubmission => ({
  nodeId: "",
  amount: "",
  ...fields
})

/**
 * A `UndelegateSubmission` from the fields given, with its proto zero value (`""`, `0`, `false`,
 * `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const undelegateSubmission = (fields: Partial<UndelegateSubmission> = {}): UndelegateSubmission => ({
  nodeId: "",
  amount: "",
  method: "METHOD_UNSPECIFIED",
  ...fields
})

/**
 * A `UpdatePartyProfile` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const updatePartyProfile = (fields: Partial<UpdatePartyProfile> = {}): UpdatePartyProfile => ({
  alias: "",
  metadata: [],
  ...fields
})

/**
 * A `CreateReferralSetTeam` from the fields given, with its proto zero value (`""`, `0`, `false`,
 * `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const createReferralSetTeam = (fields: Partial<CreateReferralSetTeam> = {}): CreateReferralSetTeam => ({
  name: "",
  closed: false,
  allowList: [],
  ...fields
})

/**
 * A `CreateReferralSet` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const createReferralSet = (fields: Partial<CreateReferralSet> = {}): CreateReferralSet => ({
  isTeam: false,
  doNotCreateReferralSet: false,
  ...fields
})

/**
 * A `UpdateReferralSetTeam` from the fields given, with its proto zero value (`""`, `0`, `false`,
 * `[]` or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const updateReferralSetTeam = (fields: Partial<UpdateReferralSetTeam> = {}): UpdateReferralSetTeam => ({
  allowList: [],
  ...fields
})

/**
 * A `UpdateReferralSet` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const updateReferralSet = (fields: Partial<UpdateReferralSet> = {}): UpdateReferralSet => ({
  id: "",
  isTeam: false,
  ...fields
})

/**
 * A `ApplyReferralCode` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]`
 * or the `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const applyReferralCode = (fields: Partial<ApplyReferralCode> = {}): ApplyReferralCode => ({
  id: "",
  doNotJoinTeam: false,
  ...fields
})

/**
 * A `JoinTeam` from the fields given, with its proto zero value (`""`, `0`, `false`, `[]` or the
 * `UNSPECIFIED` enum value) for each required field left out.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const joinTeam = (fields: Partial<JoinTeam> = {}): JoinTeam => ({ id: "", ...fields })

// -------------------------------------------------------------------------------------------------
// The InputData `command` oneof
// -------------------------------------------------------------------------------------------------

/**
 * The decoded message of each supported command, keyed by its JSON name in `InputData`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CommandValues {
  readonly orderSubmission: OrderSubmission
  readonly orderCancellation: OrderCancellation
  readonly orderAmendment: OrderAmendment
  readonly withdrawSubmission: WithdrawSubmission
  readonly voteSubmission: VoteSubmission
  readonly liquidityProvisionSubmission: LiquidityProvisionSubmission
  readonly delegateSubmission: DelegateSubmission
  readonly undelegateSubmission: UndelegateSubmission
  readonly liquidityProvisionCancellation: LiquidityProvisionCancellation
  readonly liquidityProvisionAmendment: LiquidityProvisionAmendment
  readonly transfer: Transfer
  readonly cancelTransfer: CancelTransfer
  readonly batchMarketInstructions: BatchMarketInstructions
  readonly stopOrdersSubmission: StopOrdersSubmission
  readonly stopOrdersCancellation: StopOrdersCancellation
  readonly createReferralSet: CreateReferralSet
  readonly updateReferralSet: UpdateReferralSet
  readonly applyReferralCode: ApplyReferralCode
  readonly updateMarginMode: UpdateMarginMode
  readonly joinTeam: JoinTeam
  readonly updatePartyProfile: UpdatePartyProfile
}

/**
 * The encoded (REST JSON) message of each supported command.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CommandEncodedValues {
  readonly orderSubmission: OrderSubmissionEncoded
  readonly orderCancellation: OrderCancellationEncoded
  readonly orderAmendment: OrderAmendmentEncoded
  readonly withdrawSubmission: WithdrawSubmissionEncoded
  readonly voteSubmission: VoteSubmissionEncoded
  readonly liquidityProvisionSubmission: LiquidityProvisionSubmissionEncoded
  readonly delegateSubmission: DelegateSubmissionEncoded
  readonly undelegateSubmission: UndelegateSubmissionEncoded
  readonly liquidityProvisionCancellation: LiquidityProvisionCancellationEncoded
  readonly liquidityProvisionAmendment: LiquidityProvisionAmendmentEncoded
  readonly transfer: TransferEncoded
  readonly cancelTransfer: CancelTransferEncoded
  readonly batchMarketInstructions: BatchMarketInstructionsEncoded
  readonly stopOrdersSubmission: StopOrdersSubmissionEncoded
  readonly stopOrdersCancellation: StopOrdersCancellationEncoded
  readonly createReferralSet: CreateReferralSetEncoded
  readonly updateReferralSet: UpdateReferralSetEncoded
  readonly applyReferralCode: ApplyReferralCodeEncoded
  readonly updateMarginMode: UpdateMarginModeEncoded
  readonly joinTeam: JoinTeamEncoded
  readonly updatePartyProfile: UpdatePartyProfileEncoded
}

/**
 * The JSON name of a supported command (its key in `InputData`), e.g. `"orderSubmission"`.
 *
 * @since 0.1.0
 * @category Models
 */
export type CommandName = keyof CommandValues

/**
 * One command, tagged with its JSON name.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CommandOf<K extends CommandName> {
  readonly _tag: K
  readonly value: CommandValues[K]
}

/**
 * The decoded `command` oneof of `InputData`.
 *
 * @since 0.1.0
 * @category Models
 */
export type Command = { readonly [K in CommandName]: CommandOf<K> }[CommandName]

/**
 * The REST JSON form of a command: a single-key object, e.g. `{"orderSubmission":{...}}`. The same
 * key sits directly in the JSON of `InputData` next to `nonce` and `blockHeight`.
 *
 * @since 0.1.0
 * @category Models
 */
export type CommandEncoded = {
  readonly [K in CommandName]: { readonly [P in K]: CommandEncodedValues[K] }
}[CommandName]

/**
 * Where a command sits in `vega.commands.v1.InputData`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CommandInfo<K extends CommandName = CommandName> {
  /** The JSON (lowerCamel) name, which is also the `_tag` of the decoded command. */
  readonly name: K
  /** The proto field name, which also prefixes the node's validation error properties. */
  readonly protoName: string
  /** The field number in the `command` oneof of `InputData`. */
  readonly fieldNumber: number
  /** The proto message type. */
  readonly message: string
  readonly schema: Schema.Schema<CommandValues[K], CommandEncodedValues[K]>
}

const info = <K extends CommandName>(
  name: K,
  protoName: string,
  fieldNumber: number,
  message: string,
  schema: Schema.Schema<CommandValues[K], CommandEncodedValues[K]>
): CommandInfo<K> => ({ name, protoName, fieldNumber, message: `vega.commands.v1.${message}`, schema })

/**
 * Every supported command: JSON name, proto name, `InputData` field number, message and schema,
 * in field-number order.
 *
 * @since 0.1.0
 * @category Constants
 */
export const commands: { readonly [K in CommandName]: CommandInfo<K> } = {
  orderSubmission: info("orderSubmission", "order_submission", 1001, "OrderSubmission", OrderSubmission),
  orderCancellation: info("orderCancellation", "order_cancellation", 1002, "OrderCancellation", OrderCancellation),
  orderAmendment: info("orderAmendment", "order_amendment", 1003, "OrderAmendment", OrderAmendment),
  withdrawSubmission: info("withdrawSubmission", "withdraw_submission", 1004, "WithdrawSubmission", WithdrawSubmission),
  voteSubmission: info("voteSubmission", "vote_submission", 1006, "VoteSubmission", VoteSubmission),
  liquidityProvisionSubmission: info(
    "liquidityProvisionSubmission",
    "liquidity_provision_submission",
    1007,
    "LiquidityProvisionSubmission",
    LiquidityProvisionSubmission
  ),
  delegateSubmission: info("delegateSubmission", "delegate_submission", 1008, "DelegateSubmission", DelegateSubmission),
  undelegateSubmission: info(
    "undelegateSubmission",
    "undelegate_submission",
    1009,
    "UndelegateSubmission",
    UndelegateSubmission
  ),
  liquidityProvisionCancellation: info(
    "liquidityProvisionCancellation",
    "liquidity_provision_cancellation",
    1010,
    "LiquidityProvisionCancellation",
    LiquidityProvisionCancellation
  ),
  liquidityProvisionAmendment: info(
    "liquidityProvisionAmendment",
    "liquidity_provision_amendment",
    1011,
    "LiquidityProvisionAmendment",
    LiquidityProvisionAmendment
  ),
  transfer: info("transfer", "transfer", 1012, "Transfer", Transfer),
  cancelTransfer: info("cancelTransfer", "cancel_transfer", 1013, "CancelTransfer", CancelTransfer),
  batchMarketInstructions: info(
    "batchMarketInstructions",
    "batch_market_instructions",
    1015,
    "BatchMarketInstructions",
    BatchMarketInstructions
  ),
  stopOrdersSubmission: info(
    "stopOrdersSubmission",
    "stop_orders_submission",
    1016,
    "StopOrdersSubmission",
    StopOrdersSubmission
  ),
  stopOrdersCancellation: info(
    "stopOrdersCancellation",
    "stop_orders_cancellation",
    1017,
    "StopOrdersCancellation",
    StopOrdersCancellation
  ),
  createReferralSet: info("createReferralSet", "create_referral_set", 1018, "CreateReferralSet", CreateReferralSet),
  updateReferralSet: info("updateReferralSet", "update_referral_set", 1019, "UpdateReferralSet", UpdateReferralSet),
  applyReferralCode: info("applyReferralCode", "apply_referral_code", 1020, "ApplyReferralCode", ApplyReferralCode),
  updateMarginMode: info("updateMarginMode", "update_margin_mode", 1021, "UpdateMarginMode", UpdateMarginMode),
  joinTeam: info("joinTeam", "join_team", 1022, "JoinTeam", JoinTeam),
  updatePartyProfile: info("updatePartyProfile", "update_party_profile", 1024, "UpdatePartyProfile", UpdatePartyProfile)
}

/**
 * The JSON names of the supported commands in `InputData` field-number order.
 *
 * @since 0.1.0
 * @category Constants
 */
export const commandNames: ReadonlyArray<CommandName> = (Object.keys(commands) as Array<CommandName>).sort(
  (a, b) => commands[a].fieldNumber - commands[b].fieldNumber
)

/**
 * Every member of the `InputData` `command` oneof (field number, proto name, JSON name, message),
 * including the ones this module has no schema for (proposals, AMMs, validator commands).
 *
 * @since 0.1.0
 * @category Constants
 */
export const inputDataCommandFields: ReadonlyArray<{
  readonly fieldNumber: number
  readonly protoName: string
  readonly name: string
  readonly message: string
}> = (
  [
    [1001, "order_submission", "OrderSubmission"],
    [1002, "order_cancellation", "OrderCancellation"],
    [1003, "order_amendment", "OrderAmendment"],
    [1004, "withdraw_submission", "WithdrawSubmission"],
    [1005, "proposal_submission", "ProposalSubmission"],
    [1006, "vote_submission", "VoteSubmission"],
    [1007, "liquidity_provision_submission", "LiquidityProvisionSubmission"],
    [1008, "delegate_submission", "DelegateSubmission"],
    [1009, "undelegate_submission", "UndelegateSubmission"],
    [1010, "liquidity_provision_cancellation", "LiquidityProvisionCancellation"],
    [1011, "liquidity_provision_amendment", "LiquidityProvisionAmendment"],
    [1012, "transfer", "Transfer"],
    [1013, "cancel_transfer", "CancelTransfer"],
    [1014, "announce_node", "AnnounceNode"],
    [1015, "batch_market_instructions", "BatchMarketInstructions"],
    [1016, "stop_orders_submission", "StopOrdersSubmission"],
    [1017, "stop_orders_cancellation", "StopOrdersCancellation"],
    [1018, "create_referral_set", "CreateReferralSet"],
    [1019, "update_referral_set", "UpdateReferralSet"],
    [1020, "apply_referral_code", "ApplyReferralCode"],
    [1021, "update_margin_mode", "UpdateMarginMode"],
    [1022, "join_team", "JoinTeam"],
    [1023, "batch_proposal_submission", "BatchProposalSubmission"],
    [1024, "update_party_profile", "UpdatePartyProfile"],
    [1025, "submit_amm", "SubmitAMM"],
    [1026, "amend_amm", "AmendAMM"],
    [1027, "cancel_amm", "CancelAMM"],
    [2002, "node_vote", "NodeVote"],
    [2003, "node_signature", "NodeSignature"],
    [2004, "chain_event", "ChainEvent"],
    [2005, "key_rotate_submission", "KeyRotateSubmission"],
    [2006, "state_variable_proposal", "StateVariableProposal"],
    [2007, "validator_heartbeat", "ValidatorHeartbeat"],
    [2008, "ethereum_key_rotate_submission", "EthereumKeyRotateSubmission"],
    [2009, "protocol_upgrade_proposal", "ProtocolUpgradeProposal"],
    [2010, "issue_signatures", "IssueSignatures"],
    [3001, "oracle_data_submission", "OracleDataSubmission"],
    [4000, "delayed_transactions_wrapper", "DelayedTransactionsWrapper"]
  ] as const
).map(([fieldNumber, protoName, message]) => ({
  fieldNumber,
  protoName,
  name: protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  message: `vega.commands.v1.${message}`
}))

/**
 * Tags a command message with its name.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const command = <K extends CommandName>(name: K, value: CommandValues[K]): CommandOf<K> => ({
  _tag: name,
  value
})

const commandMember = <K extends CommandName>(name: K) => {
  const schema = commands[name].schema as Schema.Schema<any, any>
  return Schema.transform(
    Schema.Struct({ [name]: schema }),
    Schema.Struct({ _tag: Schema.Literal(name), value: Schema.typeSchema(schema) }),
    {
      strict: false,
      decode: (encoded) => ({ _tag: name, value: encoded[name] }),
      encode: (decoded) => ({ [name]: decoded.value })
    }
  )
}

/**
 * The `command` oneof of `InputData`. JSON form: the single-key object the REST gateway writes,
 * e.g. `{"transfer":{...}}`; decoded form: `{ _tag: "transfer", value: Transfer }`. Other keys
 * are ignored (so the schema also reads an `InputData` object); should several command keys be
 * present, the one with the lowest field number is decoded.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Command: Schema.Schema<Command, CommandEncoded> = Schema.Union(
  ...commandNames.map(commandMember)
).annotations({ identifier: "vega.commands.v1.InputData.command" }) as any
