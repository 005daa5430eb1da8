/**
 * Reading a watcher's SQLite state from outside, as an operator would while it runs: read-only,
 * with its own connection, tolerating a file not created yet or being migrated.
 */
import { existsSync } from "node:fs"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const Sqlite = createRequire(require.resolve("@effect/sql-sqlite-node"))("better-sqlite3") as new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean }
) => { prepare: (sql: string) => { get: (...params: Array<unknown>) => unknown }; close: () => void }

export interface Progress {
  /** The height every slice has committed; 0 until `slices` slices have committed. */
  readonly height: number
  readonly nextSeq: number
  /** The named sink's cursor. */
  readonly cursor: number
}

export const progressOf = (database: string, slices: number, sink: string): Progress | undefined => {
  if (!existsSync(database)) return undefined
  try {
    const db = new Sqlite(database, { readonly: true, fileMustExist: true })
    try {
      const committed = db.prepare("SELECT MIN(height) AS height, COUNT(*) AS n FROM watcher_slice").get() as {
        height: number | null
        n: number
      }
      const sequence = db.prepare("SELECT next_seq FROM watcher_sequence WHERE id = 1").get() as
        { next_seq: number } | undefined
      const cursor = db.prepare("SELECT seq FROM watcher_cursor WHERE sink = ?").get(sink) as
        { seq: number } | undefined
      if (sequence === undefined) return undefined
      return {
        height: committed.n < slices ? 0 : (committed.height ?? 0),
        nextSeq: sequence.next_seq,
        cursor: cursor?.seq ?? 0
      }
    } finally {
      db.close()
    }
  } catch {
    return undefined // not created yet, or mid-migration
  }
}
