import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { it } from "@effect/vitest"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as TestClock from "effect/TestClock"
import { describe, expect } from "vitest"
import { Webhook } from "../../src/Config.js"
import { toJsonLine } from "../../src/Event.js"
import * as Metrics from "../../src/Metrics.js"
import * as WebhookSink from "../../src/sinks/WebhookSink.js"
import { pendingEvents } from "./events.js"
import { captureLogs } from "../support/logs.js"

/** What the receiver does with one request. */
type Answer =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  /** the connection is destroyed as soon as the request arrives */
  | "drop"
  /** the body is taken (the event is received), then the connection destroyed without an answer */
  | "accept-and-drop"
  /** no answer at all */
  | "hang"

interface Attempt {
  readonly key: string
  readonly body: string
  readonly headers: http.IncomingHttpHeaders
  /** When the request arrived, in ms. */
  readonly at: number
  readonly answer: Answer
}

const ok: Answer = { status: 204 }

const isAccepted = (attempt: Attempt) =>
  attempt.answer === "accept-and-drop" ||
  (typeof attempt.answer === "object" && attempt.answer.status >= 200 && attempt.answer.status < 300)

/** A receiver on 127.0.0.1 answering request number `index` (from 0) as `decide` says; closed with the scope. */
const receiver = (
  decide: (key: string, index: number) => Answer
): Effect.Effect<{ readonly url: string; readonly attempts: Array<Attempt> }, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ url: string; attempts: Array<Attempt>; server: http.Server }>((resume) => {
      const attempts: Array<Attempt> = []
      let index = 0
      const server = http.createServer((request, response) => {
        const at = Date.now()
        const key = String(request.headers["idempotency-key"] ?? "")
        const answer = decide(key, index++)
        if (answer === "drop") {
          attempts.push({ key, body: "", headers: request.headers, at, answer })
          request.socket.destroy()
          return
        }
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          attempts.push({ key, body: Buffer.concat(chunks).toString("utf8"), headers: request.headers, at, answer })
          if (answer === "accept-and-drop") request.socket.destroy()
          else if (answer !== "hang") response.writeHead(answer.status, answer.headers).end(answer.body ?? "")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}/hook`, attempts, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const webhook = (fields: Record<string, unknown>) => Schema.decodeUnknownSync(Webhook)(fields)

const counter = (metric: Metric.Metric.Counter<number>, tags: Record<string, string> = {}) =>
  Metric.value(
    Object.entries({ sink: "webhook", ...tags }).reduce(
      (tagged, [key, value]) => Metric.tagged(tagged, key, value),
      metric
    )
  ).pipe(Effect.map((state) => state.count))

/** A seeded generator, so a failing run can be replayed. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** The HTTP client for the whole test (and the logs captured, when given). */
const withClient =
  (logs = captureLogs()) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provide(Layer.merge(NodeHttpClient.layerUndici, logs.layer)))

/**
 * Delivers one event through a receiver answering from `answers` in turn, on the test clock (moved
 * on until the event is delivered); returns the time of each attempt in ms.
 */
const deliverWithTestClock = (
  fields: Record<string, unknown>,
  answers: ReadonlyArray<{ readonly status: number; readonly headers?: Record<string, string> }>
) =>
  Effect.gen(function* () {
    const times: Array<number> = []
    const client = HttpClient.make((request) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const answer = answers[Math.min(times.length, answers.length - 1)]
        times.push(now)
        return HttpClientResponse.fromWeb(request, new Response(null, answer))
      })
    )
    const sink = yield* WebhookSink.make(webhook({ url: "http://receiver.test/hook", ...fields })).pipe(
      Effect.provideService(HttpClient.HttpClient, client)
    )
    const delivery = yield* Effect.fork(sink.deliver(pendingEvents(1)))
    while (delivery.unsafePoll() === null) yield* TestClock.adjust("1 second")
    yield* Fiber.join(delivery)
    return times
  }).pipe(Effect.withRandom(Random.make(7)), Effect.provide(captureLogs().layer))

describe("WebhookSink", () => {
  it.scopedLive(
    "delivers every event, in order, through random failures; repeats only what was received unseen",
    () => {
      const logs = captureLogs()
      return Effect.gen(function* () {
        const random = seeded(42)
        const failures: ReadonlyArray<Answer> = [
          { status: 500, body: "oops" },
          { status: 503 },
          { status: 429, headers: { "retry-after": "0" } },
          "drop",
          "accept-and-drop"
        ]
        const { attempts, url } = yield* receiver(() =>
          random() < 0.3 ? failures[Math.floor(random() * failures.length)] : ok
        )
        const events = pendingEvents(50)
        const sentBefore = yield* counter(Metrics.sinkAttemptsTotal)
        const failedBefore = yield* Effect.forEach(["http_500", "http_503", "http_429", "network"], (reason) =>
          counter(Metrics.sinkFailuresTotal, { reason })
        )
        const sink = yield* WebhookSink.make(
          webhook({ url, rate: 1000, minBackoff: "5ms", maxBackoff: "50ms", timeout: "2s" })
        )
        yield* sink.deliver(events)

        const ids = events.map(({ event }) => event.id)
        const accepted = attempts.filter(isAccepted)
        // in order of first success, each at least once
        expect(
          accepted.map(({ key }) => key).filter((key, index, keys) => index === 0 || keys[index - 1] !== key)
        ).toEqual(ids)
        // a repeat follows an attempt the receiver took but never answered, and is the same request
        const repeats = accepted.filter((attempt, index) => index > 0 && accepted[index - 1].key === attempt.key)
        expect(repeats.length).toBeGreaterThan(0)
        accepted.forEach((attempt, index) => {
          if (index > 0 && accepted[index - 1].key === attempt.key) {
            expect(accepted[index - 1].answer).toBe("accept-and-drop")
            expect(attempt.body).toBe(accepted[index - 1].body)
          }
        })
        for (const attempt of accepted) {
          const event = events[ids.indexOf(attempt.key)].event
          expect(attempt.body).toBe(toJsonLine(event))
          expect(JSON.parse(attempt.body).id).toBe(attempt.key)
          expect(attempt.headers["content-type"]).toBe("application/json")
        }

        // every failure was retried, logged as a warning with its attempt number, and counted
        const failed = attempts.filter(
          (attempt) => !(typeof attempt.answer === "object" && attempt.answer.status < 300)
        )
        expect(failed.length).toBeGreaterThan(5)
        const warnings = logs.lines.filter(({ level }) => level === "WARN")
        expect(warnings).toHaveLength(failed.length)
        expect(warnings.some(({ text }) => text.includes("HTTP 503") && text.includes('"attempt":1'))).toBe(true)
        expect(logs.lines.filter(({ level }) => level === "ERROR")).toEqual([])
        expect((yield* counter(Metrics.sinkAttemptsTotal)) - sentBefore).toBe(attempts.length)
        const failedAfter = yield* Effect.forEach(["http_500", "http_503", "http_429", "network"], (reason) =>
          counter(Metrics.sinkFailuresTotal, { reason })
        )
        const failedByReason = failedAfter.map((after, index) => after - failedBefore[index])
        const statusOf = (answer: Answer) => (typeof answer === "object" ? answer.status : 0)
        expect(failedByReason).toEqual([
          failed.filter(({ answer }) => statusOf(answer) === 500).length,
          failed.filter(({ answer }) => statusOf(answer) === 503).length,
          failed.filter(({ answer }) => statusOf(answer) === 429).length,
          failed.filter(({ answer }) => typeof answer === "string").length
        ])
      }).pipe(withClient(logs))
    },
    10_000
  )

  it.scopedLive(
    "waits what Retry-After asks",
    () =>
      Effect.gen(function* () {
        const { attempts, url } = yield* receiver((_key, index) =>
          index === 0 ? { status: 429, headers: { "retry-after": "1" } } : ok
        )
        const before = yield* counter(Metrics.sinkRetryAfterTotal)
        const sink = yield* WebhookSink.make(webhook({ url, minBackoff: "5ms", maxBackoff: "50ms" }))
        yield* sink.deliver(pendingEvents(1))
        expect(attempts).toHaveLength(2)
        expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(900)
        expect((yield* counter(Metrics.sinkRetryAfterTotal)) - before).toBe(1)
      }).pipe(withClient()),
    10_000
  )

  it.effect("waits at least what Retry-After asks, as seconds or an HTTP date, at most 10 minutes", () =>
    Effect.gen(function* () {
      const config = { minBackoff: "5ms", maxBackoff: "50ms" }
      // an HTTP date 45 s on, in whole seconds, from the test clock's time
      const date = new Date(Math.ceil(((yield* Clock.currentTimeMillis) + 45_000) / 1000) * 1000)
      for (const [status, headers, asked] of [
        [429, { "retry-after": "30" }, () => 30_000],
        [503, { "retry-after": date.toUTCString() }, (first: number) => date.getTime() - first],
        [503, { "ratelimit-retry-after": "7" }, () => 7_000],
        [429, { "retry-after": "86400" }, () => 600_000]
      ] as const) {
        const before = yield* counter(Metrics.sinkRetryAfterTotal)
        const times = yield* deliverWithTestClock(config, [{ status, headers }, { status: 204 }])
        expect(times).toHaveLength(2)
        const waited = times[1] - times[0]
        expect(asked(times[0])).toBeGreaterThanOrEqual(7_000)
        expect(waited).toBeGreaterThanOrEqual(asked(times[0]))
        // the backoff's own delay (50 ms at most here) and the clock's steps may add a little, never more
        expect(waited).toBeLessThanOrEqual(asked(times[0]) + 50 + 200)
        expect((yield* counter(Metrics.sinkRetryAfterTotal)) - before).toBe(1)
      }
    })
  )

  it.effect("backs off exponentially with jitter, from minBackoff up to maxBackoff, without Retry-After", () =>
    Effect.gen(function* () {
      const failures = Array.from({ length: 8 }, () => ({ status: 503 }))
      const times = yield* deliverWithTestClock({ rate: 1000, minBackoff: "1s", maxBackoff: "4s" }, [
        ...failures,
        { status: 204 }
      ])
      expect(times).toHaveLength(9)
      const waits = times.slice(1).map((time, i) => time - times[i])
      // full jitter: each delay drawn from [0, min(4s, 1s × 2^n)]
      const ceilings = [1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000]
      waits.forEach((wait, i) => expect(wait).toBeLessThanOrEqual(ceilings[i]))
      // ... and not all near zero: the attempts are spread over seconds
      expect(waits.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThan(4000)
    })
  )

  it.scopedLive(
    "starts at most `rate` requests per second",
    () =>
      Effect.gen(function* () {
        const { attempts, url } = yield* receiver(() => ok)
        const sink = yield* WebhookSink.make(webhook({ url, rate: 20 }))
        const started = Date.now()
        yield* sink.deliver(pendingEvents(10))
        expect(attempts).toHaveLength(10)
        expect(Date.now() - started).toBeGreaterThanOrEqual(400)
        expect(attempts[9].at - attempts[0].at).toBeGreaterThanOrEqual(400)
      }).pipe(withClient()),
    10_000
  )

  it.scopedLive(
    "skips an event the receiver refuses for good, and goes on",
    () => {
      const logs = captureLogs()
      return Effect.gen(function* () {
        const events = pendingEvents(3)
        const refused = events[1].event.id
        const { attempts, url } = yield* receiver((key) =>
          key === refused ? { status: 422, body: "unknown kind\nsee the docs" } : ok
        )
        const before = yield* counter(Metrics.sinkRejectedTotal, { status: "422" })
        const sink = yield* WebhookSink.make(webhook({ url, minBackoff: "5ms", maxBackoff: "50ms" }))
        yield* sink.deliver(events)
        expect(attempts.map(({ key }) => key)).toEqual(events.map(({ event }) => event.id))
        const errors = logs.lines.filter(({ level }) => level === "ERROR")
        expect(errors).toHaveLength(1)
        expect(errors[0].text).toContain("HTTP 422")
        expect(errors[0].text).toContain("unknown kind see the docs")
        expect((yield* counter(Metrics.sinkRejectedTotal, { status: "422" })) - before).toBe(1)
      }).pipe(withClient(logs))
    },
    10_000
  )

  it.scopedLive(
    "retries a request that gets no answer in time",
    () =>
      Effect.gen(function* () {
        const { attempts, url } = yield* receiver((_key, index) => (index === 0 ? "hang" : ok))
        const before = yield* counter(Metrics.sinkFailuresTotal, { reason: "timeout" })
        const sink = yield* WebhookSink.make(webhook({ url, timeout: "200ms", minBackoff: "5ms", maxBackoff: "50ms" }))
        yield* sink.deliver(pendingEvents(2))
        expect(attempts.map(({ key }) => key)).toEqual(
          pendingEvents(2).flatMap(({ event }, i) => (i === 0 ? [event.id, event.id] : [event.id]))
        )
        expect((yield* counter(Metrics.sinkFailuresTotal, { reason: "timeout" })) - before).toBe(1)
      }).pipe(withClient()),
    10_000
  )

  it.scopedLive(
    "sends the secret headers, and never logs them",
    () => {
      const logs = captureLogs()
      return Effect.gen(function* () {
        const token = "Bearer s3cr3t-t0ken-9f8e7d"
        const apiKey = "hunter2-api-key-1a2b3c"
        const events = pendingEvents(3)
        const { attempts, url } = yield* receiver((key, index) => {
          if (index === 0) return { status: 503, body: `busy, ${token}` }
          if (index === 1) return "drop"
          // a receiver echoing what it got
          if (key === events[2].event.id) return { status: 401, body: `bad credentials: ${apiKey}` }
          return ok
        })
        const sink = yield* WebhookSink.make(
          webhook({
            url,
            headers: { Authorization: token, "X-Api-Key": apiKey },
            minBackoff: "5ms",
            maxBackoff: "50ms"
          })
        )
        yield* sink.deliver(events)
        expect(attempts.length).toBe(5)
        for (const attempt of attempts.filter(({ answer }) => answer !== "drop")) {
          expect(attempt.headers.authorization).toBe(token)
          expect(attempt.headers["x-api-key"]).toBe(apiKey)
          expect(attempt.headers["idempotency-key"]).toBe(attempt.key)
        }
        expect(logs.lines.filter(({ level }) => level === "WARN")).toHaveLength(2)
        expect(logs.lines.filter(({ level }) => level === "ERROR")).toHaveLength(1)
        const all = logs.lines.map(({ text }) => text).join("\n")
        expect(all).toContain("HTTP 401")
        for (const secret of [token, apiKey, "s3cr3t", "hunter2"]) expect(all).not.toContain(secret)
      }).pipe(withClient(logs))
    },
    10_000
  )
})
