import { describe, expect, it } from "@effect/vitest"
import { Position } from "@vega-effect/schema"
import { Duration, Effect, Either, Fiber, TestClock } from "effect"
import { decodeBody, decoderOf, errorOf } from "../src/internal/answer.js"
import { makePacer } from "../src/internal/pacer.js"
import { Pool } from "../src/internal/pool.js"

const answer = (status: number, text: string, headers: Record<string, string> = {}) => ({
  node: "http://n1",
  path: "/api/v2/positions",
  status,
  headers,
  text
})

describe("answers", () => {
  it("maps statuses and the node's body to typed errors", () => {
    const body =
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10028,"message":"invalid pagination","inner":"pagination limit must be in range 0-5000"}]}'
    const bad = errorOf(answer(400, body), 0)
    expect(bad._tag).toBe("InvalidArgumentError")
    expect(bad.message).toBe(
      "http://n1/api/v2/positions answered 400: InvalidArgument error [10028 invalid pagination: pagination limit must be in range 0-5000]"
    )
    expect(errorOf(answer(404, "{}"), 0)._tag).toBe("NotFoundError")
    expect(errorOf(answer(503, '{"code":14,"message":"Unavailable error","details":[]}'), 0)._tag).toBe(
      "UnavailableError"
    )
    expect(errorOf(answer(408, ""), 0)._tag).toBe("UnavailableError")
    const internal = errorOf(answer(500, '{"code":13,"message":"Internal error","details":[]}'), 0)
    expect(internal._tag).toBe("InternalError")
  })

  it("reads a proxy's HTML page without choking", () => {
    const error = errorOf(answer(502, "<html><body><h1>502 Bad Gateway</h1></body></html>"), 0)
    expect(error._tag).toBe("UnavailableError")
    expect(error.message).toContain("a body that is not the node's error JSON: <html><body><h1>502 Bad Gateway</h1>")
  })

  it("knows a ban and a rate limit, and how long to wait", () => {
    const ban = errorOf(
      answer(
        403,
        '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}',
        {
          "ratelimit-retry-after": "600"
        }
      ),
      0
    )
    expect(ban._tag).toBe("BannedError")
    if (ban._tag === "BannedError") expect(Duration.toSeconds(ban.retryAfter)).toBe(600)
    const limited = errorOf(
      answer(429, '{"code":8,"message":"api request rate limit exceeded","details":[]}', { "retry-after": "2" }),
      0
    )
    expect(limited._tag === "RateLimitedError" && Duration.toMillis(limited.retryAfter!)).toBe(2000)
    const banWithoutHeader = errorOf(
      answer(
        403,
        '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}'
      ),
      0
    )
    expect(banWithoutHeader._tag === "BannedError" && Duration.toMinutes(banWithoutHeader.retryAfter)).toBe(10)
  })

  it("turns a cut body into a transport error and a wrong shape into a decode error with the path", () => {
    const decode = decoderOf(Position.ListPositionsResponse)
    const cut = decodeBody(decode, answer(200, '{"positions":{"edges":['))
    expect(Either.isLeft(cut) && cut.left._tag).toBe("TransportError")
    const wrong = decodeBody(
      decode,
      answer(200, '{"positions":{"edges":[{"node":{"marketId":"x"},"cursor":"c"}],"pageInfo":{}}}')
    )
    expect(Either.isLeft(wrong) && wrong.left._tag).toBe("DecodeError")
    if (Either.isLeft(wrong) && wrong.left._tag === "DecodeError") {
      expect(wrong.left.pathInBody).toBe("positions.edges.0.node.marketId")
      expect(wrong.left.excerpt).toContain('{"positions"')
    }
  })
})

describe("pacing", () => {
  it.effect("lets a burst through, then spaces requests at the rate", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      const fiber = yield* Effect.fork(Effect.forEach(Array.from({ length: 6 }), () => pacer.take))
      yield* TestClock.adjust("250 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("100 millis")
      yield* Fiber.join(fiber)
    })
  )

  it.effect("follows the node's Ratelimit-Remaining and pauses after a 429", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 100 })
      pacer.observe({ "ratelimit-remaining": "0" })
      const fiber = yield* Effect.fork(pacer.take)
      yield* TestClock.adjust("50 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("60 millis")
      yield* Fiber.join(fiber)
      pacer.pauseUntil(2_000)
      const paused = yield* Effect.fork(pacer.take)
      yield* TestClock.adjust("1 second")
      expect(paused.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(paused)
    })
  )
})

describe("pool", () => {
  const urls = ["http://a", "http://b", "http://c"]
  const seen = (pool: Pool, url: string, height: number, millis = 10) =>
    pool.answered(url, millis, { "x-block-height": String(height) })

  it("skips lagging and slow nodes and stays on the pinned one", () => {
    const pool = new Pool(urls, { maxLag: 5, slowFactor: 4 })
    seen(pool, "http://a", 100)
    seen(pool, "http://b", 99, 30)
    seen(pool, "http://c", 80)
    expect(pool.choose(0).node).toBe("http://a")
    expect(pool.choose(0, "http://b").node).toBe("http://b")
    seen(pool, "http://b", 101, 400)
    seen(pool, "http://b", 101, 400)
    expect(pool.choose(0, "http://b").node).toBe("http://a")
  })

  it("drops a node more than maxLag behind even where it would otherwise be preferred", () => {
    const pool = new Pool(["http://a", "http://b"], { maxLag: 5, slowFactor: 4 })
    seen(pool, "http://a", 100, 50)
    seen(pool, "http://b", 94, 10)
    // b is the pinned node of a paging run, and answers faster: only its lag of 6 rules it out
    expect(pool.choose(0, "http://b").node).toBe("http://a")
    // a failed once (its rest is over) and b never did: ranking alone would pick b
    pool.failed("http://a", 0, {})
    expect(pool.choose(100_000).node).toBe("http://a")
    // at exactly maxLag behind it is still used
    seen(pool, "http://b", 95, 10)
    expect(pool.choose(100_000).node).toBe("http://b")
  })

  it("rests failing nodes, moves to one at least as far along, and reports state", () => {
    const pool = new Pool(urls, { maxLag: 5, slowFactor: 4 })
    seen(pool, "http://a", 100)
    seen(pool, "http://b", 98)
    seen(pool, "http://c", 101)
    pool.failed("http://c", 0, { unanswered: true })
    expect(pool.choose(1, "http://c", 101).node).toBe("http://a")
    expect(pool.choose(100_000, "http://c", 101).node).toBe("http://c")
    const status = pool.status().find((n) => n.url === "http://c")!
    expect(status).toMatchObject({ height: 101, failures: 1, consecutiveFailures: 1 })
  })
})
