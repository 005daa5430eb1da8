import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import * as Statement from "@effect/sql/Statement"
import { describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber, Option, Schedule, Scope } from "effect"
import { expect, vi } from "vitest"
import * as Database from "../src/Database.js"
import { makeEvent, type ReadPoint, serialize } from "../src/Event.js"
import * as Leases from "../src/Leases.js"
import { fingerprintOf } from "../src/Fingerprints.js"
import { migrations } from "../src/Migrations.js"
import { resourceSlices, sliceOfRow } from "../src/Slice.js"
import * as Store from "../src/Store.js"
import { engines, freshPostgres, postgresAvailable, stateAt as watcherAt } from "./support/database.js"

const at = (height: number): ReadPoint => ({
  height,
  time: `2024-04-01T00:00:${String(height).padStart(2, "0")}Z`,
  node: "http://n"
})
const found = (key: string, height: number) =>
  makeEvent("positions", key, { kind: "position.opened" }, at(height), null, { openVolume: "1" })
const event = (key: string, height: number) => serialize(found(key, height))

/** Joins and takes the slices, as a watcher does before working them. */
const holding = (leases: Leases.Service, slices: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    yield* leases.join(slices)
    for (const slice of slices) expect(yield* leases.acquire(slice)).toEqual({ slice })
  })

/** Lets a slice's lease expire at once, as `reapDead` does for a member whose process is gone. */
const expire = (sql: SqlClient.SqlClient, slice: string) =>
  sql`UPDATE watcher_lease SET expires = 0 WHERE slice = ${slice}`.pipe(Effect.asVoid)

const takeoversOf = (sql: SqlClient.SqlClient, slice: string) =>
  Effect.map(sql<{ takeovers: number | string }>`SELECT takeovers FROM watcher_lease WHERE slice = ${slice}`, (rows) =>
    Number(rows[0].takeovers)
  )

/**
 * Runs `effect`, with `meanwhile` run once just before the first of its statements whose SQL starts
 * with `prefix`: another member's move landing between two statements. Fails if none matched.
 */
const interleaved = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  prefix: string,
  meanwhile: Effect.Effect<unknown, unknown>
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    let ran = false
    const result = yield* Statement.withTransformer(effect, (statement) => {
      if (ran || !statement.compile()[0].trimStart().startsWith(prefix)) return Effect.succeed(statement)
      ran = true
      return Statement.withTransformerDisabled(Effect.orDie(meanwhile)).pipe(Effect.as(statement))
    })
    expect(ran, `no statement starting with ${prefix}`).toBe(true)
    return result
  })

type Watcher = Effect.Effect.Success<ReturnType<typeof watcherAt>>

/**
 * What another member does between `acquire`'s read of a lease and its guarded update, when the
 * read saw the slice free or expired: the update must then take nothing.
 */
interface Race {
  readonly name: string
  /** Whether `holder` held the slice and its lease expired before the read (else it was free). */
  readonly expired: boolean
  readonly meanwhile: (members: { holder: Watcher; rival: Watcher; slice: string }) => Effect.Effect<void, unknown>
  /** Who holds the slice in the end, and how many takeovers were counted. */
  readonly keeps: "holder" | "rival"
  readonly takeovers: number
}

const races: ReadonlyArray<Race> = [
  {
    name: "a free slice another member takes first",
    expired: false,
    meanwhile: ({ rival, slice }) =>
      Effect.map(rival.leases.acquire(slice), (taken) => expect(taken).toEqual({ slice })),
    keeps: "rival",
    takeovers: 0
  },
  {
    name: "an expired lease another member takes over first",
    expired: true,
    meanwhile: ({ holder, rival, slice }) =>
      Effect.map(rival.leases.acquire(slice), (taken) => expect(taken).toEqual({ slice, from: holder.leases.owner })),
    keeps: "rival",
    takeovers: 1
  },
  {
    name: "an expired lease its holder renews first",
    expired: true,
    meanwhile: ({ holder, slice }) =>
      Effect.map(holder.leases.renew, (renewed) => expect(renewed).toEqual(new Set([slice]))),
    keeps: "holder",
    takeovers: 0
  },
  {
    name: "an expired lease another member takes over first, whose own lease expires in turn",
    expired: true,
    meanwhile: ({ holder, rival, slice }) =>
      Effect.gen(function* () {
        expect(yield* rival.leases.acquire(slice)).toEqual({ slice, from: holder.leases.owner })
        yield* expire(rival.sql, slice)
      }),
    keeps: "rival",
    takeovers: 1
  }
]

