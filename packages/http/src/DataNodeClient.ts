/**
 * The data-node client: one method per query returning one page (or one answer), and a streaming
 * variant returning every item, over one or several nodes.
 *
 * Transport policy: a timeout per request; retries of these GETs (never of anything else) with
 * exponential backoff and full jitter on network errors, timeouts, 408/429/500/502/503/504, waiting
 * what `Retry-After`/`Ratelimit-Retry-After` ask; requests paced by a client-side token bucket per
 * node kept in line with the node's `Ratelimit-*` headers, so a long read never earns a ban; a ban
 * is its own error and that node is left alone until it ends.
 *
 * Several nodes: requests go to the nodes near the best height (`X-Block-Height`), dropping those
 * that lag or answer much slower than the fastest; failures move the request to another node; a
 * paging run stays on one node and, when it must move, continues from its last cursor on a node
 * at least as far along.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Paginate from "@vega-effect/pagination/Paginate"
import {
  type Asset,
  type ChainInfo,
  DataNodeApi,
  type Epoch,
  type LiquidityProvision,
  type Market,
  Pagination,
  type PartyProfile,
  type Position,
  type ReferralSetStats,
  type Reward,
  type RewardSummary,
  type SignerBundle,
  type SpamStatistics,
  type StakeLinking,
  StreamForm,
  TransactionResult
} from "@vega-effect/schema"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Errors from "./DataNodeError.js"
import { type Answer, decodeBody, decoderOf, errorOf } from "./internal/answer.js"
import { makePacer, type Pacer } from "./internal/pacer.js"
import { type NodeStatus, Pool } from "./internal/pool.js"
import * as ReadTracking from "./ReadTracking.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Base URL(s) of the data node(s), e.g. `http://localhost:3008`. */
  readonly urls: string | ReadonlyArray<string>
  /** Per request. Default 10 seconds. */
  readonly timeout?: Duration.DurationInput
  /** Retries of a failed request (on this or another node). Default 5. */
  readonly retries?: number
  /** Exponential backoff with full jitter: first delay up to `base`, doubling up to `max`. Defaults 200 ms and 10 s. */
  readonly backoff?: { readonly base?: Duration.DurationInput; readonly max?: Duration.DurationInput }
  /** Client-side pacing per node; default the real node's 20 requests/s with a burst of 100. `false` to turn off. */
  readonly rateLimit?: false | { readonly rate?: number; readonly burst?: number }
  /** Node choice: drop nodes lagging more than `maxLag` blocks (default 5) or `slowFactor` times slower than the fastest (default 4). */
  readonly pool?: { readonly maxLag?: number; readonly slowFactor?: number }
  /** How often idle nodes of a pool are asked for their height. Default 5 seconds; only with several nodes. */
  readonly healthInterval?: Duration.DurationInput
  /** A last change to the HTTP client (tracing, proxies, ...). */
  readonly transformClient?: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

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

const decodeResultsFrame = Schema.decodeUnknownEither(
  StreamForm.frame(TransactionResult.ObserveTransactionResultsResponse)
)

/** A request as a user writes it: the encoded form of the endpoint's request schema (plain strings and numbers). */
type In<E extends DataNodeApi.Any> = Schema.Schema.Encoded<E["request"]>
/** The same, without `pagination`, for streams. */
type StreamIn<E extends DataNodeApi.Any> = Omit<In<E>, "pagination">

type Out<E extends DataNodeApi.Any> = DataNodeApi.Response<E>

/**
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
   * Every reward row of an inclusive epoch range, oldest epoch first, without cursors.
   *
   * Why: the node's ListRewards orders rows by `epoch_id` alone and its cursor predicate is
   * inclusive on that one column, so a page that starts from a cursor restarts at the first row of
   * the cursor's epoch, in an unspecified order; rows come back twice or are skipped, and rows
   * cannot be told apart to de-duplicate them (two rows can share party, asset, epoch and type).
   * Instead this reads windows of epochs (`fromEpoch`/`toEpoch`, `first` = `pageSize`, oldest first)
   * and accepts a window only when the node says nothing is left in it (`hasNextPage` false); a
   * window that hits the limit is halved and read again. A single epoch with more rows than
   * `pageSize` is read again with the node's maximum page (5000); an epoch with more than 5000 rows
   * cannot be read completely through this endpoint and fails with a `PaginationLoopError`
   * rather than silently missing rows. All windows are read from one node while it stays healthy.
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

  /** What the client knows of each node (heights, speed, failures), for metrics and health checks. */
  readonly nodes: Effect.Effect<ReadonlyArray<NodeStatus>>
}

