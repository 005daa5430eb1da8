/**
 * The transport on its own (`src/internal/transport.ts`), over an in-memory `HttpClient` and the
 * test clock: which node a request goes to, what each answer or failure does to that node, the
 * waits (pacing, rests, time limits), retries and the paging run's pin.
 */
import { HttpClientError, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeApi, RateLimit } from "@vega-effect/schema"
import { RateLimit as NodeRateLimit } from "@vega-effect/simulator"
import {
  Clock,
  Duration,
  Effect,
  Either,
  Fiber,
  HashMap,
  Logger,
  LogLevel,
  Metric,
  Option,
  Schedule,
  Schema,
  TestClock
} from "effect"
import * as Errors from "../src/DataNodeError.js"
import { DEFAULTS } from "../src/internal/defaults.js"
import * as Metrics from "../src/internal/metrics.js"
import {
  FIRST_PROBE_WAIT,
  make,
  type Pin,
  RATE_LIMITED_PAUSE_MILLIS,
  type Settings,
  type Transport
} from "../src/internal/transport.js"
import * as ReadTracking from "../src/ReadTracking.js"
import * as RequestBudget from "../src/RequestBudget.js"
import * as RetryPolicy from "../src/RetryPolicy.js"
import { endsAfter, fakeHttp, jsonAnswer } from "./support.js"

const A = "http://a"
const B = "http://b"
const INFO = DataNodeApi.Info.path

/** The transport's settings: no pacing, no retry, heights not probed again during a test. */
const settingsOf = (urls: ReadonlyArray<string>, settings: Partial<Settings> = {}): Settings => ({
  urls,
  timeout: DEFAULTS.timeout,
  retry: Schedule.stop,
  rateLimit: false,
  pool: { maxLag: DEFAULTS.maxLag, slowFactor: DEFAULTS.slowFactor },
  healthInterval: Duration.hours(1),
  transformClient: (client) => client,
  ...settings
})

/** What the in-memory nodes answer to each request (its number from 1, height probes included). */
type Script = (
  request: HttpClientRequest.HttpClientRequest,
  n: number
) => Effect.Effect<Response, HttpClientError.HttpClientError>

/** A transport over in-memory nodes, and the requests they got other than the height probes. */
const transportOf = (urls: ReadonlyArray<string>, script: Script, settings: Partial<Settings> = {}) =>
  Effect.gen(function* () {
    const node = fakeHttp(script)
    const transport = yield* make(node.client, settingsOf(urls, settings))
    const requests = () => node.sent.filter((sent) => !sent.url.endsWith(INFO))
    return { transport, sent: node.sent, requests }
  })

const ok = (headers: Record<string, string> = {}) => Effect.succeed(jsonAnswer(200, { ok: 1 }, headers))
const always =
  (response: () => Response): Script =>
  () =>
    Effect.sync(response)
const unavailable = () => jsonAnswer(503, { code: 14, message: "unavailable", details: [] })
const banFor = (seconds: number) => () =>
  jsonAnswer(
    403,
    { code: 7, message: "banned", details: [] },
    { [RateLimit.Headers.retryAfter.toLowerCase()]: `${seconds}` }
  )

const Ok = Schema.Struct({ ok: Schema.Number })
const decodeOk = Schema.decodeUnknownEither(Ok)

const statusOf = (transport: Transport, url: string) =>
  Effect.map(transport.status, (nodes) => nodes.find((n) => n.url === url)!)

/** How long a failing node of several rests after `failuresBefore` failures in a row. */
const rest = (failuresBefore: number) => Duration.toMillis(RetryPolicy.ceiling(failuresBefore, DEFAULTS.rest))

const get = (url: string) => HttpClientRequest.get(url)

/** A body that never ends. */
const endless = () => new ReadableStream<Uint8Array>({ start: () => {} })

const count = (metric: Metric.Metric.Counter<number>) => Effect.map(Metric.value(metric), (state) => state.count)

