import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient, RequestBudget } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Fiber, Layer, Stream } from "effect"

const withClient = <A, E>(
  f: (client: DataNodeClient.Service) => Effect.Effect<A, E, never>,
  rateLimit: DataNodeClient.Options["rateLimit"] = false
) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ nodes: [{}] })
    const client = yield* DataNodeClient.make({ urls: sim.urls, rateLimit, retries: 0 })
    return yield* f(client)
  }).pipe(Effect.scoped, Effect.provide(Layer.mergeAll(NodeHttpClient.layerUndici)))

describe("RequestBudget", () => {
  it.live("paces the requests made within it, parallel reads and paged streams included", () =>
    withClient((client) =>
      Effect.gen(function* () {
        const budget = RequestBudget.make({ perSecond: 20, burst: 1 })

        const started = Date.now()
        yield* Effect.forEach(Array.from({ length: 10 }), () => client.lastBlockHeight, { concurrency: 5 }).pipe(
          RequestBudget.within(budget)
        )
        // 10 requests at 20/s with a burst of 1: the last waits 9 × 50 ms
        expect(Date.now() - started).toBeGreaterThanOrEqual(430)

        const pages = Date.now()
        const items = yield* client
          .partiesProfiles({}, { pageSize: 10 })
          .pipe(Stream.take(60), RequestBudget.withinStream(budget), Stream.runCollect)
        expect(Chunk.size(items)).toBe(60)
        // at least 6 pages, one every 50 ms
        expect(Date.now() - pages).toBeGreaterThanOrEqual(230)
      })
    )
  )

  it.live("gives way at the node's pacer: a request outside every budget goes before the budgeted ones waiting", () =>
    withClient(
      (client) =>
        Effect.gen(function* () {
          const budget = RequestBudget.make({ perSecond: 1_000 })
          const answered: Array<string> = []
          const request = (name: string) =>
            Effect.tap(client.lastBlockHeight, () => Effect.sync(() => answered.push(name)))
          // six background requests, one every 100 ms at the pacer's rate, then an urgent one
          const background = yield* Effect.fork(
            Effect.forEach(["b1", "b2", "b3", "b4", "b5", "b6"], request, { concurrency: "unbounded" }).pipe(
              RequestBudget.within(budget)
            )
          )
          yield* Effect.sleep("30 millis")
          yield* request("urgent")
          yield* Fiber.join(background)
          // it waited for the one already on its way at most, not for the five in line
          expect(answered.indexOf("urgent")).toBeLessThanOrEqual(2)
        }),
      { rate: 10, burst: 1 }
    )
  )

  it("refuses a rate that is not above 0", () => {
    expect(() => RequestBudget.make({ perSecond: 0 })).toThrow(/above 0/)
  })
})