/**
 * @since 0.1.0
 * @category Context
 */
export class DataNodeClient extends Context.Tag("@vega-effect/http/DataNodeClient")<DataNodeClient, Service>() {}

export type { NodeStatus }

const requestsTotal = Metric.counter("vega_datanode_requests_total", {
  description: "requests sent to data nodes, by endpoint, node and outcome"
})
const retriesTotal = Metric.counter("vega_datanode_retries_total", { description: "requests sent again" })
const rateLimitedTotal = Metric.counter("vega_datanode_rate_limited_total", { description: "answers with status 429" })
const latency = Metric.histogram(
  "vega_datanode_request_duration_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 16 }),
  "time to a complete answer"
)

/** The node a paging run is on, and the height it last reported. */
interface Pin {
  node: string | undefined
  height: number | undefined
}

const lowerHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v
  return out
}

const invalidRequest = (endpoint: string, error: ParseResult.ParseError): Errors.InvalidRequestError =>
  new Errors.InvalidRequestError({
    endpoint,
    reason: ParseResult.ArrayFormatter.formatErrorSync(error)
      .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
      .join("; ")
  })

/** One line of a results stream: its results, or the error frame the node ended the stream with. */
const frameOf = (
  node: string,
  path: string,
  line: string
): Effect.Effect<ReadonlyArray<TransactionResult.TransactionResult>, Errors.DataNodeError> => {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (cause) {
    return Effect.fail(
      new Errors.TransportError({
        node,
        path,
        description: `a stream message is not JSON: ${line.slice(0, 80)}`,
        cause
      })
    )
  }
  const decoded = decodeResultsFrame(json)
  if (Either.isLeft(decoded)) {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
    return Effect.fail(
      new Errors.DecodeError({
        node,
        path,
        pathInBody: (issue?.path ?? []).map(String).join("."),
        description: issue?.message ?? decoded.left.message,
        excerpt: line.slice(0, 160)
      })
    )
  }
  const frame = decoded.right
  if ("result" in frame) return Effect.succeed(frame.result.transactionResults)
  // the node ends a stream with an error frame (the HTTP status was sent long before)
  return Effect.fail(
    new Errors.InternalError({
      node,
      path,
      status: 200,
      code: frame.error.code,
      description: `the node ended the stream: ${frame.error.message}`
    })
  )
}

