/**
 * Starts `world.ts` in a child process of its own (so that the benchmark's process measures only
 * itself): it prints `{url, height}` when built, then advances one block per line on its stdin.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"

export interface WorldScale {
  readonly positions: number
  readonly stakeLinkings: number
  readonly parties: number
  readonly markets: number
}

export const spawnWorld = (scale: WorldScale): ChildProcess =>
  spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=@vega-effect/source",
      join(import.meta.dirname, "world.ts"),
      ...[scale.positions, scale.stakeLinkings, scale.parties, scale.markets].map(String)
    ],
    { stdio: ["pipe", "pipe", "inherit"] }
  )
