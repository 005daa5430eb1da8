import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { createServer } from "node:net"
import { describe, expect } from "vitest"
import * as Operations from "../src/Operations.js"
import { Readiness } from "../src/Readiness.js"

const host = "127.0.0.1"

const get = (port: number, path: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(`http://${host}:${port}${path}`, init)
    return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() }
  })

/** A port nothing listens on right now. */
const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, host, () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

describe("Operations", () => {
  it.scopedLive("answers /health, and /ready 503 until synced with a cycle, then 200", () =>
    Effect.gen(function* () {
      const { port } = yield* Operations.serve({ host, port: 0, staleAfter: "1 minute" })
      const readiness = yield* Readiness

      const health = yield* get(port, "/health")
      expect(health.status).toBe(200)
      expect(JSON.parse(health.body)).toEqual({ status: "ok" })

      const before = yield* get(port, "/ready")
      expect(before.status).toBe(503)
      expect(JSON.parse(before.body)).toEqual({ status: "syncing" })

      // a cycle alone is not enough: the first full sync must be done
      const at = new Date()
      yield* readiness.markCycle(1200, at)
      expect((yield* get(port, "/ready")).status).toBe(503)

      yield* readiness.markSynced
      const ready = yield* get(port, "/ready")
      expect(ready.status).toBe(200)
      expect(ready.contentType).toBe("application/json")
      expect(JSON.parse(ready.body)).toEqual({ status: "ready", height: 1200, lastCycleAt: at.toISOString() })

      expect((yield* get(port, "/health")).status).toBe(200)
    }).pipe(Effect.provide(Readiness.layer))
  )

  it.scopedLive("says stale (503) when the last good cycle is older than the limit, ready again after a new one", () =>
    Effect.gen(function* () {
      const { port } = yield* Operations.serve({ host, port: 0, staleAfter: "200 millis" })
      const readiness = yield* Readiness
      const old = new Date(Date.now() - 5_000)
      yield* readiness.markSynced
      yield* readiness.markCycle(7, old)
      const stale = yield* get(port, "/ready")
      expect(stale.status).toBe(503)
      expect(JSON.parse(stale.body)).toEqual({ status: "stale", height: 7, lastCycleAt: old.toISOString() })

      yield* readiness.markCycle(8, new Date())
      const ready = yield* get(port, "/ready")
      expect(ready.status).toBe(200)
      expect(JSON.parse(ready.body)).toMatchObject({ status: "ready", height: 8 })

      // and stale again once time passes without a cycle
      yield* Effect.sleep("300 millis")
      expect(JSON.parse((yield* get(port, "/ready")).body)).toMatchObject({ status: "stale", height: 8 })
    }).pipe(Effect.provide(Readiness.layer))
  )

  it.scopedLive("serves the metric registry on /metrics in the Prometheus format", () =>
    Effect.gen(function* () {
      const { port } = yield* Operations.serve({ host, port: 0, staleAfter: "1 minute" })
      const counter = Metric.counter("ops_test_scrapes_total", { description: "a counter the test increments" })
      yield* Metric.incrementBy(Metric.tagged(counter, "outcome", "ok"), 5)
      const metrics = yield* get(port, "/metrics")
      expect(metrics.status).toBe(200)
      expect(metrics.contentType).toBe("text/plain; version=0.0.4; charset=utf-8")
      expect(metrics.body).toContain(
        '# HELP ops_test_scrapes_total a counter the test increments\n# TYPE ops_test_scrapes_total counter\nops_test_scrapes_total{outcome="ok"} 5\n'
      )
      // the process's memory, sampled as the metrics are read
      const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(metrics.body)?.[1])
      const rss = gauge("process_resident_memory_bytes")
      const mebibytes = (n: number) => n * 1024 * 1024
      expect(rss).toBeGreaterThan(mebibytes(10))
      expect(Math.abs(rss - process.memoryUsage().rss)).toBeLessThan(mebibytes(200))
      expect(gauge("nodejs_heap_size_used_bytes")).toBeGreaterThan(0)
      expect(gauge("nodejs_heap_size_used_bytes")).toBeLessThanOrEqual(gauge("nodejs_heap_size_total_bytes"))
    }).pipe(Effect.provide(Readiness.layer))
  )

  it.scopedLive("answers 404 to any other path or method", () =>
    Effect.gen(function* () {
      const { port } = yield* Operations.serve({ host, port: 0, staleAfter: "1 minute" })
      expect((yield* get(port, "/")).status).toBe(404)
      expect((yield* get(port, "/healthz")).status).toBe(404)
      expect((yield* get(port, "/health", { method: "POST" })).status).toBe(404)
    }).pipe(Effect.provide(Readiness.layer))
  )

  it.live("serves through the layer for the layer's lifetime, and stops with it", () =>
    Effect.gen(function* () {
      const port = yield* freePort
      const layer = Operations.layer({ host, port, staleAfter: "1 minute" }).pipe(Layer.provide(Readiness.layer))
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* Layer.build(layer)
          expect((yield* get(port, "/health")).status).toBe(200)
        })
      )
      const after = yield* Effect.exit(get(port, "/health").pipe(Effect.timeout("2 seconds"), Effect.orDie))
      expect(Exit.isFailure(after)).toBe(true)
    })
  )

  it("is disabled by port 0 in the layer", () => {
    expect(Operations.layer({ host, port: 0, staleAfter: "1 minute" })).toBe(Layer.empty)
  })

  it.scopedLive("fails with a message naming the address when the port is taken", () =>
    Effect.gen(function* () {
      const { port } = yield* Operations.serve({ host, port: 0, staleAfter: "1 minute" })
      const error = yield* Effect.flip(Effect.scoped(Operations.serve({ host, port, staleAfter: "1 minute" })))
      expect(error._tag).toBe("OperationsError")
      expect(error.message).toContain(`${host}:${port}`)
      expect(error.message).toContain("EADDRINUSE")
    }).pipe(Effect.provide(Readiness.layer))
  )

  it("assesses readiness from the state and the clock", () => {
    const at = new Date("2024-01-01T00:00:00.000Z")
    const state = { synced: true, height: Option.some(10), lastCycleAt: Option.some(at) }
    expect(Operations.assess({ ...state, synced: false }, at.getTime(), "1 second")).toEqual({ status: "syncing" })
    expect(Operations.assess(state, at.getTime() + 1_000, "1 second")).toEqual({
      status: "ready",
      height: 10,
      lastCycleAt: "2024-01-01T00:00:00.000Z"
    })
    expect(Operations.assess(state, at.getTime() + 1_001, "1 second")).toMatchObject({ status: "stale" })
    expect(Operations.assess(state, at.getTime() + 20_000, Operations.staleAfterFor("2 seconds")).status).toBe("ready")
    expect(Operations.assess(state, at.getTime() + 20_001, Operations.staleAfterFor("2 seconds")).status).toBe("stale")
  })
})