describe("routing", () => {
  it.scoped("sends a path to the node the pool chooses, accepting JSON, and gives the whole answer", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A], () =>
        Effect.succeed(jsonAnswer(201, { ok: 1 }, { "x-block-height": "7" }))
      )
      const answer = yield* transport.execute(get("/api/v2/x"))
      expect(answer).toMatchObject({ node: A, path: "/api/v2/x", status: 201, text: '{"ok":1}' })
      expect(answer.headers["x-block-height"]).toBe("7")
      expect(requests().map((sent) => [sent.url, sent.request.headers.accept])).toEqual([
        [`${A}/api/v2/x`, "application/json"]
      ])
      expect(yield* statusOf(transport, A)).toMatchObject({ height: 7, requests: 1, failures: 0 })
    })
  )

  it.scoped("sends an absolute URL where it says, counted for the node it names even where node URLs overlap", () =>
    Effect.gen(function* () {
      const long = `${A}b`
      const { requests, transport } = yield* transportOf([A, long], () => ok())
      const before = (yield* transport.status).map((n) => n.requests)
      expect((yield* transport.execute(get(`${long}/x`))).node).toBe(long)
      const query = yield* transport.execute(get(`${A}?x=1`))
      expect([query.node, query.path]).toEqual([A, "?x=1"])
      expect(requests().map((sent) => sent.url)).toEqual([`${long}/x`, `${A}?x=1`])
      expect((yield* transport.status).map((n, i) => n.requests - before[i])).toEqual([1, 1])
    })
  )

  it.scoped("with every node resting, waits until the first one is back", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A, B], () => ok())
      yield* transport.recordStream(A, "refused")
      yield* transport.recordStream(B, "refused")
      yield* transport.recordStream(B, "refused")
      const fiber = yield* Effect.fork(transport.execute(get("/x")))
      expect((yield* endsAfter(fiber, rest(0))).node).toBe(A)
      expect(requests().map((sent) => [sent.url, sent.at])).toEqual([[`${A}/x`, rest(0)]])
    })
  )

  it.scoped("claims the pool's node for a live stream once that node's pacer lets it through", () =>
    Effect.gen(function* () {
      const rate = 10
      const { transport } = yield* transportOf([A, B], () => ok(), { rateLimit: { rate, burst: 1 } })
      // the height probes' tokens back
      yield* TestClock.adjust("1 second")
      expect(yield* endsAfter(yield* Effect.fork(transport.claim), 0)).toBe(A)
      expect(yield* endsAfter(yield* Effect.fork(transport.claim), 1000 / rate)).toBe(A)
      yield* transport.recordStream(A, "refused")
      expect(yield* endsAfter(yield* Effect.fork(transport.claim), 0)).toBe(B)
    })
  )

  it.scoped(
    "records what became of a live stream: refused or unreachable rests the node, served clears its failures",
    () =>
      Effect.gen(function* () {
        const { transport } = yield* transportOf([A, B], () => ok())
        yield* TestClock.adjust("1 second")
        yield* transport.recordStream(A, "refused")
        const refused = yield* statusOf(transport, A)
        yield* transport.recordStream(A, "unreachable")
        const unreachable = yield* statusOf(transport, A)
        // a refusal was an answer (the probe's request is the only one counted); no connection is a request sent
        expect(refused).toMatchObject({
          requests: 1,
          failures: 1,
          consecutiveFailures: 1,
          unavailableUntil: 1000 + rest(0)
        })
        expect(unreachable).toMatchObject({ requests: 2, failures: 2, consecutiveFailures: 2 })
        yield* transport.recordStream(A, "served")
        expect(yield* statusOf(transport, A)).toMatchObject({ failures: 2, consecutiveFailures: 0 })
      })
  )
})

