/**
 * The event bus (`/api/v2/stream/event/bus`, also core's `/stream/event/bus`): a WebSocket stream
 * of `BusEvent`s. The client sends an {@link ObserveEventBusRequest} within 5 s of connecting;
 * the server answers with frames of {@link ObserveEventBusResponse} in stream form.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { Decimal } from "./Decimal.js"
import * as Enum from "./Enum.js"
import { EthereumAddress } from "./Ethereum.js"
import { Int64, Uint32, Uint64 } from "./Integer.js"
import { Opaque, optional } from "./internal/proto.js"
import * as LiquidityProvision from "./LiquidityProvision.js"
import * as PartyProfile from "./PartyProfile.js"
import { DiscountFactors, RewardFactors } from "./ReferralSetStats.js"
import { PercentageOfTotal } from "./Reward.js"
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
  BUS_EVENT_TYPE_ORDER: 5,
  BUS_EVENT_TYPE_PARTY: 7,
  BUS_EVENT_TYPE_TRADE: 8,
  BUS_EVENT_TYPE_NODE_SIGNATURE: 13,
  BUS_EVENT_TYPE_LIQUIDITY_PROVISION: 25,
  BUS_EVENT_TYPE_EPOCH_UPDATE: 31,
  BUS_EVENT_TYPE_STAKE_LINKING: 33,
  BUS_EVENT_TYPE_REWARD_PAYOUT_EVENT: 34,
  BUS_EVENT_TYPE_ERC20_MULTI_SIG_SIGNER_ADDED: 44,
  BUS_EVENT_TYPE_POSITION_STATE: 46,
  BUS_EVENT_TYPE_BEGIN_BLOCK: 49,
  BUS_EVENT_TYPE_END_BLOCK: 50,
  BUS_EVENT_TYPE_TRANSACTION_RESULT: 53,
  BUS_EVENT_TYPE_REFERRAL_SET_STATS_UPDATED: 76,
  BUS_EVENT_TYPE_PARTY_PROFILE_UPDATED: 86,
  BUS_EVENT_TYPE_MARKET: 101,
  BUS_EVENT_TYPE_TX_ERROR: 201
})
/**
 * The values of the `BusEventType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
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
/**
 * The decoded form of the `ObserveEventBusRequest` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ObserveEventBusRequest = typeof ObserveEventBusRequest.Type

/**
 * `vega.events.v1.TimeUpdate`: the block time, once per block.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TimeUpdate = Schema.Struct({ timestamp: VegaTimestamp }).annotations({
  identifier: "vega.events.v1.TimeUpdate"
})

/**
 * `vega.events.v1.BeginBlock`: the first event of every block.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BeginBlock = Schema.Struct({ height: Uint64, timestamp: VegaTimestamp, hash: Schema.String }).annotations({
  identifier: "vega.events.v1.BeginBlock"
})

/**
 * `vega.events.v1.EndBlock`: the last event core emits for a block. On the data node's bus events
 * of other types may still follow it (one sender per type), so it is no barrier.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EndBlock = Schema.Struct({ height: Uint64 }).annotations({ identifier: "vega.events.v1.EndBlock" })

/**
 * `vega.EpochAction`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const EpochAction = Enum.make("vega.EpochAction", {
  EPOCH_ACTION_UNSPECIFIED: 0,
  EPOCH_ACTION_START: 1,
  EPOCH_ACTION_END: 2
})
/**
 * The values of the `EpochAction` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type EpochAction = Enum.Type<typeof EpochAction>

/**
 * `vega.events.v1.EpochEvent`: an epoch started or ended (times in ns).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EpochEvent = Schema.Struct({
  seq: Uint64,
  action: EpochAction,
  startTime: Int64,
  expireTime: Int64,
  endTime: Int64
}).annotations({ identifier: "vega.events.v1.EpochEvent" })
/**
 * The decoded form of the `EpochEvent` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EpochEvent = typeof EpochEvent.Type

/**
 * `vega.Party`: a party the network has come to know (`alias` and `metadata` are its profile,
 * empty for a new party; `vega/vega.proto`, v0.75.8).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Party = Schema.Struct({
  id: Schema.String,
  alias: Schema.String,
  metadata: Schema.Array(PartyProfile.Metadata)
}).annotations({ identifier: "vega.Party" })

/**
 * `vega.commands.v1.NodeSignatureKind`.
 *
 * @since 0.1.0
 * @category Enums
 */
