/**
 * Real time against the reference: a watcher following the node's streams, next to one polling
 * the same world at every block, over a world driven block by block. The events the live watcher
 * reports must equal, by content, those of the polling one: no change lost, none invented, none
 * reported twice under different ids.
 */
import { it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { resourceNames } from "../../src/Event.js"
import { resourceSlices } from "../../src/Slice.js"
import { startWatcher, type WatcherProcess } from "../support/process.js"
import { progressOf } from "../support/sqlite.js"
import { processTestWorld } from "../support/world.js"

const SLICES = resourceSlices(resourceNames).length
const BLOCKS = 30

const waitFor = (what: () => string, done: () => boolean, timeoutMillis = 60_000) =>
  Effect.promise(async () => {
    const deadline = Date.now() + timeoutMillis
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`)
      await new Promise((r) => setTimeout(r, 10))
    }
  })

const linesOf = (file: string): Array<string> =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))

/** An event without where and when it was seen: what changed. */
const contentOf = (line: string): string => {
  const { after, before, details, key, kind, resource } = JSON.parse(line)
  return JSON.stringify({ kind, resource, key, before, after, details })
}

it.scopedLive(
  "the live watcher reports what a watcher polling every block reports",
  () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "watcher-live-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const sim = yield* processTestWorld({ seed: 21, markets: 4, positions: 160 })
      const database = (name: string) => join(dir, `${name}.db`)
      const file = (name: string) => join(dir, `${name}.jsonl`)
      const reference = yield* Effect.promise(() =>
        startWatcher([
          "--mode",
          "poll",
          "--node",
          sim.url,
          "--database",
          database("poll"),
          "--file",
          file("poll"),
          "--interval",
          "20ms",
          "--port",
          "0"
        ])
      )
      const config = join(dir, "live.json")
      writeFileSync(
        config,
        JSON.stringify({
          nodes: [sim.url],
          database: database("live"),
          mode: "live",
          live: { quiet: "200ms", reconcileEvery: "1h", reconcileBudget: 1000 },
          port: 0,
          sinks: { file: file("live") }
        })
      )
      const live = yield* Effect.promise(() => startWatcher(["--config", config]))
      const watchers: Array<WatcherProcess> = [reference, live]
      yield* Effect.addFinalizer((exit) =>
        Effect.sync(() => {
          if (Exit.isFailure(exit)) {
            for (const w of watchers) console.error(`--- stderr of ${w.child.pid}:\n${w.stderr().slice(-3000)}`)
          }
          for (const w of watchers) w.child.kill("SIGKILL")
        })
      )
      const heightOf = (name: string) => progressOf(database(name), SLICES, "file")?.height ?? 0
      for (let block = 0; block <= BLOCKS; block++) {
        if (block > 0) yield* sim.advance(1)
        const height = yield* sim.height
        yield* waitFor(
          () => `both watchers at height ${height} (poll ${heightOf("poll")}, live ${heightOf("live")})`,
          () => heightOf("poll") === height && heightOf("live") === height
        )
      }
      const delivered = (name: string) => {
        const p = progressOf(database(name), SLICES, "file")
        return p !== undefined && p.cursor === p.nextSeq - 1
      }
      yield* waitFor(
        () => "every event delivered",
        () => delivered("poll") && delivered("live")
      )

      const polled = linesOf(file("poll"))
      const followed = linesOf(file("live"))
      expect(polled.length).toBeGreaterThan(100)
      // none reported twice
      expect(new Set(followed.map((l) => JSON.parse(l).id)).size).toBe(followed.length)
      expect(new Set(followed.map(contentOf)).size).toBe(followed.length)
      expect([...followed.map(contentOf)].sort()).toEqual([...polled.map(contentOf)].sort())
      const sameLines = [...followed].sort().join("\n") === [...polled].sort().join("\n")
      console.log(
        `live vs poll: ${followed.length} events, content equal; ${sameLines ? "byte-identical lines (same heights and ids)" : "heights or ids differ"}`
      )
    }),
  240_000
)
