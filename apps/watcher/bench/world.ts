/**
 * The benchmark's world, in its own process so that the watcher's memory is measured alone:
 * builds a simulator of the given scale, prints its URL, then advances one block for every line
 * read on stdin and answers with the new height.
 */
import { Simulator } from "@vega-effect/simulator"
import { Effect, Scope } from "effect"
import { createInterface } from "node:readline"

const [positions, stakeLinkings, parties, markets] = process.argv.slice(2).map(Number)

const scope = Effect.runSync(Scope.make())
const sim = await Effect.runPromise(
  Simulator.make({
    seed: 7,
    blockInterval: "manual",
    scale: { parties, markets, positions, stakeLinkings },
    nodes: [{ port: 0 }]
  }).pipe(Scope.extend(scope))
)
console.log(JSON.stringify({ url: sim.url, height: Effect.runSync(sim.height) }))
for await (const _ of createInterface({ input: process.stdin })) {
  await Effect.runPromise(sim.advance(1))
  console.log(JSON.stringify({ height: Effect.runSync(sim.height) }))
}
