import { FetchHttpClient } from "@effect/platform"
import { it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Layer, Option, Stream } from "effect"
import { expect } from "vitest"
import { DataNodeClient, ReadTracking } from "../src/index.js"

const setup = (nodes: ReadonlyArray<{ lag?: number }>) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ seed: 3, nodes })
    yield* sim.advance(12)
    const client = yield* DataNodeClient.make({ urls: sim.urls, rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    return { sim, client }
  })

it.scopedLive("reports the node, height and block time of every answer, also from a prefetching stream", () =>
  Effect.gen(function* () {
    const { client, sim } = yield* setup([{}])
    const [count, reads] = yield* ReadTracking.track(client.positions({}, { pageSize: 100 }).pipe(Stream.runCount))
    expect(count).toBeGreaterThan(100)
    expect(reads.answers).toBe(Math.ceil(count / 100) + (count % 100 === 0 ? 1 : 0))
    expect(reads.nodes).toEqual([sim.url])
    expect(reads.lowest?.height).toBe(yield* sim.height)
    expect(reads.highest?.height).toBe(yield* sim.height)
    const time = ReadTracking.blockTime(reads.lowest!)
    expect(Option.isSome(time) && time.value.getUTCFullYear()).toBe(2024)
  })
)

it.scopedLive("nested tracks both count; reads outside a track are not recorded", () =>
  Effect.gen(function* () {
    const { client } = yield* setup([{}])
    yield* client.info
    const [[, [, inner]], outer] = yield* ReadTracking.track(
      Effect.zip(client.info, ReadTracking.track(client.statistics))
    )
    expect(inner.answers).toBe(1)
    expect(outer.answers).toBe(2)
  })
)

it.scopedLive("answers from a lagging node show as the lowest height, with that node", () =>
  Effect.gen(function* () {
    const { sim } = yield* setup([{}, { lag: 3 }])
    const clientOf = (url: string) =>
      DataNodeClient.make({ urls: url, rateLimit: false }).pipe(Effect.provide(FetchHttpClient.layer))
    const fresh = yield* clientOf(sim.urls[0])
    const lagging = yield* clientOf(sim.urls[1])
    const [, reads] = yield* ReadTracking.track(Effect.all([fresh.info, lagging.info], { concurrency: 2 }))
    const height = yield* sim.height
    expect(reads.highest).toMatchObject({ node: sim.urls[0], height })
    expect(reads.lowest).toMatchObject({ node: sim.urls[1], height: height - 3 })
    expect([...reads.nodes].sort()).toEqual([...sim.urls].sort())
  })
)

it.effect("no answers: nothing to report", () =>
  Effect.gen(function* () {
    const [value, reads] = yield* ReadTracking.track(Effect.succeed(1))
    expect(value).toBe(1)
    expect(reads).toEqual({ answers: 0, lowest: undefined, highest: undefined, nodes: [] })
  }).pipe(Effect.provide(Layer.empty))
)
