/**
 * The data-node client: one method per query returning one page (or one answer), and a streaming
 * variant returning every item, over one or several nodes.
 *
 * Every request goes through one transport (see `internal/transport.ts`): a node chosen from the
 * pool, paced by that node's pacer (its token bucket as the node will see it, requests still on
 * their way counted), sent within a time limit, and recorded. Reads (GETs)
 * are retried by the client's retry policy: a `Schedule` (by default `RetryPolicy.schedule`:
 * 5 retries, exponential backoff with full jitter from 200 ms to 10 s) and a predicate
 * (`DataNodeError.isRetryable`: network errors, timeouts, 408/429/502/503/504, a 500 without a Vega
 * error detail; a ban when another node can take over). What `Retry-After` /
 * `Ratelimit-Retry-After` ask is always waited: the node rests in the pool, and after a 429 its
 * pacer sends nothing before then. POSTs go through {@link Service.execute}: paced and routed the
 * same way, never retried.
 *
 * Several nodes: requests go to the nodes near the best height (`X-Block-Height`), dropping those
 * that lag or answer much slower than the fastest; failures move the request to another node; a
 * paging run stays on one node and, when it must move, continues from its last cursor on a node
 * at least as far along.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Socket from "@effect/platform/Socket"
import type * as Paginate from "@vega-effect/pagination/Paginate"
import type * as Endpoint from "@vega-effect/schema/Endpoint"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import type * as Asset from "@vega-effect/schema/Asset"
import type * as ChainInfo from "@vega-effect/schema/ChainInfo"
import * as DurationText from "@vega-effect/schema/DurationText"
import type * as Epoch from "@vega-effect/schema/Epoch"
import type * as EventBus from "@vega-effect/schema/EventBus"
import type * as LiquidityProvision from "@vega-effect/schema/LiquidityProvision"
import type * as Market from "@vega-effect/schema/Market"
import type * as PartyProfile from "@vega-effect/schema/PartyProfile"
import type * as Position from "@vega-effect/schema/Position"
import type * as ReferralSetStats from "@vega-effect/schema/ReferralSetStats"
import type * as Reward from "@vega-effect/schema/Reward"
import type * as RewardSummary from "@vega-effect/schema/RewardSummary"
import type * as SignerBundle from "@vega-effect/schema/SignerBundle"
import type * as SpamStatistics from "@vega-effect/schema/SpamStatistics"
import type * as StakeLinking from "@vega-effect/schema/StakeLinking"
import type * as TransactionResult from "@vega-effect/schema/TransactionResult"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Schedule from "effect/Schedule"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as StreamModule from "effect/Stream"
import type * as Errors from "./DataNodeError.js"
import type { Answer } from "./internal/answer.js"
import { DEFAULTS as defaults } from "./internal/defaults.js"
import { type In, page, type StreamIn, stream } from "./internal/endpoints.js"
import * as LiveRoutes from "./internal/liveRoutes.js"
import { observe as observeRoute } from "./internal/liveStream.js"
import * as Generic from "./internal/generic.js"
import { checkOptions } from "./internal/options.js"
import type { NodeStatus } from "./internal/pool.js"
import { observeTransactionResults } from "./internal/resultsStream.js"
import { makeRestarts } from "./internal/epochCursor.js"
import { rewardsByEpoch } from "./internal/rewardsByEpoch.js"
import * as Transport from "./internal/transport.js"
import type * as LiveStream from "./LiveStream.js"
import * as RetryPolicy from "./RetryPolicy.js"

/**
 * The client's nodes and its transport settings; every setting but `urls` has a default (see {@link
 * DEFAULTS}).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Base URL(s) of the data node(s), e.g. `http://localhost:3008`. */
  readonly urls: string | ReadonlyArray<string>
  /** Per request (the answer's headers and whole body). Default 10 seconds. */
  readonly timeout?: Duration.DurationInput
  /**
   * When to read again after a retryable failure. Default `RetryPolicy.schedule({ retries, ...backoff })`.
   * Any `Schedule` works (its input is the failure): `Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(3)))`.
   */
  readonly retry?: Schedule.Schedule<unknown, Errors.DataNodeError>
  /** Retries of a failed read (on this or another node), for the default schedule. Default 5. */
  readonly retries?: number
  /** The default schedule's backoff: first delay up to `base`, doubling up to `max`. Defaults 200 ms and 10 s. */
  readonly backoff?: RetryPolicy.BackoffOptions
  /** Client-side pacing per node; default the node's own 20 requests/s, with a burst of 90 (its 100 less a tenth in reserve). `false` to turn off. */
  readonly rateLimit?: false | { readonly rate?: number; readonly burst?: number }
  /** Node choice: drop nodes lagging more than `maxLag` blocks (default 5) or `slowFactor` times slower than the fastest (default 4). */
  readonly pool?: { readonly maxLag?: number; readonly slowFactor?: number }
  /** How often idle nodes of a pool are asked for their height. Default 5 seconds; only with several nodes. */
  readonly healthInterval?: Duration.DurationInput
  /** A last change to the HTTP client (tracing, proxies, ...). */
  readonly transformClient?: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

