/**
 * The event bus (`/api/v2/stream/event/bus`, also core's `/stream/event/bus`): a WebSocket stream
 * of `BusEvent`s. The client sends an {@link ObserveEventBusRequest} within 5 s of connecting;
 * the server answers with frames of {@link ObserveEventBusResponse} in stream form.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as Enum from "./Enum.js"
import { Int64, Uint32 } from "./Integer.js"
import { Opaque, optional } from "./internal/proto.js"
import * as LiquidityProvision from "./LiquidityProvision.js"
import * as StakeLinking from "./StakeLinking.js"
import * as StreamForm from "./StreamForm.js"
import { VegaTimestamp } from "./Timestamp.js"
import * as TransactionResult from "./TransactionResult.js"

/**
 * `vega.events.v1.BusEventType`: the values a client filters on. The enum has more members than
 * listed here; they decode as unknown values and are written back as received.
 *
 * @since 0.1.0
 * @category Enums
 */
export const BusEventType = Enum.make("vega.events.v1.BusEventType", {
  BUS_EVENT_TYPE_UNSPECIFIED: 0,
  BUS_EVENT_TYPE_ALL: 1,
  BUS_EVENT_TYPE_TIME_UPDATE: 2,
  BUS_EVENT_TYPE_LIQUIDITY_PROVISION: 25,
  BUS_EVENT_TYPE_EPOCH_UPDATE: 31,
  BUS_EVENT_TYPE_STAKE_LINKING: 33,
  BUS_EVENT_TYPE_REWARD_PAYOUT_EVENT: 34,
  BUS_EVENT_TYPE_ERC20_MULTI_SIG_SIGNER_ADDED: 44,
  BUS_EVENT_TYPE_POSITION_STATE: 46,
  BUS_EVENT_TYPE_TRANSACTION_RESULT: 53,
  BUS_EVENT_TYPE_REFERRAL_SET_STATS_UPDATED: 76,
  BUS_EVENT_TYPE_PARTY_PROFILE_UPDATED: 86,
  BUS_EVENT_TYPE_MARKET: 101,
  BUS_EVENT_TYPE_TX_ERROR: 201
})
/** @since 0.1.0 @category Enums */
export type BusEventType = Enum.Type<typeof BusEventType>

/**
 * The subscription message: event types, optional market and party filters, and `batchSize`
 * (0 pushes events as they come; more makes the server wait for a new request after each batch).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ObserveEventBusRequest = Schema.Struct({
  type: Schema.Array(BusEventType),
  marketId: Schema.String,
  partyId: Schema.String,
  batchSize: Int64
}).annotations({ identifier: "vega.api.v1.ObserveEventBusRequest" })
/** @since 0.1.0 @category Models */
export type ObserveEventBusRequest = typeof ObserveEventBusRequest.Type

/** @since 0.1.0 @category Schemas */
export const TimeUpdate = Schema.Struct({ timestamp: VegaTimestamp }).annotations({
  identifier: "vega.events.v1.TimeUpdate"
})

/**
 * `vega.events.v1.BusEvent`: `id` is `"<blockHeight>-<sequence>"`, `block` the block hash, and
 * `txHash` the lowercase hash of the transaction that caused it. One event member is set; the
 * ones this package does not model are kept as received.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BusEvent = Schema.Struct({
  id: Schema.String,
  block: Schema.String,
  type: BusEventType,
  timeUpdate: optional(TimeUpdate),
  liquidityProvision: optional(LiquidityProvision.LiquidityProvision),
  stakeLinking: optional(StakeLinking.StakeLinking),
  transactionResult: optional(TransactionResult.TransactionResult),
  txErrEvent: optional(Opaque),
  version: Uint32,
  chainId: Schema.String,
  txHash: Schema.String
}).annotations({ identifier: "vega.events.v1.BusEvent" })
/** @since 0.1.0 @category Models */
export type BusEvent = typeof BusEvent.Type

/**
 * A message of the event bus (inside its `{"result":…}` frame), in stream form.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ObserveEventBusResponse = StreamForm.make(
  Schema.Struct({ events: Schema.Array(BusEvent) }).annotations({ identifier: "vega.api.v1.ObserveEventBusResponse" })
)
/** @since 0.1.0 @category Models */
export type ObserveEventBusResponse = typeof ObserveEventBusResponse.Type
