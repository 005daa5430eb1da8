import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Either, Fiber, HashMap, Layer, Logger, LogLevel, Schedule, TestClock } from "effect"
import { fakeHttp } from "./support.js"

/** A node that answers every request with `answer()`; `times()`: when (TestClock millis) each came. */
const fakeNode = (answer: () => Response) => {
  const node = fakeHttp(() => Effect.sync(answer))
  const times = () => node.sent.map((sent) => sent.at)
  return { times, layer: Layer.succeed(HttpClient.HttpClient, node.client) }
}

const unavailable = () =>
  new Response('{"code":14,"message":"unavailable","details":[]}', { status: 503, headers: { "x-block-height": "5" } })

describe("the client's retry policy", () => {
  it.scoped("follows a user-supplied Schedule: its delays and its number of retries", () =>
    Effect.gen(function* () {
      const node = fakeNode(unavailable)
      const client = yield* DataNodeClient.make({
        urls: "http://node",
        rateLimit: false,
        retry: Schedule.spaced("3 seconds").pipe(Schedule.intersect(Schedule.recurs(2)))
      }).pipe(Effect.provide(node.layer))
      const fiber = yield* Effect.fork(Effect.either(client.info))
      yield* TestClock.adjust("2999 millis")
      expect(node.times()).toEqual([0])
      yield* TestClock.adjust("1 millis")
      expect(node.times()).toEqual([0, 3000])
      yield* TestClock.adjust("1 minute")
      const outcome = yield* Fiber.join(fiber)
      expect(node.times()).toEqual([0, 3000, 6000])
      expect(Either.isLeft(outcome) && outcome.left._tag).toBe("UnavailableError")
    })
  )

  it.scoped("logs each retry at debug with the node, path, attempt and delay, and counts it", () =>
    Effect.gen(function* () {
      const node = fakeNode(unavailable)
      const logs: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
      const logger = Logger.make(({ annotations, message }) =>
        logs.push({ message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
      )
      const client = yield* DataNodeClient.make({
        urls: "http://node",
        rateLimit: false,
        retry: Schedule.spaced("2 seconds").pipe(Schedule.intersect(Schedule.recurs(2)))
      }).pipe(Effect.provide(node.layer))
      const fiber = yield* Effect.fork(
        Effect.either(client.info).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.Debug)
        )
      )
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      const retries = logs.filter((log) => String(log.message).startsWith("retrying Info after UnavailableError"))
      expect(retries.map((log) => log.annotations)).toEqual([
        { node: "http://node", path: "/api/v2/info", attempt: 1, delayMillis: 2000 },
        { node: "http://node", path: "/api/v2/info", attempt: 2, delayMillis: 2000 }
      ])
    })
  )

  it.scoped("without a schedule: 5 retries, each delay under its doubling ceiling from 200 ms", () =>
    Effect.gen(function* () {
      const node = fakeNode(unavailable)
      const client = yield* DataNodeClient.make({ urls: "http://node", rateLimit: false }).pipe(
        Effect.provide(node.layer)
      )
      const fiber = yield* Effect.fork(Effect.either(client.info))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      const times = node.times()
      expect(times).toHaveLength(6)
      const gaps = times.slice(1).map((t, i) => t - times[i])
      const ceilings = [200, 400, 800, 1600, 3200]
      gaps.forEach((gap, n) => expect(gap).toBeLessThanOrEqual(ceilings[n]))
    })
  )

  it.scoped("waits what Retry-After asks even when the schedule would retry sooner", () =>
    Effect.gen(function* () {
      let calls = 0
      const node = fakeNode(() =>
        calls++ === 0
          ? new Response('{"code":8,"message":"api request rate limit exceeded","details":[]}', {
              status: 429,
              headers: { "retry-after": "7" }
            })
          : new Response('{"timestamp":"9"}', { status: 200 })
      )
      const client = yield* DataNodeClient.make({
        urls: "http://node",
        retry: Schedule.spaced("10 millis")
      }).pipe(Effect.provide(node.layer))
      const fiber = yield* Effect.fork(client.vegaTime)
      yield* TestClock.adjust("6 seconds")
      expect(node.times()).toEqual([0])
      yield* TestClock.adjust("1 second")
      const time = yield* Fiber.join(fiber)
      expect(node.times()).toEqual([0, 7000])
      expect(time.timestamp).toBe(9n)
    })
  )

  it.scoped("a Ratelimit-Retry-After ban rests a node: the next read goes to another one", () =>
    Effect.gen(function* () {
      const nodes = fakeHttp((request) =>
        Effect.sync(() =>
          request.url.startsWith("http://a")
            ? new Response(
                '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}',
                { status: 403, headers: { "ratelimit-retry-after": "600" } }
              )
            : new Response('{"timestamp":"1"}', { status: 200, headers: { "x-block-height": "10" } })
        )
      )
      const layer = Layer.succeed(HttpClient.HttpClient, nodes.client)
      const client = yield* DataNodeClient.make({ urls: ["http://a", "http://b"], rateLimit: false }).pipe(
        Effect.provide(layer)
      )
      const probes = nodes.sent.length
      // the probes at start saw a's ban; every read goes to b for the next ten minutes
      for (let i = 0; i < 3; i++) yield* client.vegaTime
      expect(nodes.sent.slice(probes).every((sent) => sent.url.startsWith("http://b"))).toBe(true)
      const a = (yield* client.nodes).find((n) => n.url === "http://a")!
      expect(a.banned).toBe(true)
      expect(a.unavailableUntil).toBe(600_000)
    })
  )
})