export const NodeSignatureKind = Enum.make("vega.commands.v1.NodeSignatureKind", {
  NODE_SIGNATURE_KIND_UNSPECIFIED: 0,
  NODE_SIGNATURE_KIND_ASSET_NEW: 1,
  NODE_SIGNATURE_KIND_ASSET_WITHDRAWAL: 2,
  NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED: 3,
  NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_REMOVED: 4,
  NODE_SIGNATURE_KIND_ASSET_UPDATE: 5
})
/**
 * The values of the `NodeSignatureKind` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type NodeSignatureKind = Enum.Type<typeof NodeSignatureKind>

/**
 * `vega.commands.v1.NodeSignature`: one validator's signature of a resource (`id` is the
 * resource's id: for a signer bundle, its `signatureId`); `sig` is base64. The signatures of one
 * resource are emitted together, once enough validators signed.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const NodeSignature = Schema.Struct({
  id: Schema.String,
  sig: Schema.String,
  kind: NodeSignatureKind
}).annotations({ identifier: "vega.commands.v1.NodeSignature" })
/**
 * The decoded form of the `NodeSignature` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type NodeSignature = typeof NodeSignature.Type

/**
 * `vega.events.v1.ERC20MultiSigSignerAdded`: a signer bundle was issued. It has every field of
 * the REST bundle but its `signatures`, which come later as {@link NodeSignature}s; `chainId` is
 * sent from v0.76.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ERC20MultiSigSignerAdded = Schema.Struct({
  signatureId: Schema.String,
  validatorId: Schema.String,
  timestamp: VegaTimestamp,
  newSigner: EthereumAddress,
  submitter: EthereumAddress,
  nonce: Amount,
  epochSeq: Uint64,
  chainId: optional(Schema.String)
}).annotations({ identifier: "vega.events.v1.ERC20MultiSigSignerAdded" })
/**
 * The decoded form of the `ERC20MultiSigSignerAdded` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ERC20MultiSigSignerAdded = typeof ERC20MultiSigSignerAdded.Type

/**
 * `vega.events.v1.PartyProfileUpdated`: the whole new profile (metadata sorted by key).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PartyProfileUpdated = Schema.Struct({ updatedProfile: PartyProfile.PartyProfile }).annotations({
  identifier: "vega.events.v1.PartyProfileUpdated"
})

/**
 * `vega.events.v1.RewardPayoutEvent`: one payout (not the party's new total). `rewardType` is an
 * account type's name written as a plain string; `timestamp` is the epoch-end block time in ns.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RewardPayoutEvent = Schema.Struct({
  party: Schema.String,
  epochSeq: Uint64,
  asset: Schema.String,
  amount: Amount,
  percentOfTotalReward: PercentageOfTotal,
  timestamp: VegaTimestamp,
  rewardType: Schema.String,
  lockedUntilEpoch: Uint64,
  quantumAmount: Amount,
  gameId: optional(Schema.String)
}).annotations({ identifier: "vega.events.v1.RewardPayoutEvent" })
/**
 * The decoded form of the `RewardPayoutEvent` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type RewardPayoutEvent = typeof RewardPayoutEvent.Type

/**
 * `vega.events.v1.RefereeStats`: one referee's figures inside {@link ReferralSetStatsUpdated}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const RefereeStats = Schema.Struct({
  partyId: Schema.String,
  discountFactor: Schema.String,
  epochNotionalTakerVolume: Amount,
  discountFactors: optional(DiscountFactors)
}).annotations({ identifier: "vega.events.v1.RefereeStats" })

/**
 * `vega.events.v1.ReferralSetStatsUpdated`: a set's statistics at an epoch's end, every referee
 * of the set included (sorted by party). The REST list has one row per referee with the set's
 * fields copied in.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ReferralSetStatsUpdated = Schema.Struct({
  setId: Schema.String,
  atEpoch: Uint64,
  referralSetRunningNotionalTakerVolume: Amount,
  refereesStats: Schema.Array(RefereeStats),
  rewardFactor: Schema.String,
  rewardsMultiplier: Decimal,
  rewardsFactorMultiplier: Schema.String,
  wasEligible: Schema.Boolean,
  referrerTakerVolume: Amount,
  rewardFactors: optional(RewardFactors),
  rewardFactorsMultiplier: optional(RewardFactors)
}).annotations({ identifier: "vega.events.v1.ReferralSetStatsUpdated" })
/**
 * The decoded form of the `ReferralSetStatsUpdated` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ReferralSetStatsUpdated = typeof ReferralSetStatsUpdated.Type

/**
 * `vega.events.v1.BusEvent`: `id` is `"<blockHeight>-<sequence>"`, `block` the block hash, and
 * `txHash` the lowercase hash of the transaction that caused it (absent for the block's own
 * events). One event member is set; the ones this package does not model are kept as received.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BusEvent = Schema.Struct({
  id: Schema.String,
  block: Schema.String,
  type: BusEventType,
  timeUpdate: optional(TimeUpdate),
  // kept as received (decode with `Vega.Order` / `Vega.Trade` in their stream form): typed here,
  // they would bring the generated messages into every program that reads the bus
  order: optional(Opaque),
  party: optional(Party),
  trade: optional(Opaque),
  nodeSignature: optional(NodeSignature),
  liquidityProvision: optional(LiquidityProvision.LiquidityProvision),
  epochEvent: optional(EpochEvent),
  stakeLinking: optional(StakeLinking.StakeLinking),
  rewardPayout: optional(RewardPayoutEvent),
  erc20MultisigSignerAdded: optional(ERC20MultiSigSignerAdded),
  beginBlock: optional(BeginBlock),
  endBlock: optional(EndBlock),
  transactionResult: optional(TransactionResult.TransactionResult),
  referralSetStatsUpdated: optional(ReferralSetStatsUpdated),
  partyProfileUpdated: optional(PartyProfileUpdated),
  txErrEvent: optional(Opaque),
  version: Uint32,
  chainId: Schema.String,
  txHash: Schema.String
}).annotations({ identifier: "vega.events.v1.BusEvent" })
/**
 * The decoded form of the `BusEvent` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type BusEvent = typeof BusEvent.Type

const EVENT_ID = /^(\d+)-(\d+)$/

/**
 * The block height of an event, from its id (`"<height>-<sequence>"`). Compare events by
 * {@link position}, never by the id's text (`"10-1"` sorts before `"9-5"`).
 *
 * @since 0.1.0
 * @category Accessors
 */
