/**
 * What the API's strings and 64-bit integers really are: the one reviewed table from which the
 * generator picks each member's codec. The spec says only `string` (amounts, prices, ids, decimals
 * alike) or `int64`/`uint64` (times, epochs, sizes alike); the node's sources say more, and what
 * they say is written here, message by message, with the reason where it is not plain.
 *
 * Keys are proto full names of messages and the JSON (lowerCamel) names of their members. A string
 * member the table does not name stays a plain string; a 64-bit member it does not name is a
 * 64-bit integer (`Int64` / `Uint64`, as a `bigint`).
 */

/** What one member is. */
export type Kind =
  /** an unsigned integer in base units (asset, price or position units): a 256-bit decimal string */
  | "Amount"
  /** the same, or `""` where the node leaves it unset */
  | "AmountOrEmpty"
  /** a signed integer in base units (PnL, funding payments, signed volumes) */
  | "SignedAmount"
  /** a decimal number: factors, rates, fractions, scores, shares (may have a fractional part) */
  | "Decimal"
  /** the same, or `""` where the node leaves it unset */
  | "DecimalOrEmpty"
  /** an unsigned 64-bit integer carried in a string member (e.g. an epoch written as text) */
  | "Uint64Text"
  /** 64 lowercase hexadecimal characters, always set (market, asset, order, proposal ids, ...) */
  | "Id"
  /** the same, or `""` where the node leaves it unset */
  | "IdOrEmpty"
  /** a party: 64 hexadecimal characters or `network` */
  | "PartyId"
  /** the same, or `""` where the node leaves it unset */
  | "PartyIdOrEmpty"
  /** `0x` and 40 hexadecimal characters */
  | "EthereumAddress"
  /** the same, or `""` */
  | "EthereumAddressOrEmpty"
  /** an int64 member holding a time in nanoseconds since the Unix epoch (Vega time) */
  | "Timestamp"
  /** an int64/uint64 member holding a time in seconds since the Unix epoch (Ethereum block times,
   * and the times governance and programs write in seconds) */
  | "EthereumTimestamp"
  /** reviewed, and a plain string (a name, a free text, a hash, an enum-like text): listed so that
   * an amount-like name is never left unclassified by accident */
  | "Text"

