/**
 * How soon a change is reported, from the watcher's start on, against a node that enforces the
 * real rate limit (20 requests/s, burst 100) and makes a block every second, and what it costs.
 *
 * A world of 100,000 positions and 100,000 stake linkings runs in a child process, at 1,000 and at
 * 10,000 parties (stake is read party by party: its first read takes about a minute at 1,000
 * parties, ten at 10,000). The watcher runs as it is published (`dist/bin.js` with plain `node`,
 * no V8 flag: it bounds its heap itself), from an empty state, in real time, paced to the node's
 * limit. Every event the file sink writes, from the start, is timed as it lands and matched to the
 * block that made the change (positions by `updatedAt`, stake linkings by `finalizedAt`: the two
 * resources whose rows say when they changed). Printed, and written as a table to
 * `bench/latency.md`: latency p50/p90/p99 in blocks over the whole run and over the changes of its
 * first minute, the time to the first event delivered, requests per minute, and the peak RSS of
 * the command (both its processes, `VmHWM`).
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/watcher bench:latency   (about 8 minutes)
 * Environment: BENCH_RUN_SECONDS (default 150), BENCH_MODES (default `live`; `live,poll` adds
 * polling), BENCH_PARTIES (default `1000,10000`), BENCH_MILLION=1 (adds a live run over 1,000,000
 * positions, for memory), BENCH_WATCHER_NODE_FLAGS (node flags for the watcher),
 * BENCH_WATCHER_LOG_LEVEL (default `warning`; `debug` traces the watcher's reads and settling on
 * stderr).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

const RUN_SECONDS = Number(process.env.BENCH_RUN_SECONDS ?? 150)
/** The changes made this long after the start are the "first minute". */
const FIRST_SECONDS = 60
const root = join(import.meta.dirname, "..")
/** Node flags for the watcher's process. */
const WATCHER_NODE_FLAGS = (process.env.BENCH_WATCHER_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "")

interface Block {
  readonly height: number
  readonly at: number
}

interface Scale {
  readonly positions: number
  readonly parties: number
}

/** The world process: its URL, and each block's wall-clock time and chain time as it comes. */
const startWorld = async ({ parties, positions }: Scale) => {
  const child = spawn(
    process.execPath,
    [
      ...["--import", "tsx", "--conditions=@vega-effect/source"],
      join(import.meta.dirname, "liveWorld.ts"),
      ...[positions, 100_000, parties, 100].map(String)
    ],
    { stdio: ["pipe", "pipe", "inherit"] }
  )
  const blocks = new Map<number, Block>()
  const heightOfMicros = new Map<number, number>()
  let head = 0
  const ready = new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { url?: string; height?: number; at?: number; micros?: number }
      if (message.url !== undefined) {
        resolve(message.url)
      } else if (message.height !== undefined) {
        blocks.set(message.height, { height: message.height, at: message.at! })
        heightOfMicros.set(message.micros!, message.height)
        head = Math.max(head, message.height)
      }
    })
  })
  return { child, url: await ready, blocks, heightOfMicros, head: () => head }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** The sum of a metric's series on the watcher's `/metrics` (0 while it does not answer). */
const metricOf = async (port: number, name: string): Promise<number> => {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => ""
  )
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)
}

/** A process's peak resident size (`VmHWM`), MB; 0 once it is gone. */
const peakMb = (pid: number): number => {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? 0 : Math.round(Number(match[1]) / 1024)
  } catch {
    return 0
  }
}

/** The pids of a process's children. */
const childrenOf = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

interface Run {
  readonly label: string
  readonly events: number
  /** Blocks between each timed change and the head when its event landed, over the run. */
  readonly blocks: ReadonlyArray<number>
  /** The same, for the changes made in the first minute after the start. */
  readonly firstMinute: ReadonlyArray<number>
  /** From the start to the first event in the file, s; undefined when none came. */
  readonly firstEventSeconds: number | undefined
  readonly requestsPerMinute: number
  /** Peak RSS of the command's processes together, MB (and of the one running the watcher). */
  readonly peakRss: number
  readonly watcherRss: number
}

/** When the change an event reports happened: the chain time its row carries, in µs. */
const changeMicros = (event: {
  readonly kind: string
  readonly after: { readonly [k: string]: unknown } | null
}): number | undefined => {
  const after = event.after
  if (after === null) return undefined
  if (event.kind.startsWith("position.")) return Number(BigInt(after.updatedAt as string) / 1000n)
  if (event.kind === "stake.status_changed") return Number(BigInt(after.finalizedAt as string) / 1000n)
  return undefined
}

