/**
 * The benchmark's network, in a process of its own so the report's process measures only itself:
 * a simulator whose history holds about 200,000 reward summaries and 1,000,000 per-epoch rows
 * (60,000 parties, five assets, 250 epochs of about 4,000 payouts each). Prints one JSON line
 * `{url, height, summaries, rows}` when it is serving, and stops when its stdin closes.
 */
import { Simulator } from "@vega-effect/simulator"
import * as Effect from "effect/Effect"

const [parties = 60_000, epochs = 250, share = 0.0513] = process.argv.slice(2).map(Number)

const program = Effect.gen(function* () {
  const sim = yield* Simulator.make({
    seed: 2026,
    blockInterval: "manual",
    scale: { parties, assets: 5, epochs },
    activity: { rewardShare: share }
  })
  let summaries = 0
  for (const byAsset of sim.world.rewards.totals.values()) summaries += byAsset.size
  const line = { url: sim.url, height: sim.world.height, summaries, rows: sim.world.rewards.rows.length }
  process.stdout.write(`${JSON.stringify(line)}\n`)
  yield* Effect.async<void>((resume) => {
    process.stdin.on("close", () => resume(Effect.void)).resume()
  })
})

Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
