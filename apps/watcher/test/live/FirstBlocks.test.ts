/**
 * Real time from the first blocks on a network whose first full read takes minutes: against a
 * node enforcing the real rate limit, stake's first read (a request per party, 1,300 parties at
 * 20 a second) lasts over a minute, and position changes made meanwhile are reported within a few
 * blocks, not once every resource has been read; so are stake's changes in the slices of it
 * already read, their reads going before the backfill's at the node's pacer. And after a restart,
 * while stake's catch-up reads those slices again party by party.
 */
import { it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Exit } from "effect"
import { createRequire } from "node:module"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { resourceSlices } from "../../src/Slice.js"
import { startWatcher } from "../support/process.js"

const require = createRequire(import.meta.url)
const Sqlite = createRequire(require.resolve("@effect/sql-sqlite-node"))("better-sqlite3") as new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean }
) => { prepare: (sql: string) => { all: () => Array<{ slice: string }> }; close: () => void }

/** The slices with a checkpoint in the watcher's state, read from outside. */
const committedSlices = (database: string): Array<string> => {
  try {
    const db = new Sqlite(database, { readonly: true, fileMustExist: true })
    try {
      return db
        .prepare("SELECT slice FROM watcher_slice")
        .all()
        .map((row) => row.slice)
    } finally {
      db.close()
    }
  } catch {
    return [] // not created yet, or mid-migration
  }
}

/** Blocks made after the positions are first read, one a second. */
const BLOCKS = 8
/** How many blocks after its own a change must be reported by. */
const WITHIN = 3
/** Blocks made after a restart, one a second. */
const AFTER_RESTART = 10
/** The first of them made once the restart's catch-up no longer holds every resource (5 s). */
const CAUGHT_UP_BLOCK = 7

it.scopedLive(
  `while stake's first read runs, position changes, and stake's in its slices read, come within ${WITHIN} blocks`,
  () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({
        seed: 21,
        blockInterval: "manual",
        blocksPerEpoch: 100,
        scale: {
          parties: 1_300,
          markets: 4,
          positions: 1_500,
          stakeLinkings: 1_300,
          liquidityProvisions: 4,
          epochs: 1
        },
        activity: { positionTrades: 3, stakeEvents: 5 },
        nodes: [{ rateLimit: true }]
      })
      const dir = mkdtempSync(join(tmpdir(), "watcher-first-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const database = join(dir, "state.db")
      const file = join(dir, "events.jsonl")
      const config = join(dir, "config.json")
      writeFileSync(
        config,
        JSON.stringify({ nodes: [sim.url], database, mode: "live", port: 0, sinks: { file }, live: { quiet: "1s" } })
      )
      let watcher = yield* Effect.promise(() => startWatcher(["--config", config]))
      yield* Effect.addFinalizer((exit) =>
        Effect.sync(() => {
          if (Exit.isFailure(exit)) console.error(`--- stderr:\n${watcher.stderr().slice(-3000)}`)
          watcher.child.kill("SIGKILL")
        })
      )
      const started = Date.now()
      // every slice of the positions read once (what changed before that is their first state)
      const positionSlices = resourceSlices(["positions"]).length
      while (committedSlices(database).filter((slice) => slice.startsWith("positions")).length < positionSlices) {
        if (Date.now() - started > 60_000) throw new Error("positions were not read within a minute")
        yield* Effect.sleep("100 millis")
      }
      const volumes = () =>
        new Map(
          [...sim.world.positions.current.values()].map((p) => [`${p.market.id}/${p.party.id}`, BigInt(p.openVolume)])
        )
      const events = () =>
        readFileSync(file, "utf8")
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map(
            (line) => JSON.parse(line) as { id: string; resource: string; kind: string; height: number; key: string }
          )
      const reported = () =>
        new Set(
          events()
            .filter((event) => event.resource === "positions" && event.kind !== "position.pnl_threshold")
            .map((event) => `${event.height} ${event.key}`)
        )
      // the chain's height when each event was first seen in the file
      const seenAt = new Map<string, { readonly event: { resource: string; height: number }; readonly at: number }>()
      /**
       * Makes `blocks` blocks, one a second (and WITHIN more), and gives the position changes of
       * each block from the `from`th on that were not in the file WITHIN blocks later, and how many
       * changes those blocks made.
       */
      const lateChanges = (blocks: number, from = 1) =>
        Effect.gen(function* () {
          // per block: the keys whose open volume it changed
          const changed = new Map<number, Array<string>>()
          const late: Array<string> = []
          for (let block = 1; block <= blocks + WITHIN; block++) {
            const before = volumes()
            yield* sim.advance(1)
            const height = yield* sim.height
            const after = volumes()
            if (block >= from && block <= blocks)
              changed.set(
                height,
                [...after].filter(([key, volume]) => before.get(key) !== volume).map(([key]) => key)
              )
            yield* Effect.sleep("1 second")
            for (const event of events()) if (!seenAt.has(event.id)) seenAt.set(event.id, { event, at: height })
            // the changes of the block WITHIN blocks back must be in by now
            const due = changed.get(height - WITHIN)
            if (due !== undefined) {
              const seen = reported()
              for (const key of due) if (!seen.has(`${height - WITHIN} ${key}`)) late.push(`${height - WITHIN} ${key}`)
            }
          }
          return { late, changes: [...changed.values()].flat().length }
        })
      const first = yield* lateChanges(BLOCKS)
      expect(first.changes).toBeGreaterThan(BLOCKS)
      expect(first.late).toEqual([])
      // stake's changes in the slices already read are reported as soon, while its other slices are
      // read: a block later at most, as a hint is read once the node shows the block after its own
      const stake = [...seenAt.values()].filter(({ event }) => event.resource === "stake")
      expect(stake.length).toBeGreaterThan(0)
      expect(stake.filter(({ at, event }) => at - event.height > WITHIN + 1)).toEqual([])
      // and stake's first read was still running all along
      const stakeRead = committedSlices(database).filter((slice) => slice.startsWith("stake")).length
      expect(stakeRead).toBeLessThan(resourceSlices(["stake"]).length / 2)
      expect(stakeRead).toBeGreaterThan(0)

      // restarted: the stake slices read so far are read again (their catch-up, party by party,
      // longer than the restart's wait for every resource), and meanwhile, from the end of that
      // wait on, position changes are reported as soon
      watcher.child.kill("SIGKILL")
      yield* Effect.promise(() => watcher.exited)
      watcher = yield* Effect.promise(() => startWatcher(["--config", config]))
      const restarted = yield* lateChanges(AFTER_RESTART, CAUGHT_UP_BLOCK)
      expect(restarted.changes).toBeGreaterThan(0)
      expect(restarted.late).toEqual([])
    }),
  { timeout: 120_000 }
)
