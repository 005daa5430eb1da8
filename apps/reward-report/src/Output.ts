/**
 * Where a report goes: a file, written whole or not at all, or stdout.
 *
 * A file is written to a temporary name in the same directory, flushed to disk, and renamed over
 * the target: a reader sees the old file or the new one, never half of one, even if the process
 * dies while writing. On failure the temporary file is removed.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Piece } from "./Report.js"

export class WriteError extends Data.TaggedError("WriteError")<{ readonly path: string; readonly reason: string }> {
  override get message(): string {
    return `cannot write ${this.path}: ${this.reason}`
  }
}

/** Pieces are gathered into writes of about this many bytes. */
const BUFFER = 1 << 20

/**
 * After about this many bytes written, what was written is flushed to disk while the writing goes
 * on, so that the flush at the end waits only for the last of it (the disk works while the report
 * is rendered).
 */
export const FLUSH_EVERY = 64 << 20

/** The error's message, after its code when the message does not start with it already. */
const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const code = (error as NodeJS.ErrnoException).code
  return code === undefined || error.message.startsWith(code) ? error.message : `${code}: ${error.message}`
}

/**
 * Writes `pieces` to `target` atomically (temporary file, fsync, rename, fsync of the directory).
 * A gathered buffer is written while the next one is made: the disk works while the report is
 * rendered (one write in flight at a time, so memory stays at two buffers); every
 * {@link FLUSH_EVERY} bytes, a flush to disk of what was written so far is started beside them.
 */
export const writeFileAtomically = (target: string, pieces: Iterable<Piece>): Effect.Effect<void, WriteError> =>
  Effect.tryPromise({
    try: async () => {
      const dir = path.dirname(path.resolve(target))
      const temporary = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)
      let file: fs.promises.FileHandle | undefined
      let writing: Promise<unknown> = Promise.resolve()
      let syncing: Promise<unknown> = Promise.resolve()
      try {
        file = await fs.promises.open(temporary, "wx", 0o644)
        const handle = file
        let buffer: Array<Piece> = []
        let encoded = false
        let size = 0
        let unsynced = 0
        const flush = async () => {
          await writing
          if (unsynced >= FLUSH_EVERY) {
            // one flush at a time; a failure shows at the flush at the end at the latest
            await syncing
            syncing = handle.datasync()
            unsynced = 0
          }
          if (size === 0) return
          writing = encoded ? handle.write(joinBytes(buffer)) : handle.write((buffer as Array<string>).join(""))
          buffer = []
          encoded = false
          unsynced += size
          size = 0
        }
        for (const piece of pieces) {
          buffer.push(piece)
          size += piece.length
          if (typeof piece !== "string") encoded = true
          if (size >= BUFFER) await flush()
        }
        await flush()
        await writing
        await syncing
        await handle.sync()
        file = undefined
        await handle.close()
        await fs.promises.rename(temporary, target)
      } catch (error) {
        // a write or flush still in flight ends before the file is closed and removed
        await writing.catch(() => undefined)
        await syncing.catch(() => undefined)
        if (file !== undefined) await file.close()
        await fs.promises.rm(temporary, { force: true })
        throw error
      }
      // the rename itself is durable once the directory is flushed (not possible on every platform)
      try {
        const directory = await fs.promises.open(dir, "r")
        try {
          await directory.sync()
        } finally {
          await directory.close()
        }
      } catch {
        // directories cannot be opened for fsync on some systems; the file itself is complete
      }
    },
    catch: (error) => new WriteError({ path: target, reason: reasonOf(error) })
  })

/** Pieces, some encoded already, as one buffer of UTF-8. */
const joinBytes = (pieces: ReadonlyArray<Piece>): Uint8Array =>
  pieces.length === 1 && typeof pieces[0] !== "string"
    ? // a piece as large as a write (rows read back from disk): written as it is
      pieces[0]
    : Buffer.concat(pieces.map((piece) => (typeof piece === "string" ? Buffer.from(piece, "utf8") : piece)))

/** Writes `pieces` to a stream, waiting whenever it asks to (a slow pipe must not fill memory). */
export const writeStream = (stream: NodeJS.WritableStream, pieces: Iterable<Piece>): Effect.Effect<void, WriteError> =>
  Effect.tryPromise({
    try: async () => {
      for (const piece of pieces) {
        if (!stream.write(piece)) {
          await new Promise<void>((resolve, reject) => {
            const onDrain = () => (stream.off("error", onError), resolve())
            const onError = (error: Error) => (stream.off("drain", onDrain), reject(error))
            stream.once("drain", onDrain)
            stream.once("error", onError)
          })
        }
      }
    },
    catch: (error) => new WriteError({ path: "stdout", reason: reasonOf(error) })
  })
