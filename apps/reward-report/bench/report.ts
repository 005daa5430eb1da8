/**
 * `pnpm bench`: the report against a local simulator at several sizes of history, every format,
 * each run in a process of its own (`phase.ts`, bundled as the command is installed) that prints
 * its time, CPU (its reading thread's too, and how long that waited for a core), peak RSS and
 * requests. The baseline is the same reads without building anything, measured in the same run
 * against the same network.
 *
 *   pnpm bench [--rows 100000,1000000,5000000] [--paced] [--interleave] [--repeat n]
 *
 * `--rows`: per-epoch rows of the networks measured (60,000 parties, five assets, ~4,000 payouts
 * an epoch; the epochs follow from the rows; `--rows ""` for none). `--paced`: also a run at the node's rate limit
 * against a network with epochs too big for one answer, on a correct node and on one with the
 * v0.75 reward-cursor quirk (the quirky one takes about nine minutes). `--interleave`: on a machine
 * whose load changes, the baseline again before every step and after the last, each step's ratio
 * taken against the mean of the baselines either side of it (the steps take about twice as long).
 * `--repeat n`: every step n times (rounds of all steps); the table gives each step's median time
 * and ratio with their range, and its highest peak.
 */
import { execFileSync, spawn } from "node:child_process"
import { cpus, tmpdir } from "node:os"
import { mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { parseArgs } from "node:util"
import { processCpuMillis } from "./procCpu.js"

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "100000,1000000,5000000" },
    paced: { type: "boolean", default: false },
    interleave: { type: "boolean", default: false },
    repeat: { type: "string", default: "1" }
  }
})
const repeat = Math.max(1, Number(values.repeat))
const sizes = values.rows
  .split(",")
  .filter((size) => size !== "")
  .map(Number)
const here = import.meta.dirname
const dir = mkdtempSync(join(tmpdir(), "reward-report-bench-"))
const phaseBundle = join(dir, "phase.mjs")

// the simulator keeps every answer it has rendered: gigabytes for millions of rows
const worldFlags = ["--max-old-space-size=16384", "--import", "tsx", "--conditions=@vega-effect/source"]

const world = (args: ReadonlyArray<string>) =>
  spawn(process.execPath, [...worldFlags, join(here, "world.ts"), ...args], { stdio: ["pipe", "pipe", "inherit"] })

const firstLine = (child: ReturnType<typeof spawn>): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    // the result is the first JSON line; a warning the step logs may come before it
    lines.on("line", (line) => {
      if (line.startsWith("{")) resolve(JSON.parse(line) as Record<string, unknown>)
    })
    child.once("exit", (code) => reject(new Error(`${child.spawnargs.join(" ")} exited with ${code}`)))
  })

interface Measured {
  readonly millis: number
  /** User and system time of the step's process, all its threads. */
  readonly cpuMillis: number
  /** Of its thread that makes the reads (the others only lay out, collect garbage or write), where it can be read. */
  readonly readingCpuMillis: number | undefined
  /** How long that thread waited for a core while it had work (the cores are shared with the node). */
  readonly readingCoreWaitMillis: number | undefined
  /** Of the network's process meanwhile, where it can be read. */
  readonly nodeCpuMillis: number | undefined
  readonly peakRssMb: number
  readonly requests: number
  readonly [field: string]: unknown
}

