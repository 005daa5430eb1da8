import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Layer, Stream } from "effect"

const clientFor = (urls: ReadonlyArray<string>, options: Partial<DataNodeClient.Options> = {}) =>
  DataNodeClient.make({ urls, backoff: { base: "20 millis", max: "400 millis" }, retries: 10, ...options }).pipe(
    Effect.provide(FetchHttpClient.layer)
  )

const keyOf = (item: { node: { partyId: string; marketId: string } }) => `${item.node.partyId}/${item.node.marketId}`

const big = { seed: 5, scale: { parties: 20_000, markets: 10, positions: 100_000 } } as const

describe("DataNodeClient under faults", () => {
  it.live(
    "reads 100,000 positions exactly through 5xx, 429, resets and latency",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({
          ...big,
          nodes: [
            {
              faults: {
                seed: 7,
                errorRate: 0.2,
                rateLimitBursts: { every: 9, length: 1 },
                resetRate: 0.05,
                latency: { fixed: 1, jitter: 25 }
              }
            },
            {}
          ]
        })
        const [faulty, clean] = sim.nodes
        const reference = yield* clientFor([clean.url])
        const expected = Chunk.toReadonlyArray(yield* Stream.runCollect(reference.positions({}, { pageSize: 5000 })))
        expect(expected.length).toBeGreaterThanOrEqual(100_000)

        const client = yield* clientFor([faulty.url])
        const got = Chunk.toReadonlyArray(yield* Stream.runCollect(client.positions({}, { pageSize: 5000 })))
        expect(got.length).toBe(expected.length)
        expect(new Set(got.map(keyOf)).size).toBe(got.length)
        expect(got.map(keyOf)).toEqual(expected.map(keyOf))
        const status = (yield* client.nodes)[0]
        expect(status.failures).toBeGreaterThan(0)
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "fails over when its node dies mid-stream, avoiding a lagging node",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ ...big, nodes: [{}, {}, { lag: 20 }] })
        yield* sim.advance(1)
        const reference = yield* clientFor([sim.nodes[1].url])
        const expected = Chunk.toReadonlyArray(yield* Stream.runCollect(reference.positions({}, { pageSize: 5000 })))

        const client = yield* clientFor(sim.urls, { pool: { maxLag: 5 } })
        let killed: string | undefined
        const got = yield* client.positions({}, { pageSize: 2000, prefetch: 0 }).pipe(
          Stream.zipWithIndex,
          Stream.tap(([, i]) =>
            i === 30_000
              ? Effect.gen(function* () {
                  // kill the node serving the run
                  const busiest = [...(yield* client.nodes)].sort((a, b) => b.requests - a.requests)[0]
                  killed = busiest.url
                  sim.nodes.find((n) => n.url === busiest.url)!.faults.configure({ resetRate: 1 })
                })
              : Effect.void
          ),
          Stream.map(([item]) => item),
          Stream.runCollect,
          Effect.map(Chunk.toReadonlyArray)
        )
        expect(got.map(keyOf)).toEqual(expected.map(keyOf))
        const nodes = yield* client.nodes
        expect(killed).not.toBe(sim.nodes[2].url)
        // the lagging node was never asked for data (only probed for its height)
        expect(nodes.find((n) => n.url === sim.nodes[2].url)!.requests).toBeLessThanOrEqual(3)
        expect(nodes.find((n) => n.url === killed)!.failures).toBeGreaterThan(0)
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "paces a 200-page read under the node's real rate limit without a ban",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ seed: 9, nodes: [{ rateLimit: true }] })
        const client = yield* clientFor(sim.urls)
        const items = yield* Stream.runCollect(client.positions({}, { pageSize: 5 }))
        expect(Chunk.size(items)).toBe(sim.world.positions.current.size)
        expect(Chunk.size(items) / 5).toBeGreaterThanOrEqual(200)
        const status = (yield* client.nodes)[0]
        expect(status.banned).toBe(false)
        expect(status.failures).toBe(0)
      }).pipe(Effect.scoped),
    60_000
  )
})

describe("DataNodeClient against a v0.75 node's quirks", () => {
  const quirky = Layer.unwrapEffect(
    Effect.map(Simulator.Simulator, (sim) => DataNodeClient.layer({ urls: sim.urls, backoff: { base: "10 millis" } }))
  ).pipe(Layer.provideMerge(Simulator.layer({ seed: 4, quirks: "v0.75" })), Layer.provide(FetchHttpClient.layer))

  it.layer(quirky)("quirks", (it) => {
    it.effect("profiles cannot page by cursor: one clear error, no retry storm", () =>
      Effect.gen(function* () {
        const client = yield* DataNodeClient.DataNodeClient
        const before = (yield* client.nodes)[0].requests
        const error = yield* Effect.flip(Stream.runCollect(client.partiesProfiles({}, { pageSize: 50 })))
        expect(error._tag).toBe("InternalError")
        expect(error.message).toContain("building cursor predicate: no field matching column name id")
        expect((yield* client.nodes)[0].requests - before).toBe(2)
        // one page without a cursor still works
        expect(
          (yield* client.listPartiesProfiles({ pagination: { first: 5000 } })).profiles.edges.length
        ).toBeGreaterThan(50)
      })
    )

    it.effect("liquidity provisions need a market or a party there", () =>
      Effect.gen(function* () {
        const client = yield* DataNodeClient.DataNodeClient
        const error = yield* Effect.flip(client.listLiquidityProvisions({}))
        expect(error._tag).toBe("InternalError")
        expect(error.message).toContain("market or party filters are required")
      })
    )

    it.effect("referral stats paging that loses rows is reported, not passed off as complete", () =>
      Effect.gen(function* () {
        const client = yield* DataNodeClient.DataNodeClient
        const error = yield* Effect.flip(Stream.runCollect(client.referralSetStats({}, { pageSize: 3 })))
        expect(error._tag).toBe("PaginationLoopError")
        const whole = yield* client.getReferralSetStats({ pagination: { first: 5000 } })
        expect(whole.stats.edges.length).toBeGreaterThan(3)
      })
    )
  })
})
