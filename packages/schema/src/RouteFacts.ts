/**
 * What the v0.75 data node does with each route that a client must know to read it completely:
 * routes whose cursor paging fails or loses rows, routes that read a bounded time or epoch window
 * whatever was asked, routes that page only one way. Read from the node's handlers and stores
 * (vegaprotocol/vega v0.75.8: `datanode/api/trading_data_v2.go`, `datanode/sqlstore/*.go`,
 * `datanode/entities/pagination.go`); the client pages, windows or refuses by these facts, so that
 * it never returns less than was asked without saying so. A route not listed pages by cursor as
 * every list does (1,000 rows by default, at most 5,000), and is not known to keep its rows in place.
 *
 * @since 0.2.0
 */

/**
 * How a route's rows can be read.
 *
 * - `Cursor`: by cursor. `stable`: rows keep their place (an empty page after `hasNextPage`
 *   means rows were lost); `moves`: a row's ordering column is rewritten when it changes, so a
 *   row updated during a read can be seen twice or not at all; `ties`: the order is one
 *   non-unique column and the cursor is inclusive on it, so rows of one value repeat across pages.
 * - `FirstPageOnly`: any cursor request fails on the node (HTTP 500); only what one page of at most
 *   5,000 rows holds can be read, and a request matching more is refused.
 * - `TimeWindows`: the node reads at most `maxNanos` of history per request (clamping or refusing a
 *   longer range) and its cursors do not work: the client reads the range window by window,
 *   oldest first, each window narrowed where it holds more than a page. `start` and `end` are the
 *   request's members; `time` the row's member the window is on, `key` what tells rows apart.
 *
 * @since 0.2.0
 * @category Models
 */
export type Paging =
  | { readonly _tag: "Cursor"; readonly order: "stable" | "moves" | "ties" }
  | { readonly _tag: "FirstPageOnly" }
  | {
      readonly _tag: "TimeWindows"
      readonly maxNanos: bigint
      /** the node truncates the bounds to whole seconds */
      readonly wholeSeconds: boolean
      readonly start: ReadonlyArray<string>
      readonly end: ReadonlyArray<string>
      readonly time: string
      readonly key: ReadonlyArray<string>
    }

/**
 * The facts of one route.
 *
 * @since 0.2.0
 * @category Models
 */
export interface Facts {
  readonly paging: Paging
  /** backward pages (`last`, `before`) fail */
  readonly forwardOnly?: boolean
  /** `newestFirst: false` fails or mixes up pages */
  readonly newestFirstOnly?: boolean
  /** the default newest-first first page is cut to the last 24 hours: read oldest first */
  readonly oldestFirstOnly?: boolean
  /** request members of which one must be set for the route to page (else one row, or an error) */
  readonly requiresOneOf?: ReadonlyArray<ReadonlyArray<string>>
  /** a page can come back short with `hasNextPage: false` while rows remain: ask once more */
  readonly shortPagesMayEnd?: boolean
  /** the node cuts an epoch span longer than this to its last epochs: longer spans are refused */
  readonly epochSpan?: { readonly from: string; readonly to: string; readonly max: bigint }
  /** rows of `ties` routes are told apart by these members, and a page adding none is refused */
  readonly key?: ReadonlyArray<string>
  /** why, in a sentence, with the source */
  readonly why: string
}

const NANOS_PER_DAY = 86_400_000_000_000n

const stable: Paging = { _tag: "Cursor", order: "stable" }
const moves: Paging = { _tag: "Cursor", order: "moves" }
const ties: Paging = { _tag: "Cursor", order: "ties" }
const firstPageOnly: Paging = { _tag: "FirstPageOnly" }

/**
 * The routes that differ from plain cursor paging, by route name (as in `DataNodeApi`).
 *
 * @since 0.2.0
 * @category Facts
 */
