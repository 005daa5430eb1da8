/**
 * Three watchers sharing one PostgreSQL state, against one watcher alone, over a simulator with
 * 1,000,000 positions: how long the whole set of positions slices takes, for the first sync and
 * for a cycle after a single block, and how much memory each watcher process needs.
 *
 * The watchers run as real processes (the CLI, bundled with esbuild as the tests do), watching
 * positions only (16 slices) and delivering to a file. The simulator runs in a child process of its
 * own (`world.ts`), built afresh for each scenario with the same seed, so both scenarios see the same
 * world and neither inherits the other's warm caches. Everything is measured from outside, as an
 * operator would see it, by polling the shared state: a positions slice is at a height when its
 * checkpoint in `watcher_slice` is.
 *
 * Scenario 1: one watcher on a fresh database; scenario 2: three watchers, started together, on
 * another. For each: the first sync (from the start until every positions slice is at the world's
 * height), then single blocks (advance the world one block, time until every slice is at the new
 * height), each watcher's peak RSS (`VmHWM`, read just before stopping it), its CPU time, and how
 * the slices were spread (`watcher_lease`). The watchers' logs are kept in build/bench-shared/.
 *
 * Needs PostgreSQL (VEGA_WATCHER_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432/test),
 * where a database is created per scenario and dropped at its end; without it, says so and exits.
 * Reads /proc, so Linux only.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/watcher bench:shared
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Duration, Effect, Either, Layer, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { shardCounts } from "../src/Slice.js"
import { reachable } from "../test/support/net.js"
import { bundleTo } from "../test/support/bundles.js"
import { spawnWorld } from "./worldProcess.js"

const POSITIONS = 1_000_000
const STAKE = 0
/** Positions are dealt party by party over every market: 1,000 markets × 1,000 of these parties. */
const PARTIES = 2_000
const MARKETS = 1_000
const CYCLES = 5
const INTERVAL = "100ms"
const POLL_MILLIS = 25
const SLICES = shardCounts.positions
const FIRST_SYNC_TIMEOUT = Duration.toMillis("60 minutes")
const CYCLE_TIMEOUT = Duration.toMillis("5 minutes")
/** How often a long first sync reports how far it is. */
const PROGRESS_EVERY = Duration.toMillis("60 seconds")
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS = 100

const postgres = process.env.VEGA_WATCHER_TEST_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/test"
const root = join(import.meta.dirname, "..")
const out = join(root, "build", "bench-shared")