/**
 * The transport's defaults: `timeout`, `rateLimit` (the node's own limit), `maxLag`,
 * `slowFactor`, `healthInterval`, and how long a failing node rests (`rest`). Retry defaults are
 * `RetryPolicy.DEFAULTS`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULTS = defaults

/**
 * Filters of {@link Service.observeTransactionResults}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface TransactionResultsFilter {
  readonly partyIds?: ReadonlyArray<string>
  readonly hashes?: ReadonlyArray<string>
  readonly status?: boolean
}

/**
 * The request of {@link Service.rewardsByEpoch}: an inclusive epoch range and the usual filters.
 * Epochs are uint64 values (a `bigint`, a safe integer, or a decimal string).
 *
 * @since 0.1.0
 * @category Models
 */
export interface RewardsByEpochRequest {
  readonly partyId?: string
  readonly assetId?: string
  readonly fromEpoch: bigint | number | string
  readonly toEpoch: bigint | number | string
}

/**
 * A node's answer to {@link Service.execute}, read whatever its status.
 *
 * @since 0.1.0
 * @category Models
 */
export type Sent = Answer

/**
 * A request as a user writes it for an endpoint: the encoded form of its request schema (ids and
 * 64-bit integers as strings, enums by name).
 *
 * @since 0.2.0
 * @category Models
 */
export type RequestOf<E extends { readonly request: Schema.Schema.Any }> = Generic.RequestOf<E>

/**
 * A paged endpoint's request without `pagination`: the client pages.
 *
 * @since 0.2.0
 * @category Models
 */
export type PagedRequestOf<E extends Endpoint.AnyPaged> = Generic.PagedRequestOf<E>

/**
 * One message of a stream endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type MessageOf<E extends Endpoint.AnyStream> = Generic.MessageOf<E>

/**
 * A file a route answered (`download`): its content type, its file name where the node gives one,
 * and its bytes.
 *
 * @since 0.2.0
 * @category Models
 */
export type File = Generic.File

/** The request argument: required when the request has members that must be set. */
type RequestArgument<R> = {} extends R ? [request?: R] : [request: R]

