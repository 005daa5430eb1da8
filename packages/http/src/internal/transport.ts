/**
 * The one transport every request of a client goes through, built as `HttpClient` middleware over
 * the application's own client:
 *
 * 1. `routed`: a relative URL goes to the node the pool chooses (a paging run's own node while
 *    it stays usable), waiting when every node is resting;
 * 2. `paced`: the request waits for its node's token bucket (before its time limit starts);
 * 3. `answered`: it is sent within the time limit, its body read (unless it is a stream), and the
 *    answer recorded: the node's height and speed, its `Ratelimit-Remaining`, and a pause when
 *    it says to wait (429, ban). A failure to get an answer is a `TransportError` or a
 *    `TimeoutError`, and rests the node.
 *
 * On top of that: {@link Transport.execute} sends once (POSTs: never retried), and
 * {@link Transport.read} is a GET whose answer is decoded and which is retried by the client's
 * retry policy (a `Schedule` and a predicate), the whole attempt (send, read, decode) at once,
 * because a body cut short is only seen when it is parsed.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleIntervals from "effect/ScheduleIntervals"
import type * as Scope from "effect/Scope"
import * as Errors from "../DataNodeError.js"
import * as ReadTracking from "../ReadTracking.js"
import * as RequestBudget from "../RequestBudget.js"
import * as RetryPolicy from "../RetryPolicy.js"
import { type Answer, asksToWait, decodeBody, errorOf } from "./answer.js"
import * as Metrics from "./metrics.js"
import { makePacer, type Pacer, type PacerOptions } from "./pacer.js"
import { type NodeStatus, Pool, type PoolOptions } from "./pool.js"

/** What the transport is built from; every default already applied. */
export interface Settings {
  readonly urls: ReadonlyArray<string>
  readonly timeout: Duration.Duration
  /** When to try a failed read again; the predicate is {@link Errors.isRetryable}, or a ban with another node. */
  readonly retry: Schedule.Schedule<unknown, Errors.DataNodeError>
  readonly rateLimit: PacerOptions | false
  readonly pool: PoolOptions
  /** With several nodes, how often their heights are asked for. */
  readonly healthInterval: Duration.Duration
  readonly transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

/** Where a paging run is: the node it reads from and the height that node last reported. */
export interface Pin {
  node: string | undefined
  height: number | undefined
}

/** A body decoder, compiled once per endpoint. */
export type Decode<A> = (u: unknown) => Either.Either<A, ParseResult.ParseError>

export interface Transport {
  readonly urls: ReadonlyArray<string>
  readonly status: Effect.Effect<ReadonlyArray<NodeStatus>>
  /**
   * Sends a request (its URL a path, e.g. `/transaction`) once, to the node the pool chooses,
   * paced, within the time limit, and reads the answer whatever its status. Never retried.
   */
  readonly execute: (
    request: HttpClientRequest.HttpClientRequest,
    options?: ExecuteOptions
  ) => Effect.Effect<Answer, Errors.TransportError | Errors.TimeoutError>
  /** A GET of `path`, decoded, retried by the policy; `pin` keeps a paging run on its node. */
  readonly read: <A>(
    endpoint: string,
    path: string,
    decode: Decode<A>,
    pin?: Pin
  ) => Effect.Effect<A, Errors.DataNodeError>
  /** A streaming GET with no time limit: the response once its status says the stream is open. */
  readonly open: (
    path: string
  ) => Effect.Effect<
    { readonly node: string; readonly response: HttpClientResponse.HttpClientResponse },
    Errors.DataNodeError
  >
  /**
   * For a live stream (a WebSocket the transport does not send itself): the node the pool
   * chooses, waiting while every node rests, once that node's pacer lets a request through (the
   * node rate-limits opening streams like requests).
   */
  readonly claim: Effect.Effect<string>
  /** What became of a live stream's connection: it delivered a message, or it was refused or never opened (the node rests). */
  readonly recordStream: (node: string, outcome: "served" | "refused" | "unreachable") => Effect.Effect<void>
}

export interface ExecuteOptions {
  /** This request's time limit instead of the client's. */
  readonly timeout?: Duration.DurationInput | undefined
}

/** How long a node's requests wait after a 429 that does not say how long. */
export const RATE_LIMITED_PAUSE_MILLIS = 1000

/** At most how long a client with several nodes waits for their first heights before it is ready. */
export const FIRST_PROBE_WAIT = Duration.seconds(2)

/** The paging run the current request belongs to, read by {@link routed}. */
const currentPin = FiberRef.unsafeMake<Pin | undefined>(undefined)

/** A time limit for the current request other than the client's, read by {@link answered}. */
const currentTimeout = FiberRef.unsafeMake<Duration.Duration | undefined>(undefined)

/** The pool's choice for the current request, waiting while every node rests. */
const chooseNode = (pool: Pool): Effect.Effect<string> =>
  Effect.flatMap(FiberRef.get(currentPin), (pin) => {
    const attempt: Effect.Effect<string> = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const choice = pool.choose(now, pin?.node, pin?.height)
      return choice.node !== undefined
        ? Effect.succeed(choice.node)
        : Effect.zipRight(
            Effect.sleep(Duration.millis(choice.waitUntil - now)),
            Effect.suspend(() => attempt)
          )
    })
    return attempt
  })

