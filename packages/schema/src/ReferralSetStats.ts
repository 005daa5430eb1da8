/**
 * Referral set statistics as served by `GET /api/v2/referral-sets/stats`: one node per referee
 * of each matching set at the selected epoch.
 *
 * Epoch selection: without `atEpoch`, the last epoch for which any set has statistics; with both
 * `referralSetId` and `referee` and no `atEpoch`, every epoch of that referee's history.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { Decimal, DecimalOrEmpty } from "./Decimal.js"
import { PartyId, ReferralSetId } from "./Ids.js"
import { laterMessage, optional } from "./internal/proto.js"
import { Uint64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"

/**
 * Per-fee-kind factors that v0.78 nodes add.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DiscountFactors = Schema.Struct({
  infrastructureDiscountFactor: Decimal,
  liquidityDiscountFactor: Decimal,
  makerDiscountFactor: Decimal
}).annotations({ identifier: "DiscountFactors" })

/**
 * Per-fee-kind reward factors (infrastructure, liquidity, maker) that v0.78 nodes add, for
 * `rewardFactors` and `rewardsFactorsMultiplier`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RewardFactors = Schema.Struct({
  infrastructureRewardFactor: Decimal,
  liquidityRewardFactor: Decimal,
  makerRewardFactor: Decimal
}).annotations({ identifier: "RewardFactors" })

/**
 * `v2.ReferralSetStats` as of v0.75, fields in the order the node writes them, plus the v0.78
 * per-fee-kind factor objects (absent before v0.78, `null` when unset). From v0.78 the single `discountFactor`, `rewardFactor`
 * and `rewardsFactorMultiplier` are no longer filled and arrive as `""`, hence `Option`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ReferralSetStats = Schema.Struct({
  atEpoch: Uint64,
  referralSetRunningNotionalTakerVolume: Amount,
  partyId: PartyId,
  discountFactor: DecimalOrEmpty,
  rewardFactor: DecimalOrEmpty,
  epochNotionalTakerVolume: Amount,
  rewardsMultiplier: Decimal,
  rewardsFactorMultiplier: DecimalOrEmpty,
  wasEligible: Schema.Boolean,
  referrerTakerVolume: Amount,
  discountFactors: laterMessage(DiscountFactors),
  rewardFactors: laterMessage(RewardFactors),
  rewardsFactorsMultiplier: laterMessage(RewardFactors)
}).annotations({ identifier: "ReferralSetStats" })
/**
 * The decoded form of the `ReferralSetStats` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ReferralSetStats = typeof ReferralSetStats.Type

/**
 * Request of `GET /api/v2/referral-sets/stats`. `referee` is compared as lowercase text by the
 * node, so it is normalised to lowercase here.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetReferralSetStatsRequest = Schema.Struct({
  referralSetId: optional(ReferralSetId),
  atEpoch: optional(Uint64),
  referee: optional(PartyId),
  pagination: optional(Pagination.PaginationParams)
}).annotations({ identifier: "GetReferralSetStatsRequest" })
/**
 * The decoded form of the `GetReferralSetStatsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetReferralSetStatsRequest = typeof GetReferralSetStatsRequest.Type

/**
 * Response of `GET /api/v2/referral-sets/stats`: one page of statistics.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetReferralSetStatsResponse = Schema.Struct({
  stats: Pagination.Connection(ReferralSetStats)
}).annotations({ identifier: "GetReferralSetStatsResponse" })
/**
 * The decoded form of the `GetReferralSetStatsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetReferralSetStatsResponse = typeof GetReferralSetStatsResponse.Type
