/**
 * The watcher's durable state, written against `@effect/sql`'s abstract client (SQLite or
 * PostgreSQL): the rows held per slice, each slice's checkpoint, the outbox of events and each
 * sink's delivery cursor.
 *
 * A slice's cycle (its rows, its events and its checkpoint) is written in one transaction, and only
 * while the slice's lease is this watcher's: after a crash, or a takeover, the state and the
 * outbox always agree. Outbox seqs are handed out under a row lock that commits hold to their end,
 * so seqs become visible in order and a sink reading the outbox never steps over one still to come.
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { ReadPoint, ResourceName, SerializedEvent, WatchEvent } from "./Event.js"
import * as Fingerprints from "./Fingerprints.js"
import { Leases } from "./Leases.js"
import { migrate } from "./Migrations.js"
import type { PendingEvent } from "./Sink.js"

export interface Checkpoint extends ReadPoint {
  /** Cycles committed for the slice. */
  readonly cycles: number
}

/** What the store holds of a slice: its checkpoint, its rows' fingerprints and where its next read may start. */
export interface SliceState {
  readonly checkpoint: Option.Option<Checkpoint>
  readonly held: Fingerprints.Fingerprints
  readonly resume: string | undefined
}

/** One row to write: a new value, or `null` to forget the key. */
export interface RowWrite {
  readonly resource: ResourceName
  readonly key: string
  readonly value: string | null
}

export interface CycleCommit {
  readonly slice: string
  readonly point: ReadPoint
  /** Where the slice's next read may start (see `Snapshot.resume`). */
  readonly resume?: string | undefined
  readonly writes: ReadonlyArray<RowWrite>
  readonly events: ReadonlyArray<SerializedEvent>
}

export interface Committed {
  readonly checkpoint: Checkpoint
  /** The seq of the cycle's last event; absent when it had none. */
  readonly lastSeq: number | undefined
}

export class LeaseLost extends Schema.TaggedError<LeaseLost>()("LeaseLost", {
  slice: Schema.String,
  owner: Schema.NullOr(Schema.String)
}) {
  override get message(): string {
    return `the lease on ${this.slice} is no longer this watcher's (${this.owner ?? "free"}): nothing written`
  }
}

export interface Service {
  /** A slice's checkpoint, and its rows as fingerprints (read page by page: memory does not grow with the rows). */
  readonly load: (slice: string) => Effect.Effect<SliceState, SqlError>
  /** The keys of a slice's rows, in order. */
  readonly keys: (slice: string) => Effect.Effect<ReadonlyArray<string>, SqlError>
  /** Every slice's checkpoint. */
  readonly checkpoints: Effect.Effect<ReadonlyMap<string, Checkpoint>, SqlError>
  /** The rows held under these keys of a resource, as canonical JSON (absent keys are left out). */
  readonly rows: (resource: ResourceName, keys: ReadonlyArray<string>) => Effect.Effect<Map<string, string>, SqlError>
  /** Writes a slice's cycle in one transaction; fails with `LeaseLost` (and writes nothing) if the lease is not ours. */
  readonly commit: (cycle: CycleCommit) => Effect.Effect<Committed, SqlError | LeaseLost>
  /** The seq of the last committed event (0 before the first). */
  readonly lastSeq: Effect.Effect<number, SqlError>
  /** The last seq a sink delivered; a sink seen for the first time starts at the current end of the outbox. */
  readonly cursor: (sink: string) => Effect.Effect<number, SqlError>
  readonly advance: (sink: string, seq: number) => Effect.Effect<void, SqlError>
  /** Up to `limit` events after `seq`, in order. */
  readonly pending: (afterSeq: number, limit: number) => Effect.Effect<ReadonlyArray<PendingEvent>, SqlError>
  /** Forgets the events every listed sink has delivered. */
  readonly prune: (sinks: ReadonlyArray<string>) => Effect.Effect<void, SqlError>
}

export class Store extends Context.Tag("@vega-effect/watcher/Store")<Store, Service>() {}

/** Rows per INSERT: well under SQLite's 32766 and PostgreSQL's 65535 bound parameters. */
const CHUNK = 2000
/** Rows per page when a slice's rows are loaded. */
const LOAD_PAGE = 2000

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

interface CheckpointRow {
  readonly slice: string
  readonly resume: string | null
  readonly height: number | string
  readonly time: string
  readonly node: string
  readonly cycles: number | string
}

const checkpointOf = (row: CheckpointRow): Checkpoint => ({
  height: Number(row.height),
  time: row.time,
  node: row.node,
  cycles: Number(row.cycles)
})

/** Writes a cycle's rows: new values upserted in chunks, forgotten keys deleted. */
const writeRows = (sql: SqlClient.SqlClient, cycle: CycleCommit): Effect.Effect<void, SqlError> =>
  Effect.gen(function* () {
    const upserts = cycle.writes.filter((w) => w.value !== null)
    const deletes = cycle.writes.filter((w) => w.value === null)
    for (const part of chunks(upserts, CHUNK)) {
      yield* sql`INSERT INTO watcher_state ${sql.insert(
        part.map((w) => ({ resource: w.resource, key: w.key, value: w.value!, slice: cycle.slice }))
      )} ON CONFLICT (resource, key) DO UPDATE SET value = excluded.value, slice = excluded.slice`
    }
    for (const w of deletes) yield* sql`DELETE FROM watcher_state WHERE resource = ${w.resource} AND key = ${w.key}`
  })

