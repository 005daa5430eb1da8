/**
 * How soon a change is reported, polling and in real time, against a node that enforces the real
 * rate limit (20 requests/s, burst 100) and makes a block every second, and what it costs.
 *
 * A world of 1,000 parties, 100,000 positions and 100,000 stake linkings runs in a child process;
 * the watcher runs as its own process too (as it does in production), paced to the node's limit,
 * once with `--mode poll` and once with `--mode live`, each from an empty state. After the first
 * sync, for a steady window, every event the file sink writes is timed as it lands and matched to
 * the block that made the change (positions by `updatedAt`, stake linkings by `finalizedAt`: the
 * two resources whose rows say when they changed). Printed: latency p50/p90/p99 in blocks and in
 * ms, requests per minute (the watcher's `vega_datanode_requests_total`), peak RSS of the watcher
 * as deployed (the bundle the `build` script makes, run with plain node), and the range of its
 * V8 heap in use (`nodejs_heap_size_used_bytes`, each second). Then the same
 * in real time over 1,000,000 positions.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/watcher bench:latency   (about 15 minutes)
 * Environment: BENCH_STEADY_SECONDS (default 120), BENCH_MODES (default `poll,live`), BENCH_SKIP_MILLION=1, BENCH_SKIP_100K=1,
 * BENCH_WATCHER_NODE_FLAGS (node flags for the watcher, e.g. `--max-old-space-size=160`).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 120)
const root = join(import.meta.dirname, "..")
const MEBIBYTE = 2 ** 20
/** Node flags for the watcher's process, e.g. a heap cap (`--max-old-space-size=160`). */
const WATCHER_NODE_FLAGS = (process.env.BENCH_WATCHER_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "")

interface Block {
  readonly height: number
  readonly at: number
}

/** The world process: its URL, and each block's wall-clock time and chain time as it comes. */
const startWorld = async (positions: number) => {
  const child = spawn(
    process.execPath,
    [
      ...["--import", "tsx", "--conditions=@vega-effect/source"],
      join(import.meta.dirname, "liveWorld.ts"),
      ...[positions, 100_000, 1_000, 100].map(String)
    ],
    { stdio: ["pipe", "pipe", "inherit"] }
  )
  const blocks = new Map<number, Block>()
  const heightOfMicros = new Map<number, number>()
  let url: string | undefined
  let head = 0
  const ready = new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { url?: string; height?: number; at?: number; micros?: number }
      if (message.url !== undefined) {
        url = message.url
        resolve(url)
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

/** The sum of a metric's series on the watcher's `/metrics`. */
const metricOf = async (port: number, name: string): Promise<number> => {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text())
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)
}

const requestsOf = (port: number) => metricOf(port, "vega_datanode_requests_total")

/** A process's memory figure from /proc (`VmHWM`: peak resident, `VmRSS`: resident now), in MB. */
const memoryMb = (child: ChildProcess, field: "VmHWM" | "VmRSS"): number => {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8")
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
  return match === null ? 0 : Math.round(Number(match[1]) / 1024)
}

const synced = async (port: number): Promise<boolean> =>
  fetch(`http://127.0.0.1:${port}/ready`).then(
    (r) => r.status === 200,
    () => false
  )

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