/**
 * Builds the client from the ambient `HttpClient`; with several nodes it also watches their
 * heights for the life of the scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    const base = yield* HttpClient.HttpClient
    const http = (options.transformClient ?? ((c) => c))(base)
    const urls = (typeof options.urls === "string" ? [options.urls] : [...options.urls]).map((u) =>
      u.replace(/\/+$/, "")
    )
    if (urls.length === 0) return yield* Effect.dieMessage("DataNodeClient needs at least one node URL")
    const timeout = Duration.decode(options.timeout ?? "10 seconds")
    const retries = Math.max(0, options.retries ?? 5)
    const backoffBase = Duration.toMillis(options.backoff?.base ?? "200 millis")
    const backoffMax = Duration.toMillis(options.backoff?.max ?? "10 seconds")
    const pool = new Pool(urls, { maxLag: options.pool?.maxLag ?? 5, slowFactor: options.pool?.slowFactor ?? 4 })
    const pacers = new Map<string, Pacer>(
      urls.map((u) => [
        u,
        makePacer(
          options.rateLimit === false
            ? false
            : { rate: options.rateLimit?.rate ?? 20, burst: options.rateLimit?.burst ?? 100 }
        )
      ])
    )

    /** One GET to one node, read to the end. */
    const send = (node: string, path: string): Effect.Effect<Answer, Errors.TransportError | Errors.TimeoutError> =>
      http.get(`${node}${path}`, { acceptJson: true }).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (text) => ({
            node,
            path,
            status: response.status,
            headers: lowerHeaders(response.headers),
            text
          }))
        ),
        Effect.scoped,
        Effect.mapError((cause) => new Errors.TransportError({ node, path, description: cause.message, cause })),
        Effect.timeoutFail({ duration: timeout, onTimeout: () => new Errors.TimeoutError({ node, path, timeout }) })
      )

    /** A GET with retries, pacing and failover; `pin` keeps a paging run on one node. */
    const get = <A>(
      endpoint: string,
      path: string,
      decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
      pin?: Pin
    ): Effect.Effect<A, Errors.DataNodeError> =>
      Effect.gen(function* () {
        let lastError: Errors.DataNodeError | undefined
        for (let attempt = 0; ; attempt++) {
          const now = yield* Clock.currentTimeMillis
          const choice = pool.choose(now, pin?.node, pin?.height)
          if (choice.node === undefined) {
            yield* Effect.sleep(Duration.millis(choice.waitUntil - now))
            attempt--
            continue
          }
          const node = choice.node
          if (attempt > 0) yield* Metric.increment(retriesTotal)
          yield* pacers.get(node)!.take
          const started = yield* Clock.currentTimeMillis
          const sent = yield* Effect.either(send(node, path)).pipe(
            Effect.withSpan("DataNodeClient.request", { attributes: { node, path, attempt } })
          )
          const finished = yield* Clock.currentTimeMillis
          let outcome: Either.Either<A, Errors.DataNodeError>
          let answered: Answer | undefined
          if (Either.isLeft(sent)) {
            outcome = Either.left(sent.left)
          } else {
            const answer = (answered = sent.right)
            pool.answered(node, finished - started, answer.headers)
            pacers.get(node)!.observe(answer.headers)
            yield* Metric.update(latency, finished - started)
            outcome =
              answer.status >= 200 && answer.status < 300
                ? decodeBody(decode, answer)
                : Either.left(errorOf(answer, finished))
          }
          yield* Metric.increment(requestsTotal).pipe(
            Effect.tagMetrics({ endpoint, node, outcome: Either.isRight(outcome) ? "ok" : outcome.left._tag })
          )
          if (Either.isRight(outcome)) {
            pool.succeeded(node)
            if (answered !== undefined) yield* ReadTracking.record(node, answered.headers)
            if (pin !== undefined) {
              pin.node = node
              pin.height = Math.max(pin.height ?? 0, pool.height(node) ?? 0) || undefined
            }
            return outcome.right
          }
          const error = outcome.left
          lastError = error
          const wait =
            error._tag === "RateLimitedError" || error._tag === "BannedError"
              ? Duration.toMillis(error.retryAfter ?? Duration.seconds(1))
              : undefined
          if (error._tag === "RateLimitedError") {
            yield* Metric.increment(rateLimitedTotal)
            pacers.get(node)!.pauseUntil(finished + (wait ?? 1000))
          }
          pool.failed(node, finished, error, wait)
          const another = pool.size > 1 && pool.choose(finished, undefined, pin?.height).node !== undefined
          // a ban is final for this node; with another node available, carry on there
          if (!Errors.isRetryable(error) && !(error._tag === "BannedError" && another)) return yield* Effect.fail(error)
          if (attempt >= retries) return yield* Effect.fail(lastError)
          const ceiling = Math.min(backoffMax, backoffBase * 2 ** attempt)
          const jitter = yield* Random.nextRange(0, ceiling)
          const delay = wait !== undefined && !another ? Math.max(wait, jitter) : jitter
          yield* Effect.logDebug(`retrying ${endpoint} after ${error._tag} from ${node}`).pipe(
            Effect.annotateLogs({ node, path, attempt, delayMillis: Math.round(delay) })
          )
          yield* Effect.sleep(Duration.millis(delay))
        }
      })

    // with several nodes, learn their heights before the first request and keep them fresh
    if (urls.length > 1) {
      const probe = Effect.forEach(
        urls,
        (node) =>
          Effect.gen(function* () {
            yield* pacers.get(node)!.take
            const started = yield* Clock.currentTimeMillis
            const answer = yield* send(node, DataNodeApi.Info.path)
            pool.answered(node, (yield* Clock.currentTimeMillis) - started, answer.headers)
          }).pipe(Effect.ignore),
        { concurrency: "unbounded", discard: true }
      )
      yield* probe.pipe(Effect.timeout(Duration.min(timeout, Duration.seconds(2))), Effect.ignore)
      const every = Duration.decode(options.healthInterval ?? "5 seconds")
      yield* Effect.forkScoped(Effect.repeat(Effect.delay(probe, every), Schedule.forever))
    }

    const call = <E extends DataNodeApi.Any>(endpoint: E, pin?: Pin) => {
      const decodeRequest = Schema.decodeUnknownEither(endpoint.request as Schema.Schema<unknown, unknown>)
      const decodeResponse = decoderOf(endpoint.response as Schema.Schema<Out<E>, unknown>)
      return (request: unknown): Effect.Effect<Out<E>, Errors.DataNodeError> => {
        const typed = decodeRequest(request ?? {})
        if (Either.isLeft(typed)) return Effect.fail(invalidRequest(endpoint.name, typed.left))
        const url = DataNodeApi.url(endpoint, typed.right)
        if (Either.isLeft(url)) return Effect.fail(invalidRequest(endpoint.name, url.left))
        return get(endpoint.name, url.right, decodeResponse, pin)
      }
    }

    const page =
      <E extends DataNodeApi.Any>(endpoint: E) =>
      (request?: In<E>) =>
        call(endpoint)(request).pipe(Effect.withSpan(`DataNodeClient.${endpoint.name}`))

    /**
     * Every item of a paged endpoint, on one node while it stays healthy. `stableOrder` marks
     * endpoints whose rows never move in the order (immutable keys): there a page that comes back
     * empty after the node promised more means rows were lost, and the stream says so.
     */
    const stream =
      <E extends DataNodeApi.Any, A>(
        endpoint: E,
        connectionOf: (response: Out<E>) => Pagination.Connection<A>,
        stableOrder = false
      ) =>
      (request?: StreamIn<E>, paging?: Paginate.Options): Stream.Stream<Paginate.Item<A>, Errors.DataNodeError> =>
        Stream.suspend(() => {
          const pin: Pin = { node: undefined, height: undefined }
          const fetch = call(endpoint, pin)
          const backward = paging?.direction === "backward"
          let promisedMore = false
          return Paginate.items(
            (params: Paginate.PageParams) =>
              fetch({ ...(request ?? {}), pagination: params }).pipe(
                Effect.flatMap((response) => {
                  const { edges, pageInfo } = connectionOf(response)
                  if (stableOrder && promisedMore && edges.length === 0) {
                    return Effect.fail(
                      new Errors.PaginationLoopError({
                        endpoint: endpoint.name,
                        reason:
                          "the node promised more rows but the next page had none: rows were lost (a v0.75 node cannot page referral set statistics by cursor); read them in one page of up to 5000 or narrow the request",
                        cursor: params.after ?? params.before ?? ""
                      })
                    )
                  }
                  promisedMore = backward ? pageInfo.hasPreviousPage : pageInfo.hasNextPage
                  return Effect.succeed<Paginate.Page<A>>({
                    items: edges,
                    hasNextPage: pageInfo.hasNextPage,
                    hasPreviousPage: pageInfo.hasPreviousPage,
                    startCursor: pageInfo.startCursor,
                    endCursor: pageInfo.endCursor
                  })
                })
              ),
            paging
          ).pipe(
            Stream.catchTag("PaginationError", (e) =>
              Stream.fail(
                e.reason === "InvalidOptions"
                  ? new Errors.InvalidRequestError({ endpoint: endpoint.name, reason: e.message })
                  : new Errors.PaginationLoopError({
                      endpoint: endpoint.name,
                      reason: e.message,
                      ...(e.cursor === undefined ? {} : { cursor: e.cursor })
                    })
              )
            )
          )
        })

    const rewardsByEpoch = (
      request: RewardsByEpochRequest,
      options: { readonly pageSize?: number } = {}
    ): Stream.Stream<Reward.Reward, Errors.DataNodeError> =>
      Stream.suspend(() => {
        const name = DataNodeApi.ListRewards.name
        const pageSize = options.pageSize ?? Pagination.MAX_PAGE_SIZE
        const epochOf = (value: bigint | number | string): bigint | undefined => {
          try {
            const n = BigInt(value)
            return n >= 0n && n <= 18446744073709551615n ? n : undefined
          } catch {
            return undefined
          }
        }
        const from = epochOf(request.fromEpoch)
        const to = epochOf(request.toEpoch)
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > Pagination.MAX_PAGE_SIZE) {
          return Stream.fail(
            new Errors.InvalidRequestError({
              endpoint: name,
              reason: `pageSize must be an integer in 1..${Pagination.MAX_PAGE_SIZE}, got ${pageSize}`
            })
          )
        }
        if (from === undefined || to === undefined) {
          return Stream.fail(
            new Errors.InvalidRequestError({
              endpoint: name,
              reason: `fromEpoch and toEpoch must be uint64 values, got ${String(request.fromEpoch)} and ${String(request.toEpoch)}`
            })
          )
        }
        const fetch = call(DataNodeApi.ListRewards, { node: undefined, height: undefined })
        const filters = {
          ...(request.partyId === undefined ? {} : { partyId: request.partyId }),
          ...(request.assetId === undefined ? {} : { assetId: request.assetId })
        }
        const read = (lo: bigint, hi: bigint, first: number) =>
          fetch({
            ...filters,
            fromEpoch: lo.toString(),
            toEpoch: hi.toString(),
            pagination: { first, newestFirst: false }
          }).pipe(Effect.map((response) => response.rewards))
        // state: the next epoch to read, and the window width that last fitted
        interface State {
          readonly lo: bigint
          readonly width: bigint
        }
        const step = (state: State): Effect.Effect<[ReadonlyArray<Reward.Reward>, State], Errors.DataNodeError> =>
          Effect.gen(function* () {
            let width = state.width
            for (;;) {
              const hi = state.lo + width - 1n > to ? to : state.lo + width - 1n
              const single = hi === state.lo
              const page = yield* read(state.lo, hi, single ? Pagination.MAX_PAGE_SIZE : pageSize)
              if (!page.pageInfo.hasNextPage) {
                const rows = page.edges.map((e) => e.node)
                // a window well under the limit: try a wider one next
                const next = rows.length * 4 < pageSize ? width * 2n : width
                return [rows, { lo: hi + 1n, width: next }] as [ReadonlyArray<Reward.Reward>, State]
              }
              if (single) {
                return yield* Effect.fail(
                  new Errors.PaginationLoopError({
                    endpoint: name,
                    reason: `epoch ${state.lo} has more than ${Pagination.MAX_PAGE_SIZE} reward rows${filters.partyId === undefined ? "" : " for this party"}: the node cannot page within one epoch (its cursor orders by epoch only), so they cannot all be read; narrow the request (partyId, assetId)`
                  })
                )
              }
              width = (hi - state.lo + 1n) / 2n
            }
          }).pipe(Effect.withSpan(`DataNodeClient.rewardsByEpoch`))
        if (from > to) return Stream.empty
        return Stream.paginateEffect<State, ReadonlyArray<Reward.Reward>, Errors.DataNodeError, never>(
          { lo: from, width: to - from + 1n },
          (state) =>
            Effect.map(step(state), ([rows, next]) => [rows, next.lo > to ? Option.none<State>() : Option.some(next)])
        ).pipe(Stream.flattenIterables)
      })

    const observeTransactionResults = (
      filter: TransactionResultsFilter = {}
    ): Stream.Stream<TransactionResult.TransactionResult, Errors.DataNodeError> => {
      const query = new URLSearchParams()
      for (const party of filter.partyIds ?? []) query.append("partyIds", party)
      for (const hash of filter.hashes ?? []) query.append("hashes", hash.toLowerCase())
      if (filter.status !== undefined) query.append("status", String(filter.status))
      const path = `/api/v2/stream/transaction-results${query.size === 0 ? "" : `?${query}`}`
      return Stream.unwrapScoped(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const choice = pool.choose(now, undefined, undefined)
          const node = choice.node ?? urls[0]
          yield* pacers.get(node)!.take
          // no time limit: the node sends its headers only with the first matching result
          const response = yield* http
            .get(`${node}${path}`, { acceptJson: true })
            .pipe(
              Effect.mapError((cause) => new Errors.TransportError({ node, path, description: cause.message, cause }))
            )
          const headers = lowerHeaders(response.headers)
          pool.answered(node, 0, headers)
          if (response.status < 200 || response.status >= 300) {
            const text = yield* Effect.orElseSucceed(response.text, () => "")
            return yield* Effect.fail(errorOf({ node, path, status: response.status, headers, text }, now))
          }
          return response.stream.pipe(
            Stream.mapError(
              (cause) => new Errors.TransportError({ node, path, description: "the stream broke", cause })
            ),
            Stream.decodeText(),
            Stream.splitLines,
            Stream.filter((line) => line.trim() !== ""),
            Stream.mapEffect((line) => frameOf(node, path, line)),
            Stream.mapConcat((results) => results)
          )
        })
      )
    }

    const api = DataNodeApi
    return {
      getStake: page(api.GetStake),
      stakeLinkings: stream(api.GetStake, (r) => r.stakeLinkings),
      listLiquidityProvisions: page(api.ListLiquidityProvisions),
      liquidityProvisions: stream(api.ListLiquidityProvisions, (r) => r.liquidityProvisions),
      listPositions: page(api.ListPositions),
      positions: stream(api.ListPositions, (r) => r.positions),
      getReferralSetStats: page(api.GetReferralSetStats),
      referralSetStats: stream(api.GetReferralSetStats, (r) => r.stats, true),
      listSignerAddedBundles: page(api.ListSignerAddedBundles),
      signerAddedBundles: stream(api.ListSignerAddedBundles, (r) => r.bundles, true),
      listPartiesProfiles: page(api.ListPartiesProfiles),
      partiesProfiles: stream(api.ListPartiesProfiles, (r) => r.profiles, true),
      listRewardSummaries: page(api.ListRewardSummaries),
      listRewards: page(api.ListRewards),
      rewards: stream(api.ListRewards, (r) => r.rewards),
      rewardsByEpoch,
      info: page(api.Info)(),
      statistics: page(api.Statistics)(),
      lastBlockHeight: page(api.LastBlockHeight)(),
      getSpamStatistics: page(api.GetSpamStatistics),
      observeTransactionResults,
      vegaTime: page(api.GetVegaTime)(),
      getEpoch: page(api.GetEpoch),
      listAssets: page(api.ListAssets),
      assets: stream(api.ListAssets, (r) => r.assets),
      getAsset: page(api.GetAsset),
      listMarkets: page(api.ListMarkets),
      markets: stream(api.ListMarkets, (r) => r.markets),
      getMarket: page(api.GetMarket),
      nodes: Effect.sync(() => pool.status())
    } as Service
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options: Options): Layer.Layer<DataNodeClient, never, HttpClient.HttpClient> =>
  Layer.scoped(DataNodeClient, make(options))

/**
 * The client from configuration: `urls` (comma-separated), `timeout`, `retries`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  config: Config.Config<Options>
): Layer.Layer<DataNodeClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.scoped(DataNodeClient, Effect.flatMap(config, make))

/**
 * Configuration read from `<prefix>URLS` (comma-separated), `<prefix>TIMEOUT` and `<prefix>RETRIES`.
 *
 * @since 0.1.0
 * @category Config
 */
export const config = (prefix = "VEGA_DATANODE_"): Config.Config<Options> =>
  Config.all({
    urls: Config.array(Config.string(), `${prefix}URLS`),
    timeout: Config.duration(`${prefix}TIMEOUT`).pipe(Config.withDefault(Duration.seconds(10))),
    retries: Config.integer(`${prefix}RETRIES`).pipe(Config.withDefault(5))
  })
