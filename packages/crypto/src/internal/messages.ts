/**
 * Wire descriptors of `vega.commands.v1.InputData`'s commands and of `Transaction`, typed from the
 * decoded types of `@vega-effect/schema` (every property must be described, optional properties
 * with explicit presence). Field numbers are those of vega v0.79.0's protos, checked byte for byte
 * against `@vegaprotocol/protos` in the tests.
 */
import { Commands, Transaction } from "@vega-effect/schema"
import {
  bool,
  bytes,
  enumeration,
  int32,
  int64,
  message,
  messageType,
  type MessageType,
  oneof,
  optional,
  repeated,
  string,
  uint32,
  uint64
} from "./protobuf.js"

// vega.proto / commands.proto: orders

export const PeggedOrder = messageType<Commands.PeggedOrder>("vega.PeggedOrder", {
  reference: enumeration(1, Commands.PeggedReference),
  offset: string(2)
})

export const IcebergOpts = messageType<Commands.IcebergOpts>("vega.commands.v1.IcebergOpts", {
  peakSize: uint64(1),
  minimumVisibleSize: uint64(2)
})

export const OrderSubmission = messageType<Commands.OrderSubmission>("vega.commands.v1.OrderSubmission", {
  marketId: string(1),
  price: string(2),
  size: uint64(3),
  side: enumeration(4, Commands.Side),
  timeInForce: enumeration(5, Commands.TimeInForce),
  expiresAt: int64(6),
  type: enumeration(7, Commands.OrderType),
  reference: string(8),
  peggedOrder: message(9, PeggedOrder),
  postOnly: bool(10),
  reduceOnly: bool(11),
  icebergOpts: message(12, IcebergOpts)
})

export const OrderCancellation = messageType<Commands.OrderCancellation>("vega.commands.v1.OrderCancellation", {
  orderId: string(1),
  marketId: string(2)
})

export const OrderAmendment = messageType<Commands.OrderAmendment>("vega.commands.v1.OrderAmendment", {
  orderId: string(1),
  marketId: string(2),
  price: optional(string(3)),
  sizeDelta: int64(4),
  expiresAt: optional(int64(5)),
  timeInForce: enumeration(6, Commands.TimeInForce),
  peggedOffset: string(7),
  peggedReference: enumeration(8, Commands.PeggedReference),
  size: optional(uint64(9))
})

// stop orders

export const StopOrderSizeOverrideValue = messageType<Commands.StopOrderSizeOverrideValue>(
  "vega.StopOrder.SizeOverrideValue",
  { percentage: string(1) }
)

export const StopOrderSetup = messageType<Commands.StopOrderSetup>("vega.commands.v1.StopOrderSetup", {
  orderSubmission: message(1, OrderSubmission),
  expiresAt: optional(int64(2)),
  expiryStrategy: optional(enumeration(3, Commands.StopOrderExpiryStrategy)),
  sizeOverrideSetting: optional(enumeration(4, Commands.StopOrderSizeOverrideSetting)),
  sizeOverrideValue: message(5, StopOrderSizeOverrideValue),
  price: oneof("trigger", string(100)),
  trailingPercentOffset: oneof("trigger", string(101))
})

export const StopOrdersSubmission = messageType<Commands.StopOrdersSubmission>(
  "vega.commands.v1.StopOrdersSubmission",
  {
    risesAbove: message(1, StopOrderSetup),
    fallsBelow: message(2, StopOrderSetup)
  }
)

export const StopOrdersCancellation = messageType<Commands.StopOrdersCancellation>(
  "vega.commands.v1.StopOrdersCancellation",
  {
    marketId: optional(string(1)),
    stopOrderId: optional(string(2))
  }
)

// margin mode and batches

export const UpdateMarginMode = messageType<Commands.UpdateMarginMode>("vega.commands.v1.UpdateMarginMode", {
  marketId: string(1),
  mode: enumeration(2, Commands.MarginMode),
  marginFactor: optional(string(3))
})

export const BatchMarketInstructions = messageType<Commands.BatchMarketInstructions>(
  "vega.commands.v1.BatchMarketInstructions",
  {
    cancellations: repeated(message(1, OrderCancellation)),
    amendments: repeated(message(2, OrderAmendment)),
    submissions: repeated(message(3, OrderSubmission)),
    stopOrdersCancellation: repeated(message(4, StopOrdersCancellation)),
    stopOrdersSubmission: repeated(message(5, StopOrdersSubmission)),
    updateMarginMode: repeated(message(6, UpdateMarginMode))
  }
)

