/**
 * One measured step of the benchmark, in its own process so its peak RSS is its own (the benchmark
 * runs it bundled, as the command is installed). Prints one JSON line `{millis, cpuMillis,
 * readingCpuMillis, readingCoreWaitMillis, peakRssMb, requests, ...}` (`cpuMillis`: user and
 * system time of all its threads; `readingCpuMillis`: of the thread that makes the reads, and
 * `readingCoreWaitMillis` how long it waited for a core, where they can be read).
 *
 * - `baseline <url>`: reads what the report reads, as it reads them (assets, the summaries asset by
 *   asset, every per-epoch row, the summaries again, the profile list), only counting; the cost of
 *   the reads alone.
 * - `report <url> <format> <view> <file> [paced]`: the whole report with per-epoch rows and
 *   cross-check, written to `file`; `paced` keeps the node's rate limits as against a real node.
 */
// the command's garbage collection settings, for the baseline too
import "../src/internal/heap.js"
import { DataNodeClient, ReadTracking } from "@vega-effect/http"
import { Pagination } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { statSync } from "node:fs"
import { chunks, type Format } from "../src/Format.js"
import { writeFileAtomically } from "../src/Output.js"
import { layerSilent, type Progress } from "../src/Progress.js"
import { noFilters, type View } from "../src/Report.js"
import { clientLayer, makeReport } from "../src/Run.js"
import { mainThreadCoreWaitMillis, mainThreadCpuMillis } from "./procCpu.js"

const [phase, url, format = "table", view = "assets", file = "report.out", pacing = ""] = process.argv.slice(2)
const timeout = Duration.minutes(2)

const baseline = Effect.gen(function* () {
  const client = yield* DataNodeClient.DataNodeClient
  const { statistics } = yield* client.statistics
  const assets = Chunk.toReadonlyArray(yield* Stream.runCollect(client.assets())).map(({ node }) => node.id)
  // the totals as the report reads them with its rows: asset by asset, one answer at a time
  const totals = Effect.reduce(assets, 0, (n, assetId) =>
    Effect.map(client.listRewardSummaries({ assetId }), (answer) => n + answer.summaries.length)
  )
  const summaries = yield* totals
  const rows = yield* Stream.runCount(client.rewardsByEpoch({ fromEpoch: 0n, toEpoch: statistics.epochSeq }))
  const again = yield* totals
  const profiles = yield* Stream.runCount(client.partiesProfiles({}, { pageSize: Pagination.MAX_PAGE_SIZE }))
  return { assets: assets.length, summaries, rows, again, profiles }
})

const report = Effect.gen(function* () {
  const made = yield* makeReport({
    nodes: [url],
    seed: 0,
    view: view as View,
    filters: noFilters,
    format: format as Format,
    output: file,
    epochs: true,
    timeout
  })
  yield* writeFileAtomically(file, chunks(made, format as Format))
  return {
    lines: made.lines.length,
    rows: made.epochs?.length ?? 0,
    crossCheck: made.crossCheck?.status,
    bytes: statSync(file).size
  }
})

const started = performance.now()
const work: Effect.Effect<
  Record<string, unknown>,
  unknown,
  DataNodeClient.DataNodeClient | Progress | Scope.Scope
> = phase === "baseline" ? baseline : report
Effect.runPromise(
  ReadTracking.track(work).pipe(
    Effect.scoped,
    Effect.provide(clientLayer([url], timeout, pacing === "paced")),
    Effect.provide(layerSilent)
  )
).then(
  ([result, reads]) => {
    const millis = Math.round(performance.now() - started)
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024)
    // every thread of the process: the collector's helpers too
    const { system, user } = process.cpuUsage()
    const cpuMillis = Math.round((user + system) / 1000)
    const readingCpuMillis = mainThreadCpuMillis()
    const readingCoreWaitMillis = mainThreadCoreWaitMillis()
    process.stdout.write(
      `${JSON.stringify({ ...result, requests: reads.answers, millis, cpuMillis, readingCpuMillis, readingCoreWaitMillis, peakRssMb })}\n`
    )
    process.exit(0)
  },
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