describe("execute", () => {
  it.live(
    "paces POSTs like reads: 150 at once against the node's real limit, none answered 429",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ seed: 3, nodes: [{ rateLimit: true }, { rateLimit: true }] })
        const burst = (client: DataNodeClient.Service) =>
          Effect.forEach(
            Array.from({ length: 150 }),
            () =>
              Effect.map(
                client.execute(HttpClientRequest.post("/transaction/check").pipe(HttpClientRequest.bodyUnsafeJson({}))),
                (sent) => sent.status
              ),
            { concurrency: "unbounded" }
          )
        const paced = yield* DataNodeClient.make({ urls: [sim.urls[0]] })
        const statuses = yield* burst(paced)
        expect(statuses.filter((s) => s === 429)).toHaveLength(0)
        expect(new Set(statuses)).toEqual(new Set([200]))
        // the same burst unpaced, to the other node, earns 429s: the test can tell
        const unpaced = yield* DataNodeClient.make({ urls: [sim.urls[1]], rateLimit: false })
        const refused = (yield* burst(unpaced)).filter((s) => s === 429).length
        expect(refused).toBeGreaterThan(0)
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.scoped),
    30_000
  )
})

/** Nodes answering by their URL's origin (`call`: how many times it was asked before), remembering when (TestClock millis) each was asked. */
const fakeNodes = (answer: (origin: string, call: number) => Response) => {
  const originOf = (url: string) => new URL(url).origin
  const timesOf = (origin: string) => node.sent.filter((sent) => originOf(sent.url) === origin).map((sent) => sent.at)
  // the request being answered is already among those sent
  const node = fakeHttp((request) =>
    Effect.sync(() => answer(originOf(request.url), timesOf(originOf(request.url)).length - 1))
  )
  return { timesOf, layer: Layer.succeed(HttpClient.HttpClient, node.client) }
}

const RATE_LIMITED = '{"code":8,"message":"api request rate limit exceeded","details":[]}'
const BANNED = '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}'
const TIME = '{"timestamp":"9"}'

describe("the wait a node asks for", () => {
  it.scoped("a 429 with Ratelimit-Retry-After: the same node is asked again after exactly that long", () =>
    Effect.gen(function* () {
      const nodes = fakeNodes((_, call) =>
        call === 0
          ? new Response(RATE_LIMITED, { status: 429, headers: { "ratelimit-retry-after": "3" } })
          : new Response(TIME, { status: 200 })
      )
      const client = yield* DataNodeClient.make({ urls: "http://a", retry: Schedule.spaced("10 millis") }).pipe(
        Effect.provide(nodes.layer)
      )
      const fiber = yield* Effect.fork(client.vegaTime)
      yield* TestClock.adjust("2999 millis")
      expect(nodes.timesOf("http://a")).toEqual([0])
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).timestamp).toBe(9n)
      expect(nodes.timesOf("http://a")).toEqual([0, 3000])
    })
  )

  it.scoped("a 429 without a header: one second, the client's own fallback", () =>
    Effect.gen(function* () {
      const nodes = fakeNodes((_, call) =>
        call === 0 ? new Response(RATE_LIMITED, { status: 429 }) : new Response(TIME, { status: 200 })
      )
      const client = yield* DataNodeClient.make({ urls: "http://a", retry: Schedule.spaced("10 millis") }).pipe(
        Effect.provide(nodes.layer)
      )
      const fiber = yield* Effect.fork(client.vegaTime)
      yield* TestClock.adjust("999 millis")
      expect(nodes.timesOf("http://a")).toEqual([0])
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(nodes.timesOf("http://a")).toEqual([0, 1000])
    })
  )

  it.scoped("a 429's Retry-After holds back every request to that node, its health probes included", () =>
    Effect.gen(function* () {
      // a's first answer (the probe at start) asks for 3 s; probes then go every 500 ms
      const nodes = fakeNodes((origin, call) =>
        origin === "http://a" && call === 0
          ? new Response(RATE_LIMITED, { status: 429, headers: { "retry-after": "3" } })
          : new Response("{}", { status: 200, headers: { "x-block-height": "10" } })
      )
      yield* DataNodeClient.make({ urls: ["http://a", "http://b"], healthInterval: "500 millis" }).pipe(
        Effect.provide(nodes.layer)
      )
      yield* TestClock.adjust("2999 millis")
      expect(nodes.timesOf("http://a")).toEqual([0])
      // the round of probes at 500 ms reached b; its probe of a waits in a's pacer
      expect(nodes.timesOf("http://b")).toEqual([0, 500])
      yield* TestClock.adjust("1 millis")
      expect(nodes.timesOf("http://a")).toEqual([0, 3000])
    })
  )

  it.scoped("a 403 ban with Ratelimit-Retry-After: the node is not asked again before it ends, and is after", () =>
    Effect.gen(function* () {
      // a bans us for 3 s on its first answer (the probe at start); b keeps failing, so the read
      // would go back to a as soon as the pool lets it
      const nodes = fakeNodes((origin, call) =>
        origin === "http://b"
          ? new Response('{"code":14,"message":"unavailable","details":[]}', { status: 503 })
          : call === 0
            ? new Response(BANNED, { status: 403, headers: { "ratelimit-retry-after": "3" } })
            : new Response(TIME, { status: 200 })
      )
      const client = yield* DataNodeClient.make({
        urls: ["http://a", "http://b"],
        rateLimit: false,
        healthInterval: "1 hour",
        retry: Schedule.spaced("10 millis")
      }).pipe(Effect.provide(nodes.layer))
      const fiber = yield* Effect.fork(client.vegaTime)
      yield* TestClock.adjust("2999 millis")
      expect(nodes.timesOf("http://a")).toEqual([0])
      expect(nodes.timesOf("http://b").length).toBeGreaterThan(2)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).timestamp).toBe(9n)
      expect(nodes.timesOf("http://a")).toEqual([0, 3000])
    })
  )
})