interface Run {
  readonly mode: "poll" | "live"
  readonly events: number
  readonly blocks: ReadonlyArray<number>
  readonly millis: ReadonlyArray<number>
  readonly requestsPerMinute: number
  readonly peakRss: number
  /** The highest resident size sampled during the steady window (after the first sync). */
  readonly steadyRss: number
  /** The lowest and highest V8 heap in use sampled (each second) during the steady window, MB. */
  readonly heapUsed: readonly [number, number]
  readonly syncSeconds: number
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

const runWatcher = async (world: Awaited<ReturnType<typeof startWorld>>, mode: "poll" | "live"): Promise<Run> => {
  const dir = mkdtempSync(join(tmpdir(), "watcher-latency-"))
  const file = join(dir, "events.jsonl")
  const port = await freePort()
  const started = Date.now()
  const child = spawn(
    process.execPath,
    [
      ...WATCHER_NODE_FLAGS,
      // the bundle a deployment runs: through tsx, loading the sources would add some 80 MB
      join(root, "dist", "bin.js"),
      ...["--node", world.url, "--mode", mode, "--database", join(dir, "state.db"), "--file", file],
      ...["--port", String(port)]
    ],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, VEGA_WATCHER_LOG_LEVEL: "warning" } }
  )
  while (!(await synced(port))) await new Promise((r) => setTimeout(r, 200))
  const syncSeconds = (Date.now() - started) / 1000
  const from = world.head()
  const requestsBefore = await requestsOf(port)
  const windowStart = Date.now()
  let offset = existsSync(file) ? statSync(file).size : 0
  let partial = ""
  const blocks: Array<number> = []
  const millis: Array<number> = []
  let events = 0
  let steadyRss = 0
  const heapUsed: Array<number> = []
  let heapSampledAt = 0
  while (Date.now() - windowStart < STEADY_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 20))
    steadyRss = Math.max(steadyRss, memoryMb(child, "VmRSS"))
    if (Date.now() - heapSampledAt >= 1000) {
      heapSampledAt = Date.now()
      heapUsed.push(Math.round((await metricOf(port, "nodejs_heap_size_used_bytes")) / MEBIBYTE))
    }
    if (!existsSync(file)) continue
    const size = statSync(file).size
    if (size === offset) continue
    const now = Date.now()
    const head = world.head()
    const text = partial + readFileSync(file).subarray(offset, size).toString("utf8")
    offset = size
    const lines = text.split("\n")
    partial = lines.pop() ?? ""
    for (const line of lines) {
      events++
      const micros = changeMicros(JSON.parse(line))
      const height = micros === undefined ? undefined : world.heightOfMicros.get(micros)
      if (height === undefined || height <= from) continue
      blocks.push(head - height)
      millis.push(now - world.blocks.get(height)!.at)
    }
  }
  const requestsPerMinute = ((await requestsOf(port)) - requestsBefore) / ((Date.now() - windowStart) / 60_000)
  const peakRss = memoryMb(child, "VmHWM")
  child.kill("SIGTERM")
  await new Promise((r) => child.on("close", r))
  rmSync(dir, { recursive: true, force: true })
  blocks.sort((a, b) => a - b)
  millis.sort((a, b) => a - b)
  return {
    mode,
    events,
    blocks,
    millis,
    requestsPerMinute,
    peakRss,
    steadyRss,
    heapUsed: [Math.min(...heapUsed), Math.max(...heapUsed)],
    syncSeconds
  }
}

const report = (scale: string, run: Run) => {
  const p = (xs: ReadonlyArray<number>, q: number) => percentile(xs, q)
  console.log(
    `${scale.padEnd(16)} ${run.mode.padEnd(5)} events ${String(run.events).padStart(6)}, timed ${String(run.millis.length).padStart(5)} | ` +
      `latency blocks p50 ${p(run.blocks, 50)} p90 ${p(run.blocks, 90)} p99 ${p(run.blocks, 99)} | ` +
      `ms p50 ${p(run.millis, 50)} p90 ${p(run.millis, 90)} p99 ${p(run.millis, 99)} | ` +
      `${Math.round(run.requestsPerMinute)} req/min | peak RSS ${run.peakRss} MB (steady ${run.steadyRss} MB, heap in use ${run.heapUsed[0]}–${run.heapUsed[1]} MB) | first sync ${run.syncSeconds.toFixed(1)} s`
  )
}

const bench = async (positions: number, modes: ReadonlyArray<"poll" | "live">) => {
  const world = await startWorld(positions)
  const scale = `${positions.toLocaleString("en")} positions`
  try {
    for (const mode of modes) report(scale, await runWatcher(world, mode))
  } finally {
    world.child.kill("SIGTERM")
  }
}

execFileSync(process.execPath, [join(root, "..", "..", "scripts", "bundle-app.mjs")], { cwd: root, stdio: "inherit" })
console.log(
  `steady window ${STEADY_SECONDS} s per run; watcher node flags: ${WATCHER_NODE_FLAGS.join(" ") || "none"}; node limit 20 requests/s, burst 100; a block every second`
)
const modes = (process.env.BENCH_MODES ?? "poll,live").split(",") as Array<"poll" | "live">
if (process.env.BENCH_SKIP_100K !== "1") await bench(100_000, modes)
if (process.env.BENCH_SKIP_MILLION !== "1") await bench(1_000_000, ["live"])