/** Middleware: relative URLs go to a node of the pool; absolute ones (health probes) where they say. */
const routed = (pool: Pool) =>
  HttpClient.mapRequestEffect((request: HttpClientRequest.HttpClientRequest) =>
    request.url.startsWith("/")
      ? Effect.map(chooseNode(pool), (node) => HttpClientRequest.prependUrl(request, node))
      : Effect.succeed(request)
  )

/**
 * Middleware: a request waits for the budgets of the work it belongs to, then for its node's
 * pacer (behind the urgent requests there if it is budgeted work), which follows it until it ends.
 */
const paced = (pacerOf: (url: string) => Pacer) =>
  HttpClient.transform(
    <E, R>(
      sent: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>,
      request: HttpClientRequest.HttpClientRequest
    ) =>
      Effect.zipRight(
        RequestBudget.take,
        Effect.flatMap(RequestBudget.inBackground, (background) => pacerOf(request.url).paced(sent, background))
      )
  )

interface Recorder {
  readonly pool: Pool
  readonly nodeOf: (url: string) => string
  readonly pacerOf: (url: string) => Pacer
}

/** What an answer tells of its node, whatever the request: height, speed, and whether to wait. */
const recordAnswer = (
  recorder: Recorder,
  node: string,
  started: number,
  response: HttpClientResponse.HttpClientResponse
) =>
  Effect.gen(function* () {
    const finished = yield* Clock.currentTimeMillis
    // platform headers come with lowercase names
    const headers = response.headers
    recorder.pool.answered(node, finished - started, headers)
    const pacer = recorder.pacerOf(node)
    pacer.observe(headers, finished)
    yield* Metric.update(Metrics.latency, finished - started)
    if (!asksToWait(response.status, headers)) return
    // nothing more goes to this node before the time it asked for, whatever the request was
    const wait = Option.map(RetryPolicy.retryAfter(headers, finished), Duration.toMillis)
    if (response.status === 429) {
      yield* Metric.increment(Metrics.rateLimitedTotal)
      pacer.pauseUntil(finished + Option.getOrElse(wait, () => RATE_LIMITED_PAUSE_MILLIS), finished)
    }
    recorder.pool.failed(node, finished, { banned: response.status === 403, restMillis: Option.getOrUndefined(wait) })
  })

/**
 * Middleware: sent within `timeout` (headers and, when `buffered`, the whole body) and recorded.
 * A failure to get an answer is typed and rests the node.
 */