const count = (n: number) => n.toLocaleString("en-US")
const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`
const megabytes = (mb: number | undefined) => (mb === undefined ? "?" : `${Math.round(mb)} MB`)
const median = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

// ---------------------------------------------------------------------------------------------
// child processes

interface Child {
  readonly child: ChildProcess
  readonly pid: number
  readonly exited: Promise<void>
  /** Set once it has exited: how. */
  gone?: string
}

const track = (child: ChildProcess): Child => {
  const tracked: Child = {
    child,
    pid: child.pid!,
    exited: new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        tracked.gone = signal === null ? `exit code ${code}` : `signal ${signal}`
        resolve()
      })
    )
  }
  return tracked
}

/** Stops a child: SIGTERM (the watcher leaves cleanly), SIGKILL if it is still there after 15 s. */
const stop = (p: Child) =>
  Effect.promise(async () => {
    if (p.gone !== undefined) return
    p.child.kill("SIGTERM")
    await Promise.race([p.exited, sleep(15_000)])
    if (p.gone === undefined) p.child.kill("SIGKILL")
    await p.exited
  })

/** A live process's memory (MB) and CPU time (ms, user + system), from /proc; undefined once gone. */
const usageOf = (pid: number) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024
    // the fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const cpuMillis = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS
    return { rss: kb("VmRSS"), peak: kb("VmHWM"), cpuMillis }
  } catch {
    return undefined
  }
}

/** CPU time the whole machine has spent busy (every process, PostgreSQL's included), in ms, from /proc/stat. */
const machineCpuMillis = () => {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS
}

/** Where the CPU went between two points: the watchers, the simulator, and everything else. */
const cpuMeter = (watchers: ReadonlyArray<Child>, world: Child) => {
  const read = () => ({
    watchers: watchers.map((w) => usageOf(w.pid)?.cpuMillis ?? 0),
    world: usageOf(world.pid)?.cpuMillis ?? 0,
    machine: machineCpuMillis(),
    at: performance.now()
  })
  const start = read()
  return () => {
    const end = read()
    const ours = end.watchers.map((c, i) => c - start.watchers[i])
    const world = end.world - start.world
    const total = ours.reduce((a, b) => a + b, 0)
    const other = Math.max(0, end.machine - start.machine - total - world)
    const available = (end.at - start.at) * availableParallelism()
    return `watcher(s) ${ours.map(seconds).join(" + ")}, simulator ${seconds(world)}, everything else (PostgreSQL, other processes) ${seconds(other)}, of ${seconds(available)} available`
  }
}

/** The watcher bundled as the tests bundle it, into a file of our own (tests may run meanwhile). */
const bundle = (): string => bundleTo(join(out, "watcher.mjs"))

/**
 * The simulator in its child process, stopped with the scope: how long it took to build (process
 * start included) and its memory once built; `advance` moves it one block and gives the new height.
 */
const startWorld = Effect.gen(function* () {
  const started = performance.now()
  const world = yield* Effect.acquireRelease(
    Effect.sync(() =>
      track(spawnWorld({ positions: POSITIONS, stakeLinkings: STAKE, parties: PARTIES, markets: MARKETS }))
    ),
    stop
  )
  const answers = createInterface({ input: world.child.stdout! })[Symbol.asyncIterator]()
  const next = Effect.tryPromise(async () => {
    const line = await answers.next()
    if (line.done === true) throw new Error(`the world process ended (${world.gone ?? "stdout closed"})`)
    return JSON.parse(line.value as string) as { readonly url?: string; readonly height: number }
  })
  const ready = yield* next
  const buildMillis = performance.now() - started
  return {
    world,
    url: ready.url!,
    height: ready.height,
    buildMillis,
    built: usageOf(world.pid),
    advance: Effect.sync(() => world.child.stdin!.write("\n")).pipe(
      Effect.zipRight(next),
      Effect.map((answer) => answer.height)
    )
  }
})

/** A watcher process on the config file, its stderr into `log`, stopped with the scope. */
const startWatcher = (bundleFile: string, configFile: string, log: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const stderr = openSync(log, "w")
      try {
        return track(
          spawn(process.execPath, [bundleFile, "--config", configFile], { stdio: ["ignore", "ignore", stderr] })
        )
      } finally {
        closeSync(stderr)
      }
    }),
    stop
  )

// ---------------------------------------------------------------------------------------------
// the shared state, read from outside

/** A fresh database on the server for the scope, dropped at its end (whatever still uses it); its URL. */
const freshDatabase = (admin: SqlClient.SqlClient, name: string) =>
  Effect.acquireRelease(
    admin`CREATE DATABASE ${admin(name)}`.pipe(
      Effect.map(() => {
        const url = new URL(postgres)
        url.pathname = `/${name}`
        return url.toString()
      })
    ),
    () => admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.ignore)
  )

const clientOf = (url: string) =>
  Effect.map(Layer.build(PgClient.layer({ url: Redacted.make(url) })), (context) =>
    Context.get(context, SqlClient.SqlClient)
  )

/** How many positions slices have a checkpoint at `height` or above (0 while the tables are not there yet). */
const slicesAt = (sql: SqlClient.SqlClient, height: number) =>
  sql<{ at: number | string }>`SELECT COUNT(*) AS at FROM watcher_slice
    WHERE slice LIKE 'positions:%' AND height >= ${height}`.pipe(
    Effect.map(([row]) => Number(row?.at ?? 0)),
    Effect.orElseSucceed(() => 0)
  )

/** Each positions slice's holder and height, for when one does not get there. */
const slicesTable = (sql: SqlClient.SqlClient) =>
  sql<{ slice: string; owner: string | null; height: number | string | null }>`SELECT l.slice, l.owner, s.height
    FROM watcher_lease l LEFT JOIN watcher_slice s ON s.slice = l.slice ORDER BY l.slice`.pipe(
    Effect.map((rows) => rows.map((r) => `${r.slice} at ${r.height ?? "-"} held by ${r.owner ?? "nobody"}`)),
    Effect.orElseSucceed(() => ["(no lease table)"])
  )

/** The slices each watcher holds, by its place in `watchers` (the lease owner is `host:pid:random`). */
const spreadOf = (sql: SqlClient.SqlClient, watchers: ReadonlyArray<Child>) =>
  sql<{ owner: string | null; positions: number | string; others: number | string; takeovers: number | string }>`
    SELECT owner, COUNT(*) FILTER (WHERE slice LIKE 'positions:%') AS positions,
      COUNT(*) FILTER (WHERE slice NOT LIKE 'positions:%') AS others, SUM(takeovers) AS takeovers
    FROM watcher_lease GROUP BY owner ORDER BY owner`.pipe(
    Effect.map((rows) => {
      const nameOf = (owner: string | null) => {
        if (owner === null) return "free"
        const pid = Number(/:(\d+):[^:]*$/.exec(owner)?.[1])
        const index = watchers.findIndex((w) => w.pid === pid)
        return index < 0 ? owner : `watcher ${index + 1}`
      }
      const takeovers = rows.reduce((sum, r) => sum + Number(r.takeovers), 0)
      const idle = watchers
        .map((_, i) => `watcher ${i + 1}`)
        .filter((name) => !rows.some((r) => nameOf(r.owner) === name))
        .map((name) => ({ name, positions: 0, others: 0 }))
      const held = rows
        .map((r) => ({ name: nameOf(r.owner), positions: Number(r.positions), others: Number(r.others) }))
        .concat(idle)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((r) => `${r.name} ${r.positions}${r.others > 0 ? ` + ${r.others} sink` : ""}`)
      return `${held.join(", ")} (positions slices per holder; takeovers ${takeovers})`
    })
  )

/** Who holds each slice, as one string: it changes when a slice changes hands. */
const holdersOf = (sql: SqlClient.SqlClient) =>
  sql<{ slice: string; owner: string | null }>`SELECT slice, owner FROM watcher_lease ORDER BY slice`.pipe(
    Effect.map((rows) => rows.map((r) => `${r.slice}=${r.owner}`).join(" "))
  )

/**
 * Waits until every positions slice is at `height`, counting from `since`; fails at once if a
 * watcher exits, and with each slice's holder and height after `timeout`.
 */
const untilAll = (
  sql: SqlClient.SqlClient,
  watchers: ReadonlyArray<Child>,
  height: number,
  since: number,
  timeout: number,
  onProgress?: (elapsed: number, at: number) => Effect.Effect<void>
) =>
  Effect.gen(function* () {
    let first: number | undefined
    let reported = 0
    for (;;) {
      const dead = watchers.findIndex((w) => w.gone !== undefined)
      if (dead >= 0) {
        return yield* Effect.fail(new Error(`watcher ${dead + 1} stopped (${watchers[dead].gone}): see ${out}`))
      }
      const at = yield* slicesAt(sql, height)
      const elapsed = performance.now() - since
      if (at > 0) first ??= elapsed
      if (at === SLICES) return { millis: elapsed, first: first ?? elapsed }
      if (elapsed > timeout) {
        const table = yield* slicesTable(sql)
        return yield* Effect.fail(
          new Error(
            `${SLICES - at} positions slice(s) not at height ${height} after ${seconds(elapsed)}:\n  ${table.join("\n  ")}`
          )
        )
      }
      if (onProgress !== undefined && elapsed - reported >= PROGRESS_EVERY) {
        reported = elapsed
        yield* onProgress(elapsed, at)
      }
      yield* Effect.sleep(POLL_MILLIS)
    }
  })

/**
 * Waits (up to 30 s) until the sink has delivered every event committed; whether it has, and how
 * many events were committed.
 */
const deliveredAll = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const deadline = performance.now() + 30_000
    for (;;) {
      const [row] = yield* sql<{ cursor: number | string | null; last: number | string | null }>`SELECT
        (SELECT MIN(seq) FROM watcher_cursor) AS cursor, (SELECT next_seq - 1 FROM watcher_sequence) AS last`
      const done = Number(row?.cursor) >= Number(row?.last)
      if (done || performance.now() > deadline) return { done, events: Number(row?.last) }
      yield* Effect.sleep("100 millis")
    }
  })

/** The warnings and errors a watcher logged (the pretty logger writes the level in capitals). */
const complaintsIn = (log: string): ReadonlyArray<string> =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => /\b(WARN|ERROR|FATAL)\b/.test(line))

// ---------------------------------------------------------------------------------------------
// a scenario

interface Outcome {
  readonly firstSync: number
  readonly cycles: ReadonlyArray<number>
  readonly peaks: ReadonlyArray<number | undefined>
}

const scenario = (admin: SqlClient.SqlClient, bundleFile: string, n: number) =>
  Effect.gen(function* () {
    console.log(`\n${n === 1 ? "one watcher" : `${n} watchers sharing one state`}`)
    const world = yield* startWorld
    console.log(
      `  world: built in ${seconds(world.buildMillis)} (process start included), at height ${world.height}, rss ${megabytes(world.built?.rss)} (peak ${megabytes(world.built?.peak)})`
    )
    const database = yield* freshDatabase(admin, `watcher_bench_${process.pid}_${n}`)
    const sql = yield* clientOf(database)
    const configFile = join(out, `config-${n}.json`)
    const eventsFile = join(out, `events-${n}.jsonl`)
    rmSync(eventsFile, { force: true }) // the file sink appends
    writeFileSync(
      configFile,
      JSON.stringify({
        nodes: [world.url],
        database,
        interval: INTERVAL,
        port: 0,
        watch: Object.fromEntries(
          Object.keys(shardCounts)
            .filter((resource) => resource !== "positions")
            .map((resource) => [resource, { enabled: false }])
        ),
        sinks: { stdout: false, file: eventsFile }
      })
    )
    const logs = Array.from({ length: n }, (_, i) => join(out, `watchers-${n}-${i + 1}.stderr.log`))

    // all started together, then timed from outside
    const started = performance.now()
    const watchers = yield* Effect.forEach(logs, (log) => startWatcher(bundleFile, configFile, log))
    const syncCpu = cpuMeter(watchers, world.world)
    const first = yield* untilAll(sql, watchers, world.height, started, FIRST_SYNC_TIMEOUT, (elapsed, at) =>
      Effect.sync(() =>
        console.log(
          `  … ${seconds(elapsed)}: ${at} of ${SLICES} slices at height ${world.height}; rss ${watchers.map((w) => megabytes(usageOf(w.pid)?.rss)).join(", ")}`
        )
      )
    )
    console.log(
      `  first sync: every positions slice at height ${world.height} after ${seconds(first.millis)} (the first after ${seconds(first.first)})`
    )
    console.log(`    cpu meanwhile: ${syncCpu()}`)
    console.log(`    slices: ${yield* spreadOf(sql, watchers)}`)

    // a slice changing hands (the watchers spreading out after the first sync) costs its taker a
    // load of the slice's rows and a complete read: such cycles are marked
    const cycles: Array<number> = []
    const moved: Array<boolean> = []
    const cyclesCpu = cpuMeter(watchers, world.world)
    let holders = yield* holdersOf(sql)
    for (let i = 0; i < CYCLES; i++) {
      const height = yield* world.advance
      const { millis } = yield* untilAll(sql, watchers, height, performance.now(), CYCLE_TIMEOUT)
      const now = yield* holdersOf(sql)
      cycles.push(millis)
      moved.push(now !== holders)
      holders = now
    }
    console.log(
      `  cycles after one block: ${cycles.map((m, i) => `${(m / 1000).toFixed(2)}${moved[i] ? "*" : ""}`).join(", ")} s; median ${seconds(median(cycles))}`
    )
    if (moved.some((m) => m)) console.log(`    * slices changed hands during the cycle`)
    console.log(`    cpu over the ${CYCLES} cycles: ${cyclesCpu()}`)
    console.log(`    slices at the end: ${yield* spreadOf(sql, watchers)}`)

    const delivery = yield* deliveredAll(sql)
    const lines = readFileSync(eventsFile, "utf8").split("\n").length - 1
    console.log(
      `  events: ${lines} in the file; ${delivery.events} committed, ${delivery.done ? "all delivered" : "not all delivered after 30 s"}`
    )

    // memory just before stopping them
    const usage = watchers.map((w) => usageOf(w.pid))
    const worldUsage = usageOf(world.world.pid)
    console.log(
      `  peak rss: ${usage.map((u, i) => `watcher ${i + 1} ${megabytes(u?.peak)}`).join(", ")}; simulator ${megabytes(worldUsage?.peak)}`
    )
    console.log(`  cpu in all: ${usage.map((u, i) => `watcher ${i + 1} ${seconds(u?.cpuMillis ?? 0)}`).join(", ")}`)
    yield* Effect.forEach(watchers, stop, { concurrency: "unbounded", discard: true })
    for (const [i, log] of logs.entries()) {
      const complaints = complaintsIn(log)
      if (complaints.length === 0) continue
      console.log(`  watcher ${i + 1} logged ${complaints.length} warning(s)/error(s) (${log}), the first:`)
      for (const line of complaints.slice(0, 5)) console.log(`    ${line.slice(0, 300)}`)
    }
    return { firstSync: first.millis, cycles, peaks: usage.map((u) => u?.peak) } satisfies Outcome
  }).pipe(Effect.scoped)

// ---------------------------------------------------------------------------------------------

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`

