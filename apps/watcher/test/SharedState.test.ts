/**
 * Three watchers over one PostgreSQL state, publishing to one JetStream stream, next to a single
 * watcher on its own state, all over one simulated world driven block by block. One of the three
 * is killed with SIGKILL in the middle of a cycle and restarted later; another is frozen (SIGSTOP)
 * past its leases and woken up. The stream, deduplicated by event id, must hold exactly the events
 * of the single watcher, and the slices must end spread over the three again.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { it } from "@effect/vitest"
import { jetstreamManager } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"
import { Context, Effect, Exit, Layer, Redacted } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect } from "vitest"
import { resourceNames } from "../src/Resources.js"
import { resourceSlices } from "../src/Slice.js"
import { freshPostgres, postgresAvailable } from "./support/database.js"
import { availableOrSkipped, reachable } from "./support/net.js"
import { startWatcher, type WatcherProcess } from "./support/process.js"
import { progressOf } from "./support/sqlite.js"
import { LIVE_TEST_SETTINGS, processTestWorld } from "./support/world.js"

const NATS = "nats://127.0.0.1:4222"
const natsAvailable = availableOrSkipped(
  await reachable(NATS, 4222),
  `NATS is not reachable at ${NATS}`,
  "the shared-state test"
)

const BLOCKS = 30
const LEASE = "1.5s"
/** The resource slices and the one sink's delivery. */
const SLICES = resourceSlices(resourceNames).length + 1

const waitFor = (what: string, done: () => Promise<boolean>, timeoutMillis = 60_000, pollMillis = 25) =>
  Effect.promise(async () => {
    const deadline = Date.now() + timeoutMillis
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((r) => setTimeout(r, pollMillis))
    }
  })

