/**
 * Liquidity provisions as served by `GET /api/v2/liquidity/all-provisions`: each node holds the
 * `current` provision and, while an amendment waits for the next epoch, the `pending` one.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { PeggedReference } from "./Commands.js"
import { Decimal } from "./Decimal.js"
import * as Enum from "./Enum.js"
import { LiquidityProvisionId, MarketId, OrderId, PartyId } from "./Ids.js"
import { Uint32, Uint64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"
import { optional } from "./internal/proto.js"
import * as StreamForm from "./StreamForm.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * `vega.LiquidityProvision.Status`
 *
 * @since 0.1.0
 * @category Enums
 */
export const LiquidityProvisionStatus = Enum.make("vega.LiquidityProvision.Status", {
  STATUS_UNSPECIFIED: 0,
  STATUS_ACTIVE: 1,
  STATUS_STOPPED: 2,
  STATUS_CANCELLED: 3,
  STATUS_REJECTED: 4,
  STATUS_UNDEPLOYED: 5,
  STATUS_PENDING: 6
})
/**
 * The values of the `LiquidityProvisionStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type LiquidityProvisionStatus = Enum.Type<typeof LiquidityProvisionStatus>

export {
  /**
   * `vega.PeggedReference`, shared with the order commands.
   *
   * @since 0.1.0
   * @category Enums
   */
  PeggedReference
}

/**
 * `vega.LiquidityOrder`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityOrder = Schema.Struct({
  reference: PeggedReference,
  proportion: Uint32,
  offset: Amount
}).annotations({ identifier: "LiquidityOrder" })

/**
 * `vega.LiquidityOrderReference`. Since v0.73 the node always writes `buys` and `sells` as `[]`;
 * the shape is kept for older data.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityOrderReference = Schema.Struct({
  orderId: OrderId,
  liquidityOrder: LiquidityOrder
}).annotations({ identifier: "LiquidityOrderReference" })

/**
 * `vega.LiquidityProvision`, fields in the order the node writes them. `commitmentAmount` is in
 * the settlement asset's base units; `fee` is an exact decimal fraction such as `0.0001`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvision = Schema.Struct({
  id: LiquidityProvisionId,
  partyId: PartyId,
  createdAt: VegaTimestamp,
  updatedAt: VegaTimestamp,
  marketId: MarketId,
  commitmentAmount: Amount,
  fee: Decimal,
  sells: Schema.Array(LiquidityOrderReference),
  buys: Schema.Array(LiquidityOrderReference),
  version: Uint64,
  status: LiquidityProvisionStatus,
  reference: Schema.String
}).annotations({ identifier: "LiquidityProvision" })
/**
 * The decoded form of the `LiquidityProvision` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type LiquidityProvision = typeof LiquidityProvision.Type

/**
 * A node of the list: `pending` is present only while an amendment waits for the next epoch, and
 * `current` is then the version still in force.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvisionNode = Schema.Struct({
  current: LiquidityProvision,
  pending: Schema.optionalWith(LiquidityProvision, { exact: true })
}).annotations({ identifier: "LiquidityProvisionNode" })
/**
 * The decoded form of the `LiquidityProvisionNode` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type LiquidityProvisionNode = typeof LiquidityProvisionNode.Type

/**
 * Request of `GET /api/v2/liquidity/all-provisions`. The node needs `marketId` or `partyId`
 * (without either it fails with HTTP 500). `live: true` lists only the latest version of
 * provisions that are active, undeployed or pending.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListLiquidityProvisionsRequest = Schema.Struct({
  marketId: Schema.optionalWith(MarketId, { exact: true }),
  partyId: Schema.optionalWith(PartyId, { exact: true }),
  reference: Schema.optionalWith(Schema.String, { exact: true }),
  live: Schema.optionalWith(Schema.Boolean, { exact: true }),
  pagination: Schema.optionalWith(Pagination.PaginationParams, { exact: true })
}).annotations({ identifier: "ListLiquidityProvisionsRequest" })
/**
 * The decoded form of the `ListLiquidityProvisionsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListLiquidityProvisionsRequest = typeof ListLiquidityProvisionsRequest.Type

/**
 * Response of `GET /api/v2/liquidity/all-provisions`: one page of provisions.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListLiquidityProvisionsResponse = Schema.Struct({
  liquidityProvisions: Pagination.Connection(LiquidityProvisionNode)
}).annotations({ identifier: "ListLiquidityProvisionsResponse" })
/**
 * The decoded form of the `ListLiquidityProvisionsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListLiquidityProvisionsResponse = typeof ListLiquidityProvisionsResponse.Type

/**
 * A message of `GET /api/v2/stream/liquidity-provisions` (the `result` of a frame), in stream
 * form: up to 50 provisions a block changed, each the plain record (not the REST list's
 * current/pending pair). The stream sends no snapshot.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObserveLiquidityProvisionsResponse = StreamForm.make(
  Schema.Struct({ liquidityProvisions: Schema.Array(LiquidityProvision) }).annotations({
    identifier: "ObserveLiquidityProvisionsResponse"
  })
)
/**
 * The decoded form of the `ObserveLiquidityProvisionsResponse` schema.
 *
 * @since 0.1.0
 * @category Streams
 */
export type ObserveLiquidityProvisionsResponse = typeof ObserveLiquidityProvisionsResponse.Type

/**
 * Query of `GET /api/v2/stream/liquidity-provisions`: both optional, lowercase ids.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObserveLiquidityProvisionsRequest = Schema.Struct({
  marketId: optional(MarketId),
  partyId: optional(PartyId)
}).annotations({ identifier: "ObserveLiquidityProvisionsRequest" })
/**
 * The decoded form of the `ObserveLiquidityProvisionsRequest` schema.
 *
 * @since 0.1.0
 * @category Streams
 */
export type ObserveLiquidityProvisionsRequest = typeof ObserveLiquidityProvisionsRequest.Type