/**
 * The client: for each list one page (`listPositions`) or every item with its cursor as a stream
 * (`positions`), single answers (`info`, `statistics`, ...), live streams (`observe...`), and
 * `execute` for any other request.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Service {
  readonly getStake: (
    request: In<typeof DataNodeApi.GetStake>
  ) => Effect.Effect<StakeLinking.GetStakeResponse, Errors.DataNodeError>
  readonly stakeLinkings: (
    request: StreamIn<typeof DataNodeApi.GetStake>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<StakeLinking.StakeLinking>, Errors.DataNodeError>

  readonly listLiquidityProvisions: (
    request: In<typeof DataNodeApi.ListLiquidityProvisions>
  ) => Effect.Effect<LiquidityProvision.ListLiquidityProvisionsResponse, Errors.DataNodeError>
  readonly liquidityProvisions: (
    request: StreamIn<typeof DataNodeApi.ListLiquidityProvisions>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<LiquidityProvision.LiquidityProvisionNode>, Errors.DataNodeError>

  readonly listPositions: (
    request?: In<typeof DataNodeApi.ListPositions>
  ) => Effect.Effect<Position.ListPositionsResponse, Errors.DataNodeError>
  readonly positions: (
    request?: StreamIn<typeof DataNodeApi.ListPositions>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<Position.Position>, Errors.DataNodeError>

  readonly getReferralSetStats: (
    request?: In<typeof DataNodeApi.GetReferralSetStats>
  ) => Effect.Effect<ReferralSetStats.GetReferralSetStatsResponse, Errors.DataNodeError>
  readonly referralSetStats: (
    request?: StreamIn<typeof DataNodeApi.GetReferralSetStats>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<ReferralSetStats.ReferralSetStats>, Errors.DataNodeError>

  readonly listSignerAddedBundles: (
    request?: In<typeof DataNodeApi.ListSignerAddedBundles>
  ) => Effect.Effect<SignerBundle.ListSignerAddedBundlesResponse, Errors.DataNodeError>
  readonly signerAddedBundles: (
    request?: StreamIn<typeof DataNodeApi.ListSignerAddedBundles>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<SignerBundle.SignerAddedBundle>, Errors.DataNodeError>

  readonly listPartiesProfiles: (
    request?: In<typeof DataNodeApi.ListPartiesProfiles>
  ) => Effect.Effect<PartyProfile.ListPartiesProfilesResponse, Errors.DataNodeError>
  readonly partiesProfiles: (
    request?: StreamIn<typeof DataNodeApi.ListPartiesProfiles>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<PartyProfile.PartyProfile>, Errors.DataNodeError>

  /** Reward totals per party and asset: one unpaged answer (the node ignores pagination here). */
  readonly listRewardSummaries: (
    request?: In<typeof DataNodeApi.ListRewardSummaries>
  ) => Effect.Effect<RewardSummary.ListRewardSummariesResponse, Errors.DataNodeError>

  /**
   * One page of per-epoch reward rows (`GET /api/v2/rewards`), newest epoch first by default. An
   * absent `partyId` lists every party's rewards (v0.75).
   */
  readonly listRewards: (
    request?: In<typeof DataNodeApi.ListRewards>
  ) => Effect.Effect<Reward.ListRewardsResponse, Errors.DataNodeError>
  /**
   * Every reward row by following cursors. Beware: a v0.75 node orders these rows by epoch only and
   * restarts a page at the first row of the cursor's epoch, so this can repeat or skip rows when an
   * epoch holds several (and stops with a `PaginationLoopError` when one epoch holds more than a page).
   * Use {@link Service.rewardsByEpoch} to read a range completely.
   */
  readonly rewards: (
    request?: StreamIn<typeof DataNodeApi.ListRewards>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<Reward.Reward>, Errors.DataNodeError>
  /**
   * Every reward row of an inclusive epoch range, oldest epoch first.
   *
   * The range is read in windows of epochs (`fromEpoch`/`toEpoch`, `first` = `pageSize`, oldest
   * first), each accepted only when the node says nothing is left in it (`hasNextPage` false); a
   * window that hits the limit is read again narrower: its answer's rows are its oldest, so the
   * next try is the epochs before the last one they reach (halved when the answer says nothing
   * of its epochs). A single epoch with more rows than one
   * answer (5000) is paged by cursor, and each page must continue the pages before it: it may
   * bring no row already delivered for that epoch. Why: the v0.75 node's ListRewards, as read
   * from its source, orders rows by `epoch_id` alone with a cursor predicate inclusive on that one
   * column, so a page that starts from a cursor would restart at the first row of the cursor's
   * epoch, in an unspecified order; rows would come back twice or be skipped, and could not be
   * told apart to de-duplicate them (two rows can share party, asset, epoch and type). A node that
   * shows this is remembered by URL for the life of the client: the epoch fails with a
   * `PaginationLoopError` (none of its rows delivered), and later epochs too big for one answer
   * fail at once on that node, without a cursor request; read them narrower (`assetId`,
   * `partyId`). All windows are read from one node while it stays healthy.
   *
   * Each window arrives as one chunk of the stream (`Stream.runForEachChunk` sees whole epochs at
   * a time), in no particular order within it. The next window is read while the consumer works
   * on one (never more than one ahead), so a consumer's work overlaps the node's.
   */
  readonly rewardsByEpoch: (
    request: RewardsByEpochRequest,
    options?: { readonly pageSize?: number }
  ) => Stream.Stream<Reward.Reward, Errors.DataNodeError>

  readonly info: Effect.Effect<ChainInfo.InfoResponse, Errors.DataNodeError>
  readonly statistics: Effect.Effect<ChainInfo.StatisticsResponse, Errors.DataNodeError>
  readonly lastBlockHeight: Effect.Effect<ChainInfo.LastBlockHeightResponse, Errors.DataNodeError>
  /** A party's proof-of-work and spam-policy state (core `GET /statistics/spam/{partyId}`). */
  readonly getSpamStatistics: (
    request: In<typeof DataNodeApi.GetSpamStatistics>
  ) => Effect.Effect<SpamStatistics.GetSpamStatisticsResponse, Errors.DataNodeError>
  /**
   * Transaction results as blocks include them (`/api/v2/stream/transaction-results`), over one
   * connection to one node: results of blocks processed while it is not connected are not
   * delivered (the node keeps no history), and the stream ends when the node closes it. Filters:
   * `partyIds`, `hashes` (lowercase hex) and `status`.
   */
  readonly observeTransactionResults: (
    request?: TransactionResultsFilter
  ) => Stream.Stream<TransactionResult.TransactionResult, Errors.DataNodeError>
  /**
   * Positions as they change (`/api/v2/stream/positions` over WebSocket), reconnecting (see
   * `LiveStream`): after each `Connected`, snapshot pages (`snapshot`, 50 positions each, the last
   * with `lastPage`), then each block's changed positions (`updates`). Filters: `partyId`,
   * `marketId`. A block flushed while the snapshot is sent is missed by the node itself: backfill
   * over REST after the last snapshot page (and with `skipSnapshot`, the snapshot pages come empty).
   */
  readonly observePositions: (
    request: Position.ObservePositionsRequest,
    options?: LiveStream.ObservePositionsOptions
  ) => Stream.Stream<LiveStream.Observation<Position.ObservePositionsResponse>, never, Socket.WebSocketConstructor>
  /**
   * Liquidity provisions as they change (`/api/v2/stream/liquidity-provisions` over WebSocket),
   * reconnecting (see `LiveStream`): each message holds up to 50 provision records of one block
   * (the plain records, not REST's current/pending pairs). No snapshot: read the current state
   * over REST after each `Connected`. Filters: `marketId`, `partyId`.
   */
  readonly observeLiquidityProvisions: (
    request: LiquidityProvision.ObserveLiquidityProvisionsRequest,
    options?: LiveStream.ObserveOptions
  ) => Stream.Stream<
    LiveStream.Observation<ReadonlyArray<LiquidityProvision.LiquidityProvision>>,
    never,
    Socket.WebSocketConstructor
  >
  /**
   * The event bus (`/api/v2/stream/event/bus` over WebSocket), reconnecting (see `LiveStream`):
   * each message holds the events of the requested types (see `LiveStream.EventBusRequest`).
   * Events of different types may arrive out of chain order: sort by `EventBus.comparePosition`
   * when it matters.
   */
  readonly observeEventBus: (
    request: LiveStream.EventBusRequest,
    options?: LiveStream.ObserveOptions
  ) => Stream.Stream<LiveStream.Observation<ReadonlyArray<EventBus.BusEvent>>, never, Socket.WebSocketConstructor>
  readonly vegaTime: Effect.Effect<ChainInfo.GetVegaTimeResponse, Errors.DataNodeError>
  readonly getEpoch: (
    request?: In<typeof DataNodeApi.GetEpoch>
  ) => Effect.Effect<Epoch.GetEpochResponse, Errors.DataNodeError>
  readonly listAssets: (
    request?: In<typeof DataNodeApi.ListAssets>
  ) => Effect.Effect<Asset.ListAssetsResponse, Errors.DataNodeError>
  readonly assets: (
    request?: StreamIn<typeof DataNodeApi.ListAssets>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<Asset.Asset>, Errors.DataNodeError>
  readonly getAsset: (
    request: In<typeof DataNodeApi.GetAsset>
  ) => Effect.Effect<Asset.GetAssetResponse, Errors.DataNodeError>
  readonly listMarkets: (
    request?: In<typeof DataNodeApi.ListMarkets>
  ) => Effect.Effect<Market.ListMarketsResponse, Errors.DataNodeError>
  readonly markets: (
    request?: StreamIn<typeof DataNodeApi.ListMarkets>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<Market.Market>, Errors.DataNodeError>
  readonly getMarket: (
    request: In<typeof DataNodeApi.GetMarket>
  ) => Effect.Effect<Market.GetMarketResponse, Errors.DataNodeError>

  /**
   * Sends one request through the client's transport: `request`'s URL is a path (`/transaction`),
   * the node is the one the pool would choose, the request waits for that node's pacer, and the
   * answer is read whatever its status, within the time limit (the client's, or `timeout`). Never
   * retried, so it is safe for POSTs; an answer asking to wait (429, ban) still rests the node.
   */
  readonly execute: (
    request: HttpClientRequest.HttpClientRequest,
    options?: { readonly timeout?: Duration.DurationInput | undefined }
  ) => Effect.Effect<Sent, Errors.TransportError | Errors.TimeoutError>

  /** What the client knows of each node (heights, speed, failures), for metrics and health checks. */
  readonly nodes: Effect.Effect<ReadonlyArray<NodeStatus>>

  /**
   * One answer of any route of the endpoint table (`DataNodeApi`), one page for a list: the
   * request checked by the route's schema before anything is sent, the answer decoded.
   */
  readonly query: <E extends Endpoint.Any>(
    endpoint: E,
    ...request: RequestArgument<RequestOf<E>>
  ) => Effect.Effect<Endpoint.Response<E>, Errors.DataNodeError>
  /**
   * Every row of a paged route, with its cursor, read as the node allows for that route
   * (`RouteFacts`): by cursor, in one page where the node's cursors fail (refused with an
   * `IncompleteReadError` when more match), in time windows where the node reads a bounded range
   * (ledger entries, balance changes: a start is required). A request the node would answer with
   * less than it asks is refused with an `InvalidRequestError` before anything is sent.
   */
  readonly paginate: <E extends Endpoint.AnyPaged>(
    endpoint: E,
    request?: PagedRequestOf<E>,
    options?: Paginate.Options
  ) => Stream.Stream<Paginate.Item<Endpoint.Node<E>>, Errors.DataNodeError>
  /**
   * A live stream of any stream route, reconnecting (see `LiveStream`): `Connected`, messages,
   * `Disconnected` with its reason, again. Fails only for a request its schema rejects.
   */
  readonly observe: <E extends Endpoint.AnyStream>(
    endpoint: E,
    request?: RequestOf<E>,
    options?: LiveStream.ObserveOptions
  ) => Stream.Stream<LiveStream.Observation<MessageOf<E>>, Errors.InvalidRequestError, Socket.WebSocketConstructor>
  /**
   * The file a route answers (the ledger export's CSV, network history's ZIP), whole; a failure
   * the node appended after sending part of it fails the download.
   */
  readonly download: <E extends Endpoint.AnyFile>(
    endpoint: E,
    ...request: RequestArgument<RequestOf<E>>
  ) => Effect.Effect<File, Errors.DataNodeError>
}

/**
 * The client service; provide it with {@link layer} or {@link layerConfig}.
 *
 * @since 0.1.0
 * @category Context
 */
export class DataNodeClient extends Context.Tag("@vega-effect/http/DataNodeClient")<DataNodeClient, Service>() {}

export type {
  /**
   * What the client knows of one node, as `nodes` reports it: its URL, the last block height and
   * block time it answered with, its smoothed answer time, its request and failure counts, and
   * until when it is not used (failing, rate limited or banned).
   *
   * @since 0.1.0
   * @category Models
   */
  NodeStatus
}

const settingsOf = (options: Options): Transport.Settings => ({
  urls: (typeof options.urls === "string" ? [options.urls] : [...options.urls]).map((u) => u.replace(/\/+$/, "")),
  timeout: Duration.decode(options.timeout ?? DEFAULTS.timeout),
  retry: options.retry ?? RetryPolicy.schedule({ retries: options.retries, ...options.backoff }),
  rateLimit: options.rateLimit === false ? false : { ...DEFAULTS.rateLimit, ...options.rateLimit },
  pool: {
    maxLag: options.pool?.maxLag ?? DEFAULTS.maxLag,
    slowFactor: options.pool?.slowFactor ?? DEFAULTS.slowFactor
  },
  healthInterval: Duration.decode(options.healthInterval ?? DEFAULTS.healthInterval),
  transformClient: options.transformClient ?? ((client) => client)
})

/**
 * Builds the client from the ambient `HttpClient`; with several nodes it also watches their
 * heights for the life of the scope. Fails with a `ConfigError` (`InvalidData`, naming the option)
 * when the options are unusable: no `urls`, a URL that is not `http://` or `https://`, a
 * `timeout` that is not a duration, ...
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (
  options: Options
): Effect.Effect<Service, ConfigError.ConfigError, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    const settings = settingsOf(yield* checkOptions(options))
    const http = yield* HttpClient.HttpClient
    const transport = yield* Transport.make(http, settings)
    // the nodes seen restarting an epoch's reward rows at a cursor, for the life of the client
    const cursorRestarts = makeRestarts()
    const generic = Generic.make(transport)
    const one = <E extends DataNodeApi.Any>(endpoint: E) => page(transport, endpoint)
    const all = stream
    return DataNodeClient.of({
      getStake: one(DataNodeApi.GetStake),
      stakeLinkings: all(transport, DataNodeApi.GetStake, (r) => r.stakeLinkings),
      listLiquidityProvisions: one(DataNodeApi.ListLiquidityProvisions),
      liquidityProvisions: all(transport, DataNodeApi.ListLiquidityProvisions, (r) => r.liquidityProvisions),
      listPositions: one(DataNodeApi.ListPositions),
      positions: all(transport, DataNodeApi.ListPositions, (r) => r.positions),
      getReferralSetStats: one(DataNodeApi.GetReferralSetStats),
      referralSetStats: all(transport, DataNodeApi.GetReferralSetStats, (r) => r.stats, true),
      listSignerAddedBundles: one(DataNodeApi.ListSignerAddedBundles),
      signerAddedBundles: all(transport, DataNodeApi.ListSignerAddedBundles, (r) => r.bundles, true),
      listPartiesProfiles: one(DataNodeApi.ListPartiesProfiles),
      partiesProfiles: all(transport, DataNodeApi.ListPartiesProfiles, (r) => r.profiles, true),
      listRewardSummaries: one(DataNodeApi.ListRewardSummaries),
      listRewards: one(DataNodeApi.ListRewards),
      rewards: all(transport, DataNodeApi.ListRewards, (r) => r.rewards),
      rewardsByEpoch: (request, options) => rewardsByEpoch(transport, cursorRestarts, request, options),
      info: one(DataNodeApi.Info)(),
      statistics: one(DataNodeApi.Statistics)(),
      lastBlockHeight: one(DataNodeApi.LastBlockHeight)(),
      getSpamStatistics: one(DataNodeApi.GetSpamStatistics),
      observeTransactionResults: (filter) => observeTransactionResults(transport, filter),
      observePositions: (request, options) =>
        observeRoute(transport, LiveRoutes.positions(request, options?.skipSnapshot), options),
      observeLiquidityProvisions: (request, options) =>
        observeRoute(transport, LiveRoutes.liquidityProvisions(request), options),
      observeEventBus: (request, options) => observeRoute(transport, LiveRoutes.eventBus(request), options),
      vegaTime: one(DataNodeApi.GetVegaTime)(),
      getEpoch: one(DataNodeApi.GetEpoch),
      listAssets: one(DataNodeApi.ListAssets),
      assets: all(transport, DataNodeApi.ListAssets, (r) => r.assets),
      getAsset: one(DataNodeApi.GetAsset),
      listMarkets: one(DataNodeApi.ListMarkets),
      markets: all(transport, DataNodeApi.ListMarkets, (r) => r.markets),
      getMarket: one(DataNodeApi.GetMarket),
      execute: transport.execute,
      nodes: transport.status,
      query: (endpoint, ...request) => generic.query(endpoint, request[0]),
      paginate: generic.paginate,
      observe: generic.observe,
      download: (endpoint, ...request) => generic.download(endpoint, request[0])
    })
  })

/**
 * {@link Service.query} of the client in context: one answer of any route.
 *
 * @example
 * ```ts
 * import { DataNodeClient } from "@vega-effect/http"
 * import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
 * import { Effect } from "effect"
 *
 * // the newest page of a party's orders in a market
 * const orders = DataNodeClient.query(DataNodeApi.ListOrders, {
 *   filter: { partyIds: ["6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772"] },
 *   pagination: { first: 50 }
 * })
 * const program = Effect.map(orders, (page) => page.orders.edges.map((edge) => edge.node.status))
 * ```
 *
 * @since 0.2.0
 * @category Accessors
 */
export const query = <E extends Endpoint.Any>(
  endpoint: E,
  ...request: RequestArgument<RequestOf<E>>
): Effect.Effect<Endpoint.Response<E>, Errors.DataNodeError, DataNodeClient> =>
  Effect.flatMap(DataNodeClient, (client) => client.query(endpoint, ...request))

/**
 * {@link Service.paginate} of the client in context: every row of a paged route.
 *
 * @since 0.2.0
 * @category Accessors
 */
export const paginate = <E extends Endpoint.AnyPaged>(
  endpoint: E,
  request?: PagedRequestOf<E>,
  options?: Paginate.Options
): Stream.Stream<Paginate.Item<Endpoint.Node<E>>, Errors.DataNodeError, DataNodeClient> =>
  StreamModule.unwrap(Effect.map(DataNodeClient, (client) => client.paginate(endpoint, request, options)))

/**
 * {@link Service.observe} of the client in context: a live stream of any stream route.
 *
 * @since 0.2.0
 * @category Accessors
 */
export const observe = <E extends Endpoint.AnyStream>(
  endpoint: E,
  request?: RequestOf<E>,
  options?: LiveStream.ObserveOptions
): Stream.Stream<
  LiveStream.Observation<MessageOf<E>>,
  Errors.InvalidRequestError,
  DataNodeClient | Socket.WebSocketConstructor
> => StreamModule.unwrap(Effect.map(DataNodeClient, (client) => client.observe(endpoint, request, options)))

/**
 * {@link Service.download} of the client in context: the file a route answers.
 *
 * @since 0.2.0
 * @category Accessors
 */
export const download = <E extends Endpoint.AnyFile>(
  endpoint: E,
  ...request: RequestArgument<RequestOf<E>>
): Effect.Effect<File, Errors.DataNodeError, DataNodeClient> =>
  Effect.flatMap(DataNodeClient, (client) => client.download(endpoint, ...request))

/**
 * The client as a layer; fails as {@link make} does.
 *
 * @example
 * ```ts
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { DataNodeClient } from "@vega-effect/http"
 * import { Effect, Layer, Stream } from "effect"
 *
 * // Two nodes: reads go to one near the best height and move to the other on failure.
 * const DataNode = DataNodeClient.layer({
 *   urls: ["https://node-a.example", "https://node-b.example"],
 *   timeout: "10 seconds"
 * }).pipe(Layer.provide(NodeHttpClient.layerUndici))
 *
 * const market = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* DataNodeClient.DataNodeClient
 *   const info = yield* client.info
 *   yield* Effect.log(`data node ${info.version}`)
 *   // every position in the market, 1000 to a page, the next page fetched while one is processed
 *   yield* client
 *     .positions({ filter: { marketIds: [market] } })
 *     .pipe(Stream.runForEach((item) => Effect.log(item.node.partyId, item.node.openVolume)))
 * })
 *
 * // run it with NodeRuntime.runMain(main) from @effect/platform-node
 * const main = program.pipe(Effect.provide(DataNode))
 * ```
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options: Options): Layer.Layer<DataNodeClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.scoped(DataNodeClient, make(options))

/**
 * The client from configuration (see {@link config}).
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  config: Config.Config<Options>
): Layer.Layer<DataNodeClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.scoped(DataNodeClient, Effect.flatMap(config, make))

/**
 * The prefix of the client's environment variables: `VEGA_DATANODE_URLS`, `VEGA_DATANODE_TIMEOUT`,
 * `VEGA_DATANODE_RETRIES`.
 *
 * @since 0.1.0
 * @category Config
 */
export const ENV_PREFIX = "VEGA_DATANODE_"

/**
 * The nodes, from `<prefix>URLS` (comma-separated).
 *
 * @since 0.1.0
 * @category Config
 */
export const urlsConfig = (prefix = ENV_PREFIX): Config.Config<ReadonlyArray<string>> =>
  Config.array(Config.string(), `${prefix}URLS`)

/**
 * The transport's settings, each left out when unset (the client's defaults apply):
 * `<prefix>TIMEOUT`, a duration such as `10s` or `500ms` (see `DurationText`), and
 * `<prefix>RETRIES`. For an application that takes its nodes from elsewhere (a flag, say);
 * what `given` sets (a `--timeout` flag, say) wins, and its variable is not read.
 *
 * @since 0.1.0
 * @category Config
 */
export const transportConfig = (
  prefix = ENV_PREFIX,
  given: Omit<Options, "urls"> = {}
): Config.Config<Omit<Options, "urls">> => {
  const read = <A>(value: A | undefined, config: Config.Config<A>) =>
    value === undefined ? Config.option(config) : Config.succeed(Option.some(value))
  return Config.all({
    timeout: read(given.timeout, DurationText.config(`${prefix}TIMEOUT`)),
    retries: read(given.retries, Config.integer(`${prefix}RETRIES`))
  }).pipe(
    Config.map(({ retries, timeout }) => ({
      ...given,
      ...Option.match(timeout, { onNone: () => ({}), onSome: (timeout) => ({ timeout }) }),
      ...Option.match(retries, { onNone: () => ({}), onSome: (retries) => ({ retries }) })
    }))
  )
}

/**
 * The client's whole configuration: {@link urlsConfig} and {@link transportConfig}.
 *
 * @since 0.1.0
 * @category Config
 */
export const config = (prefix = ENV_PREFIX): Config.Config<Options> =>
  Config.map(Config.all([urlsConfig(prefix), transportConfig(prefix)]), ([urls, transport]) => ({
    ...transport,
    urls
  }))

/**
 * What is wrong in a configuration error, one line per bad setting (`VEGA_DATANODE_TIMEOUT:
 * Expected a duration ...`); a missing setting is not a problem (its default applies).
 *
 * @since 0.1.0
 * @category Config
 */
export const configProblems = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...new Set([...configProblems(error.left), ...configProblems(error.right)])]
    case "MissingData":
      return []
    default:
      return [`${error.path.join(".")}: ${error.message}`]
  }
}
