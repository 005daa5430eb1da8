/**
 * Start a simulated network in-process, read it like a client would, and move the chain on.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/quickstart.ts
 */
import { Effect } from "effect"
import { Simulator } from "@vega-effect/simulator"

const program = Effect.gen(function* () {
  // one world, two nodes: the second trails the chain by 3 blocks
  const sim = yield* Simulator.make({ seed: "demo", nodes: [{}, { lag: 3 }] })
  const [leader, behind] = sim.nodes

  const get = (url: string, path: string) =>
    Effect.promise(() =>
      fetch(url + path).then(async (r) => ({
        status: r.status,
        height: r.headers.get("x-block-height"),
        body: (await r.json()) as any
      }))
    )

  const positions = yield* get(leader.url, "/api/v2/positions?pagination.first=2&pagination.newestFirst=false")
  console.log(
    "first positions",
    positions.body.positions.edges.map(
      (e: any) => `${e.node.partyId.slice(0, 8)} ${e.node.openVolume} ${e.node.positionStatus}`
    )
  )

  yield* sim.advance(5)
  console.log("leader at", (yield* get(leader.url, "/blockchain/height")).height)
  console.log("lagging node at", (yield* get(behind.url, "/blockchain/height")).height)

  const invalid = yield* get(leader.url, "/api/v2/positions?pagination.first=0")
  console.log("invalid page size", invalid.status, invalid.body.details[0].inner)
})

Effect.runPromise(Effect.scoped(program))
