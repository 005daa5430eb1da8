/**
 * Reward totals per party and asset over all epochs, as served by `GET /api/v2/rewards/summaries`.
 * The response is one unpaged array: the node ignores pagination parameters here.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { AssetId, PartyId } from "./Ids.js"
import * as Pagination from "./Pagination.js"

/**
 * `vega.RewardSummary`; `amount` is in the asset's base units.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RewardSummary = Schema.Struct({
  assetId: AssetId,
  partyId: PartyId,
  amount: Amount
}).annotations({ identifier: "RewardSummary" })
/**
 * The decoded form of the `RewardSummary` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type RewardSummary = typeof RewardSummary.Type

/**
 * Request of `GET /api/v2/rewards/summaries`. Pagination is accepted by the node but ignored.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListRewardSummariesRequest = Schema.Struct({
  partyId: Schema.optionalWith(PartyId, { exact: true }),
  assetId: Schema.optionalWith(AssetId, { exact: true }),
  pagination: Schema.optionalWith(Pagination.PaginationParams, { exact: true })
}).annotations({ identifier: "ListRewardSummariesRequest" })
/**
 * The decoded form of the `ListRewardSummariesRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListRewardSummariesRequest = typeof ListRewardSummariesRequest.Type

/**
 * Response of `GET /api/v2/rewards/summaries`: no edges, no `pageInfo`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListRewardSummariesResponse = Schema.Struct({
  summaries: Schema.Array(RewardSummary)
}).annotations({ identifier: "ListRewardSummariesResponse" })
/**
 * The decoded form of the `ListRewardSummariesResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListRewardSummariesResponse = typeof ListRewardSummariesResponse.Type
