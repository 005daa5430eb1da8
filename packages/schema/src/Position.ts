/**
 * Positions as served by `GET /api/v2/positions` (RPC ListAllPositions): one row per party and
 * market, closed positions included.
 *
 * Scaling: `openVolume` uses the market's position decimals and `averageEntryPrice` its price
 * decimals. PnL fields are documented as market decimals, but the node computes them from trade
 * prices in the settlement asset, so in practice they are in asset decimals (see `Scaling`).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount, SignedAmount } from "./Amount.js"
import * as Enum from "./Enum.js"
import { MarketId, PartyId } from "./Ids.js"
import { oneof, optional } from "./internal/proto.js"
import { Int64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"
import * as StreamForm from "./StreamForm.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * `vega.PositionStatus`. Value 3 is unused.
 *
 * @since 0.1.0
 * @category Enums
 */
export const PositionStatus = Enum.make("vega.PositionStatus", {
  POSITION_STATUS_UNSPECIFIED: 0,
  POSITION_STATUS_ORDERS_CLOSED: 1,
  POSITION_STATUS_CLOSED_OUT: 2,
  POSITION_STATUS_DISTRESSED: 4
})
/**
 * The values of the `PositionStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type PositionStatus = Enum.Type<typeof PositionStatus>

/**
 * `vega.Position` as of v0.75, fields in the order the node writes them, plus the fee and funding
 * fields that v0.79 appends (optional: older nodes do not send them).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Position } from "@vega-effect/schema"
 *
 * // one row of GET /api/v2/positions, as the node writes it
 * const row = {
 *   marketId: "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b",
 *   partyId: "6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772",
 *   openVolume: "-15",
 *   realisedPnl: "0",
 *   unrealisedPnl: "-1250000",
 *   averageEntryPrice: "123450000",
 *   updatedAt: "1712000123456789000",
 *   lossSocialisationAmount: "0",
 *   positionStatus: "POSITION_STATUS_UNSPECIFIED"
 * }
 *
 * const position = Schema.decodeUnknownSync(Position.Position)(row)
 * assert.strictEqual(position.openVolume, -15n)
 * assert.strictEqual(position.unrealisedPnl, -1_250_000n)
 *
 * // encoding writes the node's JSON again
 * assert.deepStrictEqual(Schema.encodeSync(Position.Position)(position), row)
 * ```
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Position = Schema.Struct({
  marketId: MarketId,
  partyId: PartyId,
  openVolume: Int64,
  realisedPnl: SignedAmount,
  unrealisedPnl: SignedAmount,
  averageEntryPrice: Amount,
  updatedAt: VegaTimestamp,
  lossSocialisationAmount: SignedAmount,
  positionStatus: PositionStatus,
  takerFeesPaid: optional(Amount),
  makerFeesReceived: optional(Amount),
  feesPaid: optional(Amount),
  takerFeesPaidSince: optional(Amount),
  makerFeesReceivedSince: optional(Amount),
  feesPaidSince: optional(Amount),
  fundingPaymentAmount: optional(SignedAmount),
  fundingPaymentAmountSince: optional(SignedAmount)
}).annotations({ identifier: "Position" })
/**
 * The decoded form of the `Position` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Position = typeof Position.Type

/**
 * Request of `GET /api/v2/positions` (`filter.partyIds`, `filter.marketIds`, repeated). No filter
 * lists every position.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListPositionsRequest = Schema.Struct({
  filter: optional(
    Schema.Struct({
      partyIds: optional(Schema.Array(PartyId)),
      marketIds: optional(Schema.Array(MarketId))
    })
  ),
  pagination: optional(Pagination.PaginationParams)
}).annotations({ identifier: "ListPositionsRequest" })
/**
 * The decoded form of the `ListPositionsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListPositionsRequest = typeof ListPositionsRequest.Type

/**
 * Response of `GET /api/v2/positions`: one page of positions.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListPositionsResponse = Schema.Struct({
  positions: Pagination.Connection(Position)
}).annotations({ identifier: "ListPositionsResponse" })
/**
 * The decoded form of the `ListPositionsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListPositionsResponse = typeof ListPositionsResponse.Type

/**
 * A page of the positions stream's opening snapshot (pages of 50; `lastPage` is `true` only on
 * the last one).
 *
 * @since 0.1.0
 * @category Streams
 */
export const PositionSnapshotPage = Schema.Struct({
  positions: Schema.Array(Position),
  lastPage: Schema.Boolean
}).annotations({ identifier: "PositionSnapshotPage" })

/**
 * The positions a block changed (each at most once, in its state at the block's end).
 *
 * @since 0.1.0
 * @category Streams
 */
export const PositionUpdates = Schema.Struct({ positions: Schema.Array(Position) }).annotations({
  identifier: "PositionUpdates"
})

/**
 * A message of `GET /api/v2/stream/positions` (the `result` of a frame), in stream form: a
 * snapshot page, then the updates of each block. Carries no block height: `updatedAt` is the
 * block's time.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObservePositionsResponse = StreamForm.make(
  Schema.Struct({
    snapshot: optional(PositionSnapshotPage),
    updates: optional(PositionUpdates)
  })
    .pipe(oneof("response", ["snapshot", "updates"]))
    .annotations({ identifier: "ObservePositionsResponse" })
)
/**
 * The decoded form of the `ObservePositionsResponse` schema.
 *
 * @since 0.1.0
 * @category Streams
 */
export type ObservePositionsResponse = typeof ObservePositionsResponse.Type

/**
 * Query of `GET /api/v2/stream/positions`: both optional; lowercase ids (the node compares the
 * text of updates exactly).
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObservePositionsRequest = Schema.Struct({
  partyId: optional(PartyId),
  marketId: optional(MarketId)
}).annotations({ identifier: "ObservePositionsRequest" })
/**
 * The decoded form of the `ObservePositionsRequest` schema.
 *
 * @since 0.1.0
 * @category Streams
 */
export type ObservePositionsRequest = typeof ObservePositionsRequest.Type
