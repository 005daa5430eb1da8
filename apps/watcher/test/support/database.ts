/**
 * The databases the store is tested on: a SQLite file, and a PostgreSQL database of its own per
 * test on the local server (skipped, with a message, where no server answers).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, type Duration, Effect, Layer, Redacted, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../../src/Database.js"
import * as Leases from "../../src/Leases.js"
import * as Store from "../../src/Store.js"
import { availableOrSkipped, reachable } from "./net.js"

/** The server's maintenance database, where test databases are created. */
export const postgresAdmin = process.env.VEGA_WATCHER_TEST_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/test"

export const postgresAvailable = availableOrSkipped(
  await reachable(postgresAdmin),
  `PostgreSQL is not reachable at ${postgresAdmin}`,
  "PostgreSQL tests"
)

let databases = 0

const admin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  effect.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(postgresAdmin) })), Effect.scoped)

/** A new, empty PostgreSQL database for the scope, dropped at its end; its URL. */
export const freshPostgres: Effect.Effect<string, unknown, Scope.Scope> = Effect.gen(function* () {
  const name = `watcher_test_${process.pid}_${++databases}_${Date.now() % 100_000}`
  yield* admin(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE DATABASE ${sql(name)}`))
  yield* Effect.addFinalizer(() =>
    admin(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)).pipe(
      Effect.ignore
    )
  )
  const url = new URL(postgresAdmin)
  url.pathname = `/${name}`
  return url.toString()
})

/** A new SQLite file for the scope, removed at its end; its path. */
export const freshSqlite: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "watcher-db-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => join(dir, "state.db")))

export interface Engine {
  readonly name: string
  readonly available: boolean
  /** A fresh database for the scope, as the watcher's `database` setting names it. */
  readonly fresh: Effect.Effect<string, unknown, Scope.Scope>
}

export const engines: ReadonlyArray<Engine> = [
  { name: "SQLite", available: true, fresh: freshSqlite },
  { name: "PostgreSQL", available: postgresAvailable, fresh: freshPostgres }
]

/** A watcher's view of `database`: its own connection, leases and store, as a second process would have. */
export const stateAt = (database: string, ttl: Duration.DurationInput = "10 seconds") =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      Store.layer.pipe(Layer.provideMerge(Leases.layer({ ttl })), Layer.provideMerge(Database.layer(database))),
      scope
    )
    return {
      scope,
      sql: Context.get(context, SqlClient.SqlClient),
      leases: Context.get(context, Leases.Leases),
      store: Context.get(context, Store.Store)
    }
  })
