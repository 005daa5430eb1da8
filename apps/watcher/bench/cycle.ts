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
import { Context, Effect, Layer, Schema, Stream, SubscriptionRef } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { WatcherConfig } from "../src/Config.js"
import { runCycle, totals } from "../src/Cycle.js"
import { BATCH, deliverForever, drained } from "../src/Delivery.js"
import * as FileSink from "../src/sinks/FileSink.js"
import * as Store from "../src/Store.js"
import * as Leases from "../src/Leases.js"
import { slicesOf, takeAll } from "../src/Work.js"
import { spawnWorld } from "./worldProcess.js"

const POSITIONS = 100_000
const STAKE = 100_000
const PARTIES = 1_000
const MARKETS = 100
const WARM_CYCLES = 5

const world = spawnWorld({ positions: POSITIONS, stakeLinkings: STAKE, parties: PARTIES, markets: MARKETS })
const answers = createInterface({ input: world.stdout! })[Symbol.asyncIterator]()
const nextAnswer = async () => JSON.parse((await answers.next()).value as string) as { url?: string; height: number }
const advance = async () => {
  world.stdin!.write("\n")
  return (await nextAnswer()).height
}

const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)
const memory = (label: string) => {
  ;(globalThis as { gc?: () => void }).gc?.()
  const m = process.memoryUsage()
  console.log(
    `  [${label}] rss ${Math.round(m.rss / 1e6)} MB, heap used ${Math.round(m.heapUsed / 1e6)} MB, peak rss ${peakRssMb()} MB`
  )
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const timed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = performance.now()
    const value = yield* self
    return [value, performance.now() - started] as const
  })

/** A watcher's state and engine on its own SQLite file, as a fresh start would have them. */
const watcherOn = (client: DataNodeClient.Service, url: string, initialEvents: boolean) =>
  Effect.gen(function* () {
    const dir = mkdtempSync(join(tmpdir(), "watcher-bench-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const context = yield* Layer.build(
      Store.layer.pipe(
        Layer.provideMerge(Leases.layer()),
        Layer.provide(SqliteClient.layer({ filename: join(dir, "state.db") }))
      )
    )
    const store = Context.get(context, Store.Store)
    const config = Schema.decodeSync(WatcherConfig)({
      nodes: [url],
      initialEvents,
      watch: {
        liquidity: { enabled: false },
        signerBundles: { enabled: false },
        profiles: { enabled: false },
        rewards: { enabled: false },
        referrals: { enabled: false }
      }
    })
    const works = yield* takeAll(Context.get(context, Leases.Leases), store, yield* slicesOf(client, config))
    const file = yield* FileSink.make(join(dir, "events.jsonl"), { maxBatch: BATCH })
    yield* store.cursor(file.name) // the sink exists before the first event, as in the watcher
    const committed = yield* SubscriptionRef.make(0)
    yield* Effect.forkScoped(deliverForever(file, { store, committed, sinkNames: [file.name] }))
    /** One cycle, then the time until the file sink has its events. */
    const cycle = Effect.gen(function* () {
      const [outcome, millis] = yield* timed(runCycle({ client, store, works, diffContext: noAssets, initialEvents }))
      const { committed: slices, events, lastSeq, writes } = totals(outcome)
      if (slices !== works.length) return yield* Effect.dieMessage(`${works.length - slices} slice(s) not committed`)
      const last = lastSeq ?? (yield* store.lastSeq)
      const [, delivery] = yield* timed(
        Effect.zipRight(SubscriptionRef.set(committed, last), drained(store, [file.name], last))
      )
      return { events, writes, millis, delivery }
    })
    return { cycle }
  })

const noAssets = Effect.succeed({ asset: () => undefined })
const rate = (events: number, millis: number) => Math.round((events * 1000) / millis).toLocaleString("en-US")

const program = (url: string) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.make({ urls: url, rateLimit: false })

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

    memory("after the baseline")
    // the default: the first sync records what is there, later cycles report changes
    const watcher = yield* watcherOn(client, url, false)
    const first = yield* watcher.cycle
    console.log(
      `first sync (recorded, no events): ${first.writes.toLocaleString("en-US")} rows in ${seconds(first.millis)} (${(first.millis / baseline).toFixed(2)}x the baseline read)`
    )
    memory("after the first sync")
    const warm: Array<number> = []
    let warmEvents = 0
    let warmDelivery = 0
    for (let i = 0; i < WARM_CYCLES; i++) {
      yield* Effect.promise(advance)
      const next = yield* watcher.cycle
      warm.push(next.millis)
      warmEvents += next.events
      warmDelivery += next.delivery
    }
    const warmTotal = warm.reduce((a, b) => a + b, 0)
    console.log(
      `full cycle after one block: median ${seconds(median(warm))} (${warm.map((m) => (m / 1000).toFixed(2)).join(", ")} s; ${(median(warm) / baseline).toFixed(2)}x the baseline read), ${warmEvents} events: ${rate(warmEvents, warmTotal)} events/s found, delivered to the file in ${seconds(warmDelivery)} in all`
    )
    console.log(`peak RSS so far: ${peakRssMb()} MB`)

    // a burst: a first sync that reports every row it finds
    const burst = yield* (yield* watcherOn(client, url, true)).cycle
    console.log(
      `first sync reporting every row: ${burst.events.toLocaleString("en-US")} events in ${seconds(burst.millis)} (${rate(burst.events, burst.millis)} events/s found), delivered to the file in ${seconds(burst.delivery)} (${rate(burst.events, burst.delivery)} events/s)`
    )
    console.log(`peak RSS of the watcher process: ${peakRssMb()} MB (goals: a full cycle under 3 s, RSS under 500 MB)`)
  })

const main = async () => {
  const ready = await nextAnswer()
  console.log(
    `world: ${POSITIONS.toLocaleString("en-US")} positions, ${STAKE.toLocaleString("en-US")} stake linkings over ${PARTIES.toLocaleString("en-US")} parties, at height ${ready.height} (node ${process.version})`
  )
  try {
    await Effect.runPromise(program(ready.url!).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)))
  } finally {
    world.kill()
  }
}

await main()