describe("pacing", () => {
  it.scoped("paces each node on its own, within the budgets of the work the request belongs to", () =>
    Effect.gen(function* () {
      const rate = 10
      const { requests, transport } = yield* transportOf([A, B], () => ok(), { rateLimit: { rate, burst: 1 } })
      // the height probes' tokens back
      yield* TestClock.adjust("1 second")
      const fiber = yield* Effect.fork(
        Effect.all(
          [transport.execute(get(`${A}/1`)), transport.execute(get(`${B}/1`)), transport.execute(get(`${A}/2`))],
          {
            concurrency: "unbounded"
          }
        )
      )
      yield* endsAfter(fiber, 1000 / rate)
      expect(requests().map((sent) => [sent.url, sent.at])).toEqual([
        [`${A}/1`, 1000],
        [`${B}/1`, 1000],
        [`${A}/2`, 1000 + 1000 / rate]
      ])
      const budget = RequestBudget.make({ perSecond: 2, burst: 1 })
      const within = yield* Effect.fork(
        Effect.all([transport.execute(get(`${B}/2`)), transport.execute(get(`${A}/3`))]).pipe(
          RequestBudget.within(budget)
        )
      )
      yield* endsAfter(within, 500)
    })
  )

  it.scoped("follows the node's Ratelimit-Remaining", () =>
    Effect.gen(function* () {
      const rate = 10
      const { transport } = yield* transportOf([A], () => ok({ "ratelimit-remaining": "0" }), {
        rateLimit: { rate, burst: 100 }
      })
      yield* transport.execute(get("/1"))
      yield* endsAfter(yield* Effect.fork(transport.execute(get("/2"))), 1000 / rate)
    })
  )
})

describe("pacing against a node that handles requests late", () => {
  /**
   * An in-memory node with the node's own rate limiter (`Simulator.RateLimit`, on the test clock)
   * that stalls for its first second, then handles each request up to `jitter` ms after it came,
   * so requests sent apart reach its bucket bunched together.
   */
  const lateNode = (jitter: number) => {
    let now = 0
    const limiter = NodeRateLimit.make({ now: () => now })
    const script: Script = (_request, n) =>
      Effect.gen(function* () {
        const sent = yield* Clock.currentTimeMillis
        yield* Effect.sleep(Duration.millis(Math.max(1_000 - sent, (n * 7_919) % jitter)))
        now = yield* Clock.currentTimeMillis
        const decision = limiter.take("127.0.0.1")
        return decision._tag === "Allowed"
          ? jsonAnswer(200, {}, decision.headers)
          : new Response(decision.body, { status: decision.status, headers: decision.headers })
      })
    return script
  }

  it.scoped("the default pacing sends 300 requests without a 429, at close to the node's rate", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A], lateNode(800), { rateLimit: DEFAULTS.rateLimit })
      const statuses: Array<number> = []
      const fiber = yield* Effect.fork(
        Effect.forEach(
          Array.from({ length: 300 }, (_, i) => i),
          (i) => Effect.map(transport.execute(get(`/${i}`)), (answer) => void statuses.push(answer.status)),
          { concurrency: "unbounded" }
        )
      )
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.join(fiber)
      expect(statuses.filter((status) => status !== 200)).toEqual([])
      // the client's burst of 90 and the node's 20 a second, from the node's first answers after its
      // stall: 300 requests need 11.5 seconds; the pacer takes no longer than that
      const last = Math.max(...requests().map((sent) => sent.at))
      expect(last).toBeGreaterThanOrEqual(11_500)
      expect(last).toBeLessThan(12_000)
    })
  )
})

