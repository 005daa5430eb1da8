/**
 * Epochs as served by `GET /api/v2/epoch?id=&block=`: the epoch's sequence number, its times and
 * blocks, the validators of the epoch and the stake delegated to them.
 *
 * Validators (`vega.Node`) are modelled field by field after the v0.79 proto; their sub-messages
 * `epochData`, `rewardScore` and `rankingScore` may be `null` (the data node leaves them unset for
 * nodes it has no score for, and the gateway writes unset messages as `null`).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { Decimal } from "./Decimal.js"
import * as Enum from "./Enum.js"
import { EthereumAddress } from "./Ethereum.js"
import { NodeId, PartyId, PublicKey } from "./Ids.js"
import { Int32, Uint32, Uint64 } from "./Integer.js"
import { optional } from "./internal/proto.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * `vega.NodeStatus`
 *
 * @since 0.1.0
 * @category Enums
 */
export const NodeStatus = Enum.make("vega.NodeStatus", {
  NODE_STATUS_UNSPECIFIED: 0,
  NODE_STATUS_VALIDATOR: 1,
  NODE_STATUS_NON_VALIDATOR: 2
})
/**
 * The values of the `NodeStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type NodeStatus = Enum.Type<typeof NodeStatus>

/**
 * `vega.ValidatorNodeStatus`
 *
 * @since 0.1.0
 * @category Enums
 */
export const ValidatorNodeStatus = Enum.make("vega.ValidatorNodeStatus", {
  VALIDATOR_NODE_STATUS_UNSPECIFIED: 0,
  VALIDATOR_NODE_STATUS_TENDERMINT: 1,
  VALIDATOR_NODE_STATUS_ERSATZ: 2,
  VALIDATOR_NODE_STATUS_PENDING: 3
})
/**
 * The values of the `ValidatorNodeStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type ValidatorNodeStatus = Enum.Type<typeof ValidatorNodeStatus>

/**
 * `vega.EpochTimestamps`: times in unix nanoseconds (`endTime` is `0` while the epoch runs) and
 * the first and last block heights of the epoch.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EpochTimestamps = Schema.Struct({
  startTime: VegaTimestamp,
  expiryTime: VegaTimestamp,
  endTime: VegaTimestamp,
  firstBlock: Uint64,
  lastBlock: Uint64
}).annotations({ identifier: "EpochTimestamps" })
/**
 * The decoded form of the `EpochTimestamps` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EpochTimestamps = typeof EpochTimestamps.Type

/**
 * `vega.Delegation`: stake (VEGA base units) that `party` delegates to `nodeId` in `epochSeq`
 * (a proto string holding the epoch number).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Delegation = Schema.Struct({
  party: PartyId,
  nodeId: NodeId,
  amount: Amount,
  epochSeq: Uint64
}).annotations({ identifier: "Delegation" })
/**
 * The decoded form of the `Delegation` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Delegation = typeof Delegation.Type

/**
 * `vega.EpochData`: how many epochs the node was in, and online or offline.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EpochData = Schema.Struct({
  total: Int32,
  offline: Int32,
  online: Int32
}).annotations({ identifier: "EpochData" })
/**
 * The decoded form of the `EpochData` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EpochData = typeof EpochData.Type

/**
 * `vega.RewardScore`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RewardScore = Schema.Struct({
  rawValidatorScore: Decimal,
  performanceScore: Decimal,
  multisigScore: Decimal,
  validatorScore: Decimal,
  normalisedScore: Decimal,
  validatorStatus: ValidatorNodeStatus
}).annotations({ identifier: "RewardScore" })
/**
 * The decoded form of the `RewardScore` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type RewardScore = typeof RewardScore.Type

/**
 * `vega.RankingScore`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RankingScore = Schema.Struct({
  stakeScore: Decimal,
  performanceScore: Decimal,
  previousStatus: ValidatorNodeStatus,
  status: ValidatorNodeStatus,
  votingPower: Uint32,
  rankingScore: Decimal
}).annotations({ identifier: "RankingScore" })
/**
 * The decoded form of the `RankingScore` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type RankingScore = typeof RankingScore.Type

/**
 * `vega.Node`, a validator of the epoch. Stakes are in VEGA base units; `tmPubKey` is the
 * base64 CometBFT key.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Validator = Schema.Struct({
  id: NodeId,
  pubKey: PublicKey,
  tmPubKey: Schema.String,
  ethereumAddress: EthereumAddress,
  infoUrl: Schema.String,
  location: Schema.String,
  stakedByOperator: Amount,
  stakedByDelegates: Amount,
  stakedTotal: Amount,
  maxIntendedStake: Amount,
  pendingStake: Amount,
  epochData: Schema.NullOr(EpochData),
  status: NodeStatus,
  delegations: Schema.Array(Delegation),
  rewardScore: Schema.NullOr(RewardScore),
  rankingScore: Schema.NullOr(RankingScore),
  name: Schema.String,
  avatarUrl: Schema.String
}).annotations({ identifier: "Validator" })
/**
 * The decoded form of the `Validator` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Validator = typeof Validator.Type

/**
 * `vega.Epoch`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Epoch = Schema.Struct({
  seq: Uint64,
  timestamps: EpochTimestamps,
  validators: Schema.Array(Validator),
  delegations: Schema.Array(Delegation)
}).annotations({ identifier: "Epoch" })
/**
 * The decoded form of the `Epoch` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Epoch = typeof Epoch.Type

/**
 * Request of `GET /api/v2/epoch`: query `id` (an epoch number) or `block` (the epoch containing
 * that block height); with neither the current epoch is returned.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetEpochRequest = Schema.Struct({
  id: optional(Uint64),
  block: optional(Uint64)
}).annotations({ identifier: "GetEpochRequest" })
/**
 * The decoded form of the `GetEpochRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetEpochRequest = typeof GetEpochRequest.Type

/**
 * Response of `GET /api/v2/epoch`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetEpochResponse = Schema.Struct({
  epoch: Epoch
}).annotations({ identifier: "GetEpochResponse" })
/**
 * The decoded form of the `GetEpochResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetEpochResponse = typeof GetEpochResponse.Type