const answered = (recorder: Recorder, timeout: Duration.Duration | undefined, buffered: boolean) =>
  HttpClient.transform(
    (
      sent: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>,
      request: HttpClientRequest.HttpClientRequest
    ) =>
      Effect.gen(function* () {
        const node = recorder.nodeOf(request.url)
        const path = request.url.slice(node.length)
        const started = yield* Clock.currentTimeMillis
        const limit = timeout === undefined ? undefined : ((yield* FiberRef.get(currentTimeout)) ?? timeout)
        // platform responses keep the text they read, so callers read it again at no cost
        const received = sent.pipe(
          buffered ? Effect.tap((response) => response.text) : (self) => self,
          Effect.mapError((cause) => new Errors.TransportError({ node, path, description: cause.message, cause }))
        )
        const response = yield* (
          limit === undefined
            ? received
            : Effect.timeoutFail(received, {
                duration: limit,
                onTimeout: () => new Errors.TimeoutError({ node, path, timeout: limit })
              })
        ).pipe(
          Effect.tapError(() =>
            Effect.map(Clock.currentTimeMillis, (now) => recorder.pool.failed(node, now, { unanswered: true }))
          )
        )
        yield* recordAnswer(recorder, node, started, response)
        return response
      })
  )

/** Middleware: the platform's own errors were all turned into typed ones by {@link answered}. */
const typedErrors = HttpClient.transformResponse(
  <A, R>(sent: Effect.Effect<A, Errors.TransportError | Errors.TimeoutError | HttpClientError.HttpClientError, R>) =>
    Effect.catchIf(sent, isPlatformError, Effect.die)
)

const isPlatformError = (error: { readonly _tag: string }): error is HttpClientError.HttpClientError =>
  error._tag === "RequestError" || error._tag === "ResponseError"

/** Logs and counts each retry with the failure that caused it and the delay before it. */
const observed = (
  schedule: Schedule.Schedule<unknown, Errors.DataNodeError>,
  endpoint: string,
  path: string
): Schedule.Schedule<unknown, Errors.DataNodeError> => {
  // one schedule per read (see `read`): these follow that read's failures
  let last: Errors.DataNodeError | undefined
  let attempt = 0
  return schedule.pipe(
    Schedule.tapInput((error: Errors.DataNodeError) => Effect.sync(() => void (last = error))),
    Schedule.onDecision((_, decision) =>
      ScheduleDecision.isDone(decision)
        ? Effect.void
        : Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.zipRight(
              Metric.increment(Metrics.retriesTotal),
              Effect.logDebug(`retrying ${endpoint} after ${last?._tag}`).pipe(
                Effect.annotateLogs({
                  node: last !== undefined && "node" in last ? last.node : undefined,
                  path,
                  attempt: ++attempt,
                  delayMillis: Math.max(0, ScheduleIntervals.start(decision.intervals) - now)
                })
              )
            )
          )
    )
  )
}

/** Builds the transport; with several nodes it also asks each for its height, now and every `healthInterval`. */
export const make = (http: HttpClient.HttpClient, settings: Settings): Effect.Effect<Transport, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { urls } = settings
    const pool = new Pool(urls, settings.pool)
    const pacers = new Map(urls.map((url) => [url, makePacer(settings.rateLimit)]))
    const nodeOf = (url: string): string =>
      urls.find((node) => url === node || url.startsWith(`${node}/`) || url.startsWith(`${node}?`)) ?? url
    const pacerOf = (url: string): Pacer => pacers.get(nodeOf(url))!
    const recorder: Recorder = { pool, nodeOf, pacerOf }
    const base = settings.transformClient(http)
    const buffered = base.pipe(answered(recorder, settings.timeout, true), typedErrors, routed(pool), paced(pacerOf))
    const streaming = base.pipe(answered(recorder, undefined, false), typedErrors, routed(pool), paced(pacerOf))

    const execute = (request: HttpClientRequest.HttpClientRequest, options?: ExecuteOptions) =>
      Effect.flatMap(buffered.execute(HttpClientRequest.acceptJson(request)), (response) => {
        const node = nodeOf(response.request.url)
        return Effect.map(Effect.orDie(response.text), (text): Answer => ({
          node,
          path: response.request.url.slice(node.length),
          status: response.status,
          headers: response.headers,
          text
        }))
      }).pipe(
        options?.timeout === undefined
          ? (self) => self
          : Effect.locally(currentTimeout, Duration.decode(options.timeout))
      )

    const read = <A>(endpoint: string, path: string, decode: Decode<A>, pin?: Pin) => {
      const attempt = readOnce(recorder, execute, endpoint, path, decode, pin)
      const another = (now: number) => pool.size > 1 && pool.choose(now, undefined, pin?.height).node !== undefined
      const retryable = (error: Errors.DataNodeError) =>
        Effect.map(
          Clock.currentTimeMillis,
          // a ban is final for its node; with another node available, carry on there
          (now) => Errors.isRetryable(error) || (error._tag === "BannedError" && another(now))
        )
      return Effect.suspend(() =>
        Effect.locally(attempt, currentPin, pin).pipe(
          Effect.retry({ schedule: observed(settings.retry, endpoint, path), while: retryable })
        )
      )
    }

    const open = (path: string) =>
      Effect.gen(function* () {
        const response = yield* streaming.get(path, { acceptJson: true })
        const node = nodeOf(response.request.url)
        if (response.status >= 200 && response.status < 300) return { node, response }
        const text = yield* Effect.orElseSucceed(response.text, () => "")
        const answer = { node, path, status: response.status, headers: response.headers, text }
        return yield* Effect.fail(errorOf(answer, yield* Clock.currentTimeMillis))
      })

    const claim = Effect.tap(chooseNode(pool), (node) => pacerOf(node).take)
    const recordStream = (node: string, outcome: "served" | "refused" | "unreachable") =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        outcome === "served" ? pool.succeeded(node) : pool.failed(node, now, { unanswered: outcome === "unreachable" })
      )

    if (urls.length > 1) yield* watchHeights(urls, execute, settings)

    return { urls, status: Effect.sync(() => pool.status()), execute, read, open, claim, recordStream }
  })