describe("answers", () => {
  it.scoped("records the node's answer time and height, and the answer time in the latency histogram", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], () =>
        Effect.delay(ok({ "x-block-height": "12" }), Duration.millis(30))
      )
      yield* TestClock.adjust("1 second")
      const before = yield* Metric.value(Metrics.latency)
      yield* endsAfter(yield* Effect.fork(transport.execute(get("/x"))), 30)
      const after = yield* Metric.value(Metrics.latency)
      expect(yield* statusOf(transport, A)).toMatchObject({ latencyMillis: 30, height: 12, failures: 0 })
      expect([after.count - before.count, after.sum - before.sum]).toEqual([1, 30])
    })
  )

  it.scoped("a 429 pauses its node for its Retry-After, or a second without one, and is counted", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A], (_, n) =>
        Effect.succeed(
          n === 1 ? jsonAnswer(429, {}, { "retry-after": "2" }) : n === 2 ? jsonAnswer(429, {}) : jsonAnswer(200, {})
        )
      )
      yield* TestClock.adjust("1 second")
      const limited = yield* count(Metrics.rateLimitedTotal)
      expect((yield* transport.execute(get("/1"))).status).toBe(429)
      expect(yield* statusOf(transport, A)).toMatchObject({ unavailableUntil: 3000, banned: false, failures: 1 })
      yield* endsAfter(yield* Effect.fork(transport.execute(get("/2"))), 2000)
      yield* endsAfter(yield* Effect.fork(transport.execute(get("/3"))), RATE_LIMITED_PAUSE_MILLIS)
      expect(requests().map((sent) => sent.at)).toEqual([1000, 3000, 3000 + RATE_LIMITED_PAUSE_MILLIS])
      expect((yield* count(Metrics.rateLimitedTotal)) - limited).toBe(2)
    })
  )

  it.scoped(
    "a ban rests and marks its node for as long as it says, without pausing requests sent to that node by URL",
    () =>
      Effect.gen(function* () {
        const seconds = 600
        const { transport } = yield* transportOf([A, B], (request) =>
          request.url.startsWith(A) && !request.url.endsWith(INFO) ? Effect.sync(banFor(seconds)) : ok()
        )
        yield* TestClock.adjust("1 second")
        const limited = yield* count(Metrics.rateLimitedTotal)
        expect((yield* transport.execute(get("/x"))).status).toBe(403)
        expect(yield* statusOf(transport, A)).toMatchObject({ unavailableUntil: 1000 + seconds * 1000, banned: true })
        expect((yield* transport.execute(get("/x"))).node).toBe(B)
        yield* endsAfter(yield* Effect.fork(transport.execute(get(`${A}/x`))), 0)
        expect((yield* count(Metrics.rateLimitedTotal)) - limited).toBe(0)
      })
  )

  it.scoped("an answer that does not ask to wait leaves its node as it was, whatever its status", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A, B], always(unavailable))
      yield* transport.execute(get(`${A}/x`))
      expect(yield* statusOf(transport, A)).toMatchObject({ failures: 0, unavailableUntil: 0, banned: false })
    })
  )

  it.scoped("no answer is a TransportError with the platform's words, and rests the node", () =>
    Effect.gen(function* () {
      let refused: HttpClientError.RequestError | undefined
      const { transport } = yield* transportOf([A, B], (request) =>
        request.url.endsWith(INFO)
          ? ok()
          : Effect.fail(
              (refused = new HttpClientError.RequestError({ request, reason: "Transport", description: "refused" }))
            )
      )
      yield* TestClock.adjust("1 second")
      const error = yield* Effect.flip(transport.execute(get(`${A}/x`)))
      expect(error).toBeInstanceOf(Errors.TransportError)
      expect(error).toMatchObject({ node: A, path: "/x", description: refused!.message, cause: refused })
      expect(yield* statusOf(transport, A)).toMatchObject({
        requests: 2,
        failures: 1,
        consecutiveFailures: 1,
        unavailableUntil: 1000 + rest(0)
      })
    })
  )

  it.scoped("an answer not complete within the time limit, its body included, is a TimeoutError", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], (_, n) =>
        n === 1 ? Effect.never : Effect.succeed(new Response(endless(), { status: 200 }))
      )
      const timeout = Duration.toMillis(DEFAULTS.timeout)
      for (const path of ["/headers", "/body"]) {
        const error = yield* endsAfter(yield* Effect.fork(Effect.flip(transport.execute(get(path)))), timeout)
        expect(error).toBeInstanceOf(Errors.TimeoutError)
        expect(error).toMatchObject({ node: A, path, timeout: DEFAULTS.timeout })
      }
      expect(yield* statusOf(transport, A)).toMatchObject({ requests: 2, failures: 2 })
    })
  )

  it.scoped("a request's own time limit replaces the client's", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], () => Effect.never)
      const error = yield* endsAfter(
        yield* Effect.fork(Effect.flip(transport.execute(get("/x"), { timeout: "1 second" }))),
        1000
      )
      expect(error).toMatchObject({ _tag: "TimeoutError", timeout: Duration.seconds(1) })
    })
  )
})

