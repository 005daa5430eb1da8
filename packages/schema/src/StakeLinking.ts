/**
 * Stake linking: VEGA tokens associated with (or dissociated from) a Vega key on Ethereum, as
 * served by `GET /api/v2/parties/{partyId}/stake`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import * as Enum from "./Enum.js"
import { EthereumAddress, EthereumTxHash } from "./Ethereum.js"
import { PartyId, StakeLinkingId } from "./Ids.js"
import { Uint64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"
import { EthereumTimestamp, VegaTimestamp } from "./Timestamp.js"

/**
 * `vega.events.v1.StakeLinking.Type`
 *
 * @since 0.1.0
 * @category Enums
 */
export const StakeLinkingType = Enum.make("vega.events.v1.StakeLinking.Type", {
  TYPE_UNSPECIFIED: 0,
  TYPE_LINK: 1,
  TYPE_UNLINK: 2
})
/**
 * The values of the `StakeLinkingType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type StakeLinkingType = Enum.Type<typeof StakeLinkingType>

/**
 * `vega.events.v1.StakeLinking.Status`
 *
 * @since 0.1.0
 * @category Enums
 */
export const StakeLinkingStatus = Enum.make("vega.events.v1.StakeLinking.Status", {
  STATUS_UNSPECIFIED: 0,
  STATUS_PENDING: 1,
  STATUS_ACCEPTED: 2,
  STATUS_REJECTED: 3
})
/**
 * The values of the `StakeLinkingStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type StakeLinkingStatus = Enum.Type<typeof StakeLinkingStatus>

/**
 * A stake linking, fields in the order the node writes them.
 *
 * - `ts` and `blockTime` are Ethereum block times in **seconds** (the proto comment says
 *   nanoseconds; the node writes seconds).
 * - `finalizedAt` is Vega time in nanoseconds; `0` while the link is pending.
 * - `amount` is in VEGA base units (18 decimals).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StakeLinking = Schema.Struct({
  id: StakeLinkingId,
  type: StakeLinkingType,
  ts: EthereumTimestamp,
  party: PartyId,
  amount: Amount,
  status: StakeLinkingStatus,
  finalizedAt: VegaTimestamp,
  txHash: EthereumTxHash,
  blockHeight: Uint64,
  blockTime: EthereumTimestamp,
  logIndex: Uint64,
  ethereumAddress: EthereumAddress
}).annotations({ identifier: "StakeLinking" })
/**
 * The decoded form of the `StakeLinking` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type StakeLinking = typeof StakeLinking.Type

/**
 * Request of `GET /api/v2/parties/{partyId}/stake`; `partyId` goes in the path.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetStakeRequest = Schema.Struct({
  partyId: PartyId,
  pagination: Schema.optionalWith(Pagination.PaginationParams, { exact: true })
}).annotations({ identifier: "GetStakeRequest" })
/**
 * The decoded form of the `GetStakeRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetStakeRequest = typeof GetStakeRequest.Type

/**
 * Response of `GET /api/v2/parties/{partyId}/stake`. `currentStakeAvailable` is the sum of the
 * party's accepted links minus accepted unlinks over all pages.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetStakeResponse = Schema.Struct({
  currentStakeAvailable: Amount,
  stakeLinkings: Pagination.Connection(StakeLinking)
}).annotations({ identifier: "GetStakeResponse" })
/**
 * The decoded form of the `GetStakeResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetStakeResponse = typeof GetStakeResponse.Type
