/**
 * `pnpm bench`: the report over about 200,000 reward summaries and 1,000,000 per-epoch rows served
 * by a local simulator. Each step runs in a process of its own (`phase.ts`) and prints its time and
 * peak RSS; the baseline is the same reads without building anything, measured in the same run.
 *
 * Arguments (optional): parties, epochs and reward share of the simulated network.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

const node = (script: string, args: ReadonlyArray<string>, stdin: "pipe" | "ignore") =>
  spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@vega-effect/source", join(import.meta.dirname, script), ...args],
    {
      stdio: [stdin, "pipe", "inherit"]
    }
  )

const firstLine = (child: ReturnType<typeof node>): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", (line) => resolve(JSON.parse(line) as Record<string, unknown>))
    child.once("exit", (code) => reject(new Error(`${child.spawnargs.join(" ")} exited with ${code}`)))
  })

const phase = async (args: ReadonlyArray<string>) => {
  const child = node("phase.ts", args, "ignore")
  const result = await firstLine(child)
  await new Promise((resolve) => child.once("exit", resolve))
  return result as { millis: number; peakRssMb: number } & Record<string, unknown>
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "reward-report-bench-"))
  const started = performance.now()
  const world = node("world.ts", process.argv.slice(2), "pipe")
  try {
    const info = await firstLine(world)
    console.log(
      `network: ${Number(info.summaries).toLocaleString("en-US")} reward summaries, ${Number(info.rows).toLocaleString("en-US")} per-epoch rows at height ${info.height} (built in ${seconds(performance.now() - started)})`
    )
    const url = String(info.url)
    // the simulator keeps the answers it has rendered: a first, unmeasured read warms it for every step
    await phase(["baseline", url])
    const base = await phase(["baseline", url])
    console.log(
      `baseline (reads only: assets, summaries, every row, summaries again, profiles): ${seconds(base.millis)}, peak RSS ${base.peakRssMb} MB (${JSON.stringify({ summaries: base.summaries, rows: base.rows })})`
    )
    const runs: ReadonlyArray<readonly [string, string, string]> = [
      ["table", "assets", "report.txt"],
      ["csv", "epochs", "report.csv"],
      ["json", "assets", "report.json"]
    ]
    for (const [format, view, file] of runs) {
      const result = await phase(["report", url, format, view, join(dir, file)])
      console.log(
        `report --format ${format} --view ${view} --epochs: ${seconds(result.millis)} (${(result.millis / base.millis).toFixed(2)}x the baseline), peak RSS ${result.peakRssMb} MB; ${Number(result.summaries).toLocaleString("en-US")} lines, ${Number(result.rows).toLocaleString("en-US")} rows, cross-check ${result.crossCheck}, ${(Number(result.bytes) / 1e6).toFixed(1)} MB written`
      )
    }
  } finally {
    world.stdin!.end()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
