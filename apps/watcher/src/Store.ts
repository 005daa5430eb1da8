/**
 * The watcher's durable state, written against `@effect/sql`'s abstract client: the rows held per
 * resource, the outbox of events, each sink's delivery cursor, the checkpoint of the last cycle,
 * and the lock that keeps two instances off one state.
 *
 * A cycle's rows, events and checkpoint are written in one transaction, so after a crash the state
 * and the outbox always agree: either the whole cycle is there or none of it.
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { hostname } from "node:os"
import type { ReadPoint, ResourceName, SerializedEvent, WatchEvent } from "./Event.js"
import { migrate } from "./Migrations.js"
import type { PendingEvent } from "./Sink.js"

export interface Checkpoint extends ReadPoint {
  /** The seq the next committed event gets. */
  readonly nextSeq: number
  readonly cycles: number
}

/** One row to write: a new value, or `null` to forget the key. */
export interface RowWrite {
  readonly resource: ResourceName
  readonly key: string
  readonly value: string | null
}

export interface CycleCommit {
  readonly point: ReadPoint
  readonly writes: ReadonlyArray<RowWrite>
  readonly events: ReadonlyArray<SerializedEvent>
}

export class StateLocked extends Schema.TaggedError<StateLocked>()("StateLocked", {
  owner: Schema.String,
  host: Schema.String,
  pid: Schema.Number,
  heartbeatAgeMillis: Schema.Number
}) {
  override get message(): string {
    return `the state is in use by another watcher (${this.owner}, pid ${this.pid} on ${this.host}, seen ${Math.round(this.heartbeatAgeMillis / 1000)} s ago)`
  }
}

export class LockLost extends Schema.TaggedError<LockLost>()("LockLost", { owner: Schema.String }) {
  override get message(): string {
    return `another watcher (${this.owner}) took over this state; stopping`
  }
}

export interface Service {
  readonly checkpoint: Effect.Effect<Option.Option<Checkpoint>, SqlError>
  /** Every row held, per resource, as canonical JSON. */
  readonly loadState: Effect.Effect<Map<ResourceName, Map<string, string>>, SqlError>
  /** The rows held under these keys of a resource, as canonical JSON (absent keys are left out). */
  readonly rows: (resource: ResourceName, keys: ReadonlyArray<string>) => Effect.Effect<Map<string, string>, SqlError>
  /** Writes a cycle in one transaction; fails with `LockLost` (and writes nothing) if the lock is not ours. */
  readonly commit: (cycle: CycleCommit) => Effect.Effect<Checkpoint, SqlError | LockLost>
  /** The last seq a sink delivered; a sink seen for the first time starts at the current end of the outbox. */
  readonly cursor: (sink: string) => Effect.Effect<number, SqlError>
  readonly advance: (sink: string, seq: number) => Effect.Effect<void, SqlError>
  /** Up to `limit` events after `seq`, in order. */
  readonly pending: (afterSeq: number, limit: number) => Effect.Effect<ReadonlyArray<PendingEvent>, SqlError>
  /** Forgets the events every listed sink has delivered. */
  readonly prune: (sinks: ReadonlyArray<string>) => Effect.Effect<void, SqlError>
  /**
   * Takes the lock for the life of the scope, renewing it; a lock whose holder is gone (its process
   * on this host is dead, or its heartbeat is older than `staleAfter`) is taken over.
   */
  readonly lock: (options?: {
    readonly staleAfter?: Duration.DurationInput
  }) => Effect.Effect<void, SqlError | StateLocked, Scope.Scope>
}

export class Store extends Context.Tag("@vega-effect/watcher/Store")<Store, Service>() {}

/** Rows per INSERT: well under SQLite's 32766 and PostgreSQL's 65535 bound parameters. */
const CHUNK = 2000

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

interface LockRow {
  readonly owner: string
  readonly host: string
  readonly pid: number
  readonly heartbeat: number | string
}