/** A step's own process, and the CPU the network's process used meanwhile (`nodeCpuMillis`). */
const phase = async (args: ReadonlyArray<string>, network?: ReturnType<typeof spawn>): Promise<Measured> => {
  const nodeBefore = processCpuMillis(network?.pid)
  const child = spawn(process.execPath, [phaseBundle, ...args], { stdio: ["ignore", "pipe", "inherit"] })
  const result = await firstLine(child)
  await new Promise((resolve) => child.once("exit", resolve))
  const nodeAfter = processCpuMillis(network?.pid)
  const nodeCpuMillis = nodeBefore === undefined || nodeAfter === undefined ? undefined : nodeAfter - nodeBefore
  return { ...(result as unknown as Measured), nodeCpuMillis }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const count = (n: unknown) => Number(n).toLocaleString("en-US")

/** Every format once, with the view that lists the most (and the assets view of the table). */
const runs: ReadonlyArray<readonly [format: string, view: string]> = [
  ["table", "assets"],
  ["table", "epochs"],
  ["markdown", "epochs"],
  ["csv", "epochs"],
  ["json", "assets"],
  ["html", "epochs"],
  ["koinly", "assets"],
  ["cointracking", "assets"]
]

const measureSize = async (rows: number) => {
  const epochs = String(Math.max(1, Math.round(rows / 4_000)))
  const started = performance.now()
  const network = world(["60000", epochs])
  try {
    const info = await firstLine(network)
    console.log(
      `\n## ${count(info.rows)} per-epoch rows (${count(info.summaries)} reward summaries, ${epochs} epochs; built in ${seconds(performance.now() - started)})\n`
    )
    const url = String(info.url)
    // the simulator keeps the answers it has rendered: a first, unmeasured read warms it for every step
    await phase(["baseline", url])
    const baselines = [await phase(["baseline", url], network)]
    // each step's runs, each with the baselines either side of it (the one before them all when not interleaved)
    const steps = runs.map(([format, view]) => ({
      name: `${format}, ${view} view`,
      runs: [] as Array<{ readonly measured: Measured; readonly around: number }>
    }))
    for (let round = 0; round < repeat; round++) {
      for (const [i, [format, view]] of runs.entries()) {
        const measured = await phase(["report", url, format, view, join(dir, `report.${format}`)], network)
        const before = baselines[baselines.length - 1].millis
        if (values.interleave) baselines.push(await phase(["baseline", url], network))
        const after = baselines[baselines.length - 1].millis
        steps[i].runs.push({ measured, around: values.interleave ? (before + after) / 2 : baselines[0].millis })
      }
    }
    const times = baselines.map((b) => b.millis)
    const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b) / values.length
    const median = (values: ReadonlyArray<number>) => {
      const sorted = [...values].sort((a, b) => a - b)
      return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2
    }
    const baseCpu = mean(baselines.map((b) => b.cpuMillis))
    /** The median of the values there are (none where they cannot be read). */
    const medianOf = (values: ReadonlyArray<number | undefined>) => {
      const known = values.filter((n): n is number => n !== undefined)
      return known.length === 0 ? undefined : median(known)
    }
    const baseReading = medianOf(baselines.map((b) => b.readingCpuMillis))
    const baseWait = medianOf(baselines.map((b) => b.readingCoreWaitMillis))
    const base = baselines[0]
    const cores = cpus().length
    /**
     * The shortest a step can take on this machine however its work were spread over threads: all
     * the CPU it and the network's process used, over every core (undefined where the network's
     * CPU cannot be read).
     */
    const bound = (m: Measured) => (m.nodeCpuMillis === undefined ? undefined : (m.cpuMillis + m.nodeCpuMillis) / cores)
    const optional = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? "" : seconds(ms))
    const range = (values: ReadonlyArray<number>, text: (n: number) => string) =>
      values.length === 1
        ? text(values[0])
        : `${text(median(values))} (${text(Math.min(...values))}–${text(Math.max(...values))})`
    console.log(
      `| run | time | × baseline | CPU | × baseline | reading thread CPU | it waited for a core | node CPU | bound (${cores} cores) | peak RSS | requests | written |`
    )
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    const baseTime =
      times.length === 1
        ? seconds(base.millis)
        : `${seconds(mean(times))} (${times.length} runs, ${seconds(Math.min(...times))} to ${seconds(Math.max(...times))})`
    console.log(
      `| reads only (baseline) | ${baseTime} | 1.00 | ${seconds(baseCpu)} | 1.00 | ${optional(baseReading)} | ${optional(baseWait)} | ${optional(base.nodeCpuMillis)} | ${optional(bound(base))} | ${Math.max(...baselines.map((b) => b.peakRssMb))} MB | ${base.requests} | |`
    )
    for (const { name, runs: measured } of steps) {
      const last = measured[measured.length - 1].measured
      const ratio = (x: number) => x.toFixed(2)
      const medianOfRuns = (of: (m: Measured) => number | undefined) =>
        optional(medianOf(measured.map((r) => of(r.measured))))
      console.log(
        `| ${name} | ${range(
          measured.map((r) => r.measured.millis),
          seconds
        )} | ${range(
          measured.map((r) => r.measured.millis / r.around),
          ratio
        )} | ${seconds(median(measured.map((r) => r.measured.cpuMillis)))} | ${ratio(median(measured.map((r) => r.measured.cpuMillis)) / baseCpu)} | ${medianOfRuns((m) => m.readingCpuMillis)} | ${medianOfRuns((m) => m.readingCoreWaitMillis)} | ${medianOfRuns((m) => m.nodeCpuMillis)} | ${medianOfRuns(bound)} | ${Math.max(...measured.map((r) => r.measured.peakRssMb))} MB | ${last.requests} | ${(Number(last.bytes) / 1e6).toFixed(1)} MB (cross-check ${last.crossCheck}) |`
      )
    }
  } finally {
    network.stdin!.end()
  }
}

/** At the node's rate limit, epochs too big for one answer: a correct node, then a quirky one. */
const measurePaced = async () => {
  console.log(`\n## paced (20 requests/s), 5,200 parties, 3 assets, 2 epochs with more than 5,000 payouts\n`)
  console.log("| node | time | peak RSS | requests | rows |")
  console.log("|---|---:|---:|---:|---:|")
  for (const quirks of ["", "v0.75"]) {
    const network = world(["5200", "2", "1", "3", quirks, "11"])
    try {
      const url = String((await firstLine(network)).url)
      const result = await phase(["report", url, "csv", "epochs", join(dir, "paced.csv"), "paced"])
      const node = quirks === "" ? "correct" : "v0.75 reward-cursor quirk"
      console.log(
        `| ${node} | ${seconds(result.millis)} | ${result.peakRssMb} MB | ${count(result.requests)} | ${count(result.rows)} |`
      )
    } finally {
      network.stdin!.end()
    }
  }
}

const main = async () => {
  execFileSync(
    process.execPath,
    [join(here, "../../../scripts/bundle-app.mjs"), "--entry", join(here, "phase.ts"), "--outfile", phaseBundle],
    { cwd: join(here, ".."), stdio: "ignore" }
  )
  try {
    for (const rows of sizes) await measureSize(rows)
    if (values.paced) await measurePaced()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