/** The table: message full name -> member JSON name -> kind. */
export const EXACTNESS: Readonly<Record<string, Readonly<Record<string, Kind>>>> = {
  "datanode.api.v2.AccountFilter": {
    assetId: "Id",
    partyIds: "PartyId", // each element
    marketIds: "Id" // each element
  },
  "datanode.api.v2.AccountBalance": {
    owner: "PartyId", // `network` for network-owned accounts (the data node maps core's `*` to `network`)
    balance: "Amount", // asset decimals; datanode/entities/account_balance.go: decimal.Decimal from a NUMERIC column, integer-valued
    asset: "Id",
    marketId: "IdOrEmpty" // "" for accounts not tied to a market (general, network-wide accounts); for reward accounts it is the dispatch-strategy hash
  },
  "datanode.api.v2.DateRange": {
    startTimestamp: "Timestamp",
    endTimestamp: "Timestamp"
  },
  "datanode.api.v2.AggregatedBalance": {
    timestamp: "Timestamp",
    balance: "Amount", // asset decimals; sum of NUMERIC balances, integer-valued
    partyId: "PartyId", // present only when grouping by party; may be `network`
    assetId: "Id", // present only when grouping by asset
    marketId: "IdOrEmpty" // present only when grouping by market; "" for the group of accounts without a market
  },
  "datanode.api.v2.ListCandleDataRequest": {
    candleId: "Text", // a candle id is `trades_candle_<interval>_<market id>`, not hex
    fromTimestamp: "Timestamp",
    toTimestamp: "Timestamp"
  },
  "datanode.api.v2.Candle": {
    start: "Timestamp",
    lastUpdate: "Timestamp",
    high: "AmountOrEmpty", // market price decimals; datanode/entities/candle.go: written only when > 0, "" otherwise
    low: "AmountOrEmpty", // market price decimals; "" when zero (see high)
    open: "AmountOrEmpty", // market price decimals; "" when zero (see high)
    close: "AmountOrEmpty" // market price decimals; "" when zero (see high)
  },
  "datanode.api.v2.ListCandleIntervalsRequest": {
    marketId: "Id"
  },
  "datanode.api.v2.IntervalToCandleId": {
    interval: "Text", // an interval name such as `1 minute`
    candleId: "Text" // `trades_candle_<interval>_<market id>`, not hex
  },
  "datanode.api.v2.Checkpoint": {
    hash: "Id", // core/events/checkpoint.go: lowercase hex of a SHA3-256 hash
    blockHash: "Id" // core/blockchain/abci/abci.go: block hash hex-encoded in lowercase (64 hex)
  },
  "datanode.api.v2.ListDelegationsRequest": {
    partyId: "PartyId",
    nodeId: "Id",
    epochId: "Uint64Text" // an epoch number as text
  },
  "datanode.api.v2.GetDepositRequest": {
    id: "Id"
  },
  "vega.Deposit": {
    id: "Id",
    partyId: "PartyId",
    asset: "Id",
    amount: "Amount", // asset decimals; NUMERIC column, integer-valued
    txHash: "Text", // the Ethereum transaction hash, `0x`-prefixed
    creditedTimestamp: "Timestamp", // 0 until the deposit is credited
    createdTimestamp: "Timestamp"
  },
  "datanode.api.v2.ListDepositsRequest": {
    partyId: "PartyId"
  },
  "datanode.api.v2.GetERC20SetAssetLimitsBundleRequest": {
    proposalId: "Id"
  },
  "datanode.api.v2.GetERC20SetAssetLimitsBundleResponse": {
    assetSource: "EthereumAddress", // the asset's ERC-20 contract, case as stored for the asset
    vegaAssetId: "Id",
    nonce: "Amount", // not an amount: the proposal id read as a 256-bit number, in decimal (datanode/api/trading_data_v2.go)
    lifetimeLimit: "Amount", // asset decimals; copied from the update-asset proposal
    threshold: "Amount" // asset decimals; the withdraw threshold from the update-asset proposal
  },
  "datanode.api.v2.GetERC20ListAssetBundleRequest": {
    assetId: "Id"
  },
  "datanode.api.v2.GetERC20ListAssetBundleResponse": {
    assetSource: "EthereumAddress",
    vegaAssetId: "Id",
    nonce: "Amount" // not an amount: the asset id read as a 256-bit number, in decimal
  },
  "datanode.api.v2.GetERC20WithdrawalApprovalRequest": {
    withdrawalId: "Id"
  },
  "datanode.api.v2.GetERC20WithdrawalApprovalResponse": {
    assetSource: "EthereumAddress",
    amount: "Amount", // asset decimals
    nonce: "Uint64Text", // the withdrawal's `ref`: unix seconds plus a counter (core/banking/engine.go)
    targetAddress: "EthereumAddress", // the receiver address given in the withdrawal, case as submitted
    creation: "EthereumTimestamp" // unix seconds (the handler cuts the nanoseconds for the contract); the spec only says "timestamps"
  },
  "datanode.api.v2.ListERC20MultiSigSignerRemovedBundlesRequest": {
    nodeId: "Id",
    submitter: "EthereumAddress",
    epochSeq: "Uint64Text" // parsed by the handler as a base-10 integer
  },
  "datanode.api.v2.ERC20MultiSigSignerRemovedBundle": {
    oldSigner: "EthereumAddress", // lowercase, as for added bundles
    submitter: "EthereumAddress",
    nonce: "Amount", // not an amount: a 256-bit nonce as decimal text (as SignerBundle.ts does for added bundles)
    timestamp: "Timestamp",
    epochSeq: "Uint64Text" // datanode/entities/erc20_multisig_event.go: formatted from an integer epoch
  },
  "datanode.api.v2.EstimateFeeRequest": {
    marketId: "Id",
    price: "Amount" // market price decimals; must be > 0
  },
  "vega.Fee": {
    makerFee: "Amount", // settlement-asset decimals
    infrastructureFee: "Amount", // settlement-asset decimals
    liquidityFee: "Amount", // settlement-asset decimals
    makerFeeVolumeDiscount: "AmountOrEmpty", // settlement-asset decimals: an amount taken off the fee, not a factor; EstimateFee (datanode/api/trading_data_v2.go) leaves all six discounts ""
    infrastructureFeeVolumeDiscount: "AmountOrEmpty", // as makerFeeVolumeDiscount
    liquidityFeeVolumeDiscount: "AmountOrEmpty", // as makerFeeVolumeDiscount
    makerFeeReferrerDiscount: "AmountOrEmpty", // as makerFeeVolumeDiscount
    infrastructureFeeReferrerDiscount: "AmountOrEmpty", // as makerFeeVolumeDiscount
    liquidityFeeReferrerDiscount: "AmountOrEmpty" // as makerFeeVolumeDiscount
  },
  "datanode.api.v2.EstimateMarginRequest": {
    marketId: "Id",
    partyId: "PartyId",
    price: "Amount" // market price decimals
  },
  "vega.MarginLevels": {
    maintenanceMargin: "Amount", // settlement-asset decimals; NUMERIC column or a rounded estimate, integer-valued
    searchLevel: "Amount", // settlement-asset decimals
    initialMargin: "Amount", // settlement-asset decimals
    collateralReleaseLevel: "Amount", // settlement-asset decimals
    partyId: "PartyIdOrEmpty", // EstimatePosition's margin estimates leave it "" (datanode/api/trading_data_v2.go)
    marketId: "Id",
    asset: "Id",
    timestamp: "Timestamp", // 0 in estimates
    orderMargin: "AmountOrEmpty", // settlement-asset decimals; "" in cross-margin estimates, "0" from the store
    marginFactor: "DecimalOrEmpty" // "" in cross-margin estimates, "0" from the store in cross-margin mode
  },
  "datanode.api.v2.OrderInfo": {
    price: "Amount" // market price decimals; the handler rejects negative or fractional prices
  },
  "datanode.api.v2.EstimatePositionRequest": {
    marketId: "Id",
    averageEntryPrice: "Amount", // market price decimals
    marginAccountBalance: "Amount", // settlement-asset decimals
    generalAccountBalance: "Amount", // settlement-asset decimals; read in cross-margin mode only
    orderMarginAccountBalance: "Amount", // settlement-asset decimals
    marginFactor: "Decimal" // required in isolated-margin mode
  },
  "datanode.api.v2.CollateralIncreaseEstimate": {
    worstCase: "SignedAmount", // settlement-asset decimals; a difference (required minus held), negative when collateral would be released
    bestCase: "SignedAmount" // as worstCase
  },
  "datanode.api.v2.LiquidationPrice": {
    openVolumeOnly: "Amount", // asset decimals, or market price decimals when scaleLiquidationPriceToMarketDecimals; rounded, never negative (core/risk/liquidation_calculation.go)
    includingBuyOrders: "Amount", // as openVolumeOnly
    includingSellOrders: "Amount" // as openVolumeOnly
  },
  "datanode.api.v2.GetFeesStatsRequest": {
    marketId: "Id",
    assetId: "Id",
    partyId: "PartyId"
  },
  "vega.events.v1.PartyAmount": {
    party: "PartyId",
    amount: "Amount", // asset decimals
    quantumAmount: "DecimalOrEmpty" // amount divided by the asset quantum, truncated to 6 places (core/fee/rebate_stats.go); "" in paid-liquidity-fee stats, which never set it (core/types/liquidity_fee_stats.go)
  },
  "vega.events.v1.ReferrerRewardsGenerated": {
    referrer: "PartyId"
  },
  "vega.events.v1.MakerFeesGenerated": {
    taker: "PartyId"
  },
  "vega.events.v1.FeesStats": {
    market: "Id",
    asset: "Id"
  },
  "datanode.api.v2.GetFeesStatsForPartyRequest": {
    partyId: "PartyId",
    assetId: "Id"
  },
  "datanode.api.v2.FeesStatsForParty": {
    assetId: "Id",
    totalRewardsReceived: "Amount", // asset decimals; SQL sum of integer amounts (datanode/sqlstore/fees_stats.go)
    refereesDiscountApplied: "Amount", // asset decimals; SQL sum
    volumeDiscountApplied: "Amount", // asset decimals; SQL sum
    totalMakerFeesReceived: "Amount" // asset decimals; SQL sum
  },
  "datanode.api.v2.ListFundingPaymentsRequest": {
    partyId: "PartyId",
    marketId: "Id"
  },
  "datanode.api.v2.FundingPayment": {
    partyId: "PartyId",
    marketId: "Id",
    timestamp: "Timestamp",
    amount: "SignedAmount" // settlement-asset decimals; positive received, negative paid; NUMERIC column, integer-valued
  },
  "datanode.api.v2.ListFundingPeriodDataPointsRequest": {
    marketId: "Id"
  },
  "vega.events.v1.FundingPeriodDataPoint": {
    marketId: "Id",
    price: "Amount", // settlement-asset decimals (the perpetual's internal price scale); NUMERIC column, integer-valued
    timestamp: "Timestamp", // truncated to whole seconds by core, still in nanoseconds
    twap: "Amount" // settlement-asset decimals; core/products/perpetual.go: an unsigned integer TWAP, stored as NUMERIC
  },
  "datanode.api.v2.ListFundingPeriodsRequest": {
    marketId: "Id"
  },
  "vega.events.v1.FundingPeriod": {
    marketId: "Id",
    start: "Timestamp",
    end: "Timestamp", // absent while the period is running
    fundingPayment: "SignedAmount", // settlement-asset decimals per unit of position; core/products/perpetual.go: a signed integer; absent until the period ends
    fundingRate: "Decimal", // signed; absent until the period ends
    internalTwap: "Amount", // settlement-asset decimals; absent when there is no data point yet
    externalTwap: "Amount" // settlement-asset decimals; absent when there is no data point yet
  },
  "datanode.api.v2.ListGamesRequest": {
    gameId: "Id",
    teamId: "Id",
    partyId: "PartyId"
  },
  "datanode.api.v2.IndividualGameEntity": {
    individual: "PartyId",
    volume: "Decimal", // datanode/sqlstore/games.go: always "0" for individuals at v0.75
    rewardEarned: "Amount", // reward-asset decimals
    totalRewardsEarned: "Amount", // reward-asset decimals
    rewardEarnedQuantum: "Amount", // in quantum units, rounded to an integer (datanode/sqlstore/games.go converts to an unsigned integer)
    totalRewardsEarnedQuantum: "Amount" // in quantum units, integer (as rewardEarnedQuantum)
  },
  "datanode.api.v2.TeamGameParticipation": {
    teamId: "Id"
  },
  "datanode.api.v2.TeamGameEntity": {
    volume: "Decimal", // sum of the members' metric values
    rewardEarned: "Amount", // reward-asset decimals; sum over the members
    totalRewardsEarned: "Amount", // reward-asset decimals
    rewardEarnedQuantum: "Amount", // quantum units, integer
    totalRewardsEarnedQuantum: "Amount" // quantum units, integer
  },
  "datanode.api.v2.Game": {
    id: "Id",
    rewardAssetId: "Id"
  },
  "datanode.api.v2.GetGovernanceDataRequest": {
    proposalId: "Id",
    reference: "Text" // a free reference chosen by the proposer
  },
  "vega.data.v1.Condition": {
    value: "Text" // the oracle value to compare with, as text; its type depends on the property (integer, decimal, boolean, timestamp, string)
  },
  "vega.data.v1.InternalTimeTrigger": {
    initial: "EthereumTimestamp" // Vega time in unix seconds (not nanoseconds)
  },
  "vega.data.v1.PubKey": {
    key: "Text" // a signer key: 64 hex for a Vega key, but Open Oracle signers are Ethereum addresses stored here, and the store drops any `0x` (core/datasource/common/data_signer.go)
  },
  "vega.data.v1.ETHAddress": {
    address: "EthereumAddress" // validated as an Ethereum address on proposal; the store re-adds the `0x`
  },
  "vega.EthTimeTrigger": {
    initial: "EthereumTimestamp", // Ethereum time in unix seconds
    until: "EthereumTimestamp" // Ethereum time in unix seconds
  },
  "vega.EthCallSpec": {
    address: "EthereumAddress" // validated as an Ethereum address on proposal
  },
  "vega.DataSourceSpecToFutureBinding": {
    settlementDataProperty: "Text", // a property name, not a price
    tradingTerminationProperty: "Text" // a property name
  },
  "vega.UpdateFutureProduct": {
    quoteName: "Text" // a currency or unit name such as `USD`
  },
  "vega.DataSourceSpecToPerpetualBinding": {
    settlementDataProperty: "Text", // a property name, not a price
    settlementScheduleProperty: "Text" // a property name
  },
  "vega.SpecBindingForCompositePrice": {
    priceSourceProperty: "Text" // a property name
  },
  "vega.CompositePriceConfiguration": {
    decayWeight: "DecimalOrEmpty", // required for the weighted and median types, must be "" for last-trade pricing (commands/proposal_submission.go)
    cashAmount: "AmountOrEmpty", // settlement-asset decimals; "" for last-trade pricing (commands/proposal_submission.go)
    sourceWeights: "Decimal", // each element
    sourceStalenessTolerance: "Text" // each element a Go duration such as `1m0s`, not a number
  },
  "vega.UpdatePerpetualProduct": {
    quoteName: "Text", // a currency or unit name
    marginFundingFactor: "Decimal", // required by commands/proposal_submission.go
    interestRate: "Decimal", // signed
    clampLowerBound: "Decimal", // signed
    clampUpperBound: "Decimal", // signed
    fundingRateScalingFactor: "Decimal",
    fundingRateLowerBound: "Decimal", // signed
    fundingRateUpperBound: "Decimal" // signed
  },
  "vega.PriceMonitoringTrigger": {
    probability: "Decimal" // commands check it with a float parse only, so a proposal could carry an exponent form; in practice plain
  },
  "vega.LiquidityMonitoringParameters": {
    triggeringRatio: "DecimalOrEmpty" // deprecated and not validated by commands; proposals may leave it ""
  },
  "vega.LiquiditySLAParameters": {
    priceRange: "Decimal",
    commitmentMinTimeFraction: "Decimal",
    slaCompetitionFactor: "Decimal"
  },
  "vega.LiquidityFeeSettings": {
    feeConstant: "Decimal" // a fee fraction; present only for the constant method
  },
  "vega.LiquidationStrategy": {
    disposalFraction: "Decimal",
    maxFractionConsumed: "Decimal"
  },
  "vega.UpdateMarketConfiguration": {
    lpPriceRange: "DecimalOrEmpty", // deprecated (as Market.ts)
    linearSlippageFactor: "DecimalOrEmpty", // optional in proposals: commands only check it when non-empty
    quadraticSlippageFactor: "DecimalOrEmpty", // as linearSlippageFactor
    tickSize: "AmountOrEmpty" // market price decimals; required from v0.75, "" in proposals made before tick sizes existed
  },
  "vega.UpdateMarket": {
    marketId: "Id"
  },
  "vega.FutureProduct": {
    settlementAsset: "Id",
    quoteName: "Text" // a currency or unit name
  },
  "vega.SpotProduct": {
    baseAsset: "Id",
    quoteAsset: "Id"
  },
  "vega.PerpetualProduct": {
    settlementAsset: "Id",
    quoteName: "Text", // a currency or unit name
    marginFundingFactor: "Decimal",
    interestRate: "Decimal", // signed
    clampLowerBound: "Decimal", // signed
    clampUpperBound: "Decimal", // signed
    fundingRateScalingFactor: "Decimal",
    fundingRateLowerBound: "Decimal", // signed
    fundingRateUpperBound: "Decimal" // signed
  },
  "vega.SuccessorConfiguration": {
    parentMarketId: "Id",
    insurancePoolFraction: "Decimal"
  },
  "vega.NewMarketConfiguration": {
    lpPriceRange: "DecimalOrEmpty", // deprecated
    linearSlippageFactor: "DecimalOrEmpty", // optional in proposals: commands only check it when non-empty
    quadraticSlippageFactor: "DecimalOrEmpty", // as linearSlippageFactor
    tickSize: "AmountOrEmpty" // market price decimals; "" in proposals made before v0.75
  },
  "vega.NetworkParameter": {
    value: "Text" // typed by the key: a number, a duration, JSON, ...
  },
  "vega.ERC20Update": {
    lifetimeLimit: "Amount", // asset decimals
    withdrawThreshold: "Amount" // asset decimals
  },
  "vega.AssetDetailsUpdate": {
    quantum: "Decimal" // as Asset.ts
  },
  "vega.UpdateAsset": {
    assetId: "Id"
  },
  "vega.NewSpotMarketConfiguration": {
    tickSize: "AmountOrEmpty" // market price decimals; "" in proposals made before v0.75
  },
  "vega.UpdateSpotMarketConfiguration": {
    tickSize: "AmountOrEmpty" // market price decimals; "" in proposals made before v0.75
  },
  "vega.UpdateSpotMarket": {
    marketId: "Id"
  },
  "vega.OneOffTransfer": {
    deliverOn: "Timestamp" // 0 for immediate delivery
  },
  "vega.NewTransferConfiguration": {
    source: "IdOrEmpty", // "" unless the source is an insurance pool, then its market id
    amount: "Amount", // asset decimals; the maximum to transfer
    asset: "Id",
    fractionOfBalance: "Decimal",
    destination: "PartyIdOrEmpty" // a party key for general accounts, a market id for insurance pools, "" for network-wide accounts
  },
  "vega.CancelTransferConfiguration": {
    transferId: "Id"
  },
  "vega.UpdateMarketStateConfiguration": {
    marketId: "Id",
    price: "Amount" // market price decimals; the final settlement price
  },
  "vega.BenefitTier": {
    minimumRunningNotionalTakerVolume: "Amount", // quantum units, integer (commands/proposal_submission.go)
    minimumEpochs: "Uint64Text", // a count of epochs as text
    referralRewardFactor: "Decimal",
    referralDiscountFactor: "Decimal"
  },
  "vega.StakingTier": {
    minimumStakedTokens: "Amount", // VEGA base units (18 decimals)
    referralRewardMultiplier: "Decimal"
  },
  "vega.ReferralProgramChanges": {
    endOfProgramTimestamp: "EthereumTimestamp" // unix seconds
  },
  "vega.VolumeBenefitTier": {
    minimumRunningNotionalTakerVolume: "Amount", // quantum units, integer
    volumeDiscountFactor: "Decimal"
  },
  "vega.VolumeDiscountProgramChanges": {
    endOfProgramTimestamp: "EthereumTimestamp" // unix seconds
  },
  "vega.ProposalTerms": {
    closingTimestamp: "EthereumTimestamp", // unix seconds (Vega time, not Ethereum)
    enactmentTimestamp: "EthereumTimestamp", // unix seconds; may be 0 for changes with no enactment step (freeform)
    validationTimestamp: "EthereumTimestamp" // unix seconds; 0 when there is no validation step
  },
  "vega.ProposalParameters": {
    requiredParticipation: "Decimal", // a fraction
    requiredMajority: "Decimal", // a fraction
    minProposerBalance: "Amount", // governance-token (VEGA) base units
    minVoterBalance: "Amount", // governance-token (VEGA) base units
    requiredParticipationLp: "Decimal", // a fraction
    requiredMajorityLp: "Decimal", // a fraction
    minEquityLikeShare: "Decimal" // a fraction
  },
  "vega.BatchProposalTermsChange": {
    enactmentTimestamp: "EthereumTimestamp" // unix seconds
  },
  "vega.BatchProposalTerms": {
    closingTimestamp: "EthereumTimestamp" // unix seconds
  },
  "vega.Proposal": {
    id: "Id",
    reference: "Text", // free text chosen by the proposer
    partyId: "PartyId",
    timestamp: "Timestamp",
    requiredParticipation: "Decimal",
    requiredMajority: "Decimal",
    requiredLiquidityProviderParticipation: "Decimal", // absent when zero (datanode/entities/proposal.go)
    requiredLiquidityProviderMajority: "Decimal", // absent when zero
    batchId: "Id" // present only for the sub-proposals of a batch
  },
  "vega.VoteELSPair": {
    marketId: "Id",
    els: "Decimal"
  },
  "vega.Vote": {
    partyId: "PartyId",
    proposalId: "Id",
    timestamp: "Timestamp",
    totalGovernanceTokenBalance: "Amount", // VEGA base units; NUMERIC column, integer-valued
    totalGovernanceTokenWeight: "Decimal", // a fraction of the total token weight
    totalEquityLikeShareWeight: "Decimal" // a fraction
  },
  "vega.GovernanceData.YesPartyEntry": {
    key: "PartyId" // the map key is the voter's party id
  },
  "vega.GovernanceData.NoPartyEntry": {
    key: "PartyId" // the map key is the voter's party id
  },
  "datanode.api.v2.ListGovernanceDataRequest": {
    proposerPartyId: "PartyId",
    proposalReference: "Text"
  },
  "datanode.api.v2.ExportLedgerEntriesRequest": {
    partyId: "PartyId",
    assetId: "Id"
  },
  "datanode.api.v2.LedgerEntryFilter": {
    transferId: "Id"
  },
  "datanode.api.v2.AggregatedLedgerEntry": {
    timestamp: "Timestamp",
    quantity: "Amount", // asset decimals; NUMERIC sum, integer-valued (the spec's "amount of ledger entries" is the summed amount, not a count)
    assetId: "Id", // omitted when empty
    fromAccountPartyId: "PartyId", // omitted when empty; `network` for network accounts
    toAccountPartyId: "PartyId", // as fromAccountPartyId
    fromAccountMarketId: "Id", // omitted when the account has no market (datanode/entities/aggregated_ledgerentries.go)
    toAccountMarketId: "Id", // as fromAccountMarketId
    fromAccountBalance: "Amount", // asset decimals
    toAccountBalance: "Amount", // asset decimals
    transferId: "IdOrEmpty" // "" for entries not made by a transfer (always written, not omitted)
  },
  "datanode.api.v2.ListPaidLiquidityFeesRequest": {
    marketId: "Id",
    assetId: "Id",
    partyIds: "PartyId" // each element
  },
  "vega.events.v1.PaidLiquidityFeesStats": {
    market: "Id",
    asset: "Id",
    totalFeesPaid: "Amount" // settlement-asset decimals
  },
  "datanode.api.v2.ListLiquidityProvidersRequest": {
    marketId: "Id",
    partyId: "PartyId"
  },
  "vega.LiquidityProviderFeeShare": {
    party: "PartyId",
    equityLikeShare: "Decimal", // a fraction of the market's equity-like share
    averageEntryValuation: "Decimal", // core/execution/common/equity_shares.go: a decimal value, may have a fractional part
    averageScore: "Decimal", // "0" when the provider has no score yet
    virtualStake: "Decimal" // written with exactly 16 decimal places (trailing zeros kept by core), so re-encoding trims them
  },
  "vega.LiquidityProviderSLA": {
    party: "PartyId",
    currentEpochFractionOfTimeOnBook: "Decimal", // a fraction in [0, 1]
    lastEpochFractionOfTimeOnBook: "DecimalOrEmpty", // core/liquidity/v2/sla.go: "" until the provider's first epoch end
    lastEpochFeePenalty: "DecimalOrEmpty", // a fraction in [0, 1], not an amount despite the spec; "" until the first epoch end
    lastEpochBondPenalty: "DecimalOrEmpty", // a fraction in [0, 1]; "" until the first epoch end
    hysteresisPeriodFeePenalties: "Decimal", // each element a fraction in [0, 1]
    requiredLiquidity: "DecimalOrEmpty", // notional in settlement-asset decimals, a decimal product (may be fractional); "" until first computed (core/liquidity/v2/sla.go)
    notionalVolumeBuys: "DecimalOrEmpty", // notional, a decimal quotient (may be fractional); "" until first computed
    notionalVolumeSells: "DecimalOrEmpty" // as notionalVolumeBuys
  },
  "datanode.api.v2.LiquidityProvider": {
    partyId: "PartyId",
    marketId: "Id"
  },
  "datanode.api.v2.ListLiquidityProvisionsRequest": {
    marketId: "Id",
    partyId: "PartyId",
    reference: "Text" // the provision's free reference
  },
  "datanode.api.v2.ListPartyMarginModesRequest": {
    marketId: "Id",
    partyId: "PartyId"
  },
  "datanode.api.v2.PartyMarginMode": {
    marketId: "Id",
    partyId: "PartyId",
    marginFactor: "Decimal", // isolated margin only, absent otherwise
    minTheoreticalMarginFactor: "Decimal", // isolated margin only
    maxTheoreticalLeverage: "Decimal" // isolated margin only
  },
  "datanode.api.v2.ListMarginLevelsRequest": {
    partyId: "PartyId",
    marketId: "Id"
  },
  "datanode.api.v2.GetMarketDataHistoryByIDRequest": {
    marketId: "Id",
    startTimestamp: "Timestamp",
    endTimestamp: "Timestamp"
  },
  "vega.PriceMonitoringBounds": {
    minValidPrice: "Amount", // market price decimals
    maxValidPrice: "Amount", // market price decimals
    referencePrice: "Amount" // market price decimals; a decimal in core, but floored to an integer before it is sent (core/execution/future/market.go)
  },
  "vega.CompositePriceSource": {
    priceSource: "Text", // a source name such as `priceFromOracle1`
    price: "Amount", // settlement-asset decimals (core's internal price precision)
    lastUpdated: "Timestamp"
  },
  "vega.PerpetualData": {
    fundingPayment: "SignedAmount", // settlement-asset decimals per unit of position; core/products/perpetual.go: a signed integer
    fundingRate: "Decimal", // signed
    internalTwap: "Amount", // settlement-asset decimals
    externalTwap: "Amount", // settlement-asset decimals
    startTime: "Timestamp",
    internalCompositePrice: "Amount", // market price decimals (core divides by the price factor); "0" when none
    nextInternalCompositePriceCalc: "Timestamp",
    underlyingIndexPrice: "Amount" // settlement-asset decimals (the last external data point); "0" when there is none
  },
  "vega.MarketData": {
    markPrice: "Amount", // market price decimals
    bestBidPrice: "Amount", // market price decimals; "0" when the book side is empty
    bestOfferPrice: "Amount", // market price decimals
    bestStaticBidPrice: "Amount", // market price decimals
    bestStaticOfferPrice: "Amount", // market price decimals
    midPrice: "Amount", // market price decimals; "0" unless both sides have a price
    staticMidPrice: "Amount", // market price decimals
    market: "Id",
    timestamp: "Timestamp",
    auctionEnd: "Timestamp", // core/execution/future/market.go: the auction's end time in unix nanoseconds, 0 outside auctions (the spec wrongly says seconds until the end)
    auctionStart: "Timestamp", // the auction's start time in unix nanoseconds, 0 outside auctions
    indicativePrice: "Amount", // market price decimals; "0" outside auctions
    targetStake: "Amount", // settlement-asset decimals; NUMERIC column, integer-valued
    suppliedStake: "Amount", // settlement-asset decimals; NUMERIC column, integer-valued
    marketValueProxy: "Amount", // settlement-asset decimals; core sends the integer part of a decimal (core/execution/future/market.go), stored as text
    nextMarkToMarket: "Timestamp",
    lastTradedPrice: "Amount", // market price decimals
    marketGrowth: "Decimal", // signed
    nextNetworkCloseout: "Timestamp" // 0 when none is scheduled
  },
  "datanode.api.v2.GetLatestMarketDataRequest": {
    marketId: "Id"
  },
  "datanode.api.v2.GetLatestMarketDepthRequest": {
    marketId: "Id"
  },
  "vega.PriceLevel": {
    price: "Amount" // market price decimals
  },
  "vega.Trade": {
    id: "Id",
    marketId: "Id",
    price: "Amount", // market price decimals; NUMERIC column, integer-valued
    buyer: "PartyId", // `network` in closeout trades
    seller: "PartyId", // `network` in closeout trades
    buyOrder: "Id",
    sellOrder: "Id",
    timestamp: "Timestamp",
    assetPrice: "AmountOrEmpty" // settlement-asset decimals; datanode/entities/trade.go never sets it, so the data node always writes ""
  },
  "datanode.api.v2.GetLatestMarketDepthResponse": {
    marketId: "Id"
  },
  "datanode.api.v2.GetRiskFactorsRequest": {
    marketId: "Id"
  },
  "vega.RiskFactor": {
    market: "Id",
    short: "Decimal",
    long: "Decimal"
  },
  "datanode.api.v2.GetLastTradeRequest": {
    marketId: "Id"
  },
  "vega.NodeSet": {
    promoted: "Id", // each element a node id
    demoted: "Id" // each element a node id
  },
  "vega.NodeData": {
    stakedTotal: "Amount" // VEGA base units (18 decimals); SQL sum, integer-valued
  },
  "vega.NetworkLimits": {
    proposeMarketEnabledFrom: "Timestamp", // 0 when not set
    proposeAssetEnabledFrom: "Timestamp" // 0 when not set
  },
  "datanode.api.v2.GetNetworkHistoryStatusResponse": {
    ipfsAddress: "Text" // a multiaddr / IPFS peer address, not an Ethereum address
  },
  "datanode.api.v2.HistorySegment": {
    historySegmentId: "Text", // an IPFS content id, not hex
    previousHistorySegmentId: "Text", // an IPFS content id; "" for the first segment
    chainId: "Text" // a chain name such as `vega-mainnet-0011`
  },
  "datanode.api.v2.ListNodeSignaturesRequest": {
    id: "Id" // the resource id (withdrawal, asset, bundle, ...)
  },
  "datanode.api.v2.GetNodeRequest": {
    id: "Id"
  },
  "datanode.api.v2.ListOracleDataRequest": {
    oracleSpecId: "Id"
  },
  "vega.data.v1.Property": {
    value: "Text" // the oracle's value as text, typed by the spec
  },
  "vega.data.v1.Data": {
    matchedSpecIds: "Id", // each element; datanode/entities/data.go hex-encodes stored bytes
    broadcastAt: "Timestamp"
  },
  "datanode.api.v2.GetOracleSpecRequest": {
    oracleSpecId: "Id"
  },
  "vega.DataSourceSpec": {
    id: "Id", // a hash of the spec
    createdAt: "Timestamp",
    updatedAt: "Timestamp"
  },
  "datanode.api.v2.ListOrderVersionsRequest": {
    orderId: "Id"
  },
  "vega.Order": {
    id: "Id",
    marketId: "Id",
    partyId: "PartyId", // `network` for the network's closeout orders
    price: "Amount", // market price decimals; "0" for market orders
    createdAt: "Timestamp",
    expiresAt: "Timestamp", // 0 when the order does not expire
    reference: "Text", // the client's free reference
    updatedAt: "Timestamp", // 0 when never updated
    liquidityProvisionId: "IdOrEmpty" // datanode/entities/order.go: hex of stored bytes, "" for orders not made by a liquidity provision
  },
  "datanode.api.v2.GetOrderRequest": {
    orderId: "Id"
  },
  "datanode.api.v2.OrderFilter": {
    partyIds: "PartyId", // each element
    marketIds: "Id", // each element
    reference: "Text"
  },
  "datanode.api.v2.ListPartiesRequest": {
    partyId: "PartyId"
  },
  "datanode.api.v2.GetPartyActivityStreakRequest": {
    partyId: "PartyId"
  },
  "vega.events.v1.PartyActivityStreak": {
    party: "PartyId",
    rewardDistributionActivityMultiplier: "Decimal",
    rewardVestingActivityMultiplier: "Decimal",
    tradedVolume: "Amount", // notional, an unsigned integer (core/activitystreak/activitiystreak.go)
    openVolume: "Amount" // notional of open positions, an unsigned integer (not a signed position size)
  },
  "datanode.api.v2.GetPartyRequest": {
    partyId: "PartyId"
  },
  "datanode.api.v2.ReferralProgram": {
    id: "Id",
    endOfProgramTimestamp: "Timestamp", // datanode/entities/referral_program.go: converted to nanoseconds here, unlike the seconds in vega.ReferralProgramChanges
    endedAt: "Timestamp"
  },
  "datanode.api.v2.ListReferralSetsRequest": {
    referralSetId: "Id",
    referrer: "PartyId",
    referee: "PartyId"
  },
  "datanode.api.v2.ReferralSet": {
    id: "Id",
    referrer: "PartyId",
    createdAt: "Timestamp",
    updatedAt: "Timestamp"
  },
  "datanode.api.v2.ListReferralSetRefereesRequest": {
    referralSetId: "Id",
    referrer: "PartyId",
    referee: "PartyId"
  },
  "datanode.api.v2.ReferralSetReferee": {
    referralSetId: "Id",
    referee: "PartyId",
    joinedAt: "Timestamp",
    totalRefereeNotionalTakerVolume: "Amount", // quantum units; datanode/sqlstore/referral_sets.go: SQL sum of integer epoch volumes, "0" when none
    totalRefereeGeneratedRewards: "Decimal" // quantum units; datanode/sqlstore/referral_sets.go sums `quantum_amount` values that carry up to 6 decimal places
  },
  "datanode.api.v2.RewardSummaryFilter": {
    assetIds: "Id", // each element
    marketIds: "IdOrEmpty" // each element; rewards carry no market, so only an empty element matches anything (datanode-api-facts.md §11.3)
  },
  "vega.EpochRewardSummary": {
    assetId: "Id",
    marketId: "IdOrEmpty", // always "" at v0.75: rewards carry no market (datanode-api-facts.md §11.3)
    rewardType: "Text", // an account-type enum name as text
    amount: "Amount" // asset decimals; SQL sum, integer-valued
  },
  "vega.events.v1.CoreSnapshotData": {
    blockHash: "Id" // lowercase hex, as core's block context (core/processor/abci.go)
  },
  "datanode.api.v2.GetStopOrderRequest": {
    orderId: "Id"
  },
  "vega.StopOrder": {
    id: "Id",
    ocoLinkId: "Id", // present only for one-cancels-the-other pairs
    expiresAt: "Timestamp",
    createdAt: "Timestamp",
    updatedAt: "Timestamp", // datanode/entities/stop_orders.go never sets it, so it is absent
    orderId: "IdOrEmpty", // "" until the stop order triggers and its order is created (core/execution/future/market.go)
    partyId: "PartyId",
    marketId: "Id",
    price: "Amount", // market price decimals; a oneof member
    trailingPercentOffset: "Decimal" // a fraction in (0, 1); a oneof member
  },
  "datanode.api.v2.StopOrderFilter": {
    partyIds: "PartyId", // each element
    marketIds: "Id" // each element
  },
  "datanode.api.v2.ObserveAccountsRequest": {
    marketId: "Id",
    partyId: "PartyId",
    asset: "Id"
  },
  "datanode.api.v2.ObserveCandleDataRequest": {
    candleId: "Text" // `trades_candle_<interval>_<market id>`, not hex
  },
  "datanode.api.v2.ObserveGovernanceRequest": {
    partyId: "PartyId"
  },
  "vega.AccountDetails": {
    assetId: "Id",
    owner: "PartyId", // the data node writes `network` for network accounts; core's own stream omits it instead (core/types/collateral.go)
    marketId: "IdOrEmpty" // the data node writes "" for accounts without a market (datanode/entities/account.go); core's stream omits it
  },
  "vega.LedgerEntry": {
    amount: "Amount", // asset decimals
    timestamp: "Timestamp",
    fromAccountBalance: "Amount", // asset decimals
    toAccountBalance: "Amount", // asset decimals
    transferId: "Id" // present only for entries made by a transfer
  },
  "vega.PostTransferBalance": {
    balance: "Amount" // asset decimals
  },
  "datanode.api.v2.ObserveMarginLevelsRequest": {
    partyId: "PartyId",
    marketId: "Id"
  },
  "datanode.api.v2.ObserveMarketsDataRequest": {
    marketIds: "Id" // each element
  },
  "datanode.api.v2.ObserveMarketsDepthRequest": {
    marketIds: "Id" // each element
  },
  "vega.MarketDepth": {
    marketId: "Id"
  },
  "datanode.api.v2.ObserveMarketsDepthUpdatesRequest": {
    marketIds: "Id" // each element
  },
  "vega.MarketDepthUpdate": {
    marketId: "Id"
  },
  "datanode.api.v2.ObserveOrdersRequest": {
    marketIds: "Id", // each element
    partyIds: "PartyId" // each element
  },
  "datanode.api.v2.ObserveTradesRequest": {
    marketIds: "Id", // each element
    partyIds: "PartyId" // each element
  },
  "datanode.api.v2.ObserveVotesRequest": {
    partyId: "PartyId",
    proposalId: "Id"
  },
  "datanode.api.v2.ListSuccessorMarketsRequest": {
    marketId: "Id"
  },
  "datanode.api.v2.ListTeamsRequest": {
    teamId: "Id",
    partyId: "PartyId"
  },
  "datanode.api.v2.Team": {
    teamId: "Id",
    referrer: "PartyId",
    createdAt: "Timestamp",
    allowList: "Text" // each element meant to be a public key, but commands/create_referral_set.go and the store keep whatever was submitted, unchecked
  },
  "datanode.api.v2.ListTeamRefereeHistoryRequest": {
    referee: "PartyId"
  },
  "datanode.api.v2.TeamRefereeHistory": {
    teamId: "Id",
    joinedAt: "Timestamp"
  },
  "datanode.api.v2.ListTeamRefereesRequest": {
    teamId: "Id"
  },
  "datanode.api.v2.TeamReferee": {
    teamId: "Id",
    referee: "PartyId",
    joinedAt: "Timestamp"
  },
  "datanode.api.v2.ListTeamsStatisticsRequest": {
    teamId: "Id"
  },
  "datanode.api.v2.QuantumRewardsPerEpoch": {
    totalQuantumRewards: "Decimal" // quantum units; datanode/entities/teams.go: a decimal sum of quantum amounts (up to 6 places)
  },
  "datanode.api.v2.QuantumVolumesPerEpoch": {
    totalQuantumVolumes: "Amount" // quantum units; an unsigned integer
  },
  "datanode.api.v2.TeamStatistics": {
    teamId: "Id",
    totalQuantumVolume: "Amount", // quantum units; an unsigned integer (datanode/entities/teams.go)
    totalQuantumRewards: "Decimal", // quantum units; a decimal sum
    gamesPlayed: "Id" // each element a game id
  },
  "datanode.api.v2.ListTeamMembersStatisticsRequest": {
    teamId: "Id",
    partyId: "PartyId"
  },
  "datanode.api.v2.TeamMemberStatistics": {
    partyId: "PartyId",
    totalQuantumVolume: "Amount", // quantum units; an unsigned integer
    totalQuantumRewards: "Decimal", // quantum units; a decimal sum
    gamesPlayed: "Id" // each element a game id
  },
  "datanode.api.v2.GetTimeWeightedNotionalPositionRequest": {
    assetId: "Id",
    partyId: "PartyId",
    gameId: "Id"
  },
  "datanode.api.v2.TimeWeightedNotionalPosition": {
    assetId: "Id",
    partyId: "PartyId",
    gameId: "Id",
    timeWeightedNotionalPosition: "Amount", // stored as an unsigned 64-bit integer and formatted in base 10 (datanode/entities/time_weighted_notional_position.go)
    lastUpdated: "Timestamp"
  },
  "datanode.api.v2.ListTradesRequest": {
    marketIds: "Id", // each element
    orderIds: "Id", // each element
    partyIds: "PartyId" // each element
  },
  "datanode.api.v2.GetTransferRequest": {
    transferId: "Id"
  },
  "vega.events.v1.OneOffTransfer": {
    deliverOn: "Timestamp"
  },
  "vega.events.v1.RecurringTransfer": {
    factor: "Decimal"
  },
  "vega.events.v1.OneOffGovernanceTransfer": {
    deliverOn: "Timestamp"
  },
  "vega.events.v1.Transfer": {
    id: "Id",
    from: "PartyId", // the owner of the source account; `network` for network accounts (datanode/entities/transfer.go)
    to: "PartyId", // the owner of the destination account; `network` for reward and other network accounts
    asset: "Id",
    amount: "Amount", // asset decimals
    reference: "Text", // free text chosen by the sender
    timestamp: "Timestamp",
    gameId: "Id" // present only for game transfers
  },
  "vega.events.v1.TransferFees": {
    transferId: "Id",
    amount: "Amount", // asset decimals
    discountApplied: "Amount" // asset decimals
  },
  "datanode.api.v2.ListTransfersRequest": {
    pubkey: "PartyId",
    gameId: "Id"
  },
  "datanode.api.v2.EstimateTransferFeeRequest": {
    fromAccount: "PartyId", // the sending party's key, despite the name (the handler reads it as a party id)
    toAccount: "PartyId", // the receiving party's key, despite the name
    amount: "Amount", // asset decimals
    assetId: "Id"
  },
  "datanode.api.v2.EstimateTransferFeeResponse": {
    fee: "Amount", // asset decimals
    discount: "Amount" // asset decimals
  },
  "datanode.api.v2.GetTotalTransferFeeDiscountRequest": {
    partyId: "PartyId",
    assetId: "Id"
  },
  "datanode.api.v2.GetTotalTransferFeeDiscountResponse": {
    totalDiscount: "Amount" // asset decimals
  },
  "datanode.api.v2.ListProtocolUpgradeProposalsRequest": {
    approvedBy: "Id" // a validator's Vega public key, compared with `approvers`
  },
  "vega.events.v1.ProtocolUpgradeEvent": {
    approvers: "Id" // each element a validator's Vega public key (core/protocolupgrade/engine.go)
  },
  "datanode.api.v2.ListEthereumKeyRotationsRequest": {
    nodeId: "Id"
  },
  "vega.events.v1.EthereumKeyRotation": {
    nodeId: "Id",
    oldAddress: "EthereumAddress",
    newAddress: "EthereumAddress"
  },
  "datanode.api.v2.ListKeyRotationsRequest": {
    nodeId: "Id"
  },
  "vega.events.v1.KeyRotation": {
    nodeId: "Id",
    oldPubKey: "Id", // a validator's Vega public key (hex only, never `network`)
    newPubKey: "Id" // as oldPubKey
  },
  "datanode.api.v2.VolumeDiscountProgram": {
    id: "Id",
    endOfProgramTimestamp: "Timestamp", // datanode/entities/volume_discount_program.go: converted to nanoseconds, unlike vega.VolumeDiscountProgramChanges (seconds)
    endedAt: "Timestamp"
  },
  "datanode.api.v2.GetVolumeDiscountStatsRequest": {
    partyId: "PartyId"
  },
  "datanode.api.v2.VolumeDiscountStats": {
    partyId: "PartyId",
    discountFactor: "Decimal", // "0" when the party reaches no tier
    runningVolume: "Amount" // quantum-scaled notional, rounded to an integer by core (core/volumediscount/engine.go)
  },
  "datanode.api.v2.ListVotesRequest": {
    partyId: "PartyId",
    proposalId: "Id"
  },
  "datanode.api.v2.GetWithdrawalRequest": {
    id: "Id"
  },
  "vega.Withdrawal": {
    id: "Id",
    partyId: "PartyId",
    amount: "Amount", // asset decimals; NUMERIC column, integer-valued
    asset: "Id",
    ref: "Uint64Text", // core/banking/engine.go: unix seconds plus a counter, as decimal text; also the bundle nonce
    txHash: "Text", // the Ethereum transaction hash (`0x`-prefixed) once finalised, "" before
    createdTimestamp: "Timestamp",
    withdrawnTimestamp: "Timestamp" // 0 until finalised
  },
  "datanode.api.v2.ListWithdrawalsRequest": {
    partyId: "PartyId"
  },
  "vega.api.v1.GetVegaTimeResponse": {
    timestamp: "Timestamp"
  }
}
