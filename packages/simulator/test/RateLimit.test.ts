import { describe, expect, it } from "@effect/vitest"
import { RateLimit as NodeLimits } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as RateLimit from "../src/RateLimit.js"
import { makeHandler } from "../src/internal/http/handler.js"
import { listen } from "../src/internal/http/listen.js"
import { request } from "./support/http.js"

const clock = () => {
  let t = 1_700_000_000_000
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

const drain = (limiter: RateLimit.RateLimiter, client: string, n: number): Array<RateLimit.Decision> =>
  Array.from({ length: n }, () => limiter.take(client))

describe("RateLimit", () => {
  it("lets a burst of 100 through, then answers 429 with the node's body", () => {
    const { now } = clock()
    const limiter = RateLimit.make({ now })
    const decisions = drain(limiter, "10.0.0.1", 100)
    expect(decisions.every((d) => d._tag === "Allowed")).toBe(true)
    expect(decisions[0].headers).toEqual({
      "Ratelimit-Limit": "20",
      "Ratelimit-Reset": "1",
      "Ratelimit-Remaining": "99",
      "Ratelimit-Request-Remote-Addr": "10.0.0.1"
    })
    expect(decisions[99].headers["Ratelimit-Remaining"]).toBe("0")
    const over = limiter.take("10.0.0.1")
    expect(over).toEqual({
      _tag: "Rejected",
      status: 429,
      body: '{"code":8,"message":"api request rate limit exceeded","details":[]}',
      headers: {
        "Ratelimit-Limit": "20",
        "Ratelimit-Reset": "1",
        "Ratelimit-Remaining": "0",
        "Ratelimit-Request-Remote-Addr": "10.0.0.1"
      }
    })
    // another client has its own bucket
    expect(limiter.take("10.0.0.2")._tag).toBe("Allowed")
  })

  it("refills at the rate, up to the burst", () => {
    const { advance, now } = clock()
    const limiter = RateLimit.make({ now })
    drain(limiter, "a", 100)
    expect(limiter.take("a")._tag).toBe("Rejected")
    advance(49)
    expect(limiter.take("a")._tag).toBe("Rejected")
    advance(1)
    // 50 ms at 20/s is one token
    expect(limiter.take("a")._tag).toBe("Allowed")
    expect(limiter.take("a")._tag).toBe("Rejected")
    advance(1000)
    const refilled = drain(limiter, "a", 21)
    expect(refilled.filter((d) => d._tag === "Allowed").length).toBe(20)
    advance(60_000)
    expect(limiter.take("a").headers["Ratelimit-Remaining"]).toBe("99")
  })

  it("bans a client that keeps requesting while limited, with Retry-After", () => {
    const { advance, now } = clock()
    const limiter = RateLimit.make({ now, rate: 20, burst: 5, banAfter: 3 })
    drain(limiter, "a", 5)
    const limited = drain(limiter, "a", 3)
    expect(limited.map((d) => (d._tag === "Rejected" ? d.status : 200))).toEqual([429, 429, 429])
    const banned = limiter.take("a")
    expect(banned._tag).toBe("Rejected")
    if (banned._tag !== "Rejected") return
    expect(banned.status).toBe(403)
    expect(banned.body).toBe(
      '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}'
    )
    expect(banned.headers["Ratelimit-Retry-After"]).toBe("600")
    expect(banned.headers["Ratelimit-Limit"]).toBe("20")
    // still banned though the bucket has refilled
    advance(299_500)
    const later = limiter.take("a")
    expect(later._tag === "Rejected" && later.status).toBe(403)
    expect(later.headers["Ratelimit-Retry-After"]).toBe("301")
    advance(300_500)
    expect(limiter.take("a")._tag).toBe("Allowed")
  })

  it("forgives 429s once a request gets through", () => {
    const { advance, now } = clock()
    const limiter = RateLimit.make({ now, burst: 1, banAfter: 2 })
    for (let round = 0; round < 5; round++) {
      expect(limiter.take("a")._tag).toBe("Allowed")
      expect(drain(limiter, "a", 2).map((d) => (d._tag === "Rejected" ? d.status : 200))).toEqual([429, 429])
      advance(50)
    }
  })

  it("takes the ban length and the defaults from the options", () => {
    const { now } = clock()
    const limiter = RateLimit.make({ now, burst: 1, banAfter: 0, banFor: Duration.seconds(90), rate: 7 })
    expect(limiter.take("a").headers["Ratelimit-Limit"]).toBe("7")
    const banned = limiter.take("a")
    expect(banned._tag === "Rejected" && banned.status).toBe(403)
    expect(banned.headers["Ratelimit-Retry-After"]).toBe("90")
  })

  it("defaults to the node's figures and texts from the schema", () => {
    const { now } = clock()
    const limiter = RateLimit.make({ now, banAfter: 1 })
    const decisions = drain(limiter, "a", NodeLimits.BURST + 2)
    const allowed = decisions.filter((d) => d._tag === "Allowed")
    expect(allowed.length).toBe(NodeLimits.BURST)
    expect(Object.keys(allowed[0].headers)).toEqual([
      NodeLimits.Headers.limit,
      NodeLimits.Headers.reset,
      NodeLimits.Headers.remaining,
      NodeLimits.Headers.remoteAddr
    ])
    expect(allowed[0].headers[NodeLimits.Headers.limit]).toBe(String(NodeLimits.RATE_PER_SECOND))
    const [limited, banned] = decisions.slice(NodeLimits.BURST)
    expect(limited._tag === "Rejected" && JSON.parse(limited.body).message).toBe(NodeLimits.RATE_LIMITED_MESSAGE)
    expect(banned._tag === "Rejected" && JSON.parse(banned.body).message).toBe(NodeLimits.BANNED_MESSAGE)
    expect(banned.headers[NodeLimits.Headers.retryAfter]).toBe(String(Duration.toSeconds(NodeLimits.BAN)))
  })

  it("counts requests from the trusted proxy against the first X-Forwarded-For address", () => {
    const limiter = RateLimit.make()
    expect(limiter.clientAddress("127.0.0.1", "203.0.113.7, 10.1.1.1")).toBe("203.0.113.7")
    expect(limiter.clientAddress("::ffff:127.0.0.1", " 203.0.113.7 ")).toBe("203.0.113.7")
    expect(limiter.clientAddress("127.0.0.1", undefined)).toBe("127.0.0.1")
    expect(limiter.clientAddress("127.0.0.1", "")).toBe("127.0.0.1")
    expect(limiter.clientAddress("198.51.100.1", "203.0.113.7")).toBe("198.51.100.1")
    expect(limiter.clientAddress("::ffff:198.51.100.1", undefined)).toBe("198.51.100.1")
    expect(RateLimit.make({ trustedProxy: "10.0.0.9" }).clientAddress("10.0.0.9", "1.2.3.4")).toBe("1.2.3.4")
  })

  it("forgets buckets idle for an hour", () => {
    const { advance, now } = clock()
    const limiter = RateLimit.make({ now })
    limiter.take("a")
    advance(30 * 60_000)
    limiter.take("b")
    expect(limiter.size()).toBe(2)
    advance(30 * 60_000)
    expect(limiter.size()).toBe(1)
    advance(30 * 60_000)
    expect(limiter.size()).toBe(0)
  })

  it.scoped("limits requests through the gateway, keyed by X-Forwarded-For from 127.0.0.1", () =>
    Effect.gen(function* () {
      const { advance, now } = clock()
      const { url } = yield* listen(
        makeHandler({
          routes: [{ method: "GET", path: "/api/v2/things", params: [], handle: () => ({ status: 200, body: "{}" }) }],
          node: null,
          block: () => ({ height: 9, timestampNanos: "1" }),
          rateLimiter: RateLimit.make({ now, burst: 2, rate: 20, banAfter: 1 })
        })
      )
      const as = (client: string, path = "/api/v2/things") =>
        Effect.promise(() => request(url, path, { headers: { "X-Forwarded-For": client } }))
      const first = yield* as("203.0.113.7")
      expect(first.status).toBe(200)
      expect(first.headers["ratelimit-limit"]).toBe("20")
      expect(first.headers["ratelimit-reset"]).toBe("1")
      expect(first.headers["ratelimit-remaining"]).toBe("1")
      expect(first.headers["ratelimit-request-remote-addr"]).toBe("203.0.113.7")
      expect(first.rawHeaders).toContain("Ratelimit-Remaining")
      expect((yield* as("203.0.113.7")).status).toBe(200)
      const limited = yield* as("203.0.113.7")
      expect(limited.status).toBe(429)
      expect(limited.text).toBe('{"code":8,"message":"api request rate limit exceeded","details":[]}')
      expect(limited.headers["x-block-height"]).toBe("9")
      expect(limited.headers["ratelimit-remaining"]).toBe("0")
      const banned = yield* as("203.0.113.7")
      expect(banned.status).toBe(403)
      expect(banned.headers["ratelimit-retry-after"]).toBe("600")
      expect(JSON.parse(banned.text).code).toBe(7)
      // routing errors never reach the limiter
      const unknown = yield* as("203.0.113.7", "/nope")
      expect(unknown.status).toBe(404)
      expect(unknown.headers["ratelimit-limit"]).toBeUndefined()
      // a different client is unaffected
      expect((yield* as("203.0.113.8")).status).toBe(200)
      advance(600_000)
      expect((yield* as("203.0.113.7")).status).toBe(200)
    })
  )
})