// liquidity provision (fields 4 and 5 are reserved)

export const LiquidityProvisionSubmission = messageType<Commands.LiquidityProvisionSubmission>(
  "vega.commands.v1.LiquidityProvisionSubmission",
  {
    marketId: string(1),
    commitmentAmount: string(2),
    fee: string(3),
    reference: string(6)
  }
)

export const LiquidityProvisionAmendment = messageType<Commands.LiquidityProvisionAmendment>(
  "vega.commands.v1.LiquidityProvisionAmendment",
  {
    marketId: string(1),
    commitmentAmount: string(2),
    fee: string(3),
    reference: string(6)
  }
)

export const LiquidityProvisionCancellation = messageType<Commands.LiquidityProvisionCancellation>(
  "vega.commands.v1.LiquidityProvisionCancellation",
  { marketId: string(1) }
)

// transfers

export const Rank = messageType<Commands.Rank>("vega.Rank", {
  startRank: uint32(1),
  shareRatio: uint32(2)
})

export const DispatchStrategy = messageType<Commands.DispatchStrategy>("vega.DispatchStrategy", {
  assetForMetric: string(1),
  metric: enumeration(2, Commands.DispatchMetric),
  markets: repeated(string(3)),
  entityScope: enumeration(4, Commands.EntityScope),
  individualScope: enumeration(5, Commands.IndividualScope),
  teamScope: repeated(string(6)),
  nTopPerformers: string(7),
  stakingRequirement: string(8),
  notionalTimeWeightedAveragePositionRequirement: string(9),
  windowLength: uint64(10),
  lockPeriod: uint64(11),
  distributionStrategy: enumeration(12, Commands.DistributionStrategy),
  rankTable: repeated(message(13, Rank)),
  capRewardFeeMultiple: optional(string(14)),
  // `optional int32` in the proto (the schema types it as a uint32)
  transferInterval: optional(int32(15)),
  targetNotionalVolume: optional(string(16)),
  eligibleKeys: repeated(string(17))
})

export const OneOffTransfer = messageType<Commands.OneOffTransfer>("vega.commands.v1.OneOffTransfer", {
  deliverOn: int64(1)
})

export const RecurringTransfer = messageType<Commands.RecurringTransfer>("vega.commands.v1.RecurringTransfer", {
  startEpoch: uint64(1),
  endEpoch: optional(uint64(2)),
  factor: string(3),
  dispatchStrategy: message(4, DispatchStrategy)
})

export const Transfer = messageType<Commands.Transfer>("vega.commands.v1.Transfer", {
  fromAccountType: enumeration(1, Commands.AccountType),
  to: string(2),
  toAccountType: enumeration(3, Commands.AccountType),
  asset: string(4),
  amount: string(5),
  reference: string(6),
  from: optional(string(7)),
  oneOff: oneof("kind", message(101, OneOffTransfer)),
  recurring: oneof("kind", message(102, RecurringTransfer))
})

export const CancelTransfer = messageType<Commands.CancelTransfer>("vega.commands.v1.CancelTransfer", {
  transferId: string(1)
})

// withdrawals

export const Erc20WithdrawExt = messageType<Commands.Erc20WithdrawExt>("vega.Erc20WithdrawExt", {
  receiverAddress: string(1)
})

export const WithdrawExt = messageType<Commands.WithdrawExt>("vega.WithdrawExt", {
  erc20: oneof("ext", message(1, Erc20WithdrawExt))
})

export const WithdrawSubmission = messageType<Commands.WithdrawSubmission>("vega.commands.v1.WithdrawSubmission", {
  amount: string(1),
  asset: string(2),
  ext: message(3, WithdrawExt)
})

// governance and staking

export const VoteSubmission = messageType<Commands.VoteSubmission>("vega.commands.v1.VoteSubmission", {
  proposalId: string(1),
  value: enumeration(2, Commands.VoteValue)
})

export const DelegateSubmission = messageType<Commands.DelegateSubmission>("vega.commands.v1.DelegateSubmission", {
  nodeId: string(1),
  amount: string(2)
})