export const heightOf = (event: Pick<BusEvent, "id">): bigint => position(event)[0]

/**
 * An event's place in the chain: (height, sequence), parsed from its id. Events of one chain are
 * strictly ordered by it; the data node's bus may deliver them out of that order across types.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const position = (event: Pick<BusEvent, "id">): readonly [height: bigint, sequence: bigint] => {
  const match = EVENT_ID.exec(event.id)
  return match === null ? [-1n, -1n] : [BigInt(match[1]), BigInt(match[2])]
}

/**
 * Orders events by (height, sequence).
 *
 * @since 0.1.0
 * @category Ordering
 */
export const comparePosition = (a: Pick<BusEvent, "id">, b: Pick<BusEvent, "id">): number => {
  const [ha, sa] = position(a)
  const [hb, sb] = position(b)
  return ha < hb ? -1 : ha > hb ? 1 : sa < sb ? -1 : sa > sb ? 1 : 0
}

/**
 * A message of the event bus (inside its `{"result":…}` frame), in stream form.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ObserveEventBusResponse = StreamForm.make(
  Schema.Struct({ events: Schema.Array(BusEvent) }).annotations({ identifier: "vega.api.v1.ObserveEventBusResponse" })
)
/**
 * The decoded form of the `ObserveEventBusResponse` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ObserveEventBusResponse = typeof ObserveEventBusResponse.Type