/** Appends a cycle's events to the outbox under the next seqs; returns the last one (absent with no events). */
const appendEvents = (sql: SqlClient.SqlClient, cycle: CycleCommit): Effect.Effect<number | undefined, SqlError> =>
  Effect.gen(function* () {
    if (cycle.events.length === 0) return undefined
    // taken last, so the lock that orders commits is held for the shortest time
    const [sequence] = yield* sql<{ next_seq: number | string }>`UPDATE watcher_sequence
      SET next_seq = next_seq + ${cycle.events.length} WHERE id = 1 RETURNING next_seq`
    const firstSeq = Number(sequence.next_seq) - cycle.events.length
    const events = cycle.events.map((event, i) => ({
      seq: firstSeq + i,
      id: event.id,
      kind: event.kind,
      event: event.json
    }))
    for (const part of chunks(events, CHUNK)) yield* sql`INSERT INTO watcher_outbox ${sql.insert(part)}`
    return firstSeq + events.length - 1
  })

/** Moves a slice's checkpoint to the cycle's read point, counting the cycle. */
const saveCheckpoint = (sql: SqlClient.SqlClient, cycle: CycleCommit): Effect.Effect<Checkpoint, SqlError> =>
  Effect.gen(function* () {
    const [saved] = yield* sql<CheckpointRow>`INSERT INTO watcher_slice ${sql.insert({
      slice: cycle.slice,
      height: cycle.point.height,
      time: cycle.point.time,
      node: cycle.point.node,
      cycles: 1,
      resume: cycle.resume ?? null
    })} ON CONFLICT (slice) DO UPDATE SET height = excluded.height, time = excluded.time, node = excluded.node,
      cycles = watcher_slice.cycles + 1, resume = excluded.resume
      RETURNING slice, height, time, node, cycles, resume`
    return checkpointOf(saved)
  })

/** Writes a slice's cycle in one transaction, only while `owner` holds its lease. */
const commitCycle = (
  sql: SqlClient.SqlClient,
  owner: string,
  cycle: CycleCommit
): Effect.Effect<Committed, SqlError | LeaseLost> => {
  const forUpdate = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE"), orElse: () => sql.literal("") })
  return sql.withTransaction(
    Effect.gen(function* () {
      // the lease row stays locked to the end: nobody takes the slice while its cycle is written
      const lease = yield* sql<{ owner: string | null }>`SELECT owner FROM watcher_lease
        WHERE slice = ${cycle.slice} ${forUpdate}`
      const holder = lease[0]?.owner ?? null
      if (holder !== owner) return yield* new LeaseLost({ slice: cycle.slice, owner: holder })
      yield* writeRows(sql, cycle)
      const lastSeq = yield* appendEvents(sql, cycle)
      const checkpoint = yield* saveCheckpoint(sql, cycle)
      return { checkpoint, lastSeq }
    })
  )
}

export const make: Effect.Effect<Service, SqlError | Error, SqlClient.SqlClient | Leases> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const leases = yield* Leases
  yield* migrate

  const load = (slice: string) =>
    Effect.gen(function* () {
      const found = yield* sql<CheckpointRow>`SELECT slice, height, time, node, cycles, resume FROM watcher_slice
        WHERE slice = ${slice}`
      const held = Fingerprints.make()
      let after = ""
      for (;;) {
        const page = yield* sql<{ key: string; value: string }>`SELECT key, value FROM watcher_state
          WHERE slice = ${slice} AND key > ${after} ORDER BY key LIMIT ${LOAD_PAGE}`
        for (const row of page) held.set(row.key, Fingerprints.fingerprintOf(row.value))
        if (page.length < LOAD_PAGE) break
        after = page[page.length - 1].key
      }
      return {
        checkpoint: found.length === 0 ? Option.none() : Option.some(checkpointOf(found[0])),
        held,
        resume: found[0]?.resume ?? undefined
      }
    })

  const keys = (slice: string) =>
    Effect.map(sql<{ key: string }>`SELECT key FROM watcher_state WHERE slice = ${slice} ORDER BY key`, (rows) =>
      rows.map((row) => row.key)
    )

  const checkpoints = Effect.map(
    sql<CheckpointRow>`SELECT slice, height, time, node, cycles, resume FROM watcher_slice`,
    (rows) => new Map(rows.map((row) => [row.slice, checkpointOf(row)] as const))
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

  const commit = (cycle: CycleCommit) => commitCycle(sql, leases.owner, cycle)

  const lastSeq = Effect.map(
    sql<{ next_seq: number | string }>`SELECT next_seq FROM watcher_sequence WHERE id = 1`,
    (rows) => (rows.length === 0 ? 0 : Number(rows[0].next_seq) - 1)
  )

  const cursor = (sink: string) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ seq: number | string }>`SELECT seq FROM watcher_cursor WHERE sink = ${sink}`
      if (rows.length > 0) return Number(rows[0].seq)
      yield* sql`INSERT INTO watcher_cursor (sink, seq) SELECT ${sink}, next_seq - 1 FROM watcher_sequence
        WHERE id = 1 ON CONFLICT (sink) DO NOTHING`
      const created = yield* sql<{ seq: number | string }>`SELECT seq FROM watcher_cursor WHERE sink = ${sink}`
      return Number(created[0].seq)
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

  return { load, keys, checkpoints, rows: rowsOf, commit, lastSeq, cursor, advance, pending, prune } satisfies Service
})

export const layer: Layer.Layer<Store, SqlError | Error, SqlClient.SqlClient | Leases> = Layer.effect(Store, make)
