import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient, NodeSocket } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient, DataNodeError, LiveStream, FailureText } from "@vega-effect/http"
import {
  Cause,
  Chunk,
  Duration,
  Effect,
  Either,
  Fiber,
  Logger,
  LogLevel,
  Option,
  Schedule,
  Stream,
  TestClock
} from "effect"
import { closedPort, clientOf } from "./playNode.js"

const NODE = "https://node-a.example"

/** The client's request to a node on which nothing listens, through the platform's `fetch` or undici. */
const refusedRead = (undici: boolean) =>
  Effect.gen(function* () {
    const url = yield* closedPort
    const client = yield* DataNodeClient.make({ urls: [url], healthInterval: "1 hour", retries: 0, rateLimit: false })
    const failed = yield* Effect.either(client.lastBlockHeight)
    if (Either.isRight(failed)) throw new Error("a closed port answered")
    return { url, error: failed.left }
  }).pipe(Effect.provide(undici ? NodeHttpClient.layerUndici : FetchHttpClient.layer))

describe("FailureText.ofError", () => {
  for (const undici of [false, true]) {
    it.scopedLive(`a closed port is a refused connection (${undici ? "undici" : "fetch"})`, () =>
      Effect.gen(function* () {
        const { error, url } = yield* refusedRead(undici)
        expect(error._tag).toBe("TransportError")
        expect(FailureText.ofError(error)).toBe(`${url} refused the connection`)
      })
    )
  }

  it.scopedLive("a live stream to a closed port: refused, the same words", () =>
    Effect.gen(function* () {
      const url = yield* closedPort
      const client = yield* clientOf([url])
      const seen = yield* client
        .observePositions({}, { reconnect: false })
        .pipe(Stream.runCollect, Effect.provide(NodeSocket.layerWebSocketConstructor))
      const last = Chunk.unsafeLast(seen)
      if (!LiveStream.isDisconnected(last)) throw new Error(last._tag)
      expect(FailureText.ofStreamEnd(last.node, last.reason)).toBe(`${url} refused the connection`)
    })
  )

  const transport = (cause: unknown) =>
    new DataNodeError.TransportError({ node: NODE, path: "/api/v2/assets", description: "Transport error", cause })

  it("names the network's cause in words, the node's answer with its status, the field that did not decode", () => {
    expect(FailureText.ofError(transport(Object.assign(new Error("getaddrinfo ENOTFOUND node-a.example"), {})))).toBe(
      `${NODE}: DNS name not found (node-a.example)`
    )
    expect(FailureText.ofError(transport({ cause: { code: "ETIMEDOUT" } }))).toBe(`${NODE} timed out while connecting`)
    expect(FailureText.ofError(transport(new Error("socket hang up")))).toBe(`${NODE}/api/v2/assets: Transport error`)
    expect(
      FailureText.ofError(
        new DataNodeError.TimeoutError({ node: NODE, path: "/api/v2/assets", timeout: Duration.seconds(10) })
      )
    ).toBe(`${NODE} did not answer /api/v2/assets within 10s`)
    expect(
      FailureText.ofError(
        new DataNodeError.RateLimitedError({
          node: NODE,
          path: "/api/v2/assets",
          status: 429,
          description: "too many requests",
          retryAfter: Duration.millis(2500)
        })
      )
    ).toBe(`${NODE} rate limited /api/v2/assets: it asks to wait 2s 500ms`)
    expect(
      FailureText.ofError(
        new DataNodeError.NotFoundError({
          node: NODE,
          path: "/api/v2/market/ab",
          status: 404,
          code: 5,
          description: "market not found",
          detail: { code: 10001, message: "market not found", inner: "no such\nmarket" }
        })
      )
    ).toBe(`${NODE} answered /api/v2/market/ab with HTTP 404: market not found (no such market)`)
    expect(
      FailureText.ofError(
        new DataNodeError.DecodeError({
          node: NODE,
          path: "/api/v2/positions",
          pathInBody: "positions.edges.3.node.openVolume",
          description: 'Expected an integer,\nactual "x"',
          excerpt: "{"
        })
      )
    ).toBe(
      `${NODE}/api/v2/positions: the answer did not decode at positions.edges.3.node.openVolume: Expected an integer, actual "x"`
    )
  })

  it("a cause: its failure, else its defect; anything else by its message", () => {
    expect(FailureText.ofCause(Cause.fail(transport({ code: "ECONNREFUSED" })))).toBe(`${NODE} refused the connection`)
    expect(FailureText.ofCause(Cause.die(new Error("boom\nat somewhere")))).toBe("unexpected: boom at somewhere")
    expect(FailureText.ofCause(Cause.interrupt("fiber" as never))).toBe("interrupted")
    expect(FailureText.nextTry(Option.some(Duration.seconds(2)))).toBe("; next try in 2s")
    expect(FailureText.nextTry(Option.none())).toBe("")
  })
})

describe("FailureText.logWarning", () => {
  it.scopedLive("one line at warning level; the stack only at debug", () =>
    Effect.gen(function* () {
      const { error, url } = yield* refusedRead(true)
      const logs: Array<{ level: string; message: string; cause: string }> = []
      const capture = Logger.make(({ cause, logLevel, message }) => {
        const text = Array.isArray(message) ? message.join(" ") : String(message)
        logs.push({ level: logLevel.label, message: text, cause: Cause.isEmpty(cause) ? "" : Cause.pretty(cause) })
      })
      yield* FailureText.logWarning("cycle failed", Cause.fail(error), Duration.seconds(2)).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
        Logger.withMinimumLogLevel(LogLevel.Debug)
      )
      const warnings = logs.filter((l) => l.level === "WARN")
      expect(warnings).toEqual([
        { level: "WARN", message: `cycle failed: ${url} refused the connection; next try in 2s`, cause: "" }
      ])
      const debug = logs.filter((l) => l.level === "DEBUG")
      expect(debug).toHaveLength(1)
      expect(debug[0]?.cause).toContain(`TransportError: ${url}/blockchain/height`)
      expect(debug[0]?.cause).toMatch(/\n\s+at /)
    })
  )
})

describe("FailureText.logRetries", () => {
  it.effect("each failure logged with the wait the schedule chose; none once it gives up", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const capture = Logger.make(({ logLevel, message }) => {
        if (logLevel.label === "WARN") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      const schedule = Schedule.exponential("100 millis").pipe(Schedule.intersect(Schedule.recurs(2)))
      const fiber = yield* Effect.fail(
        new DataNodeError.TimeoutError({ node: NODE, path: "/x", timeout: Duration.seconds(1) })
      ).pipe(
        Effect.retry(FailureText.logRetries("reading failed", schedule)),
        Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
        Effect.fork
      )
      yield* TestClock.adjust("1 second")
      yield* Fiber.await(fiber)
      const said = `reading failed: ${NODE} did not answer /x within 1s`
      expect(lines).toEqual([`${said}; next try in 100ms`, `${said}; next try in 200ms`, said])
    })
  )
})