export const UndelegateSubmission = messageType<Commands.UndelegateSubmission>(
  "vega.commands.v1.UndelegateSubmission",
  {
    nodeId: string(1),
    amount: string(2),
    method: enumeration(3, Commands.UndelegateMethod)
  }
)

// parties, referral sets and teams

export const Metadata = messageType<Commands.Metadata>("vega.Metadata", {
  key: string(1),
  value: string(2)
})

export const UpdatePartyProfile = messageType<Commands.UpdatePartyProfile>("vega.commands.v1.UpdatePartyProfile", {
  alias: string(1),
  metadata: repeated(message(2, Metadata))
})

export const CreateReferralSetTeam = messageType<Commands.CreateReferralSetTeam>(
  "vega.commands.v1.CreateReferralSet.Team",
  {
    name: string(10),
    teamUrl: optional(string(11)),
    avatarUrl: optional(string(12)),
    closed: bool(13),
    allowList: repeated(string(14))
  }
)

export const CreateReferralSet = messageType<Commands.CreateReferralSet>("vega.commands.v1.CreateReferralSet", {
  isTeam: bool(1),
  team: message(2, CreateReferralSetTeam),
  doNotCreateReferralSet: bool(3)
})

export const UpdateReferralSetTeam = messageType<Commands.UpdateReferralSetTeam>(
  "vega.commands.v1.UpdateReferralSet.Team",
  {
    name: optional(string(10)),
    teamUrl: optional(string(11)),
    avatarUrl: optional(string(12)),
    closed: optional(bool(13)),
    allowList: repeated(string(14))
  }
)

export const UpdateReferralSet = messageType<Commands.UpdateReferralSet>("vega.commands.v1.UpdateReferralSet", {
  id: string(1),
  isTeam: bool(2),
  team: message(3, UpdateReferralSetTeam)
})

export const ApplyReferralCode = messageType<Commands.ApplyReferralCode>("vega.commands.v1.ApplyReferralCode", {
  id: string(1),
  doNotJoinTeam: bool(2)
})

export const JoinTeam = messageType<Commands.JoinTeam>("vega.commands.v1.JoinTeam", {
  id: string(1)
})

/**
 * The message of each supported command; its field number in `InputData` is
 * `Commands.commands[name].fieldNumber`.
 */
export const commandTypes: { readonly [K in Commands.CommandName]: MessageType<Commands.CommandValues[K]> } = {
  orderSubmission: OrderSubmission,
  orderCancellation: OrderCancellation,
  orderAmendment: OrderAmendment,
  withdrawSubmission: WithdrawSubmission,
  voteSubmission: VoteSubmission,
  liquidityProvisionSubmission: LiquidityProvisionSubmission,
  delegateSubmission: DelegateSubmission,
  undelegateSubmission: UndelegateSubmission,
  liquidityProvisionCancellation: LiquidityProvisionCancellation,
  liquidityProvisionAmendment: LiquidityProvisionAmendment,
  transfer: Transfer,
  cancelTransfer: CancelTransfer,
  batchMarketInstructions: BatchMarketInstructions,
  stopOrdersSubmission: StopOrdersSubmission,
  stopOrdersCancellation: StopOrdersCancellation,
  createReferralSet: CreateReferralSet,
  updateReferralSet: UpdateReferralSet,
  applyReferralCode: ApplyReferralCode,
  updateMarginMode: UpdateMarginMode,
  joinTeam: JoinTeam,
  updatePartyProfile: UpdatePartyProfile
}

// transaction.proto, signature.proto

export const Signature = messageType<Transaction.Signature>("vega.commands.v1.Signature", {
  value: string(1),
  algo: string(2),
  version: uint32(3)
})

export const ProofOfWork = messageType<Transaction.ProofOfWork>("vega.commands.v1.ProofOfWork", {
  tid: string(1),
  nonce: uint64(2)
})

export const TransactionMessage = messageType<Transaction.Transaction>("vega.commands.v1.Transaction", {
  inputData: bytes(1),
  signature: message(2, Signature),
  address: oneof("from", string(1001)),
  pubKey: oneof("from", string(1002)),
  version: enumeration(2000, Transaction.TxVersion),
  pow: message(3000, ProofOfWork)
})
