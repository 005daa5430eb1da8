/**
 * How long a full cycle takes over 100,000 positions and 100,000 stake linkings, and how much
 * memory the watcher needs for it.
 *
 * A simulator of that size runs in a child process (so the RSS printed is the watcher's own).
 * In this process: first a baseline, the same reads with nothing done to the rows (the data
 * node client streaming every position and every party's stake linkings); then the watcher's
 * first sync of an empty state reporting every row (each becomes an event), the delivery of those
 * events to the file sink, and cycles after single blocks (incremental reads, small diffs).
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/watcher bench
 */
import { NodeHttpClient } from "@effect/platform-node"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { DataNodeClient } from "@vega-effect/http"
import { Effect, Layer, Option, Schema, Stream, SubscriptionRef } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { WatcherConfig } from "../src/Config.js"
import { runCycle } from "../src/Cycle.js"
import { BATCH, deliverForever, drained } from "../src/Delivery.js"
import * as FileSink from "../src/sinks/FileSink.js"
import * as Store from "../src/Store.js"
import { resourcesOf } from "../src/Watcher.js"

const POSITIONS = 100_000
const STAKE = 100_000
const PARTIES = 2_100
const MARKETS = 50
const WARM_CYCLES = 5

const world = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    "--conditions=@vega-effect/source",
    join(import.meta.dirname, "world.ts"),
    ...[POSITIONS, STAKE, PARTIES, MARKETS].map(String)
  ],
  { stdio: ["pipe", "pipe", "inherit"] }
)
const answers = createInterface({ input: world.stdout! })[Symbol.asyncIterator]()
const nextAnswer = async () => JSON.parse((await answers.next()).value as string) as { url?: string; height: number }
const advance = async () => {
  world.stdin!.write("\n")
  return (await nextAnswer()).height
}

const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const timed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = performance.now()
    const value = yield* self
    return [value, performance.now() - started] as const
  })

const program = (url: string) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.make({ urls: url, rateLimit: false })
    const config = Schema.decodeSync(WatcherConfig)({
      nodes: [url],
      initialEvents: true,
      watch: {
        liquidity: { enabled: false },
        signerBundles: { enabled: false },
        profiles: { enabled: false },
        rewards: { enabled: false },
        referrals: { enabled: false }
      }
    })

    // baseline: the same rows, read and decoded, nothing else
    const [readRows, baseline] = yield* timed(
      Effect.gen(function* () {
        const positions = yield* Stream.runCount(client.positions({}, { pageSize: 5000 }))
        const parties = yield* Stream.runCollect(client.partiesProfiles({}, { pageSize: 5000 }))
        const stake = yield* Effect.forEach(
          parties,
          (p) => Stream.runCount(client.stakeLinkings({ partyId: p.node.partyId }, { pageSize: 5000 })),
          { concurrency: 8 }
        )
        return positions + stake.reduce((a, b) => a + b, 0)
      })
    )
    console.log(
      `baseline: read ${readRows.toLocaleString("en-US")} rows (positions + stake linkings) in ${seconds(baseline)}`
    )

    const store = yield* Store.Store
    const resources = resourcesOf(client, config)
    const held = yield* store.loadState
    const diffContext = Effect.succeed({ asset: () => undefined })
    let checkpoint = yield* store.checkpoint
    const cycle = Effect.gen(function* () {
      const [outcome, millis] = yield* timed(
        runCycle({ client, store, resources, held, checkpoint, diffContext, initialEvents: true })
      )
      if (outcome._tag !== "Committed") return yield* Effect.dieMessage(`cycle not committed: ${outcome._tag}`)
      checkpoint = Option.some(outcome.checkpoint)
      return { ...outcome, millis }
    })

    const cold = yield* cycle
    console.log(
      `first sync: ${cold.writes.toLocaleString("en-US")} rows, ${cold.events.toLocaleString("en-US")} events in ${seconds(cold.millis)} (${Math.round((cold.events * 1000) / cold.millis).toLocaleString("en-US")} events/s, ${(cold.millis / baseline).toFixed(2)}x the baseline read)`
    )

    const committed = yield* SubscriptionRef.make(cold.checkpoint.nextSeq - 1)
    const dir = mkdtempSync(join(tmpdir(), "watcher-bench-sink-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const file = yield* FileSink.make(join(dir, "events.jsonl"), { maxBatch: BATCH })
    const [, delivery] = yield* timed(
      Effect.gen(function* () {
        yield* Effect.forkScoped(deliverForever(file, { store, committed, sinkNames: [file.name] }))
        yield* drained(store, [file.name], cold.checkpoint.nextSeq - 1)
      })
    )
    console.log(
      `delivery to the file sink: ${cold.events.toLocaleString("en-US")} events in ${seconds(delivery)} (${Math.round((cold.events * 1000) / delivery).toLocaleString("en-US")} events/s)`
    )

    const warm: Array<number> = []
    let warmEvents = 0
    for (let i = 0; i < WARM_CYCLES; i++) {
      yield* Effect.promise(advance)
      const next = yield* cycle
      warm.push(next.millis)
      warmEvents += next.events
      yield* SubscriptionRef.set(committed, next.checkpoint.nextSeq - 1)
    }
    console.log(
      `cycles after one block: median ${seconds(median(warm))} (${warm.map((m) => (m / 1000).toFixed(2)).join(", ")} s), ${warmEvents} events in ${WARM_CYCLES} cycles, ${(median(warm) / baseline).toFixed(2)}x the baseline read`
    )
    console.log(`peak RSS of the watcher process: ${peakRssMb()} MB (goals: a full cycle under 3 s, RSS under 500 MB)`)
  })

const main = async () => {
  const ready = await nextAnswer()
  console.log(
    `world: ${POSITIONS.toLocaleString("en-US")} positions, ${STAKE.toLocaleString("en-US")} stake linkings over ${PARTIES.toLocaleString("en-US")} parties, at height ${ready.height} (node ${process.version})`
  )
  const dir = mkdtempSync(join(tmpdir(), "watcher-bench-"))
  try {
    await Effect.runPromise(
      program(ready.url!).pipe(
        Effect.scoped,
        Effect.provide(
          Layer.mergeAll(
            Store.layer.pipe(Layer.provide(SqliteClient.layer({ filename: join(dir, "state.db") }))),
            NodeHttpClient.layerUndici
          )
        )
      )
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
    world.kill()
  }
}

await main()