export const make: Effect.Effect<Service, SqlError | Error, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrate
  const owner = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`
  let locked = false

  const checkpoint = Effect.map(
    sql<{
      height: number | string
      time: string
      node: string
      next_seq: number | string
      cycles: number | string
    }>`SELECT height, time, node, next_seq, cycles FROM watcher_checkpoint WHERE id = 1`,
    (rows): Option.Option<Checkpoint> =>
      rows.length === 0
        ? Option.none()
        : Option.some({
            height: Number(rows[0].height),
            time: rows[0].time,
            node: rows[0].node,
            nextSeq: Number(rows[0].next_seq),
            cycles: Number(rows[0].cycles)
          })
  )

  const loadState = Effect.map(
    sql<{ resource: ResourceName; key: string; value: string }>`SELECT resource, key, value FROM watcher_state`,
    (rows) => {
      const out = new Map<ResourceName, Map<string, string>>()
      for (const row of rows) {
        let held = out.get(row.resource)
        if (held === undefined) out.set(row.resource, (held = new Map()))
        held.set(row.key, row.value)
      }
      return out
    }
  )

  const rowsOf = (resource: ResourceName, keys: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const out = new Map<string, string>()
      for (const part of chunks(keys, 500)) {
        const found = yield* sql<{ key: string; value: string }>`SELECT key, value FROM watcher_state
          WHERE resource = ${resource} AND ${sql.in("key", part)}`
        for (const row of found) out.set(row.key, row.value)
      }
      return out
    })

  const assertOwner = Effect.gen(function* () {
    if (!locked) return
    const rows = yield* sql<{ owner: string }>`SELECT owner FROM watcher_lock WHERE id = 1`
    if (rows[0]?.owner !== owner) return yield* new LockLost({ owner: rows[0]?.owner ?? "nobody" })
  })

  const commit = (cycle: CycleCommit) =>
    sql.withTransaction(
      Effect.gen(function* () {
        yield* assertOwner
        const previous = yield* checkpoint
        const firstSeq = Option.match(previous, { onNone: () => 1, onSome: (c) => c.nextSeq })
        const upserts = cycle.writes.filter((w) => w.value !== null)
        const deletes = cycle.writes.filter((w) => w.value === null)
        for (const part of chunks(upserts, CHUNK)) {
          yield* sql`INSERT INTO watcher_state ${sql.insert(
            part.map((w) => ({ resource: w.resource, key: w.key, value: w.value! }))
          )} ON CONFLICT (resource, key) DO UPDATE SET value = excluded.value`
        }
        for (const w of deletes) yield* sql`DELETE FROM watcher_state WHERE resource = ${w.resource} AND key = ${w.key}`
        const events = cycle.events.map((event, i) => ({
          seq: firstSeq + i,
          id: event.id,
          kind: event.kind,
          event: event.json
        }))
        for (const part of chunks(events, CHUNK)) yield* sql`INSERT INTO watcher_outbox ${sql.insert(part)}`
        const next: Checkpoint = {
          ...cycle.point,
          nextSeq: firstSeq + events.length,
          cycles: Option.match(previous, { onNone: () => 1, onSome: (c) => c.cycles + 1 })
        }
        yield* sql`INSERT INTO watcher_checkpoint ${sql.insert({
          id: 1,
          height: next.height,
          time: next.time,
          node: next.node,
          next_seq: next.nextSeq,
          cycles: next.cycles
        })} ON CONFLICT (id) DO UPDATE SET height = excluded.height, time = excluded.time, node = excluded.node,
          next_seq = excluded.next_seq, cycles = excluded.cycles`
        return next
      })
    )

  const cursor = (sink: string) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ seq: number | string }>`SELECT seq FROM watcher_cursor WHERE sink = ${sink}`
      if (rows.length > 0) return Number(rows[0].seq)
      const start = Option.match(yield* checkpoint, { onNone: () => 0, onSome: (c) => c.nextSeq - 1 })
      yield* sql`INSERT INTO watcher_cursor ${sql.insert({ sink, seq: start })}`
      return start
    })

  const advance = (sink: string, seq: number) =>
    sql`UPDATE watcher_cursor SET seq = ${seq} WHERE sink = ${sink} AND seq < ${seq}`.pipe(Effect.asVoid)

  const pending = (afterSeq: number, limit: number) =>
    Effect.map(
      sql<{
        seq: number | string
        event: string
      }>`SELECT seq, event FROM watcher_outbox WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`,
      (rows): ReadonlyArray<PendingEvent> =>
        rows.map((row) => ({ seq: Number(row.seq), event: JSON.parse(row.event) as WatchEvent }))
    )

  const prune = (sinks: ReadonlyArray<string>) =>
    sinks.length === 0
      ? Effect.void
      : sql`DELETE FROM watcher_outbox WHERE seq <= (SELECT MIN(seq) FROM watcher_cursor WHERE ${sql.in(
          "sink",
          sinks
        )})`.pipe(Effect.asVoid)

  const lock = (options?: { readonly staleAfter?: Duration.DurationInput }) =>
    Effect.gen(function* () {
      const staleAfter = Duration.toMillis(options?.staleAfter ?? "30 seconds")
      const host = hostname()
      yield* sql.withTransaction(
        Effect.gen(function* () {
          const now = Date.now()
          const rows = yield* sql<LockRow>`SELECT owner, host, pid, heartbeat FROM watcher_lock WHERE id = 1`
          const held = rows[0]
          if (held !== undefined && held.owner !== owner) {
            const age = now - Number(held.heartbeat)
            const holderGone = (held.host === host && !processAlive(Number(held.pid))) || age > staleAfter
            if (!holderGone) {
              return yield* new StateLocked({
                owner: held.owner,
                host: held.host,
                pid: Number(held.pid),
                heartbeatAgeMillis: age
              })
            }
            yield* Effect.logWarning(`taking over the state from ${held.owner}: it is gone`)
          }
          yield* sql`INSERT INTO watcher_lock ${sql.insert({ id: 1, owner, host, pid: process.pid, heartbeat: now })}
            ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid,
            heartbeat = excluded.heartbeat`
        })
      )
      locked = true
      yield* Effect.forkScoped(
        Effect.suspend(
          () => sql`UPDATE watcher_lock SET heartbeat = ${Date.now()} WHERE id = 1 AND owner = ${owner}`
        ).pipe(
          Effect.catchAll((error) => Effect.logWarning("could not renew the state lock", error)),
          Effect.repeat(Schedule.spaced(Duration.millis(Math.max(100, staleAfter / 4))))
        )
      )
      yield* Effect.addFinalizer(() =>
        sql`DELETE FROM watcher_lock WHERE id = 1 AND owner = ${owner}`.pipe(Effect.ignore)
      )
    })

  return { checkpoint, loadState, rows: rowsOf, commit, cursor, advance, pending, prune, lock } satisfies Service
})

export const layer: Layer.Layer<Store, SqlError | Error, SqlClient.SqlClient> = Layer.effect(Store, make)
