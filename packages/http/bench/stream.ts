/**
 * Streams 1,000,000 positions (pages of 5,000) from a local simulator through `DataNodeClient`
 * with full decoding, and in the same run a baseline: a sequential loop of raw `fetch` +
 * `JSON.parse` over the same pages. Prints records/s of both, their ratio, and the client's peak
 * RSS at 100,000 and at 1,000,000 rows.
 *
 * The simulator runs in its own process (the `vega-sim` command), so this process measures only
 * the client.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/http bench
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { NodeHttpClient } from "@effect/platform-node"
import { DataNodeClient } from "@vega-effect/http"
import { Effect, Stream } from "effect"

const ROWS = 1_000_000
const PAGE = 5000

const startSimulator = () =>
  Effect.acquireRelease(
    Effect.async<{ url: string; kill: () => void }>((resume) => {
      const bin = fileURLToPath(new URL("../../simulator/src/bin.ts", import.meta.url))
      const child = spawn(
        process.execPath,
        [
          "--max-semi-space-size=64",
          "--conditions=@vega-effect/source",
          "--import",
          "tsx",
          bin,
          "--port",
          "0",
          "--block-interval",
          "manual",
          "--parties",
          "100000",
          "--markets",
          "50",
          "--positions",
          String(ROWS)
        ],
        { stdio: ["ignore", "pipe", "inherit"] }
      )
      let out = ""
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = /node-1 (http:\/\/\S+)/.exec(out)
        if (match) resume(Effect.succeed({ url: match[1], kill: () => child.kill("SIGTERM") }))
      })
    }),
    (sim) => Effect.sync(sim.kill)
  )

const rssMb = () => process.memoryUsage().rss / 1e6

/** The baseline: fetch a page, parse it, follow its end cursor. */
const rawLoop = (url: string) =>
  Effect.promise(async () => {
    const started = performance.now()
    let rows = 0
    let after = ""
    for (;;) {
      const query = `pagination.first=${PAGE}${after === "" ? "" : `&pagination.after=${encodeURIComponent(after)}`}`
      const page = (await (await fetch(`${url}/api/v2/positions?${query}`)).json()) as any
      rows += page.positions.edges.length
      if (!page.positions.pageInfo.hasNextPage) break
      after = page.positions.pageInfo.endCursor
    }
    return { rows, seconds: (performance.now() - started) / 1000 }
  })

const clientRun = (url: string) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.make({ urls: url, rateLimit: false })
    let rows = 0
    let peak100k = 0
    let peak = 0
    const started = performance.now()
    yield* client.positions({}, { pageSize: PAGE, prefetch: 1 }).pipe(
      Stream.runForEach(() =>
        Effect.sync(() => {
          rows++
          if (rows % PAGE === 0) {
            const rss = rssMb()
            peak = Math.max(peak, rss)
            if (rows <= 100_000) peak100k = peak
          }
        })
      )
    )
    return { rows, seconds: (performance.now() - started) / 1000, peak100k, peak }
  })

const program = Effect.gen(function* () {
  console.log(`starting a simulator with ${ROWS.toLocaleString("en-US")} positions...`)
  const sim = yield* startSimulator()
  // a first pass lets the simulator encode every row once; both measured runs then see a warm server
  yield* rawLoop(sim.url)
  const raw = yield* rawLoop(sim.url)
  const client = yield* clientRun(sim.url).pipe(Effect.provide(NodeHttpClient.layerUndici))
  const raw2 = yield* rawLoop(sim.url)
  const rate = (r: { rows: number; seconds: number }) => r.rows / r.seconds
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US").padStart(10)
  const baseline = (rate(raw) + rate(raw2)) / 2
  console.log(
    `rows read: raw ${raw.rows.toLocaleString("en-US")}, client ${client.rows.toLocaleString("en-US")} (pages of ${PAGE}, node ${process.version})`
  )
  console.log(`  raw fetch + JSON.parse (before)     ${fmt(rate(raw))} records/s`)
  console.log(`  raw fetch + JSON.parse (after)      ${fmt(rate(raw2))} records/s`)
  console.log(
    `  DataNodeClient.positions, decoded   ${fmt(rate(client))} records/s   ${(rate(client) / baseline).toFixed(2)}x the raw loop`
  )
  console.log(
    `  client peak RSS: ${client.peak100k.toFixed(0)} MB at 100,000 rows, ${client.peak.toFixed(0)} MB at ${client.rows.toLocaleString("en-US")} rows (+${(client.peak - client.peak100k).toFixed(0)} MB)`
  )
})

Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)
