/**
 * JSON Lines appended to a file, exactly once across crashes.
 *
 * `deliver` appends the batch's lines and fsyncs before it succeeds; only then does the caller
 * move the sink's cursor. A crash (even SIGKILL in the middle of a write) can therefore leave
 * two things behind, which `recover` repairs on the next start:
 * - a partial last line (no trailing newline): it is cut away, the events it held are still pending;
 * - whole lines of the batch in flight whose cursor never moved: the file's tail is read back
 *   (backwards, in chunks, stopping at the first line that is not pending, so the read is bounded
 *   by the batch in flight however large the file) and the events found there, which must be the
 *   first pending ones in order, are reported as already delivered.
 *
 * The file is expected to have this sink as its only writer. If it is moved or deleted while the
 * watcher runs (log rotation), the next delivery starts a new file at the same path.
 */
import type { FileHandle } from "node:fs/promises"
import * as fs from "node:fs/promises"
import { dirname } from "node:path"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { toJsonLine } from "../Event.js"
import { type PendingEvent, type Sink, SinkError } from "../Sink.js"

const NAME = "file"
/** Bytes read per step when the file's tail is read backwards. */
export const CHUNK_BYTES = 64 * 1024
const NEWLINE = 0x0a

export interface Options {
  /** Events per write at most; a larger batch is appended in several writes, then fsynced once. Default 1000. */
  readonly maxBatch?: number
}

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const attempt = <A>(what: string, run: () => Promise<A>): Effect.Effect<A, SinkError> =>
  Effect.tryPromise({
    try: run,
    catch: (cause) => new SinkError({ sink: NAME, message: `${what}: ${describe(cause)}`, cause })
  })

const isMissing = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === "ENOENT"

const statOrUndefined = (path: string) =>
  fs.stat(path).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)))

/** Makes a new file's directory entry durable too; best effort (not every file system can sync a directory). */
const syncDirectory = async (path: string): Promise<void> => {
  const directory = await fs.open(path, "r").catch(() => undefined)
  if (directory === undefined) return
  await directory.sync().catch(() => undefined)
  await directory.close().catch(() => undefined)
}

/** Opens for reading and appending, creating the file if it is missing. */
const openFile = async (path: string): Promise<FileHandle> => {
  const existed = (await statOrUndefined(path)) !== undefined
  const handle = await fs.open(path, "a+")
  if (!existed) await syncDirectory(dirname(path))
  return handle
}

const readAt = async (handle: FileHandle, position: number, length: number): Promise<Buffer> => {
  const buffer = Buffer.alloc(length)
  let filled = 0
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return buffer.subarray(0, filled)
}

const writeAll = async (handle: FileHandle, buffer: Buffer): Promise<void> => {
  let written = 0
  while (written < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, written, buffer.length - written)
    written += bytesWritten
  }
}

/** Cuts a last line that has no newline (a write cut short); returns the file's size after. */
const dropPartialLine = async (handle: FileHandle): Promise<number> => {
  const { size } = await handle.stat()
  let keep = 0
  for (let position = size; position > 0;) {
    const length = Math.min(CHUNK_BYTES, position)
    position -= length
    const index = (await readAt(handle, position, length)).lastIndexOf(NEWLINE)
    if (index >= 0) {
      keep = position + index + 1
      break
    }
  }
  if (keep < size) {
    await handle.truncate(keep)
    await handle.sync()
  }
  return keep
}

/** The lines of a file that ends with a newline, last first, read backwards in chunks. */
async function* linesBackward(handle: FileHandle, size: number): AsyncGenerator<Buffer> {
  let position = size - 1 // the final newline ends the last line
  let rest: Buffer = Buffer.alloc(0) // the bytes from `position` to the end of the line being read
  while (true) {
    const index = rest.lastIndexOf(NEWLINE)
    if (index >= 0) {
      yield rest.subarray(index + 1)
      rest = rest.subarray(0, index)
    } else if (position === 0) {
      yield rest
      return
    } else {
      const length = Math.min(CHUNK_BYTES, position)
      position -= length
      rest = Buffer.concat([await readAt(handle, position, length), rest])
    }
  }
}

const idOf = (line: Buffer): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(line.toString("utf8"))
    const id = (parsed as { id?: unknown } | null)?.id
    return typeof id === "string" ? id : undefined
  } catch {
    return undefined
  }
}

type TailCheck =
  | { readonly _tag: "Delivered"; readonly count: number }
  | { readonly _tag: "Foreign"; readonly found: ReadonlyArray<string> }