describe("streams", () => {
  it.scoped("opens a stream on the pool's node with no time limit, its body left unread", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A], () =>
        Effect.delay(
          Effect.sync(() => new Response(endless(), { status: 200 })),
          Duration.minutes(1)
        )
      )
      const { node, response } = yield* endsAfter(yield* Effect.fork(transport.open("/stream")), 60_000)
      expect([node, response.status]).toEqual([A, 200])
      expect(requests().map((sent) => [sent.url, sent.request.headers.accept])).toEqual([
        [`${A}/stream`, "application/json"]
      ])
    })
  )

  it.scoped("a stream refused is the error of its answer, its body read", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], (_, n) =>
        Effect.sync(() =>
          n === 1
            ? jsonAnswer(300, { code: 3, message: "not a stream", details: [] })
            : new Response(new ReadableStream({ start: (controller) => controller.error(new Error("cut")) }), {
                status: 503
              })
        )
      )
      const refused = yield* Effect.flip(transport.open("/stream"))
      expect(refused).toMatchObject({ _tag: "InvalidArgumentError", node: A, path: "/stream", status: 300 })
      expect(refused.message).toBe(`${A}/stream answered 300: not a stream`)
      // a body that cannot be read is an empty one
      const cut = yield* Effect.flip(transport.open("/stream"))
      expect(cut.message).toBe(`${A}/stream answered 503: an empty body`)
    })
  )
})

