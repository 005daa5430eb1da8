/**
 * The database holding the state, chosen by the configured `database`: a `postgres://` (or
 * `postgresql://`) URL selects PostgreSQL, which several watchers can share; anything else is a
 * SQLite file, for one watcher (or several on one host).
 *
 * The URL may carry a password: it is kept `Redacted` and never logged. `PGPASSWORD` and the other
 * libpq variables apply as usual.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type * as ConfigError from "effect/ConfigError"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { isPostgres } from "./Config.js"

export const layer = (database: string): Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError.ConfigError> =>
  isPostgres(database) ? PgClient.layer({ url: Redacted.make(database) }) : SqliteClient.layer({ filename: database })
