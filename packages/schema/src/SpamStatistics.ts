/**
 * `GET /statistics/spam/{partyId}` (core, proxied by the data node): a party's spam-protection
 * state. `statistics.pow` is what a submitter needs: for each block height still inside the
 * proof-of-work window, how many of the party's transactions used it and the difficulty the next
 * one needs (`expectedDifficulty` is absent when no more transactions are allowed at that height).
 *
 * Field numbers and names follow `vega.api.v1` (`core.proto`): `GetSpamStatisticsResponse`,
 * `SpamStatistics`, `SpamStatistic`, `VoteSpamStatistics`, `PoWStatistic`, `PoWBlockState`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { BlockHash, PartyId } from "./Ids.js"
import { Int64, Uint64 } from "./Integer.js"
import { nullable, optional } from "./internal/proto.js"

/**
 * One block height of the proof-of-work window, as the party used it.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PoWBlockState = Schema.Struct({
  blockHeight: Uint64,
  blockHash: BlockHash,
  transactionsSeen: Uint64,
  /** Absent when the party may send no more transactions tied to this height. */
  expectedDifficulty: optional(Uint64),
  hashFunction: Schema.String,
  difficulty: Uint64,
  txPerBlock: Uint64,
  increasingDifficulty: Schema.Boolean
}).annotations({ identifier: "vega.api.v1.PoWBlockState" })
/**
 * The decoded form of the `PoWBlockState` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PoWBlockState = typeof PoWBlockState.Type

/**
 * The party's proof-of-work state: the heights it used within the window, and a ban if any
 * (`bannedUntil`, unix nanoseconds).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PoWStatistic = Schema.Struct({
  blockStates: Schema.Array(PoWBlockState),
  bannedUntil: optional(Int64),
  numberOfPastBlocks: Uint64
}).annotations({ identifier: "vega.api.v1.PoWStatistic" })
/**
 * The decoded form of the `PoWStatistic` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PoWStatistic = typeof PoWStatistic.Type

/**
 * A per-epoch policy counter (proposals, delegations, transfers, …).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SpamStatistic = Schema.Struct({
  countForEpoch: Uint64,
  maxForEpoch: Uint64,
  bannedUntil: optional(Int64),
  minTokensRequired: Schema.String
}).annotations({ identifier: "vega.api.v1.SpamStatistic" })
/**
 * The decoded form of the `SpamStatistic` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SpamStatistic = typeof SpamStatistic.Type

/**
 * The vote counter of one proposal in the current epoch.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const VoteSpamStatistic = Schema.Struct({
  proposal: Schema.String,
  countForEpoch: Uint64,
  minTokensRequired: Schema.String
}).annotations({ identifier: "vega.api.v1.VoteSpamStatistic" })

/**
 * The party's vote counters, one per proposal, the epoch's maximum, and the end of a ban if any.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const VoteSpamStatistics = Schema.Struct({
  statistics: Schema.Array(VoteSpamStatistic),
  maxForEpoch: Uint64,
  bannedUntil: optional(Int64)
}).annotations({ identifier: "vega.api.v1.VoteSpamStatistics" })

/**
 * All of a party's spam statistics, in the node's field order.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SpamStatistics = Schema.Struct({
  proposals: nullable(SpamStatistic),
  delegations: nullable(SpamStatistic),
  transfers: nullable(SpamStatistic),
  nodeAnnouncements: nullable(SpamStatistic),
  votes: nullable(VoteSpamStatistics),
  pow: nullable(PoWStatistic),
  issueSignatures: nullable(SpamStatistic),
  epochSeq: Uint64,
  createReferralSet: nullable(SpamStatistic),
  updateReferralSet: nullable(SpamStatistic),
  applyReferralCode: nullable(SpamStatistic)
}).annotations({ identifier: "vega.api.v1.SpamStatistics" })
/**
 * The decoded form of the `SpamStatistics` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SpamStatistics = typeof SpamStatistics.Type

/**
 * Request of `GET /statistics/spam/{partyId}`; `partyId` goes in the path.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetSpamStatisticsRequest = Schema.Struct({
  partyId: PartyId
}).annotations({ identifier: "vega.api.v1.GetSpamStatisticsRequest" })
/**
 * The decoded form of the `GetSpamStatisticsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetSpamStatisticsRequest = typeof GetSpamStatisticsRequest.Type

/**
 * Response of `GET /statistics/spam/{partyId}`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetSpamStatisticsResponse = Schema.Struct({
  chainId: Schema.String,
  statistics: nullable(SpamStatistics)
}).annotations({ identifier: "vega.api.v1.GetSpamStatisticsResponse" })
/**
 * The decoded form of the `GetSpamStatisticsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetSpamStatisticsResponse = typeof GetSpamStatisticsResponse.Type
