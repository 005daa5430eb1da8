import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient, RequestBudget } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Layer, Stream } from "effect"

const withClient = <A, E>(f: (client: DataNodeClient.Service) => Effect.Effect<A, E, never>) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ nodes: [{}] })
    const client = yield* DataNodeClient.make({ urls: sim.urls, rateLimit: false, retries: 0 })
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

  it("refuses a rate that is not above 0", () => {
    expect(() => RequestBudget.make({ perSecond: 0 })).toThrow(/above 0/)
  })
})