/** One attempt of a read: sent, decoded, and its outcome recorded. */
const readOnce = <A>(
  recorder: Recorder,
  execute: Transport["execute"],
  endpoint: string,
  path: string,
  decode: Decode<A>,
  pin: Pin | undefined
): Effect.Effect<A, Errors.DataNodeError> =>
  Effect.gen(function* () {
    const sent = yield* Effect.either(
      execute(HttpClientRequest.get(path)).pipe(Effect.withSpan("DataNodeClient.request", { attributes: { path } }))
    )
    const now = yield* Clock.currentTimeMillis
    const outcome = Either.flatMap(sent, (answer) =>
      answer.status >= 200 && answer.status < 300 ? decodeBody(decode, answer) : Either.left(errorOf(answer, now))
    )
    const node = Either.match(sent, { onLeft: (error) => error.node, onRight: (answer) => answer.node })
    yield* Metric.increment(Metrics.requestsTotal).pipe(
      Effect.tagMetrics({ endpoint, node, outcome: Either.isRight(outcome) ? "ok" : outcome.left._tag })
    )
    if (Either.isLeft(outcome)) {
      const error = outcome.left
      // no answer, or an answer asking to wait, was recorded as it came (see `answered`)
      if (Either.isRight(sent) && !asksToWait(sent.right.status, sent.right.headers)) {
        const banned = error._tag === "BannedError"
        recorder.pool.failed(node, now, {
          banned,
          restMillis: banned ? Duration.toMillis(error.retryAfter) : undefined
        })
      }
      return yield* Effect.fail(error)
    }
    recorder.pool.succeeded(node)
    if (Either.isRight(sent)) yield* ReadTracking.record(node, sent.right.headers)
    if (pin !== undefined) {
      pin.node = node
      pin.height = Math.max(pin.height ?? 0, recorder.pool.height(node) ?? 0) || undefined
    }
    return outcome.right
  })

/** Asks every node for its height before the first request (briefly) and then every `healthInterval`. */
const watchHeights = (
  urls: ReadonlyArray<string>,
  execute: Transport["execute"],
  settings: Settings
): Effect.Effect<void, never, Scope.Scope> => {
  const probe = Effect.forEach(
    urls,
    (node) => Effect.ignore(execute(HttpClientRequest.get(`${node}${DataNodeApi.Info.path}`))),
    { concurrency: "unbounded", discard: true }
  )
  return Effect.zipRight(
    probe.pipe(Effect.timeout(Duration.min(settings.timeout, FIRST_PROBE_WAIT)), Effect.ignore),
    Effect.asVoid(Effect.forkScoped(Effect.repeat(Effect.delay(probe, settings.healthInterval), Schedule.forever)))
  )
}