describe("reads", () => {
  it.scoped("decodes a 2xx body; another status is its error, and rests its node", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A, B], (request) =>
        Effect.sync(() =>
          request.url.endsWith("/ok")
            ? jsonAnswer(299, { ok: 2 })
            : request.url.endsWith("/bad")
              ? jsonAnswer(200, { ok: "x" })
              : request.url.endsWith("/moved")
                ? jsonAnswer(300, { ok: 3 })
                : request.url.endsWith(INFO)
                  ? jsonAnswer(200, {})
                  : unavailable()
        )
      )
      yield* TestClock.adjust("1 second")
      expect(yield* transport.read("Ok", `${A}/ok`, decodeOk)).toEqual({ ok: 2 })
      expect(yield* Effect.flip(transport.read("Bad", `${A}/bad`, decodeOk))).toMatchObject({
        _tag: "DecodeError",
        node: A,
        pathInBody: "ok"
      })
      expect(yield* Effect.flip(transport.read("Moved", `${A}/moved`, decodeOk))).toMatchObject({
        _tag: "InvalidArgumentError",
        status: 300
      })
      const failed = yield* Effect.flip(transport.read("Down", `${B}/down`, decodeOk))
      expect(failed).toMatchObject({ _tag: "UnavailableError", node: B, path: "/down", status: 503 })
      // the node's one request counted once, and its rest from the time of the answer
      expect(yield* statusOf(transport, B)).toMatchObject({
        requests: 2,
        failures: 1,
        consecutiveFailures: 1,
        unavailableUntil: 1000 + rest(0)
      })
      expect(yield* statusOf(transport, A)).toMatchObject({ failures: 2 })
    })
  )

  it.scoped("a success clears the node's failures in a row, and is reported to ReadTracking", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf(
        [A],
        (_, n) => Effect.sync(() => (n === 1 ? unavailable() : jsonAnswer(200, { ok: 1 }, { "x-block-height": "9" }))),
        { retry: Schedule.recurs(1) }
      )
      const [value, reads] = yield* ReadTracking.track(transport.read("Ok", "/ok", decodeOk))
      expect(value).toEqual({ ok: 1 })
      expect([reads.answers, reads.nodes, reads.highest?.height]).toEqual([1, [A], 9])
      expect(yield* statusOf(transport, A)).toMatchObject({ requests: 2, failures: 1, consecutiveFailures: 0 })
    })
  )

  it.scoped(
    "a 429 or a ban read from an answer is recorded once; a ban without its header rests the node for the ban's length",
    () =>
      Effect.gen(function* () {
        const { transport } = yield* transportOf([A, B], (request) =>
          Effect.sync(() =>
            request.url.endsWith("/limited")
              ? jsonAnswer(429, {}, { "retry-after": "3" })
              : request.url.endsWith("/banned")
                ? jsonAnswer(403, { code: 7, message: "permission denied", details: [] })
                : jsonAnswer(200, {})
          )
        )
        yield* TestClock.adjust("1 second")
        expect((yield* Effect.flip(transport.read("Limited", `${A}/limited`, decodeOk)))._tag).toBe("RateLimitedError")
        expect(yield* statusOf(transport, A)).toMatchObject({ failures: 1, unavailableUntil: 4000, banned: false })
        const banned = yield* Effect.flip(transport.read("Banned", `${B}/banned`, decodeOk))
        expect(banned._tag).toBe("BannedError")
        expect(yield* statusOf(transport, B)).toMatchObject({
          failures: 1,
          banned: true,
          unavailableUntil: 1000 + Duration.toMillis(RateLimit.BAN)
        })
      })
  )

  it.scoped("no answer: the read fails with it, the node's failure recorded once", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], (request) =>
        Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: "refused" }))
      )
      expect(yield* Effect.flip(transport.read("Down", "/down", decodeOk))).toMatchObject({
        _tag: "TransportError",
        node: A,
        path: "/down"
      })
      expect(yield* statusOf(transport, A)).toMatchObject({ requests: 1, failures: 1 })
    })
  )

  it.scoped(
    "counts each read by endpoint, node and outcome, and sends it in a span named for the request with its path",
    () =>
      Effect.gen(function* () {
        const parents: Array<[string, unknown]> = []
        const { transport } = yield* transportOf([A], (_, n) =>
          Effect.map(Effect.currentSpan, (span) => {
            // the platform's own span of the request, within the transport's
            const parent = Option.getOrUndefined(span.parent)
            if (parent?._tag === "Span") parents.push([parent.name, parent.attributes.get("path")])
            return n === 1 ? jsonAnswer(200, { ok: 1 }) : unavailable()
          }).pipe(Effect.orDie)
        )
        const tagged = (outcome: string) =>
          count(
            Metrics.requestsTotal.pipe(
              Metric.tagged("endpoint", "Counted"),
              Metric.tagged("node", A),
              Metric.tagged("outcome", outcome)
            )
          )
        const before = [yield* tagged("ok"), yield* tagged("UnavailableError")]
        yield* transport.read("Counted", "/counted", decodeOk)
        yield* Effect.either(transport.read("Counted", "/counted", decodeOk))
        expect([(yield* tagged("ok")) - before[0], (yield* tagged("UnavailableError")) - before[1]]).toEqual([1, 1])
        expect(parents).toEqual([
          ["DataNodeClient.request", "/counted"],
          ["DataNodeClient.request", "/counted"]
        ])
      })
  )
})

