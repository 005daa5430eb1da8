/**
 * Per-epoch reward payouts as served by `GET /api/v2/rewards` (RPC ListRewards): one row per
 * payout and receiving party, newest epoch first by default.
 *
 * The node orders rows by epoch only, and its cursor predicate is inclusive on that single column:
 * a page that starts from a cursor restarts at the first row of the cursor's epoch, so cursor paging
 * can repeat or skip rows when an epoch holds several. To read every row of a range, page by epoch
 * windows (`fromEpoch`/`toEpoch`) instead of following cursors.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import * as Enum from "./Enum.js"
import { AssetId, PartyId } from "./Ids.js"
import { optional } from "./internal/proto.js"
import { Uint64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * The `rewardType` of a reward row: the `vega.AccountType` name of the reward account that paid it.
 * Known names are the types core's reward engine walks at v0.75, in that order; names added by later
 * versions (e.g. `ACCOUNT_TYPE_REWARD_REALISED_RETURN`) decode to an `UnknownEnumValue`, like every
 * enum of this package.
 *
 * @since 0.1.0
 * @category Enums
 */
export const RewardType = Enum.make("vega.AccountType", {
  ACCOUNT_TYPE_UNSPECIFIED: 0,
  ACCOUNT_TYPE_GLOBAL_REWARD: 12,
  ACCOUNT_TYPE_FEES_INFRASTRUCTURE: 5,
  ACCOUNT_TYPE_REWARD_MAKER_RECEIVED_FEES: 15,
  ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES: 14,
  ACCOUNT_TYPE_REWARD_LP_RECEIVED_FEES: 16,
  ACCOUNT_TYPE_REWARD_MARKET_PROPOSERS: 17,
  ACCOUNT_TYPE_REWARD_AVERAGE_POSITION: 24,
  ACCOUNT_TYPE_REWARD_RELATIVE_RETURN: 25,
  ACCOUNT_TYPE_REWARD_RETURN_VOLATILITY: 26,
  ACCOUNT_TYPE_REWARD_VALIDATOR_RANKING: 27
})
/**
 * The values of the `RewardType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type RewardType = Enum.Type<typeof RewardType>

const goFloat = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?(?:e[+-]\d{2,3})?$/
const goFloatParts = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/

/**
 * Parses a percentage as the node prints it (Go `%v` of a float64: `"25"`, `"33.333333333333336"`,
 * `"5e-05"`) to the exact decimal value of that text; `None` for anything else.
 *
 * @since 0.1.0
 * @category Parsing
 */
export const parsePercentage = (s: string): Option.Option<BigDecimal.BigDecimal> => {
  const match = goFloat.test(s) ? goFloatParts.exec(s) : null
  if (match === null) return Option.none()
  const fraction = match[2] ?? ""
  const exponent = Number(match[3] ?? "0")
  return Option.some(BigDecimal.normalize(BigDecimal.make(BigInt(match[1] + fraction), fraction.length - exponent)))
}

/**
 * `percentageOfTotal`: the party's share of the payout, on a 0–100 scale, as the text the node
 * writes (Go `%v` of a float64, exponent form below 1e-4 such as `"5e-05"`). It is kept as that
 * exact text so that it encodes back byte for byte; {@link percentageToBigDecimal} gives its exact
 * value. Never a JavaScript number.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PercentageOfTotal = Schema.String.pipe(
  Schema.filter((s) => Option.isSome(parsePercentage(s)), {
    message: (issue) =>
      `Expected a percentage as Go prints a float64 (e.g. "25", "33.333333333333336", "5e-05"), actual ${typeof issue.actual === "string" ? JSON.stringify(issue.actual) : String(issue.actual)}`
  }),
  Schema.brand("PercentageOfTotal")
).annotations({
  identifier: "PercentageOfTotal",
  arbitrary: () => (fc) =>
    fc.constantFrom("100", "0", "25", "33.333333333333336", "5e-05", "1.2345e-07", "0.5", "99.99999999999999") as any
})
/**
 * The decoded form of the `PercentageOfTotal` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PercentageOfTotal = typeof PercentageOfTotal.Type

/**
 * The exact decimal value of a {@link PercentageOfTotal}.
 *
 * @since 0.1.0
 * @category Getters
 */
export const percentageToBigDecimal = (p: PercentageOfTotal): BigDecimal.BigDecimal =>
  Option.getOrThrow(parsePercentage(p))

/**
 * `vega.Reward`, fields in the order the node writes them. `amount` is in the asset's base units;
 * `quantumAmount` is the amount in asset quanta, rounded to an integer by the node's storage;
 * `receivedAt` is the block time of the epoch-end payout (ns, truncated to µs); `marketId` is
 * always `""` at v0.74–v0.79; `gameId` and `teamId` are present only for game rewards.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Reward = Schema.Struct({
  assetId: AssetId,
  partyId: PartyId,
  epoch: Uint64,
  amount: Amount,
  percentageOfTotal: PercentageOfTotal,
  receivedAt: VegaTimestamp,
  marketId: Schema.String,
  rewardType: RewardType,
  lockedUntilEpoch: Uint64,
  quantumAmount: Amount,
  gameId: optional(Schema.String),
  teamId: optional(Schema.String)
}).annotations({ identifier: "Reward" })
/**
 * The decoded form of the `Reward` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Reward = typeof Reward.Type

/**
 * Request of `GET /api/v2/rewards`. An absent `partyId` lists every party's rewards (v0.75);
 * `fromEpoch` and `toEpoch` are inclusive. `teamId` and `gameId` filter game rewards.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListRewardsRequest = Schema.Struct({
  partyId: optional(PartyId),
  assetId: optional(AssetId),
  fromEpoch: optional(Uint64),
  toEpoch: optional(Uint64),
  teamId: optional(Schema.String),
  gameId: optional(Schema.String),
  pagination: optional(Pagination.PaginationParams)
}).annotations({ identifier: "ListRewardsRequest" })
/**
 * The decoded form of the `ListRewardsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListRewardsRequest = typeof ListRewardsRequest.Type

/**
 * Response of `GET /api/v2/rewards`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListRewardsResponse = Schema.Struct({
  rewards: Pagination.Connection(Reward)
}).annotations({ identifier: "ListRewardsResponse" })
/**
 * The decoded form of the `ListRewardsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListRewardsResponse = typeof ListRewardsResponse.Type
