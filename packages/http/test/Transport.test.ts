import { describe, expect, it } from "@effect/vitest"
import { DataNodeApi, GatewayError, Position, RateLimit } from "@vega-effect/schema"
import { Duration, Either } from "effect"
import { asksToWait, decodeBody, decoderOf, EXCERPT, errorOf, excerpt } from "../src/internal/answer.js"
import { DEFAULTS } from "../src/internal/defaults.js"
import { Pool, SLOW_MARGIN_MILLIS } from "../src/internal/pool.js"
import * as RetryPolicy from "../src/RetryPolicy.js"

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
      // the first issue alone, not the whole tree of the parse error
      expect(wrong.left.description).not.toContain("\n")
      expect(wrong.left.description).toMatch(/actual "x"$/)
    }
  })

  it("says how much of a cut body came", () => {
    const text = '{"positions":{"edges":['
    const cut = decodeBody(decoderOf(Position.ListPositionsResponse), answer(200, text))
    expect(Either.isLeft(cut) && cut.left.message).toBe(
      `http://n1/api/v2/positions: the body is not complete JSON (${text.length} characters received)`
    )
  })

  it("quotes at most EXCERPT characters of a body", () => {
    expect(excerpt("x".repeat(EXCERPT))).toBe("x".repeat(EXCERPT))
    expect(excerpt("x".repeat(EXCERPT + 1))).toBe(`${"x".repeat(EXCERPT)}…`)
  })

  it("asks to wait on a 429, and on a 403 only with Ratelimit-Retry-After", () => {
    const banFor = { [RateLimit.Headers.retryAfter.toLowerCase()]: "600" }
    expect(asksToWait(429, {})).toBe(true)
    expect(asksToWait(403, banFor)).toBe(true)
    expect(asksToWait(403, {})).toBe(false)
    expect(asksToWait(403, { "retry-after": "600" })).toBe(false)
    expect(asksToWait(503, banFor)).toBe(false)
    expect(asksToWait(200, {})).toBe(false)
  })

  it("keeps the body's code and says when the body was empty", () => {
    const unavailable = errorOf(answer(504, '{"code":14,"message":"Unavailable error","details":[]}'), 0)
    expect(unavailable._tag).toBe("UnavailableError")
    expect("code" in unavailable && unavailable.code).toBe(GatewayError.GrpcCode.Unavailable)
    // no field the answer did not give: a body without a Vega detail gives no detail
    expect("detail" in unavailable).toBe(false)
    const empty = errorOf(answer(502, ""), 0)
    expect(empty.message).toBe("http://n1/api/v2/positions answered 502: an empty body")
    expect("code" in empty && empty.code).toBe(false)
  })

  it("takes a ban's length from its header, and only a 403 for a ban", () => {
    const ban = errorOf(
      answer(403, '{"code":7,"message":"banned","details":[]}', {
        [RateLimit.Headers.retryAfter.toLowerCase()]: "120"
      }),
      0
    )
    expect(ban._tag === "BannedError" && Duration.toSeconds(ban.retryAfter)).toBe(120)
    const permissionDenied = '{"code":7,"message":"permission denied","details":[]}'
    expect(errorOf(answer(500, permissionDenied), 0)._tag).toBe("InternalError")
    expect(errorOf(answer(403, '{"code":16,"message":"unauthenticated","details":[]}'), 0)._tag).toBe(
      "InvalidArgumentError"
    )
    expect(errorOf(answer(403, ""), 0)._tag).toBe("InvalidArgumentError")
    const limited = errorOf(answer(429, ""), 0)
    expect(limited._tag).toBe("RateLimitedError")
    expect("retryAfter" in limited).toBe(false)
  })
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

  const options = { maxLag: 5, slowFactor: 4 }
  const statusOf = (pool: Pool, url: string) => pool.status().find((n) => n.url === url)!

  it("with every node resting, chooses none and says when the first is back", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    pool.failed("http://a", 0, { restMillis: 500 })
    pool.failed("http://b", 0, { restMillis: 300 })
    expect(pool.choose(100)).toEqual({ node: undefined, waitUntil: 300 })
    expect(pool.choose(300)).toEqual({ node: "http://b", waitUntil: 300 })
  })

  it("rests a failing node for the backoff ceiling of its failures in a row, never shortening a longer rest", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    const rest = (failuresBefore: number) => Duration.toMillis(RetryPolicy.ceiling(failuresBefore, DEFAULTS.rest))
    pool.failed("http://a", 1_000, {})
    const first = statusOf(pool, "http://a").unavailableUntil
    expect(first).toBe(1_000 + rest(0))
    pool.failed("http://a", first, {})
    expect(statusOf(pool, "http://a").unavailableUntil).toBe(first + rest(1))
    pool.failed("http://b", 0, { restMillis: 600_000 })
    pool.failed("http://b", 1_000, {})
    expect(statusOf(pool, "http://b").unavailableUntil).toBe(600_000)
  })

  it("never rests the only node", () => {
    const pool = new Pool(["http://a"], options)
    pool.failed("http://a", 1_000, {})
    pool.failed("http://a", 1_000, {})
    expect(pool.choose(1_000).node).toBe("http://a")
  })

  it("counts requests, failures and failures in a row, and keeps a ban until a success", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    expect(pool.status().map((n) => n.banned)).toEqual([false, false])
    pool.answered("http://a", 10, {})
    pool.answered("http://a", 10, {})
    // a request that got no answer still counts as sent; a failure read from an answer does not
    // count it again
    pool.failed("http://a", 0, { unanswered: true })
    expect(statusOf(pool, "http://a").requests).toBe(3)
    pool.failed("http://a", 0, {})
    expect(statusOf(pool, "http://a")).toMatchObject({
      requests: 3,
      failures: 2,
      consecutiveFailures: 2,
      banned: false
    })
    pool.failed("http://a", 0, { banned: true })
    expect(statusOf(pool, "http://a").banned).toBe(true)
    pool.succeeded("http://a")
    expect(statusOf(pool, "http://a")).toMatchObject({ failures: 3, consecutiveFailures: 0, banned: false })
  })

  it("keeps a node's last height and block timestamp when an answer comes without them", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    pool.answered("http://a", 10, {
      [DataNodeApi.BlockHeaders.height.toLowerCase()]: "100",
      [DataNodeApi.BlockHeaders.timestamp.toLowerCase()]: "1700000000000000000"
    })
    pool.answered("http://a", 10, {})
    expect(statusOf(pool, "http://a")).toMatchObject({ height: 100, blockTimestamp: "1700000000000000000" })
    expect(pool.height("http://a")).toBe(100)
  })

  it("smooths answer times: a slow answer moves a node's time toward it, by less than half", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    pool.answered("http://a", 100, {})
    expect(statusOf(pool, "http://a").latencyMillis).toBe(100)
    pool.answered("http://a", 200, {})
    const smoothed = statusOf(pool, "http://a").latencyMillis!
    expect(smoothed).toBeGreaterThan(100)
    expect(smoothed).toBeLessThan(150)
  })

  it("still uses a node at slowFactor times the fastest plus the margin, not a millisecond slower", () => {
    const atLimit = 10 * options.slowFactor + SLOW_MARGIN_MILLIS
    for (const [millis, chosen] of [
      [atLimit, "http://b"],
      [atLimit + 1, "http://a"]
    ] as const) {
      const pool = new Pool(["http://a", "http://b"], options)
      seen(pool, "http://a", 100, 10)
      seen(pool, "http://b", 100, millis)
      expect(pool.choose(0, "http://b").node).toBe(chosen)
    }
  })

  it("uses a node not heard from yet, whatever the height asked, but prefers one that reported its height", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    seen(pool, "http://a", 100)
    expect(pool.choose(0).node).toBe("http://a")
    expect(pool.choose(0, "http://b").node).toBe("http://b")
    expect(pool.choose(0, "http://b", 100).node).toBe("http://b")
  })

  it("keeps to minHeight: rules out nodes below it, not those at it", () => {
    const pool = new Pool(["http://a", "http://b"], options)
    seen(pool, "http://a", 100)
    seen(pool, "http://b", 103)
    // b failed once (its rest is over): the ranking alone prefers a
    pool.failed("http://b", 0, { restMillis: 0 })
    expect(pool.choose(0).node).toBe("http://a")
    expect(pool.choose(0, undefined, 100).node).toBe("http://a")
    expect(pool.choose(0, undefined, 103).node).toBe("http://b")
  })

  it("with no node far enough along, takes the freshest wherever it is listed", () => {
    const pool = new Pool(urls, options)
    seen(pool, "http://a", 98)
    seen(pool, "http://b", 99)
    seen(pool, "http://c", 100)
    expect(pool.choose(0, undefined, 101).node).toBe("http://c")
  })

  it("counts a node that has reported no height below one at height 0, in the ranking and the fallback", () => {
    for (const [zero, none] of [
      ["http://a", "http://b"],
      ["http://b", "http://a"]
    ]) {
      const pool = new Pool(["http://a", "http://b"], options)
      seen(pool, zero, 0)
      // answers without a height, too slow to be used but for the fallback
      pool.answered(none, 1_000, {})
      expect(pool.choose(0, undefined, 1).node).toBe(zero)
      const unheard = new Pool(["http://a", "http://b"], options)
      seen(unheard, zero, 0)
      expect(unheard.choose(0).node).toBe(zero)
    }
  })

  it("ranks by failures in a row, then height, then speed", () => {
    // each time the node listed second wins on the first count where the two differ and loses on
    // the counts after it
    const chosen = (
      a: { height: number; millis: number; failures: number },
      b: { height: number; millis: number; failures: number }
    ) => {
      const pool = new Pool(["http://a", "http://b"], options)
      for (const [url, node] of [
        ["http://a", a],
        ["http://b", b]
      ] as const) {
        seen(pool, url, node.height, node.millis)
        // failures whose rests are over
        for (let i = 0; i < node.failures; i++) pool.failed(url, 0, { restMillis: 0 })
      }
      return pool.choose(0).node
    }
    expect(chosen({ height: 101, millis: 10, failures: 1 }, { height: 100, millis: 30, failures: 0 })).toBe("http://b")
    expect(chosen({ height: 100, millis: 10, failures: 0 }, { height: 101, millis: 30, failures: 0 })).toBe("http://b")
    expect(chosen({ height: 101, millis: 30, failures: 0 }, { height: 101, millis: 10, failures: 0 })).toBe("http://b")
  })
})