export const ROUTES: Readonly<Record<string, Facts>> = {
  ListLedgerEntries: {
    paging: {
      _tag: "TimeWindows",
      maxNanos: 5n * NANOS_PER_DAY,
      wholeSeconds: true,
      start: ["dateRange", "startTimestamp"],
      end: ["dateRange", "endTimestamp"],
      time: "timestamp",
      // one entry per microsecond of a block (datanode/entities/ledgerentry.go): the time tells entries apart
      key: ["timestamp"]
    },
    why: "sqlstore/ledger.go: a range longer than 5 days is cut to its first 5 days without a word (no range: the last 5), on bounds truncated to seconds; a cursor fails with 500 (an ambiguous vega_time column, fixed in v0.76)"
  },
  ListBalanceChanges: {
    paging: {
      _tag: "TimeWindows",
      maxNanos: 365n * NANOS_PER_DAY,
      wholeSeconds: false,
      start: ["dateRange", "startTimestamp"],
      end: ["dateRange", "endTimestamp"],
      time: "timestamp",
      key: ["timestamp", "partyId", "assetId", "marketId", "accountType"]
    },
    why: "api/trading_data_v2.go and entities/date_range.go: a date range is required and at most a year long (500 otherwise); sqlstore/balances.go: its cursors never carry the account, so a page after a cursor skips the rest of the cursor's block"
  },
  ListFundingPayments: {
    paging: firstPageOnly,
    why: "sqlstore/funding_payments.go: the cursor predicate names a column the query does not select (500)"
  },
  ListPaidLiquidityFees: {
    paging: firstPageOnly,
    why: "sqlstore/paid_liquidity_fees.go: any cursor fails (500); without an epoch filter only the latest epoch is read"
  },
  ListTeamsStatistics: { paging: firstPageOnly, why: "sqlstore/teams.go: any cursor fails (500)" },
  ListTeamMembersStatistics: { paging: firstPageOnly, why: "sqlstore/teams.go: any cursor fails (500)" },
  ListLiquidityProviders: {
    paging: firstPageOnly,
    requiresOneOf: [["marketId"], ["partyId"]],
    why: "sqlstore/liquidity_provision.go: any cursor fails (500); a market or a party is required"
  },
  ListPartiesProfiles: {
    paging: firstPageOnly,
    why: "sqlstore/parties.go: the cursor has no field for the ordering column id: any cursor fails (500)"
  },
  GetReferralSetStats: {
    paging: firstPageOnly,
    why: "sqlstore/referral_sets.go: newest-first cursors return nothing and oldest-first ones restart within the epoch"
  },
  ListOrders: {
    paging: stable,
    forwardOnly: true,
    newestFirstOnly: true,
    why: "api/trading_data_v2.go: backward pages are refused (400); sqlstore/orders.go: newestFirst false fails (500)"
  },
  ListStopOrders: {
    paging: stable,
    forwardOnly: true,
    newestFirstOnly: true,
    why: "as ListOrders (sqlstore/stop_orders.go)"
  },
  ListOrderVersions: {
    paging: stable,
    forwardOnly: true,
    why: "api/trading_data_v2.go: backward pages are refused (400)"
  },
  ListGames: {
    paging: stable,
    forwardOnly: true,
    newestFirstOnly: true,
    epochSpan: { from: "epochFrom", to: "epochTo", max: 30n },
    why: "sqlstore/games.go: backward pages fail (500), oldest-first pages come back re-sorted (rows repeat or skip), and the epoch span is cut to 30 epochs without a word (no span: current epochs only)"
  },
  GetMarketDataHistoryByID: {
    paging: stable,
    requiresOneOf: [["startTimestamp"], ["endTimestamp"]],
    why: "api/trading_data_v2.go: with neither bound the paging asked is replaced by one newest row"
  },
  ListOracleData: {
    paging: ties,
    oldestFirstOnly: true,
    why: "sqlstore/oracle_data.go: the default first page (newest first, no cursor) is cut to the last 24 hours of the database clock"
  },
  ListGovernanceData: {
    paging: moves,
    shortPagesMayEnd: true,
    why: "sqlstore/proposals.go: the proposals of a batch are merged after the limit, so a page can be short, and say it is the last, while proposals remain"
  },
  ListVotes: {
    paging: ties,
    key: ["proposalId", "partyId"],
    requiresOneOf: [["partyId"], ["proposalId"]],
    why: "sqlstore/votes.go: ordered by vega_time alone, on rows rewritten when a vote changes"
  },
  ListRewards: {
    paging: ties,
    why: "sqlstore/rewards.go: ordered by epoch alone (use the client's rewardsByEpoch for a range)"
  },
  ListEpochRewardSummaries: {
    paging: ties,
    why: "sqlstore/rewards.go: ordered by epoch alone; a filter with a cursor fails (500)"
  },
  ListMarkets: { paging: moves, why: "sqlstore/markets.go: ordered by the last update time of each market" },
  ListSuccessorMarkets: { paging: moves, why: "sqlstore/markets.go: ordered by the last update time" },
  ListReferralSets: { paging: ties, why: "sqlstore/referral_sets.go: ordered by creation time alone" },
  ListTeams: { paging: ties, why: "sqlstore/teams.go: ordered by creation time alone" },
  ListTeamRefereeHistory: { paging: ties, why: "sqlstore/teams.go: ordered by epoch alone" },
  ListDeposits: { paging: moves, why: "sqlstore/deposits.go: ordered by the last update time" },
  ListWithdrawals: { paging: moves, why: "sqlstore/withdrawals.go: ordered by the last update time" },
  ListTransfers: { paging: moves, why: "sqlstore/transfers.go: ordered by the last status change" },
  ListDelegations: { paging: moves, why: "sqlstore/delegations.go: current delegations, rewritten each epoch" },
  ListMarginLevels: { paging: moves, why: "sqlstore/margin_levels.go: current levels, rewritten as they change" },
  ListAllPositions: { paging: moves, why: "sqlstore/positions.go: current positions, rewritten as they change" },
  GetStake: { paging: moves, why: "sqlstore/stake_linking.go: current linkings, rewritten as they change" },
  ListAccounts: { paging: stable, why: "sqlstore/accounts.go: ordered by account id, which never changes" },
  ListTrades: { paging: stable, why: "sqlstore/trades.go: immutable rows" },
  ListCandleData: { paging: stable, why: "sqlstore/candles.go: one row per period" },
  ListCheckpoints: { paging: stable, why: "immutable rows" },
  ListNodeSignatures: { paging: stable, why: "immutable rows" },
  ListNodes: { paging: stable, why: "ordered by node id" },
  ListNetworkParameters: { paging: stable, why: "ordered by key (newestFirst is ignored)" },
  ListFundingPeriods: { paging: stable, why: "immutable rows" },
  ListFundingPeriodDataPoints: { paging: stable, why: "immutable rows" },
  ListPartyMarginModes: { paging: stable, why: "ordered by party and market" },
  ListCoreSnapshots: { paging: stable, why: "immutable rows" },
  ListProtocolUpgradeProposals: { paging: stable, why: "immutable rows" },
  ListEthereumKeyRotations: { paging: stable, why: "immutable rows" },
  ListKeyRotations: { paging: stable, why: "immutable rows" },
  ListTeamReferees: { paging: stable, why: "ordered by referee" },
  ListReferralSetReferees: { paging: stable, why: "ordered by referee" },
  ListERC20MultiSigSignerAddedBundles: { paging: stable, why: "immutable rows" },
  ListERC20MultiSigSignerRemovedBundles: { paging: stable, why: "immutable rows" },
  ListParties: { paging: stable, why: "ordered by party id" },
  ListAssets: { paging: stable, why: "ordered by asset id" }
}

/**
 * The facts of a route: those listed, or plain cursor paging.
 *
 * @since 0.2.0
 * @category Facts
 */
export const of = (route: string): Facts =>
  ROUTES[route] ?? { paging: moves, why: "pages by cursor as every list does; not known to keep its rows in place" }
