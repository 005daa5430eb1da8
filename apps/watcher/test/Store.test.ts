import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect } from "vitest"
import { makeEvent, type ReadPoint, serialize } from "../src/Event.js"
import * as Store from "../src/Store.js"

const dir = mkdtempSync(join(tmpdir(), "watcher-store-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const freshFile = () => join(dir, `state-${++files}.db`)

/** A store over its own connection to `file`, as a second process would have. */
const storeAt = (file: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      Store.layer.pipe(Layer.provideMerge(SqliteClient.layer({ filename: file }))),
      scope
    )
    return { store: Layer.succeedContext(context), scope, service: Context.get(context, Store.Store) }
  })

const at = (height: number): ReadPoint => ({
  height,
  time: `2024-04-01T00:00:${String(height).padStart(2, "0")}Z`,
  node: "http://n"
})
const found = (key: string, height: number) =>
  makeEvent("positions", key, { kind: "position.opened" }, at(height), null, { openVolume: "1" })
const event = (key: string, height: number) => serialize(found(key, height))

describe("Store (SQLite)", () => {
  it.scoped("commits rows, events and the checkpoint together; seqs follow each other across cycles", () =>
    Effect.gen(function* () {
      const { service: store } = yield* storeAt(freshFile())
      expect(Option.isNone(yield* store.checkpoint)).toBe(true)
      const first = yield* store.commit({
        point: at(5),
        writes: [
          { resource: "positions", key: "a", value: '{"v":1}' },
          { resource: "stake", key: "b", value: '{"v":2}' }
        ],
        events: [event("a", 5), event("b", 5)]
      })
      expect(first).toMatchObject({ height: 5, nextSeq: 3, cycles: 1 })
      const second = yield* store.commit({
        point: at(6),
        writes: [
          { resource: "positions", key: "a", value: null },
          { resource: "stake", key: "b", value: '{"v":3}' }
        ],
        events: [event("c", 6)]
      })
      expect(second).toMatchObject({ height: 6, nextSeq: 4, cycles: 2 })
      const state = yield* store.loadState
      expect(state.get("positions")?.size ?? 0).toBe(0)
      expect([...state.get("stake")!]).toEqual([["b", '{"v":3}']])
      const pending = yield* store.pending(0, 10)
      expect(pending.map((p) => [p.seq, p.event.key])).toEqual([
        [1, "a"],
        [2, "b"],
        [3, "c"]
      ])
      expect(pending[2].event).toEqual(found("c", 6))
    })
  )

  it.scoped("a cycle that fails half-way leaves nothing behind", () =>
    Effect.gen(function* () {
      const { service: store } = yield* storeAt(freshFile())
      yield* store.commit({ point: at(1), writes: [{ resource: "profiles", key: "p", value: "1" }], events: [] })
      // the second event has no body, which the table refuses (NOT NULL) after the rows were written
      const broken = { ...event("x", 2), json: null as unknown as string }
      const exit = yield* Effect.exit(
        store.commit({
          point: at(2),
          writes: [{ resource: "profiles", key: "p", value: "2" }],
          events: [event("ok", 2), broken]
        })
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(Option.getOrThrow(yield* store.checkpoint)).toMatchObject({ height: 1, nextSeq: 1, cycles: 1 })
      expect([...(yield* store.loadState).get("profiles")!]).toEqual([["p", "1"]])
      expect(yield* store.pending(0, 10)).toEqual([])
    })
  )

  it.scoped(
    "sink cursors: a new sink starts at the end, cursors only move forward, pruning keeps what a sink lacks",
    () =>
      Effect.gen(function* () {
        const { service: store } = yield* storeAt(freshFile())
        expect(yield* store.cursor("file")).toBe(0)
        yield* store.commit({ point: at(1), writes: [], events: [event("a", 1), event("b", 1), event("c", 1)] })
        expect(yield* store.cursor("file")).toBe(0)
        expect(yield* store.cursor("late")).toBe(3) // added after three events: only new ones
        yield* store.advance("file", 2)
        yield* store.advance("file", 1) // never backwards
        expect(yield* store.cursor("file")).toBe(2)
        yield* store.prune(["file", "late"])
        expect((yield* store.pending(0, 10)).map((p) => p.seq)).toEqual([3])
        yield* store.prune(["file"]) // a sink no longer configured does not hold events back
        expect((yield* store.pending(0, 10)).map((p) => p.seq)).toEqual([3])
        yield* store.advance("file", 3)
        yield* store.prune(["file"])
        expect(yield* store.pending(0, 10)).toEqual([])
        // seqs continue after pruning
        const next = yield* store.commit({ point: at(2), writes: [], events: [event("d", 2)] })
        expect(next.nextSeq).toBe(5)
      })
  )

  it.live("the lock keeps a second watcher off the state, and is free again when the first stops", () =>
    Effect.gen(function* () {
      const file = freshFile()
      const a = yield* storeAt(file)
      const b = yield* storeAt(file)
      const held = yield* Scope.make()
      yield* a.service.lock().pipe(Scope.extend(held))
      const refused = yield* Effect.flip(b.service.lock().pipe(Effect.scoped))
      expect(refused._tag).toBe("StateLocked")
      expect(refused.message).toContain(`pid ${process.pid}`)
      yield* Scope.close(held, Exit.void)
      yield* b.service.lock().pipe(Effect.scoped)
      yield* Scope.close(a.scope, Exit.void)
      yield* Scope.close(b.scope, Exit.void)
    })
  )

  it.live("a lock left by a dead process is taken over; the old holder can no longer commit", () =>
    Effect.gen(function* () {
      const file = freshFile()
      const a = yield* storeAt(file)
      const b = yield* storeAt(file)
      yield* a.service.lock().pipe(Scope.extend(a.scope))
      // pretend the holder was a process that died (pid 2^22 + 1 is above Linux's pid_max default)
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE watcher_lock SET pid = 4194305`
      }).pipe(Effect.provide(a.store))
      yield* b.service.lock().pipe(Scope.extend(b.scope))
      const lost = yield* Effect.flip(a.service.commit({ point: at(1), writes: [], events: [event("a", 1)] }))
      expect(lost._tag).toBe("LockLost")
      expect(yield* b.service.commit({ point: at(1), writes: [], events: [event("a", 1)] })).toMatchObject({
        nextSeq: 2
      })
      yield* Scope.close(a.scope, Exit.void)
      yield* Scope.close(b.scope, Exit.void)
    })
  )
})
