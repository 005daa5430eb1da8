/**
 * Everything a state holds, table by table, to compare it before and after a watcher ran: every
 * table of the database (the new ones a migration adds too), its rows in a fixed order.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Database from "../../src/Database.js"

const tablesOf = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`,
    orElse: () => sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
  })

/** Every table's rows, as JSON text sorted, by table name. */
export const dumpState = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const out: Record<string, ReadonlyArray<string>> = {}
    const tables = (yield* tablesOf(sql)).map(({ name }) => name).sort()
    for (const name of tables) {
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM ${sql(name)}`
      out[name] = rows.map((row) => JSON.stringify(row)).sort()
    }
    return out
  })

/** {@link dumpState} of the state at `database`, over a connection of its own. */
export const dumpStateAt = (database: string) =>
  Effect.flatMap(SqlClient.SqlClient, dumpState).pipe(Effect.provide(Database.layer(database)), Effect.scoped)
