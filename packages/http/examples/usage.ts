/**
 * The client in four moves, against a simulator started in-process: one page, every item as a
 * stream, resuming from a checkpointed cursor, and several nodes with failover.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/usage.ts
 */
import { FetchHttpClient } from "@effect/platform"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Option, Stream } from "effect"

const program = Effect.gen(function* () {
  const sim = yield* Simulator.make({ seed: "usage", nodes: [{}, {}, { lag: 30 }] })
  const [first] = sim.urls

  // 1. One page.
  const client = yield* DataNodeClient.make({ urls: first })
  const page = yield* client.listPositions({ pagination: { first: 2 } })
  console.log("one page:", page.positions.edges.length, "positions, more:", page.positions.pageInfo.hasNextPage)

  // 2. Everything, as a stream (pages of 500, the next page fetched while this one is consumed).
  const total = yield* client.positions({}, { pageSize: 500 }).pipe(Stream.runCount)
  console.log("streamed:", total, "positions")

  // 3. Resume: remember the cursor of the last item processed, start again from it after a crash.
  const firstTen = yield* client.positions({}, { pageSize: 100 }).pipe(Stream.take(10), Stream.runCollect)
  const checkpoint = Option.getOrThrow(Chunk.last(firstTen)).cursor
  const rest = yield* client.positions({}, { pageSize: 100, from: checkpoint }).pipe(Stream.runCount)
  console.log("resumed after 10:", rest, "more")

  // 4. Several nodes: the lagging one is left alone; if a node fails, the read moves on.
  const pool = yield* DataNodeClient.make({ urls: sim.urls, pool: { maxLag: 5 } })
  sim.nodes[0].faults.configure({ errorRate: 1 })
  const fromPool = yield* pool.positions({}, { pageSize: 500 }).pipe(Stream.runCount)
  // every node answered the height probe once; the data came from the healthy, up-to-date node
  const served = (yield* pool.nodes).filter((n) => n.requests - n.failures > 1).map((n) => sim.urls.indexOf(n.url) + 1)
  console.log("with a failing node and a lagging one:", fromPool, "positions, served by node", served.join(" and "))
})

Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer)))