for (const engine of engines) {
  describe.skipIf(!engine.available)(`Store and leases (${engine.name})`, () => {
    it.scoped("commits a slice's rows, events and checkpoint together; seqs follow each other across slices", () =>
      Effect.gen(function* () {
        const { leases, store } = yield* watcherAt(yield* engine.fresh)
        yield* holding(leases, ["positions:1", "stake:2"])
        expect(yield* store.lastSeq).toBe(0)
        expect(Option.isNone((yield* store.load("positions:1")).checkpoint)).toBe(true)
        const first = yield* store.commit({
          slice: "positions:1",
          point: at(5),
          writes: [
            { resource: "positions", key: "a", value: '{"v":1}' },
            { resource: "positions", key: "b", value: '{"v":2}' }
          ],
          events: [event("a", 5), event("b", 5)]
        })
        expect(first).toEqual({ checkpoint: { ...at(5), cycles: 1 }, lastSeq: 2 })
        const other = yield* store.commit({
          slice: "stake:2",
          point: at(5),
          // a key below any other character but digits: a page of rows starts before it
          writes: [{ resource: "stake", key: "0s", value: '{"v":9}' }],
          events: [event("s", 5)]
        })
        expect(other.lastSeq).toBe(3)
        expect((yield* store.load("positions:1")).resume).toBeUndefined()
        const second = yield* store.commit({
          slice: "positions:1",
          point: at(6),
          resume: "1711929600000000000",
          writes: [
            { resource: "positions", key: "a", value: null },
            { resource: "positions", key: "b", value: '{"v":3}' }
          ],
          events: []
        })
        expect(second).toEqual({ checkpoint: { ...at(6), cycles: 2 }, lastSeq: undefined })
        const slice = yield* store.load("positions:1")
        expect(slice.checkpoint).toEqual(Option.some({ ...at(6), cycles: 2 }))
        expect(slice.resume).toBe("1711929600000000000") // committed with the rows
        expect(yield* store.keys("positions:1")).toEqual(["b"])
        expect(slice.held.size).toBe(1)
        expect(slice.held.get("b")).toBe(fingerprintOf('{"v":3}'))
        expect(yield* store.keys("stake:2")).toEqual(["0s"])
        expect((yield* store.load("stake:2")).held.get("0s")).toBe(fingerprintOf('{"v":9}'))
        expect(yield* store.rows("positions", ["a", "b", "zz"])).toEqual(new Map([["b", '{"v":3}']]))
        expect([...(yield* store.checkpoints).keys()].sort()).toEqual(["positions:1", "stake:2"])
        const pending = yield* store.pending(0, 10)
        expect(pending.map((p) => [p.seq, p.event.key])).toEqual([
          [1, "a"],
          [2, "b"],
          [3, "s"]
        ])
        expect(pending[0].event).toEqual(found("a", 5))
        expect(yield* store.lastSeq).toBe(3)
      })
    )

    it.scoped("loads a slice of more rows than a page: every row's fingerprint, none of another slice", () =>
      Effect.gen(function* () {
        const { leases, store } = yield* watcherAt(yield* engine.fresh)
        yield* holding(leases, ["positions:3", "positions:4"])
        const keys = Array.from({ length: 4500 }, (_, i) => `m${String(i).padStart(5, "0")}/p`)
        const writes = keys.map((key, i) => ({ resource: "positions" as const, key, value: `{"v":${i}}` }))
        yield* store.commit({ slice: "positions:3", point: at(1), writes, events: [] })
        yield* store.commit({
          slice: "positions:4",
          point: at(1),
          writes: [{ resource: "positions", key: "other", value: "{}" }],
          events: []
        })
        const { held } = yield* store.load("positions:3")
        expect(held.size).toBe(4500)
        for (const [i, key] of keys.entries()) expect(held.get(key)).toBe(fingerprintOf(`{"v":${i}}`))
        expect(held.has("other")).toBe(false)
        expect(yield* store.keys("positions:3")).toEqual(keys)
      })
    )

    it.scoped("a cycle of more events than one insert takes commits them all, in order", () =>
      Effect.gen(function* () {
        const { leases, store } = yield* watcherAt(yield* engine.fresh)
        yield* holding(leases, ["rewards"])
        const keys = Array.from({ length: 2001 }, (_, i) => `r${String(i).padStart(4, "0")}`)
        const committed = yield* store.commit({
          slice: "rewards",
          point: at(1),
          writes: [],
          events: keys.map((key) => event(key, 1))
        })
        expect(committed.lastSeq).toBe(2001)
        const pending = yield* store.pending(0, 3000)
        expect(pending.map((p) => [p.seq, p.event.key])).toEqual(keys.map((key, i) => [i + 1, key]))
      })
    )

    it.scoped("a cycle that fails half-way leaves nothing behind", () =>
      Effect.gen(function* () {
        const { leases, store } = yield* watcherAt(yield* engine.fresh)
        yield* holding(leases, ["profiles"])
        const write = (value: string) => [{ resource: "profiles" as const, key: "p", value }]
        yield* store.commit({ slice: "profiles", point: at(1), writes: write("1"), events: [] })
        // the second event has no body, which the table refuses (NOT NULL) after the rows were written
        const broken = { ...event("x", 2), json: null as unknown as string }
        const exit = yield* Effect.exit(
          store.commit({ slice: "profiles", point: at(2), writes: write("2"), events: [event("ok", 2), broken] })
        )
        expect(Exit.isFailure(exit)).toBe(true)
        const slice = yield* store.load("profiles")
        expect(slice.checkpoint).toEqual(Option.some({ ...at(1), cycles: 1 }))
        expect(slice.held.get("p")).toBe(fingerprintOf("1"))
        expect(yield* store.rows("profiles", ["p"])).toEqual(new Map([["p", "1"]]))
        expect(yield* store.pending(0, 10)).toEqual([])
        expect(yield* store.lastSeq).toBe(0)
      })
    )

    it.scoped(
      "sink cursors: a new sink starts at the end, cursors only move forward, pruning keeps what a sink lacks",
      () =>
        Effect.gen(function* () {
          const { leases, store } = yield* watcherAt(yield* engine.fresh)
          yield* holding(leases, ["rewards"])
          const commit = (height: number, keys: ReadonlyArray<string>) =>
            store.commit({ slice: "rewards", point: at(height), writes: [], events: keys.map((k) => event(k, height)) })
          expect(yield* store.cursor("file")).toBe(0)
          yield* commit(1, ["a", "b", "c"])
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
          expect((yield* commit(2, ["d"])).lastSeq).toBe(4)
        })
    )

    it.scoped(
      "a slice is worked by one watcher: others wait, a freed slice is taken, the old holder writes nothing",
      () =>
        Effect.gen(function* () {
          const database = yield* engine.fresh
          const a = yield* watcherAt(database)
          const b = yield* watcherAt(database)
          yield* a.leases.join(["liquidity", "profiles"])
          yield* b.leases.join(["liquidity", "profiles"])
          expect(yield* a.leases.acquire("liquidity")).toEqual({ slice: "liquidity" })
          expect(yield* b.leases.acquire("liquidity")).toBeUndefined()
          expect(yield* b.leases.acquire("profiles")).toEqual({ slice: "profiles" })
          expect((yield* a.leases.members).map((m) => m.owner)).toEqual([a.leases.owner, b.leases.owner].sort())
          expect(yield* a.leases.holders).toEqual(
            new Map([
              ["liquidity", a.leases.owner],
              ["profiles", b.leases.owner]
            ])
          )
          // without the lease nothing is written
          const refused = yield* Effect.flip(
            a.store.commit({ slice: "profiles", point: at(1), writes: [], events: [event("x", 1)] })
          )
          expect(refused).toEqual(new Store.LeaseLost({ slice: "profiles", owner: b.leases.owner }))
          expect(refused.message).toBe(
            `the lease on profiles is no longer this watcher's (${b.leases.owner}): nothing written`
          )
          // a slice nobody joined has no lease at all
          const unknown = yield* Effect.flip(a.store.commit({ slice: "unknown", point: at(1), writes: [], events: [] }))
          expect(unknown).toEqual(new Store.LeaseLost({ slice: "unknown", owner: null }))
          expect(unknown.message).toBe("the lease on unknown is no longer this watcher's (free): nothing written")
          expect(yield* a.store.lastSeq).toBe(0)
          expect(yield* b.leases.available).toEqual(new Set())
          yield* a.leases.release(["liquidity"])
          expect(yield* b.leases.available).toEqual(new Set(["liquidity"]))
          expect(yield* b.leases.acquire("liquidity")).toEqual({ slice: "liquidity" })
          expect(yield* b.leases.renew).toEqual(new Set(["liquidity", "profiles"]))
          expect(yield* a.leases.renew).toEqual(new Set())
          const late = yield* Effect.flip(a.store.commit({ slice: "liquidity", point: at(2), writes: [], events: [] }))
          expect(late._tag).toBe("LeaseLost")
          yield* a.leases.leave
          expect((yield* b.leases.members).map((m) => m.owner)).toEqual([b.leases.owner])
          yield* Scope.close(a.scope, Exit.void)
          yield* Scope.close(b.scope, Exit.void)
        })
    )

    it.scoped("a member that joins no slices is a member all the same; a slice nobody joined is not acquired", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const a = yield* watcherAt(database)
        const b = yield* watcherAt(database)
        yield* a.leases.join(["liquidity"])
        expect(yield* a.leases.acquire("liquidity")).toEqual({ slice: "liquidity" })
        yield* b.leases.join([])
        expect((yield* a.leases.members).map((m) => m.owner)).toEqual([a.leases.owner, b.leases.owner].sort())
        expect(yield* b.leases.acquire("unknown")).toBeUndefined()
        yield* a.leases.release([])
        expect(yield* a.leases.holders).toEqual(new Map([["liquidity", a.leases.owner]]))
        expect(yield* a.leases.renew).toEqual(new Set(["liquidity"]))
        yield* Scope.close(a.scope, Exit.void)
        yield* Scope.close(b.scope, Exit.void)
      })
    )

    it.scoped("a lease lasts 15 seconds unless configured, and is renewed every third of it, at least 50 ms", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const defaults = yield* Leases.make().pipe(Effect.provide(Database.layer(database)))
        expect(Duration.toMillis(defaults.ttl)).toBe(15_000)
        expect(Duration.toMillis(defaults.renewEvery)).toBe(5_000)
        const short = yield* watcherAt(database, "90 millis")
        expect(Duration.toMillis(short.leases.renewEvery)).toBe(50)
        yield* Scope.close(short.scope, Exit.void)
      })
    )

    it.scopedLive("an expired lease is taken over, counted as a takeover; a renewed one is not", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const a = yield* watcherAt(database, "300 millis")
        const b = yield* watcherAt(database, "300 millis")
        yield* holding(a.leases, ["referrals", "rewards"])
        yield* b.leases.join(["referrals", "rewards"])
        yield* Effect.sleep("200 millis")
        yield* a.leases.renew // only what a renews in time stays its own... both, here
        yield* Effect.sleep("200 millis")
        expect(yield* b.leases.acquire("rewards")).toBeUndefined()
        yield* Effect.sleep("300 millis") // a stopped renewing: both expire
        expect(yield* b.leases.acquire("rewards")).toEqual({ slice: "rewards", from: a.leases.owner })
        // an expired lease nobody took is still a's: renewing keeps it
        expect(yield* a.leases.renew).toEqual(new Set(["referrals"]))
        // the state a taker resumes from is what the last holder committed
        const committed = yield* Effect.exit(
          a.store.commit({ slice: "rewards", point: at(3), writes: [], events: [event("r", 3)] })
        )
        expect(Exit.isFailure(committed)).toBe(true)
        const takeovers = yield* b.sql<{ takeovers: number | string }>`SELECT takeovers FROM watcher_lease
          WHERE slice = 'rewards'`
        expect(Number(takeovers[0].takeovers)).toBe(1)
        yield* Scope.close(a.scope, Exit.void)
        yield* Scope.close(b.scope, Exit.void)
      })
    )

    it.scoped("the leases of a member whose process on this host is gone expire at once", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const a = yield* watcherAt(database)
        const b = yield* watcherAt(database)
        yield* holding(a.leases, ["profiles"])
        // pretend a was a process that died (pid 2^22 + 1 is above Linux's pid_max default)
        yield* a.sql`UPDATE watcher_member SET pid = 4194305 WHERE owner = ${a.leases.owner}`
        yield* b.leases.join(["profiles"])
        expect(yield* b.leases.acquire("profiles")).toBeUndefined()
        expect((yield* b.leases.reapDead).map((m) => m.owner)).toEqual([a.leases.owner])
        expect(yield* b.leases.acquire("profiles")).toEqual({ slice: "profiles", from: a.leases.owner })
        yield* Scope.close(a.scope, Exit.void)
        yield* Scope.close(b.scope, Exit.void)
      })
    )

    it.scoped("a member whose process exists but may not be signalled (EPERM) is alive: its leases stay", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const a = yield* watcherAt(database)
        const b = yield* watcherAt(database)
        yield* holding(a.leases, ["profiles"])
        yield* a.sql`UPDATE watcher_member SET pid = 4194305 WHERE owner = ${a.leases.owner}`
        // what a watcher not running as root sees of another user's process
        const kill = process.kill.bind(process)
        const spy = vi.spyOn(process, "kill").mockImplementation((pid, signal) => {
          if (pid !== 4194305) return kill(pid, signal)
          throw Object.assign(new Error(`kill EPERM`), { code: "EPERM" })
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => spy.mockRestore()))
        yield* b.leases.join(["profiles"])
        expect(yield* b.leases.reapDead).toEqual([])
        expect(yield* b.leases.acquire("profiles")).toBeUndefined()
        yield* Scope.close(a.scope, Exit.void)
        yield* Scope.close(b.scope, Exit.void)
      })
    )

    for (const race of races) {
      it.scoped(`a slice taken between acquire's read and its update is not taken again: ${race.name}`, () =>
        Effect.gen(function* () {
          const database = yield* engine.fresh
          const holder = yield* watcherAt(database)
          const rival = yield* watcherAt(database)
          const late = yield* watcherAt(database)
          const slice = "rewards"
          for (const member of [holder, rival, late]) yield* member.leases.join([slice])
          if (race.expired) {
            yield* holding(holder.leases, [slice])
            yield* expire(holder.sql, slice)
          }
          expect(yield* late.leases.available).toEqual(new Set([slice]))
          const acquired = yield* interleaved(
            late.leases.acquire(slice),
            "UPDATE watcher_lease SET owner",
            race.meanwhile({ holder, rival, slice })
          )
          expect(acquired).toBeUndefined()
          const keeper = race.keeps === "holder" ? holder : rival
          expect(yield* late.leases.holders).toEqual(new Map([[slice, keeper.leases.owner]]))
          expect(yield* takeoversOf(late.sql, slice)).toBe(race.takeovers)
          for (const member of [holder, rival, late]) yield* Scope.close(member.scope, Exit.void)
        })
      )
    }

    it.scoped("watchers committing at once get seqs in commit order, without gaps", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const watchers = [yield* watcherAt(database), yield* watcherAt(database), yield* watcherAt(database)]
        yield* Effect.forEach(watchers, (w, i) => holding(w.leases, [`positions:${i}`]))
        yield* Effect.forEach(
          watchers,
          (w, i) =>
            Effect.forEach(
              Array.from({ length: 15 }, (_, n) => n),
              (n) =>
                w.store.commit({
                  slice: `positions:${i}`,
                  point: at(n + 1),
                  writes: [{ resource: "positions", key: `${i}/${n}`, value: "{}" }],
                  events: [event(`${i}/${n}/a`, n + 1), event(`${i}/${n}/b`, n + 1)]
                }),
              { discard: true }
            ),
          { concurrency: "unbounded", discard: true }
        )
        const pending = yield* watchers[0].store.pending(0, 1000)
        expect(pending.map((p) => p.seq)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1))
        // each cycle's events are contiguous, and each watcher's cycles keep their order
        for (let i = 0; i < 90; i += 2) expect(pending[i + 1].event.key).toBe(pending[i].event.key.replace(/a$/, "b"))
        for (const i of [0, 1, 2]) {
          const mine = pending.filter((p) => p.event.key.startsWith(`${i}/`) && p.event.key.endsWith("a"))
          expect(mine.map((p) => p.event.key)).toEqual(Array.from({ length: 15 }, (_, n) => `${i}/${n}/a`))
        }
        for (const w of watchers) yield* Scope.close(w.scope, Exit.void)
      })
    )

    it.scoped("a state written before slices keeps its rows, checkpoint and seqs", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const market = "a".repeat(64)
        const party = "b".repeat(64)
        // the schema and rows of a watcher from before slices
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* Migrator.make({})({
            loader: Migrator.fromRecord({ "1_init": migrations["1_init"] }),
            table: "watcher_migrations"
          })
          yield* sql`INSERT INTO watcher_state ${sql.insert([
            { resource: "positions", key: `${market}/${party}`, value: '{"openVolume":"1"}' },
            { resource: "stake", key: "l1", value: `{"party":"${party}","amount":"5"}` },
            { resource: "stake", key: `available/${party}`, value: `{"partyId":"${party}"}` },
            { resource: "profiles", key: party, value: "{}" }
          ])}`
          yield* sql`INSERT INTO watcher_outbox ${sql.insert({ seq: 7, id: "x", kind: "k", event: "{}" })}`
          yield* sql`INSERT INTO watcher_checkpoint ${sql.insert({
            id: 1,
            height: 42,
            time: "2024-04-01T00:00:42Z",
            node: "http://n",
            next_seq: 8,
            cycles: 3
          })}`
        }).pipe(Effect.provide(Database.layer(database)), Effect.scoped)
        const { leases, store } = yield* watcherAt(database)
        const checkpoints = yield* store.checkpoints
        expect(checkpoints.size).toBe(
          resourceSlices(["positions", "stake", "liquidity", "signerBundles", "profiles", "rewards", "referrals"])
            .length
        )
        for (const checkpoint of checkpoints.values()) expect(checkpoint).toEqual({ ...at(42), cycles: 3 })
        const positions = sliceOfRow("positions", `${market}/${party}`, {})
        expect(yield* store.keys(positions)).toEqual([`${market}/${party}`])
        const stake = sliceOfRow("stake", "l1", { party })
        expect(yield* store.keys(stake)).toEqual([`available/${party}`, "l1"])
        expect(yield* store.keys("profiles")).toEqual([party])
        expect(yield* store.lastSeq).toBe(7)
        yield* holding(leases, ["profiles"])
        expect(
          (yield* store.commit({ slice: "profiles", point: at(43), writes: [], events: [event("p", 43)] })).lastSeq
        ).toBe(8)
      })
    )
  })
}