describe("retries", () => {
  it.scoped(
    "retries what may succeed by the schedule, logging and counting each retry with its failure and delay",
    () =>
      Effect.gen(function* () {
        const logs: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
        const logger = Logger.make(({ annotations, message }) =>
          logs.push({ message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
        )
        const { requests, transport } = yield* transportOf([A], always(unavailable), {
          retry: Schedule.spaced("2 seconds").pipe(Schedule.intersect(Schedule.recurs(2)))
        })
        const retries = yield* count(Metrics.retriesTotal)
        const read = Effect.either(transport.read("Retried", "/retried", decodeOk)).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.Debug)
        )
        // each read counts its own retries
        for (let run = 0; run < 2; run++) {
          const outcome = yield* endsAfter(yield* Effect.fork(read), 4000)
          expect(Either.isLeft(outcome) && outcome.left._tag).toBe("UnavailableError")
        }
        expect(requests().map((sent) => sent.at)).toEqual([0, 2000, 4000, 4000, 6000, 8000])
        const retried = logs.filter((log) => String(log.message) === "retrying Retried after UnavailableError")
        const logged = { node: A, path: "/retried", delayMillis: 2000 }
        expect(retried.map((log) => log.annotations)).toEqual([1, 2, 1, 2].map((attempt) => ({ ...logged, attempt })))
        expect((yield* count(Metrics.retriesTotal)) - retries).toBe(4)
      })
  )

  it.scoped("never retries what cannot succeed, on another node either", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf(
        [A, B],
        (request) => (request.url.endsWith(INFO) ? ok() : Effect.succeed(jsonAnswer(404, {}))),
        { retry: Schedule.recurs(3) }
      )
      expect((yield* Effect.flip(transport.read("Missing", "/missing", decodeOk)))._tag).toBe("NotFoundError")
      expect(requests()).toHaveLength(1)
    })
  )

  it.scoped("after a ban, carries on at another node while one is available", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf(
        [A, B],
        (request) => (request.url.endsWith(INFO) ? ok() : request.url.startsWith(A) ? Effect.sync(banFor(600)) : ok()),
        { retry: Schedule.recurs(3) }
      )
      expect(yield* transport.read("Moved", "/moved", decodeOk)).toEqual({ ok: 1 })
      expect(requests().map((sent) => sent.url)).toEqual([`${A}/moved`, `${B}/moved`])
      // a pinned run moves as well
      const pin: Pin = { node: undefined, height: undefined }
      expect(yield* transport.read("Moved", "/moved", decodeOk, pin)).toEqual({ ok: 1 })
      expect(pin.node).toBe(B)
    })
  )

  it.scoped("after a ban by the last node available, or by the only one, gives up", () =>
    Effect.gen(function* () {
      const two = yield* transportOf(
        [A, B],
        (request) => (request.url.endsWith(INFO) ? ok() : Effect.sync(banFor(600))),
        {
          retry: Schedule.recurs(3)
        }
      )
      expect(yield* Effect.flip(two.transport.read("Banned", "/banned", decodeOk))).toMatchObject({
        _tag: "BannedError",
        node: B
      })
      expect(two.requests()).toHaveLength(2)
      // even a ban that is already over
      const one = yield* transportOf([A], () => Effect.sync(banFor(0)), { retry: Schedule.recurs(3) })
      expect((yield* Effect.flip(one.transport.read("Banned", "/banned", decodeOk)))._tag).toBe("BannedError")
      expect(one.requests()).toHaveLength(1)
    })
  )
})

