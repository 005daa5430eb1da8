/**
 * What the generator takes from this package's hand-written modules instead of writing it: the
 * messages modelled by hand before the generator existed (they keep their exact decoded types and
 * encodings, and the generated schemas reuse them wherever the message appears), the routes whose
 * request and response schemas are hand-written, and the names the endpoint table gives to routes
 * whose RPC name is taken.
 *
 * Enums are not listed: every `Enum.make("<proto name>", …)` of a hand-written module is found by
 * its proto name and reused.
 */

/** Proto message full name → `Module.Export` of the hand-written schema. */
export const MESSAGES: Readonly<Record<string, string>> = {
  "vega.Position": "Position.Position",
  "vega.StakeLinking": "StakeLinking.StakeLinking",
  "vega.LiquidityProvision": "LiquidityProvision.LiquidityProvision",
  "vega.LiquidityOrder": "LiquidityProvision.LiquidityOrder",
  "vega.LiquidityOrderReference": "LiquidityProvision.LiquidityOrderReference",
  "datanode.api.v2.LiquidityProvision": "LiquidityProvision.LiquidityProvisionNode",
  "datanode.api.v2.ReferralSetStats": "ReferralSetStats.ReferralSetStats",
  "datanode.api.v2.ERC20MultiSigSignerAddedBundle": "SignerBundle.SignerAddedBundle",
  "vega.PartyProfile": "PartyProfile.PartyProfile",
  "vega.RewardSummary": "RewardSummary.RewardSummary",
  "vega.Reward": "Reward.Reward",
  "vega.Asset": "Asset.Asset",
  "vega.AssetDetails": "Asset.AssetDetails",
  "vega.BuiltinAsset": "Asset.BuiltinAsset",
  "vega.ERC20": "Asset.Erc20",
  "vega.Market": "Market.Market",
  "vega.Instrument": "Market.Instrument",
  "vega.InstrumentMetadata": "Market.InstrumentMetadata",
  "vega.Future": "Market.Future",
  "vega.Perpetual": "Market.Perpetual",
  "vega.Spot": "Market.Spot",
  "vega.TradableInstrument": "Market.TradableInstrument",
  "vega.MarketTimestamps": "Market.MarketTimestamps",
  "vega.Epoch": "Epoch.Epoch",
  "vega.EpochTimestamps": "Epoch.EpochTimestamps",
  "vega.EpochData": "Epoch.EpochData",
  "vega.Node": "Epoch.Validator",
  "vega.Delegation": "Epoch.Delegation",
  "vega.RewardScore": "Epoch.RewardScore",
  "vega.RankingScore": "Epoch.RankingScore",
  "vega.Party": "EventBus.Party",
  "vega.Metadata": "Commands.Metadata",
  "vega.PeggedOrder": "Commands.PeggedOrder",
  "vega.DispatchStrategy": "Commands.DispatchStrategy",
  "vega.Rank": "Commands.Rank",
  "vega.WithdrawExt": "Commands.WithdrawExt",
  "vega.Erc20WithdrawExt": "Commands.Erc20WithdrawExt",
  "vega.StopOrder.SizeOverrideValue": "Commands.StopOrderSizeOverrideValue",
  "vega.events.v1.BusEvent": "EventBus.BusEvent",
  "vega.events.v1.TransactionResult": "TransactionResult.TransactionResult",
  "vega.commands.v1.OrderSubmission": "Commands.OrderSubmission",
  "vega.commands.v1.OrderCancellation": "Commands.OrderCancellation",
  "vega.commands.v1.OrderAmendment": "Commands.OrderAmendment",
  "vega.commands.v1.StopOrdersSubmission": "Commands.StopOrdersSubmission",
  "vega.commands.v1.StopOrdersCancellation": "Commands.StopOrdersCancellation",
  "vega.commands.v1.StopOrderSetup": "Commands.StopOrderSetup",
  "vega.commands.v1.UpdateMarginMode": "Commands.UpdateMarginMode",
  "vega.commands.v1.BatchMarketInstructions": "Commands.BatchMarketInstructions",
  "vega.commands.v1.LiquidityProvisionSubmission": "Commands.LiquidityProvisionSubmission",
  "vega.commands.v1.LiquidityProvisionAmendment": "Commands.LiquidityProvisionAmendment",
  "vega.commands.v1.LiquidityProvisionCancellation": "Commands.LiquidityProvisionCancellation",
  "vega.commands.v1.Transfer": "Commands.Transfer",
  "vega.commands.v1.CancelTransfer": "Commands.CancelTransfer",
  "vega.commands.v1.WithdrawSubmission": "Commands.WithdrawSubmission",
  "vega.commands.v1.VoteSubmission": "Commands.VoteSubmission",
  "vega.commands.v1.DelegateSubmission": "Commands.DelegateSubmission",
  "vega.commands.v1.UndelegateSubmission": "Commands.UndelegateSubmission",
  "vega.commands.v1.UpdatePartyProfile": "Commands.UpdatePartyProfile",
  "vega.commands.v1.CreateReferralSet": "Commands.CreateReferralSet",
  "vega.commands.v1.UpdateReferralSet": "Commands.UpdateReferralSet",
  "vega.commands.v1.ApplyReferralCode": "Commands.ApplyReferralCode",
  "vega.commands.v1.JoinTeam": "Commands.JoinTeam",
  "vega.commands.v1.NodeSignature": "EventBus.NodeSignature",
  "vega.commands.v1.OneOffTransfer": "Commands.OneOffTransfer",
  "vega.commands.v1.RecurringTransfer": "Commands.RecurringTransfer",
  "vega.commands.v1.IcebergOpts": "Commands.IcebergOpts",
  "vega.api.v1.SpamStatistics": "SpamStatistics.SpamStatistics",
  "vega.api.v1.SpamStatistic": "SpamStatistics.SpamStatistic",
  "vega.api.v1.PoWStatistic": "SpamStatistics.PoWStatistic",
  "vega.api.v1.PoWBlockState": "SpamStatistics.PoWBlockState",
  "vega.api.v1.VoteSpamStatistic": "SpamStatistics.VoteSpamStatistic",
  "vega.api.v1.VoteSpamStatistics": "SpamStatistics.VoteSpamStatistics",
  "vega.api.v1.Statistics": "ChainInfo.Statistics"
}

