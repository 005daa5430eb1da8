/**
 * The watcher's tables, one migration per change, for every engine `@effect/sql` speaks. SQL is
 * kept to what SQLite and PostgreSQL share; where they differ (`BIGINT` vs `INTEGER`) the dialect
 * decides.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

const init = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bigint = sql.onDialectOrElse({ pg: () => sql.literal("BIGINT"), orElse: () => sql.literal("INTEGER") })
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

/** Brings the database to the current schema; safe to run at every start. */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord({ "1_init": init }),
  table: "watcher_migrations"
})