/**
 * How many of the first pending events end the file. The pending events in the file's tail must be
 * exactly the first ones, in order; anything else means the file does not go with this state.
 */
const checkTail = async (
  handle: FileHandle,
  size: number,
  pending: ReadonlyArray<PendingEvent>
): Promise<TailCheck> => {
  const indexOf = new Map(pending.map(({ event }, index) => [event.id, index]))
  const found: Array<string> = []
  const indices: Array<number> = []
  for await (const line of linesBackward(handle, size)) {
    const id = idOf(line)
    const index = id === undefined ? undefined : indexOf.get(id)
    if (id === undefined || index === undefined) break
    found.push(id)
    indices.push(index)
    // more than every pending event: some id repeats, which the check below reports
    if (indices.length > pending.length) break
  }
  found.reverse()
  indices.reverse()
  return indices.every((index, position) => index === position)
    ? { _tag: "Delivered", count: indices.length }
    : { _tag: "Foreign", found }
}

const foreign = (path: string, pending: ReadonlyArray<PendingEvent>, found: ReadonlyArray<string>) =>
  new SinkError({
    sink: NAME,
    message:
      `${path} does not continue this watcher's state: it ends with ${found.length} pending event(s) ` +
      `(${found.slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""}) that are not the first pending ones ` +
      `(${pending[0].event.id} first); is the file shared, or from another database?`
  })

/** The sink over `path`; the file handle is closed with the scope. */
export const make = (path: string, options: Options = {}): Effect.Effect<Sink, SinkError, Scope.Scope> =>
  Effect.gen(function* () {
    const maxBatch = Math.max(1, options.maxBatch ?? 1000)
    const lock = yield* Effect.makeSemaphore(1)
    let handle = yield* attempt(`cannot open ${path}`, () => openFile(path))
    yield* Effect.addFinalizer(() => Effect.promise(() => handle.close().catch(() => undefined)))
    /** Set when a failed delivery could not take its bytes back: the size to truncate to first. */
    let undoTo: number | undefined

    const reopen = attempt(`cannot open ${path}`, async () => {
      const previous = handle
      handle = await openFile(path)
      await previous.close().catch(() => undefined)
    })

    const takeBack = async () => {
      if (undoTo === undefined) return
      await handle.truncate(undoTo)
      await handle.sync()
      undoTo = undefined
    }
    const undo = attempt(`cannot take back a failed write to ${path}`, takeBack)

    /** True when `path` no longer names the open file (moved or deleted). */
    const rotated = attempt(`cannot stat ${path}`, async () => {
      const [onDisk, open] = await Promise.all([statOrUndefined(path), handle.stat()])
      return onDisk === undefined || onDisk.ino !== open.ino || onDisk.dev !== open.dev
    })

    const append = (events: ReadonlyArray<PendingEvent>) =>
      attempt(`cannot append to ${path}`, async () => {
        const { size } = await handle.stat()
        try {
          for (let start = 0; start < events.length; start += maxBatch) {
            const lines = events.slice(start, start + maxBatch).map(({ event }) => toJsonLine(event) + "\n")
            await writeAll(handle, Buffer.from(lines.join(""), "utf8"))
          }
          await handle.datasync()
        } catch (error) {
          // leave no partial line (nor lines the caller will send again) in front of the retry
          undoTo = size
          await takeBack().catch(() => undefined)
          throw error
        }
      })

    const deliver = (events: ReadonlyArray<PendingEvent>): Effect.Effect<void, SinkError> =>
      events.length === 0
        ? Effect.void
        : lock.withPermits(1)(
            Effect.gen(function* () {
              yield* undo
              if (yield* rotated) {
                yield* Effect.logWarning(`${path} was moved or deleted: writing to a new file there`)
                yield* reopen
              }
              // a write once started is finished, so an interruption (shutdown) never leaves half a line
              yield* Effect.uninterruptible(append(events))
            })
          )

    const recover = (pending: ReadonlyArray<PendingEvent>): Effect.Effect<number, SinkError> =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          // the file may have been deleted or replaced since it was opened
          yield* reopen
          undoTo = undefined
          const size = yield* attempt(`cannot repair the end of ${path}`, () => dropPartialLine(handle))
          if (size === 0 || pending.length === 0) return 0
          const tail = yield* attempt(`cannot read back ${path}`, () => checkTail(handle, size, pending))
          return tail._tag === "Delivered" ? tail.count : yield* Effect.fail(foreign(path, pending, tail.found))
        })
      )

    return { name: NAME, recover, deliver } satisfies Sink
  })
