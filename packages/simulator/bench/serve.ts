/**
 * How fast the simulator serves big pages, so it is never the bottleneck of a client benchmark.
 *
 * Builds a world of 1,000,000 positions and 1,000,000 stake linkings, then serves 5,000-row pages
 * of positions and of one party's stake linkings to a client in a worker thread (the server keeps
 * the main thread). Prints records/s and latency percentiles, next to a baseline measured in the
 * same run: a bare node:http server answering a prepared body of the same size.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/simulator bench
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Worker } from "node:worker_threads"
import { Effect } from "effect"
import { Simulator } from "@vega-effect/simulator"

const PAGE = 5000
const PAGES = 40

interface Result {
  readonly status: number
  readonly bytes: number
  readonly millis: number
}

const client = (port: number) => new Worker(new URL("./client.mjs", import.meta.url), { workerData: { port } })
const fetchAll = (worker: Worker, paths: ReadonlyArray<string>) =>
  new Promise<Array<Result>>((resolve) => {
    worker.once("message", resolve)
    worker.postMessage(paths)
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

const report = (label: string, results: ReadonlyArray<Result>, rows: number, baseline?: number): number => {
  if (results.some((r) => r.status !== 200)) throw new Error(`${label}: a request failed`)
  const total = results.reduce((s, r) => s + r.millis, 0)
  const rate = (rows * 1000) / total
  const sorted = results.map((r) => r.millis).sort((a, b) => a - b)
  const mb = results.reduce((s, r) => s + r.bytes, 0) / results.length / 1e6
  console.log(
    `  ${label.padEnd(38)} ${Math.round(rate).toLocaleString("en-US").padStart(10)} records/s  p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p90 ${percentile(sorted, 0.9).toFixed(1)} ms  p99 ${percentile(sorted, 0.99).toFixed(1)} ms  (${mb.toFixed(2)} MB/page)${baseline === undefined ? "" : `  ${(rate / baseline).toFixed(2)}x the baseline`}`
  )
  return rate
}

const program = Effect.gen(function* () {
  const started = performance.now()
  const sim = yield* Simulator.make({
    seed: 1,
    scale: { parties: 100_000, markets: 50, positions: 1_000_000, stakeLinkings: 1_000_000 },
    nodes: [{ port: 0 }]
  })
  console.log(
    `world of ${sim.world.positions.current.size.toLocaleString("en-US")} positions and ${sim.world.stakeLinkings.size().toLocaleString("en-US")} stake linkings built in ${((performance.now() - started) / 1000).toFixed(2)} s (node ${process.version})`
  )
  const port = Number(new URL(sim.url).port)
  const worker = client(port)

  // the position pages a client walks with cursors, newest first
  const positionPaths: Array<string> = []
  let after = ""
  for (let i = 0; i < PAGES; i++) {
    const path = `/api/v2/positions?pagination.first=${PAGE}${after === "" ? "" : `&pagination.after=${encodeURIComponent(after)}`}`
    positionPaths.push(path)
    const res = yield* Effect.promise(() => fetch(sim.url + path).then((r) => r.json() as Promise<any>))
    after = res.positions.pageInfo.endCursor
  }
  const whale = [...sim.world.stakeLinkings.byParty.entries()].sort((a, b) => b[1].length - a[1].length)[0]
  const stakePaths: Array<string> = []
  after = ""
  for (let i = 0; i < Math.min(PAGES, Math.floor(whale[1].length / PAGE)); i++) {
    const path = `/api/v2/parties/${whale[0]}/stake?pagination.first=${PAGE}${after === "" ? "" : `&pagination.after=${encodeURIComponent(after)}`}`
    stakePaths.push(path)
    const res = yield* Effect.promise(() => fetch(sim.url + path).then((r) => r.json() as Promise<any>))
    after = res.stakeLinkings.pageInfo.endCursor
  }

  // baseline: a bare server answering a prepared body of the same size
  const body = yield* Effect.promise(() => fetch(sim.url + positionPaths[1]).then((r) => r.text()))
  const bare = http.createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) })
    res.end(body)
  })
  yield* Effect.promise(() => new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve)))
  const bareWorker = client((bare.address() as AddressInfo).port)
  const baselinePaths = Array.from({ length: PAGES }, () => "/")
  yield* Effect.promise(() => fetchAll(bareWorker, baselinePaths.slice(0, 5)))

  console.log(`pages of ${PAGE} rows, ${PAGES} pages per run, one request at a time over keep-alive`)
  const baseline = report(
    "baseline: bare server, prepared body",
    yield* Effect.promise(() => fetchAll(bareWorker, baselinePaths)),
    PAGE * PAGES
  )
  report(
    "positions, rows already encoded",
    yield* Effect.promise(() => fetchAll(worker, positionPaths)),
    PAGE * PAGES,
    baseline
  )
  report(
    "stake linkings, rows already encoded",
    yield* Effect.promise(() => fetchAll(worker, stakePaths)),
    PAGE * stakePaths.length,
    baseline
  )
  // after some blocks, rows that changed are encoded again on first read
  const advancing = performance.now()
  yield* sim.advance(50)
  console.log(`  50 blocks advanced in ${((performance.now() - advancing) / 1000).toFixed(2)} s`)
  report(
    "positions after 50 blocks (re-encoding)",
    yield* Effect.promise(() => fetchAll(worker, positionPaths)),
    PAGE * PAGES,
    baseline
  )
  // a fresh world: every row is encoded through the schema on first read
  const cold = yield* Simulator.make({
    seed: 2,
    scale: { parties: 100_000, markets: 50, positions: 1_000_000 },
    nodes: [{ port: 0 }]
  })
  const coldWorker = client(Number(new URL(cold.url).port))
  const coldPaths = Array.from(
    { length: PAGES },
    (_, i) => `/api/v2/positions?pagination.first=${PAGE}&filter.marketIds=${cold.world.catalog.markets[i % 50].id}`
  )
  report(
    "positions, first read (schema encoding)",
    yield* Effect.promise(() => fetchAll(coldWorker, coldPaths)),
    PAGE * PAGES,
    baseline
  )

  yield* Effect.promise(() => Promise.all([worker.terminate(), bareWorker.terminate(), coldWorker.terminate()]))
  bare.close()
})

Effect.runPromise(Effect.scoped(program)).catch((e) => {
  console.error(e)
  process.exit(1)
})