const program = Effect.gen(function* () {
  if (!(yield* Effect.promise(() => reachable(postgres)))) {
    console.log(`PostgreSQL is not reachable at ${postgres} (set VEGA_WATCHER_TEST_POSTGRES): nothing measured`)
    return
  }
  const admin = yield* Effect.either(clientOf(postgres))
  if (Either.isLeft(admin)) {
    console.log(`PostgreSQL at ${postgres} refused the connection (${admin.left.message}): nothing measured`)
    return
  }
  mkdirSync(out, { recursive: true })
  const bundleFile = yield* Effect.sync(bundle)
  const cores = availableParallelism()
  console.log(
    `${count(POSITIONS)} positions (${count(PARTIES)} parties, ${count(MARKETS)} markets), ${count(STAKE)} stake linkings; watchers on positions only (${SLICES} slices), file sink, polling every ${INTERVAL}; ${cores} cores, load average ${loadavg()[0].toFixed(2)}, node ${process.version}`
  )
  const one = yield* scenario(admin.right, bundleFile, 1)
  const three = yield* scenario(admin.right, bundleFile, 3)

  const sum = (xs: ReadonlyArray<number | undefined>) => xs.reduce<number>((a, b) => a + (b ?? 0), 0)
  console.log(`\nsummary: three watchers / one watcher (${cores} cores, load average now ${loadavg()[0].toFixed(2)})`)
  console.log(
    `  first sync: ${seconds(three.firstSync)} / ${seconds(one.firstSync)} = ${ratio(three.firstSync, one.firstSync)}`
  )
  console.log(
    `  median cycle after one block: ${seconds(median(three.cycles))} / ${seconds(median(one.cycles))} = ${ratio(median(three.cycles), median(one.cycles))}`
  )
  console.log(
    `  peak rss: ${megabytes(Math.max(...three.peaks.map((p) => p ?? 0)))} the largest of three (${megabytes(sum(three.peaks))} together) / ${megabytes(one.peaks[0])}`
  )
  console.log(
    `  note: on this ${cores}-core machine the simulator, the watchers and PostgreSQL share the same CPUs, so three watchers cannot run three times as fast; the ratios show the overhead of sharing, not the speed-up of separate machines`
  )
})

NodeRuntime.runMain(program.pipe(Effect.scoped))