describe.skipIf(!postgresAvailable || !natsAvailable)("three watchers sharing PostgreSQL and JetStream", () => {
  it.scopedLive(
    "a watcher killed mid-cycle and one frozen past its leases: the stream holds exactly the events of one watcher",
    () =>
      Effect.gen(function* () {
        const dir = mkdtempSync(join(tmpdir(), "watcher-shared-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const sim = yield* processTestWorld({ seed: 12, markets: 12, positions: 160 })
        const database = yield* freshPostgres
        const stream = `WATCHER_TEST_${process.pid}_${Date.now() % 100_000}`
        const subjectPrefix = `test.${stream.toLowerCase()}`
        const nats = yield* Effect.acquireRelease(
          Effect.promise(() => connect({ servers: NATS })),
          (nc) => Effect.promise(() => nc.close())
        )
        const jsm = yield* Effect.promise(() => jetstreamManager(nats))
        yield* Effect.addFinalizer(() => Effect.promise(() => jsm.streams.delete(stream).catch(() => false)))

        const configFile = join(dir, "shared.json")
        writeFileSync(
          configFile,
          JSON.stringify({
            nodes: [sim.url],
            database,
            interval: "20ms",
            ...LIVE_TEST_SETTINGS,
            // A chain standing still for `quiet` is taken as done with its block, and the positions
            // stream says no block. Rows of a block that arrive later still commit at that block,
            // unless the slice changed hands meanwhile: its new holder reads it at the next block and
            // reports the change there. Slices change hands here while the test moves the chain, so
            // the streams get longer than the other tests give them (at 200 ms, a loaded machine lost
            // that race about once in three runs of the whole suite).
            live: { ...LIVE_TEST_SETTINGS.live, quiet: "600ms" },
            lease: LEASE,
            port: 0,
            sinks: { jetstream: { servers: [NATS], stream, subjectPrefix } }
          })
        )
        const shared = () => Effect.promise(() => startWatcher(["--config", configFile]))
        const reference = yield* Effect.promise(() =>
          startWatcher([
            "--node",
            sim.url,
            "--database",
            join(dir, "reference.db"),
            "--file",
            join(dir, "reference.jsonl"),
            "--interval",
            "20 millis",
            "--port",
            "0"
          ])
        )
        const watchers: Array<WatcherProcess> = [yield* shared(), yield* shared(), yield* shared()]
        yield* Effect.addFinalizer((exit) =>
          Effect.sync(() => {
            if (Exit.isFailure(exit)) {
              // what the watchers said, to see why
              for (const [i, w] of [reference, ...watchers].entries()) {
                console.error(`--- watcher ${i} (pid ${w.child.pid}) stderr:\n${w.stderr().slice(-3000)}`)
              }
            }
            for (const w of [reference, ...watchers]) {
              w.child.kill("SIGCONT")
              w.child.kill("SIGKILL")
            }
          })
        )

        // the test reads the shared state as an operator would
        const sql = Context.get(
          yield* Layer.build(PgClient.layer({ url: Redacted.make(database) })),
          SqlClient.SqlClient
        )
        const query = <A extends object>(run: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
          Effect.runPromise(run(sql).pipe(Effect.orElseSucceed((): ReadonlyArray<A> => [])))
        /** The height every resource slice of the shared state has committed (0 until all have one). */
        const sharedHeight = async () => {
          const [row] = await query<{ height: number | string | null; n: number | string }>(
            (sql) => sql`SELECT MIN(height) AS height, COUNT(*) AS n FROM watcher_slice`
          )
          return row !== undefined && Number(row.n) === SLICES - 1 ? Number(row.height) : 0
        }
        const referenceHeight = async () => progressOf(join(dir, "reference.db"), SLICES - 1, "file")?.height ?? 0
        const holders = async () => {
          const rows = await query<{ owner: string | null; n: number | string }>(
            (sql) => sql`SELECT owner, COUNT(*) AS n FROM watcher_lease GROUP BY owner`
          )
          return new Map(rows.map((r) => [r.owner, Number(r.n)]))
        }
        const atHeight = (height: number) =>
          waitFor(`every slice at height ${height}`, async () => {
            return (await sharedHeight()) === height && (await referenceHeight()) === height
          })

        const killAt = 8
        const restartAt = 14
        const freezeAt = 20
        const thawAt = 24
        let frozen: WatcherProcess | undefined
        let midCycle = false
        for (let block = 0; block <= BLOCKS; block++) {
          if (block > 0) yield* sim.advance(1)
          const height = yield* sim.height
          if (block === killAt) {
            // mid-cycle: it has committed some of its slices at this height, not all
            const victim = `:${watchers[1].child.pid}:`
            yield* waitFor(
              "a cycle under way",
              async () => {
                const rows = await query<{ height: number | string }>(
                  (sql) => sql`SELECT s.height FROM watcher_slice s JOIN watcher_lease l ON l.slice = s.slice
                    WHERE l.owner LIKE ${`%${victim}%`}`
                )
                const done = rows.filter((r) => Number(r.height) === height).length
                midCycle = done > 0 && done < rows.length
                return done > 0
              },
              30_000,
              2
            )
            watchers[1].child.kill("SIGKILL")
            yield* Effect.promise(() => watchers[1].exited)
          }
          if (block === restartAt) watchers[1] = yield* shared()
          if (block === freezeAt) {
            frozen = watchers[2]
            frozen.child.kill("SIGSTOP")
          }
          if (block === thawAt) frozen?.child.kill("SIGCONT")
          yield* atHeight(height)
          if (block === killAt) {
            // the survivors hold every slice between them
            const held = yield* Effect.promise(holders)
            expect(held.get(null) ?? 0).toBe(0)
            expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(SLICES)
            expect(held.size).toBe(2)
          }
          if (block === thawAt - 1) {
            // while frozen, its leases expired and the others took its slices over
            const held = yield* Effect.promise(holders)
            expect(held.size).toBe(2)
          }
        }

        // every event published: the stream's sink cursor at the end of the outbox
        yield* waitFor("the stream caught up", async () => {
          const [row] = await query<{ cursor: number | string; last: number | string }>(
            (sql) => sql`SELECT c.seq AS cursor, s.next_seq - 1 AS last FROM watcher_cursor c, watcher_sequence s
              WHERE c.sink = 'jetstream'`
          )
          return row !== undefined && Number(row.cursor) === Number(row.last)
        })
        // and the reference delivered its whole outbox to its file (its cursor at the last seq)
        yield* waitFor("the reference file caught up", async () => {
          const progress = progressOf(join(dir, "reference.db"), SLICES - 1, "file")
          return progress !== undefined && progress.cursor === progress.nextSeq - 1
        })
        const expected = readFileSync(join(dir, "reference.jsonl"), "utf8")
          .split("\n")
          .filter((l) => l !== "")
        const info = yield* Effect.promise(() => jsm.streams.info(stream))
        const bodies: Array<string> = []
        for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
          const message = yield* Effect.promise(() => jsm.streams.getMessage(stream, { seq }))
          bodies.push(new TextDecoder().decode(message!.data))
        }
        expect(expected.length).toBeGreaterThan(100)
        const ids = bodies.map((body) => JSON.parse(body).id as string)
        expect(new Set(ids).size).toBe(ids.length) // JetStream kept each id once
        // the difference both ways, so a failure names the events rather than two long lists
        const inStream = new Set(bodies)
        const inReference = new Set(expected)
        expect({
          missing: expected.filter((body) => !inStream.has(body)),
          extra: bodies.filter((body) => !inReference.has(body))
        }).toEqual({ missing: [], extra: [] })
        expect(bodies.length).toBe(expected.length)

        // the restarted and the thawed watchers rejoined: the slices spread over three again
        yield* waitFor(
          "the slices spread over three watchers",
          async () => {
            const held = await holders()
            const counts = [...held.entries()].filter(([owner]) => owner !== null).map(([, n]) => n)
            return counts.length === 3 && Math.max(...counts) - Math.min(...counts) <= 1
          },
          30_000
        )
        const [takeovers] = yield* Effect.promise(() =>
          query<{ n: number | string }>((sql) => sql`SELECT SUM(takeovers) AS n FROM watcher_lease`)
        )
        expect(Number(takeovers.n)).toBeGreaterThan(0)
        console.log(
          `shared state: ${expected.length} events, ${bodies.length} in the stream, ${Number(takeovers.n)} lease takeovers, ` +
            `killed ${midCycle ? "mid-cycle" : "after its cycle"}`
        )
        for (const w of [reference, ...watchers]) w.child.kill("SIGTERM")
        for (const w of [reference, ...watchers]) yield* Effect.promise(() => w.exited)
      }),
    240_000
  )
})
