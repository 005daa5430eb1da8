/**
 * The benchmark's network, in a process of its own so the report's process measures only itself:
 * a simulator with `parties` parties, `assets` assets and `epochs` epochs of history, about
 * `share` of the parties paid per asset and epoch (the defaults: some 200,000 reward summaries and
 * 1,000,000 per-epoch rows). `quirks` = `v0.75` makes it page rewards as the v0.75 node does, and
 * `seed` chooses the world. Prints one JSON line `{url, height, summaries, rows}` when it is
 * serving, and stops when its stdin closes.
 *
 *   world.ts [parties] [epochs] [share] [assets] [quirks] [seed]
 */
import { Simulator } from "@vega-effect/simulator"
import * as Effect from "effect/Effect"

const [parties = "60000", epochs = "250", share = "0.0513", assets = "5", quirks = "", seed = "2026"] =
  process.argv.slice(2)

const program = Effect.gen(function* () {
  const sim = yield* Simulator.make({
    seed: Number(seed),
    blockInterval: "manual",
    scale: { parties: Number(parties), assets: Number(assets), epochs: Number(epochs) },
    activity: { rewardShare: Number(share) },
    ...(quirks === "v0.75" ? { quirks: "v0.75" as const } : {})
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
