import { describe, expect, it } from "@effect/vitest"
import { RateLimit as NodeLimits } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Faults from "../src/Faults.js"
import * as RateLimit from "../src/RateLimit.js"
import type { Route } from "../src/internal/route.js"
import { makeHandler } from "../src/internal/http/handler.js"
import { listen } from "../src/internal/http/listen.js"
import { request } from "./support/http.js"

const BODY = JSON.stringify({ edges: Array.from({ length: 500 }, (_, i) => ({ cursor: `c${i}`, node: { id: i } })) })

const routes: ReadonlyArray<Route<null>> = [
  { method: "GET", path: "/api/v2/things", params: [], handle: () => ({ status: 200, body: BODY }) }
]

const serveWith = (faults: Faults.Faults) =>
  listen(makeHandler({ routes, node: null, block: () => ({ height: 1, timestampNanos: "2" }), faults })).pipe(
    Effect.map((listening) => listening.url)
  )

const statuses = (url: string, n: number, path = "/api/v2/things") =>
  Effect.promise(async () => {
    const out: Array<number> = []
    for (let i = 0; i < n; i++) out.push((await request(url, path)).status)
    return out
  })

describe("Faults", () => {
  it("decides the same way for the same seed", () => {
    const options: Faults.Options = { seed: 42, latency: { fixed: 5, jitter: 20 }, errorRate: 0.3, resetRate: 0.1 }
    const a = Faults.make(options)
    const b = Faults.make(options)
    const run = (f: Faults.Faults) => Array.from({ length: 50 }, () => f.decide())
    const first = run(a)
    expect(run(b)).toEqual(first)
    expect(first.every((d) => Duration.toMillis(d.delay) >= 5 && Duration.toMillis(d.delay) < 25)).toBe(true)
    expect(new Set(first.map((d) => d.fault?._tag ?? "None"))).toEqual(new Set(["None", "Error", "Reset"]))
    const other = run(Faults.make({ ...options, seed: 43 }))
    expect(other).not.toEqual(first)
  })

  it("takes latency as any Duration input, a plain number being milliseconds", () => {
    const run = (latency: NonNullable<Faults.Options["latency"]>) => {
      const faults = Faults.make({ seed: 5, latency })
      return Array.from({ length: 20 }, () => Duration.toMillis(faults.decide().delay))
    }
    const millis = run({ fixed: 5, jitter: 20 })
    expect(run({ fixed: "5 millis", jitter: Duration.millis(20) })).toEqual(millis)
    expect(run({ fixed: Duration.micros(5000n), jitter: "0.02 seconds" })).toEqual(millis)
    expect(millis.every((d) => d >= 5 && d < 25)).toBe(true)
    expect(new Set(millis).size).toBeGreaterThan(10)
    expect(run({ fixed: "2 seconds" })).toEqual(Array.from({ length: 20 }, () => 2000))
    // no latency, no faults: nothing to wait for
    expect(Faults.make().decide()).toEqual({ delay: Duration.zero, fault: undefined })
  })

  it("rejects impossible rates", () => {
    expect(() => Faults.make({ errorRate: 1.5 })).toThrow(RangeError)
    expect(() => Faults.make({ errorRate: 0.6, truncateRate: 0.6 })).toThrow(RangeError)
  })

  it.scoped("delays answers by the fixed latency plus jitter", () =>
    Effect.gen(function* () {
      const url = yield* serveWith(Faults.make({ latency: { fixed: 120, jitter: 30 } }))
      const started = Date.now()
      const res = yield* Effect.promise(() => request(url, "/api/v2/things"))
      const elapsed = Date.now() - started
      expect(res.status).toBe(200)
      expect(elapsed).toBeGreaterThanOrEqual(115)
      expect(elapsed).toBeLessThan(1000)
      // /health is never delayed
      const healthStarted = Date.now()
      expect((yield* Effect.promise(() => request(url, "/health"))).text).toBe("ok")
      expect(Date.now() - healthStarted).toBeLessThan(100)
    })
  )

  it.scoped("answers 500 and 503 at the error rate, reproducibly", () =>
    Effect.gen(function* () {
      const options: Faults.Options = { seed: 7, errorRate: 0.5 }
      const first = yield* statuses(yield* serveWith(Faults.make(options)), 60)
      const second = yield* statuses(yield* serveWith(Faults.make(options)), 60)
      expect(second).toEqual(first)
      const count = (s: number) => first.filter((x) => x === s).length
      expect(count(500)).toBeGreaterThan(5)
      expect(count(503)).toBeGreaterThan(5)
      expect(count(200)).toBeGreaterThan(15)
      expect(count(500) + count(503) + count(200)).toBe(60)
    })
  )

  it.scoped("sends the node's error bodies, limited to the chosen statuses", () =>
    Effect.gen(function* () {
      const url = yield* serveWith(Faults.make({ errorRate: 1, errorStatuses: [503] }))
      const res = yield* Effect.promise(() => request(url, "/api/v2/things"))
      expect(res.status).toBe(503)
      expect(res.text).toBe('{"code":14,"message":"Unavailable error","details":[]}')
      expect(res.headers["content-type"]).toBe("application/json")
      const internal = yield* serveWith(Faults.make({ errorRate: 1, errorStatuses: [500] }))
      const res500 = yield* Effect.promise(() => request(internal, "/api/v2/things"))
      expect(res500.status).toBe(500)
      expect(res500.text).toBe('{"code":13,"message":"Internal error","details":[]}')
    })
  )

  it.scoped("answers bursts of consecutive 429s", () =>
    Effect.gen(function* () {
      const url = yield* serveWith(Faults.make({ rateLimitBursts: { every: 3, length: 2 } }))
      expect(yield* statuses(url, 10)).toEqual([200, 200, 200, 429, 429, 200, 200, 200, 429, 429])
      const res = yield* Effect.promise(() => request(url, "/api/v2/things"))
      expect(res.status).toBe(200)
      const burst = yield* statuses(url, 2)
      expect(burst).toEqual([200, 200])
      const limited = yield* Effect.promise(() => request(url, "/api/v2/things"))
      expect(limited.status).toBe(429)
      expect(limited.text).toBe('{"code":8,"message":"api request rate limit exceeded","details":[]}')
      expect(limited.headers["ratelimit-remaining"]).toBe("0")
      // the same refusal the node's limiter sends, by the schema's figures and texts
      expect(limited.headers["ratelimit-limit"]).toBe(String(NodeLimits.RATE_PER_SECOND))
      expect(limited.headers["ratelimit-reset"]).toBe("1")
      expect(limited.text).toBe(RateLimit.RATE_LIMITED_BODY)
      expect(JSON.parse(limited.text).message).toBe(NodeLimits.RATE_LIMITED_MESSAGE)
    })
  )

  it.scoped("resets the connection in the middle of the body", () =>
    Effect.gen(function* () {
      const url = yield* serveWith(Faults.make({ resetRate: 1 }))
      const outcome = yield* Effect.promise(async () => {
        const res = await fetch(`${url}/api/v2/things`, { headers: { "Accept-Encoding": "identity" } })
        const status = res.status
        const length = res.headers.get("content-length")
        const body = await res.text().then(
          () => "complete",
          () => "failed"
        )
        return { status, length, body }
      })
      expect(outcome).toEqual({ status: 200, length: String(Buffer.byteLength(BODY)), body: "failed" })
      // the raw client sees the status line and headers, then an aborted body
      const raw = yield* Effect.promise(() =>
        request(url, "/api/v2/things").then(
          () => "complete",
          (error: Error) => error.message
        )
      )
      expect(raw).toMatch(/aborted|ECONNRESET|socket hang up/)
      // also with gzip
      const gz = yield* Effect.promise(() =>
        fetch(`${url}/api/v2/things`).then(
          (res) => res.text().then(() => "complete"),
          () => "failed"
        )
      ).pipe(Effect.catchAllDefect(() => Effect.succeed("failed")))
      expect(gz).not.toBe("complete")
    })
  )

  it.scoped("sends complete responses whose JSON is cut short", () =>
    Effect.gen(function* () {
      const url = yield* serveWith(Faults.make({ truncateRate: 1 }))
      const res = yield* Effect.promise(() => request(url, "/api/v2/things"))
      expect(res.status).toBe(200)
      expect(res.headers["content-length"]).toBe(String(res.body.length))
      expect(res.text).toBe(BODY.slice(0, Math.floor(BODY.length / 2)))
      expect(() => JSON.parse(res.text)).toThrow(SyntaxError)
      const text = yield* Effect.promise(() => fetch(`${url}/api/v2/things`).then((r) => r.text()))
      expect(text).toBe(res.text)
      expect(() => JSON.parse(text)).toThrow(SyntaxError)
    })
  )

  it.scoped("can be switched off and on at runtime", () =>
    Effect.gen(function* () {
      const faults = Faults.make({ errorRate: 1, errorStatuses: [500] })
      const url = yield* serveWith(faults)
      expect(yield* statuses(url, 2)).toEqual([500, 500])
      faults.setEnabled(false)
      expect(faults.isEnabled()).toBe(false)
      expect(yield* statuses(url, 2)).toEqual([200, 200])
      faults.setEnabled(true)
      expect(yield* statuses(url, 1)).toEqual([500])
      faults.configure({ rateLimitBursts: { every: 0, length: 1 } })
      expect(yield* statuses(url, 2)).toEqual([429, 429])
      faults.configure({ enabled: false, errorRate: 1 })
      expect(yield* statuses(url, 1)).toEqual([200])
    })
  )
})