describe.skipIf(!postgresAvailable)("Store and leases (PostgreSQL): a takeover racing a commit", () => {
  it.scopedLive("waits for the commit to end: a cycle is never written while another member holds the lease", () =>
    Effect.gen(function* () {
      const database = yield* freshPostgres
      const a = yield* watcherAt(database)
      const b = yield* watcherAt(database)
      const slice = "rewards"
      yield* holding(a.leases, [slice])
      yield* b.leases.join([slice])
      // a stalled past its lease and has not noticed: b may take the slice over
      yield* expire(a.sql, slice)
      // b's takeover runs in a fiber of its own, outside a's transaction, once a holds the lease row;
      // what it does meanwhile is seen from another connection: finished, or waiting on a lock
      const start = yield* Deferred.make<void>()
      const seen = yield* Deferred.make<"finished" | "waiting">()
      const waiting = b.sql<{ waiting: number | string }>`SELECT count(*) AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.pipe(
        Effect.map((rows) => Number(rows[0].waiting) > 0),
        Effect.repeat({ until: (waits) => waits, schedule: Schedule.spaced("10 millis") }),
        Effect.orDie
      )
      const takeover = yield* Effect.fork(
        Effect.gen(function* () {
          yield* Deferred.await(start)
          const acquiring = yield* Effect.fork(b.leases.acquire(slice))
          yield* Deferred.complete(
            seen,
            Effect.raceFirst(
              Effect.as(Fiber.await(acquiring), "finished" as const),
              Effect.as(waiting, "waiting" as const)
            )
          )
          return yield* Fiber.join(acquiring)
        })
      )
      const committed = yield* interleaved(
        a.store.commit({
          slice,
          point: at(1),
          writes: [{ resource: "rewards", key: "r", value: "{}" }],
          events: [event("r", 1)]
        }),
        "INSERT INTO watcher_state",
        Effect.zipRight(Deferred.succeed(start, undefined), Deferred.await(seen))
      )
      expect(yield* Deferred.await(seen), "b's takeover while a's transaction held the lease row").toBe("waiting")
      expect(committed).toEqual({ checkpoint: { ...at(1), cycles: 1 }, lastSeq: 1 })
      // then the takeover goes through, and b resumes from what a committed
      expect(yield* Fiber.join(takeover)).toEqual({ slice, from: a.leases.owner })
      expect(yield* takeoversOf(b.sql, slice)).toBe(1)
      expect((yield* b.store.load(slice)).checkpoint).toEqual(Option.some({ ...at(1), cycles: 1 }))
      const refused = yield* Effect.flip(a.store.commit({ slice, point: at(2), writes: [], events: [] }))
      expect(refused).toEqual(new Store.LeaseLost({ slice, owner: b.leases.owner }))
      yield* Scope.close(a.scope, Exit.void)
      yield* Scope.close(b.scope, Exit.void)
    })
  )
})