/** A route modelled by hand: its request and response (or, for a stream, its message) schemas. */
export interface HandwrittenRoute {
  /** left out: generated from the route's request message */
  readonly request?: string
  readonly response: string
}

const NO_PARAMS = "Endpoint.NoParams"

/** Route name (see `routes.ts`) → its hand-written schemas. */
export const ROUTES: Readonly<Record<string, HandwrittenRoute>> = {
  GetStake: { request: "StakeLinking.GetStakeRequest", response: "StakeLinking.GetStakeResponse" },
  ListAllLiquidityProvisions: {
    request: "LiquidityProvision.ListLiquidityProvisionsRequest",
    response: "LiquidityProvision.ListLiquidityProvisionsResponse"
  },
  ListAllPositions: { request: "Position.ListPositionsRequest", response: "Position.ListPositionsResponse" },
  GetReferralSetStats: {
    request: "ReferralSetStats.GetReferralSetStatsRequest",
    response: "ReferralSetStats.GetReferralSetStatsResponse"
  },
  ListERC20MultiSigSignerAddedBundles: {
    request: "SignerBundle.ListSignerAddedBundlesRequest",
    response: "SignerBundle.ListSignerAddedBundlesResponse"
  },
  ListPartiesProfiles: {
    request: "PartyProfile.ListPartiesProfilesRequest",
    response: "PartyProfile.ListPartiesProfilesResponse"
  },
  ListRewardSummaries: {
    request: "RewardSummary.ListRewardSummariesRequest",
    response: "RewardSummary.ListRewardSummariesResponse"
  },
  ListRewards: { request: "Reward.ListRewardsRequest", response: "Reward.ListRewardsResponse" },
  Info: { request: NO_PARAMS, response: "ChainInfo.InfoResponse" },
  Statistics: { request: NO_PARAMS, response: "ChainInfo.StatisticsResponse" },
  LastBlockHeight: { request: NO_PARAMS, response: "ChainInfo.LastBlockHeightResponse" },
  GetSpamStatistics: {
    request: "SpamStatistics.GetSpamStatisticsRequest",
    response: "SpamStatistics.GetSpamStatisticsResponse"
  },
  GetVegaTime: { request: NO_PARAMS, response: "ChainInfo.GetVegaTimeResponse" },
  GetEpoch: { request: "Epoch.GetEpochRequest", response: "Epoch.GetEpochResponse" },
  ListAssets: { request: "Asset.ListAssetsRequest", response: "Asset.ListAssetsResponse" },
  GetAsset: { request: "Asset.GetAssetRequest", response: "Asset.GetAssetResponse" },
  ListMarkets: { request: "Market.ListMarketsRequest", response: "Market.ListMarketsResponse" },
  GetMarket: { request: "Market.GetMarketRequest", response: "Market.GetMarketResponse" },
  SubmitTransaction: {
    request: "Transaction.SubmitTransactionRequest",
    response: "Transaction.SubmitTransactionResponse"
  },
  SubmitRawTransaction: {
    request: "Transaction.SubmitRawTransactionRequest",
    response: "Transaction.SubmitTransactionResponse"
  },
  CheckTransaction: {
    request: "Transaction.CheckTransactionRequest",
    response: "Transaction.CheckTransactionResponse"
  },
  CheckRawTransaction: {
    request: "Transaction.CheckRawTransactionRequest",
    response: "Transaction.CheckTransactionResponse"
  },
  // streams: the response is the message schema, already in stream form
  ObserveTransactionResults: { response: "TransactionResult.ObserveTransactionResultsResponse" },
  ObserveEventBus: { request: "EventBus.ObserveEventBusRequest", response: "EventBus.ObserveEventBusResponse" },
  CoreObserveEventBus: { request: "EventBus.ObserveEventBusRequest", response: "EventBus.ObserveEventBusResponse" },
  ObservePositions: { request: "Position.ObservePositionsRequest", response: "Position.ObservePositionsResponse" },
  ObserveLiquidityProvisions: {
    request: "LiquidityProvision.ObserveLiquidityProvisionsRequest",
    response: "LiquidityProvision.ObserveLiquidityProvisionsResponse"
  }
}

/**
 * Route name → the name of its constant in the endpoint table, where the route's own name is
 * taken: `ListLiquidityProvisions` has always meant `/api/v2/liquidity/all-provisions` here, so
 * the deprecated route of that RPC name gets another.
 */
export const EXPORT_NAMES: Readonly<Record<string, string>> = {
  ListLiquidityProvisions: "ListLiquidityProvisionsDeprecated"
}