const runWatcher = async (
  world: Awaited<ReturnType<typeof startWorld>>,
  mode: "poll" | "live",
  label: string
): Promise<Run> => {
  const dir = mkdtempSync(join(tmpdir(), "watcher-latency-"))
  const file = join(dir, "events.jsonl")
  const port = await freePort()
  const started = Date.now()
  const from = world.head()
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...WATCHER_NODE_FLAGS,
      // the bundle a deployment runs: through tsx, loading the sources would add some 80 MB
      join(root, "dist", "bin.js"),
      ...["--node", world.url, "--mode", mode, "--database", join(dir, "state.db"), "--file", file],
      ...["--port", String(port)]
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, VEGA_WATCHER_LOG_LEVEL: process.env.BENCH_WATCHER_LOG_LEVEL ?? "warning" }
    }
  )
  const pids = new Set<number>([child.pid!])
  const peaks = new Map<number, number>()
  let offset = 0
  let partial = ""
  const blocks: Array<number> = []
  const firstMinute: Array<number> = []
  let events = 0
  let firstEventSeconds: number | undefined
  while (Date.now() - started < RUN_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 20))
    for (const pid of childrenOf(child.pid!)) pids.add(pid)
    for (const pid of pids) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakMb(pid)))
    if (!existsSync(file)) continue
    const size = statSync(file).size
    if (size === offset) continue
    const now = Date.now()
    firstEventSeconds ??= (now - started) / 1000
    const head = world.head()
    const text = partial + readFileSync(file).subarray(offset, size).toString("utf8")
    offset = size
    const lines = text.split("\n")
    partial = lines.pop() ?? ""
    for (const line of lines) {
      events++
      const micros = changeMicros(JSON.parse(line))
      const height = micros === undefined ? undefined : world.heightOfMicros.get(micros)
      // a change made before the start is the state the first sync records
      if (height === undefined || height <= from) continue
      blocks.push(head - height)
      if (world.blocks.get(height)!.at - started < FIRST_SECONDS * 1000) firstMinute.push(head - height)
    }
  }
  const requestsPerMinute = (await metricOf(port, "vega_datanode_requests_total")) / ((Date.now() - started) / 60_000)
  for (const pid of pids) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakMb(pid)))
  child.kill("SIGTERM")
  await new Promise((r) => child.on("close", r))
  rmSync(dir, { recursive: true, force: true })
  blocks.sort((a, b) => a - b)
  firstMinute.sort((a, b) => a - b)
  const watcherPid = [...pids].at(-1)!
  return {
    label: `${mode}, ${label}`,
    events,
    blocks,
    firstMinute,
    firstEventSeconds,
    requestsPerMinute,
    peakRss: [...peaks.values()].reduce((sum, mb) => sum + mb, 0),
    watcherRss: peaks.get(watcherPid) ?? 0
  }
}

const triple = (xs: ReadonlyArray<number>) =>
  xs.length === 0 ? "none timed" : [50, 90, 99].map((p) => percentile(xs, p)).join(" / ")

const report = (run: Run) =>
  console.log(
    `${run.label.padEnd(36)} events ${String(run.events).padStart(6)}, timed ${String(run.blocks.length).padStart(5)} | ` +
      `latency blocks p50/p90/p99 ${triple(run.blocks)} (first minute ${triple(run.firstMinute)}, ${run.firstMinute.length} timed) | ` +
      `first event ${run.firstEventSeconds?.toFixed(1) ?? "never"} s | ${Math.round(run.requestsPerMinute)} req/min | ` +
      `peak RSS ${run.peakRss} MB (watcher process ${run.watcherRss} MB)`
  )

const table = (runs: ReadonlyArray<Run>): string => {
  const header = [
    "Run",
    "Latency p50 / p90 / p99 (blocks)",
    "First minute p50 / p90 / p99",
    "First event",
    "Requests/min",
    "Peak RSS (both processes)"
  ]
  const rows = runs.map((run) => [
    run.label,
    triple(run.blocks),
    `${triple(run.firstMinute)} (${run.firstMinute.length} changes)`,
    run.firstEventSeconds === undefined ? "never" : `${run.firstEventSeconds.toFixed(1)} s`,
    Math.round(run.requestsPerMinute).toLocaleString("en"),
    `${run.peakRss} MB`
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n")
}

execFileSync(process.execPath, [join(root, "..", "..", "scripts", "bundle-app.mjs")], { cwd: root, stdio: "inherit" })
const settings = `${RUN_SECONDS} s per run from the start; watcher node flags: ${WATCHER_NODE_FLAGS.join(" ") || "none"}; node limit 20 requests/s, burst 100; a block every second`
console.log(settings)
const modes = (process.env.BENCH_MODES ?? "live").split(",") as Array<"poll" | "live">
const scales: Array<Scale> = (process.env.BENCH_PARTIES ?? "1000,10000")
  .split(",")
  .map((parties) => ({ positions: 100_000, parties: Number(parties) }))
const runs: Array<Run> = []
const measure = async (scale: Scale, runModes: ReadonlyArray<"poll" | "live">) => {
  const world = await startWorld(scale)
  const label = `${scale.positions.toLocaleString("en")} positions, ${scale.parties.toLocaleString("en")} parties`
  try {
    for (const mode of runModes) {
      const run = await runWatcher(world, mode, label)
      report(run)
      runs.push(run)
    }
  } finally {
    world.child.kill("SIGTERM")
  }
}
for (const scale of scales) await measure(scale, modes)
if (process.env.BENCH_MILLION === "1") await measure({ positions: 1_000_000, parties: 1_000 }, ["live"])
writeFileSync(
  join(import.meta.dirname, "latency.md"),
  `<!-- written by bench/latency.ts: ${settings} -->\n\n${table(runs)}\n`
)
console.log(`table written to bench/latency.md`)
