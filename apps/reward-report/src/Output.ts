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

export class WriteError extends Data.TaggedError("WriteError")<{ readonly path: string; readonly reason: string }> {
  override get message(): string {
    return `cannot write ${this.path}: ${this.reason}`
  }
}

/** Pieces are gathered into writes of about this many bytes. */
const BUFFER = 1 << 20

const reasonOf = (error: unknown): string =>
  error instanceof Error
    ? ((error as NodeJS.ErrnoException).code ?? error.message) + `: ${error.message}`
    : String(error)

/** Writes `pieces` to `target` atomically (temporary file, fsync, rename, fsync of the directory). */
export const writeFileAtomically = (target: string, pieces: Iterable<string>): Effect.Effect<void, WriteError> =>
  Effect.try({
    try: () => {
      const dir = path.dirname(path.resolve(target))
      const temporary = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)
      let fd: number | undefined
      try {
        fd = fs.openSync(temporary, "wx", 0o644)
        let buffer: Array<string> = []
        let size = 0
        const flush = () => {
          if (size === 0) return
          fs.writeSync(fd!, buffer.join(""))
          buffer = []
          size = 0
        }
        for (const piece of pieces) {
          buffer.push(piece)
          size += piece.length
          if (size >= BUFFER) flush()
        }
        flush()
        fs.fsyncSync(fd)
        fs.closeSync(fd)
        fd = undefined
        fs.renameSync(temporary, target)
      } catch (error) {
        if (fd !== undefined) fs.closeSync(fd)
        fs.rmSync(temporary, { force: true })
        throw error
      }
      // the rename itself is durable once the directory is flushed (not possible on every platform)
      try {
        const dirFd = fs.openSync(dir, "r")
        try {
          fs.fsyncSync(dirFd)
        } finally {
          fs.closeSync(dirFd)
        }
      } catch {
        // directories cannot be opened for fsync on some systems; the file itself is complete
      }
    },
    catch: (error) => new WriteError({ path: target, reason: reasonOf(error) })
  })

/** Writes `pieces` to a stream, waiting whenever it asks to (a slow pipe must not fill memory). */
export const writeStream = (stream: NodeJS.WritableStream, pieces: Iterable<string>): Effect.Effect<void, WriteError> =>
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
