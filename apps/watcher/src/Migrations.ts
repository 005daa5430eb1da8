/**
 * The watcher's tables, one migration per change, for SQLite and PostgreSQL. SQL is kept to what
 * both share; where they differ (`BIGINT` vs `INTEGER`) the dialect decides.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { shardOf } from "./Shard.js"

const bigintType = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({ pg: () => sql.literal("BIGINT"), orElse: () => sql.literal("INTEGER") })

const init = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bigint = bigintType(sql)
  // the rows held per resource, as canonical JSON
  yield* sql`CREATE TABLE watcher_state (
    resource TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (resource, key)
  )`
  // events committed with the state that produced them; `seq` is their order, gap-free
  yield* sql`CREATE TABLE watcher_outbox (
    seq ${bigint} PRIMARY KEY,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    event TEXT NOT NULL
  )`
  // how far each sink has delivered
  yield* sql`CREATE TABLE watcher_cursor (
    sink TEXT PRIMARY KEY,
    seq ${bigint} NOT NULL
  )`
  // the last committed cycle: where it read, and the next outbox seq
  yield* sql`CREATE TABLE watcher_checkpoint (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    height ${bigint} NOT NULL,
    time TEXT NOT NULL,
    node TEXT NOT NULL,
    next_seq ${bigint} NOT NULL,
    cycles ${bigint} NOT NULL
  )`
  // the instance working on this state
  yield* sql`CREATE TABLE watcher_lock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    heartbeat ${bigint} NOT NULL
  )`
})

/** Rows whose slice is worked out per row, moved per chunk of keys. */
const SLICE_CHUNK = 500

/**
 * The resources and their shard counts when migration 2 shipped, written out: a migration does
 * what it did then, whatever resources the watcher has since.
 */
const SHARDS_AT_2: ReadonlyArray<readonly [resource: string, shards: number]> = [
  ["positions", 16],
  ["stake", 16],
  ["liquidity", 1],
  ["signerBundles", 1],
  ["profiles", 1],
  ["rewards", 1],
  ["referrals", 1]
]

const sliceAt2 = (resource: string, index: number, shards: number): string =>
  shards === 1 ? resource : `${resource}:${index}`

/** The slice of a row as migration 2 assigned it: positions by the market of their key, stake by party. */
const rowSliceAt2 = (resource: string, shards: number, key: string, json: string): string => {
  const row = JSON.parse(json) as { readonly partyId?: unknown; readonly party?: unknown }
  const id =
    resource === "positions"
      ? key.slice(0, key.indexOf("/"))
      : typeof row.partyId === "string"
        ? row.partyId
        : typeof row.party === "string"
          ? row.party
          : ""
  return sliceAt2(resource, shardOf(id, shards), shards)
}

/**
 * Slices: each state row records the slice that wrote it, each slice has its own checkpoint, the
 * outbox seq gets a table of its own, and the single-instance lock gives way to members and leases.
 * A state written before keeps its rows and events: every slice starts from the old checkpoint.
 */
const slices = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bigint = bigintType(sql)
  yield* sql`ALTER TABLE watcher_state ADD COLUMN slice TEXT NOT NULL DEFAULT ''`
  yield* sql`UPDATE watcher_state SET slice = resource WHERE ${sql.in(
    "resource",
    SHARDS_AT_2.filter(([, shards]) => shards === 1).map(([resource]) => resource)
  )}`
  for (const [resource, shards] of SHARDS_AT_2.filter(([, n]) => n > 1)) {
    const rows = yield* sql<{ key: string; value: string }>`SELECT key, value FROM watcher_state
      WHERE resource = ${resource}`
    const bySlice = new Map<string, Array<string>>()
    for (const row of rows) {
      const slice = rowSliceAt2(resource, shards, row.key, row.value)
      const keys = bySlice.get(slice) ?? []
      bySlice.set(slice, keys)
      keys.push(row.key)
    }
    for (const [slice, keys] of bySlice) {
      for (let i = 0; i < keys.length; i += SLICE_CHUNK) {
        yield* sql`UPDATE watcher_state SET slice = ${slice}
          WHERE resource = ${resource} AND ${sql.in("key", keys.slice(i, i + SLICE_CHUNK))}`
      }
    }
  }
  yield* sql`CREATE INDEX watcher_state_slice ON watcher_state (slice)`
  // the last committed cycle of each slice
  yield* sql`CREATE TABLE watcher_slice (
    slice TEXT PRIMARY KEY,
    height ${bigint} NOT NULL,
    time TEXT NOT NULL,
    node TEXT NOT NULL,
    cycles ${bigint} NOT NULL,
    resume TEXT
  )`
  // the seq the next committed event gets; its row lock orders concurrent commits
  yield* sql`CREATE TABLE watcher_sequence (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    next_seq ${bigint} NOT NULL
  )`
  const old = yield* sql<{
    height: number | string
    time: string
    node: string
    next_seq: number | string
    cycles: number | string
  }>`SELECT height, time, node, next_seq, cycles FROM watcher_checkpoint WHERE id = 1`
  const nextSeq = old.length > 0 ? Number(old[0].next_seq) : 1
  yield* sql`INSERT INTO watcher_sequence ${sql.insert({ id: 1, next_seq: nextSeq })}`
  if (old.length > 0) {
    const { cycles, height, node, time } = old[0]
    yield* sql`INSERT INTO watcher_slice ${sql.insert(
      SHARDS_AT_2.flatMap(([resource, shards]) =>
        Array.from({ length: shards }, (_, index) => sliceAt2(resource, index, shards))
      ).map((slice) => ({
        slice,
        height: Number(height),
        time,
        node,
        cycles: Number(cycles)
      }))
    )}`
  }
  yield* sql`DROP TABLE watcher_checkpoint`
  yield* sql`DROP TABLE watcher_lock`
  // the watchers sharing this state, each seen at its last heartbeat (milliseconds, database clock)
  yield* sql`CREATE TABLE watcher_member (
    owner TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    heartbeat ${bigint} NOT NULL
  )`
  // who works each slice, until when, and how often it was taken from a watcher that was gone
  yield* sql`CREATE TABLE watcher_lease (
    slice TEXT PRIMARY KEY,
    owner TEXT,
    expires ${bigint} NOT NULL,
    takeovers ${bigint} NOT NULL
  )`
})

/** A slice's rows in key order, so that they can be loaded page by page (see `Store.load`). */
const sliceKeys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX watcher_state_slice_key ON watcher_state (slice, key)`
  yield* sql`DROP INDEX watcher_state_slice`
})

/** The network the state belongs to (see `Network.ts`): one row, absent until a watcher records it. */
const network = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE watcher_network (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    chain_id TEXT NOT NULL
  )`
})

/** Every migration, by id: a test builds an older schema from the first ones. */
export const migrations = { "1_init": init, "2_slices": slices, "3_slice_keys": sliceKeys, "4_network": network }

/**
 * Brings the database to the current schema; safe to run at every start, and by several watchers
 * starting together (PostgreSQL can refuse a concurrent `CREATE TABLE IF NOT EXISTS`: try again).
 */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord(migrations),
  table: "watcher_migrations"
}).pipe(Effect.retry({ times: 5, schedule: Schedule.spaced("200 millis") }))
