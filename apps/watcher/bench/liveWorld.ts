/**
 * The latency benchmark's world, in its own process: a simulator of the given scale making a block
 * every second and enforcing the node's rate limit (20 requests/s, burst 100). It prints its URL,
 * then one line per block: the height, the block's chain time (ns) and the wall-clock time it was
 * made (ms), so that the benchmark can tell when each change happened.
 */
import { Simulator } from "@vega-effect/simulator"
import { Effect, Scope } from "effect"

const [positions, stakeLinkings, parties, markets] = process.argv.slice(2).map(Number)

const scope = Effect.runSync(Scope.make())
const sim = await Effect.runPromise(
  Simulator.make({
    seed: 7,
    blockInterval: "1 second",
    scale: { parties, markets, positions, stakeLinkings },
    nodes: [{ port: 0, rateLimit: true }]
  }).pipe(Scope.extend(scope))
)
console.log(JSON.stringify({ url: sim.url }))
let last = Effect.runSync(sim.height)
setInterval(() => {
  const height = sim.nodes[0].height()
  if (height === last) return
  const at = Date.now()
  for (let h = last + 1; h <= height; h++) {
    // chain time in µs, as positions carry it (`updatedAt` in ns, µs precision)
    console.log(JSON.stringify({ height: h, at, micros: sim.world.chain.blockTime(h) }))
  }
  last = height
}, 5).unref()
process.stdin.resume()
process.stdin.on("end", () => process.exit(0))