describe("paging runs", () => {
  it.scoped("keeps a run on its node, and records the node and the highest height it answered at", () =>
    Effect.gen(function* () {
      const { requests, transport } = yield* transportOf([A, B], (request) =>
        ok({ "x-block-height": request.url.startsWith(A) ? "100" : "98" })
      )
      const pin: Pin = { node: B, height: undefined }
      yield* transport.read("Page", "/page", decodeOk, pin)
      expect(pin).toEqual({ node: B, height: 98 })
      pin.height = 99
      yield* transport.read("Page", "/page", decodeOk, pin)
      // B fell behind the height of the run: it moves to A
      expect(pin).toEqual({ node: A, height: 100 })
      expect(requests().map((sent) => sent.url)).toEqual([`${B}/page`, `${A}/page`])
    })
  )

  it.scoped("never lowers a run's height, and leaves it unknown while no node reports one", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], (_, n) => (n === 1 ? ok() : ok({ "x-block-height": "80" })))
      const pin: Pin = { node: undefined, height: undefined }
      yield* transport.read("Page", "/page", decodeOk, pin)
      expect(pin).toEqual({ node: A, height: undefined })
      pin.height = 120
      yield* transport.read("Page", "/page", decodeOk, pin)
      expect(pin).toEqual({ node: A, height: 120 })
    })
  )

  it.scoped("leaves a run as it was when a read fails", () =>
    Effect.gen(function* () {
      const { transport } = yield* transportOf([A], always(unavailable))
      const pin: Pin = { node: undefined, height: 7 }
      yield* Effect.either(transport.read("Page", "/page", decodeOk, pin))
      expect(pin).toEqual({ node: undefined, height: 7 })
    })
  )
})

describe("height probes", () => {
  it.scoped("with several nodes, asks each for its height before the first request, then every healthInterval", () =>
    Effect.gen(function* () {
      const interval = Duration.seconds(30)
      const { sent, transport } = yield* transportOf(
        [A, B],
        (request) => ok({ "x-block-height": request.url.startsWith(A) ? "5" : "6" }),
        { healthInterval: interval }
      )
      const probes = () => sent.filter((s) => s.url.endsWith(INFO)).map((s) => [s.url, s.at, s.request.headers.accept])
      expect(probes()).toEqual([
        [`${A}${INFO}`, 0, "application/json"],
        [`${B}${INFO}`, 0, "application/json"]
      ])
      expect((yield* transport.status).map((n) => n.height)).toEqual([5, 6])
      const millis = Duration.toMillis(interval)
      yield* TestClock.adjust(Duration.millis(millis - 1))
      expect(probes()).toHaveLength(2)
      yield* TestClock.adjust(Duration.millis(1 + millis))
      expect(probes().map(([url, at]) => [url, at])).toEqual([
        [`${A}${INFO}`, 0],
        [`${B}${INFO}`, 0],
        [`${A}${INFO}`, millis],
        [`${B}${INFO}`, millis],
        [`${A}${INFO}`, 2 * millis],
        [`${B}${INFO}`, 2 * millis]
      ])
    })
  )

  it.scoped(
    "waits for the first heights at most FIRST_PROBE_WAIT (or the time limit if shorter), all nodes at once",
    () =>
      Effect.gen(function* () {
        const silent = (request: HttpClientRequest.HttpClientRequest) =>
          request.url.startsWith(A) ? Effect.never : ok()
        const made = yield* Effect.fork(transportOf([A, B], silent))
        const { sent } = yield* endsAfter(made, Duration.toMillis(FIRST_PROBE_WAIT))
        expect(sent.map((s) => [s.url, s.at])).toEqual([
          [`${A}${INFO}`, 0],
          [`${B}${INFO}`, 0]
        ])
        const timeout = Duration.millis(Duration.toMillis(FIRST_PROBE_WAIT) / 2)
        yield* endsAfter(yield* Effect.fork(transportOf([A, B], silent, { timeout })), Duration.toMillis(timeout))
      })
  )

  it.scoped("asks nothing of a single node, and is ready though a node cannot be reached", () =>
    Effect.gen(function* () {
      const one = yield* transportOf([A], () => ok())
      expect(one.sent).toEqual([])
      const down = yield* transportOf([A, B], (request) =>
        Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: "refused" }))
      )
      expect(down.sent).toHaveLength(2)
    })
  )
})
