import { promises as fsExports } from "node:fs"
import type { FileHandle } from "node:fs/promises"
import * as fs from "node:fs/promises"
import { syncBuiltinESMExports } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { describe, expect } from "vitest"
import { toJsonLine } from "../../src/Event.js"
import type { PendingEvent, Sink } from "../../src/Sink.js"
import * as FileSink from "../../src/sinks/FileSink.js"
import { captureLogs } from "../support/logs.js"
import { pendingEvents } from "./events.js"

/** A fresh directory, removed with the scope. */
const tempDir: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(join(tmpdir(), "file-sink-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

const linesOf = (events: ReadonlyArray<PendingEvent>): string =>
  events.map(({ event }) => toJsonLine(event) + "\n").join("")

const read = (path: string) => Effect.promise(() => fs.readFile(path, "utf8"))

/** Runs `f` with a sink over `path` that is closed afterwards, as a process that ends would. */
const withSink = <A, E>(path: string, f: (sink: Sink) => Effect.Effect<A, E>, options?: FileSink.Options) =>
  Effect.scoped(Effect.flatMap(FileSink.make(path, options), f))

const idsIn = (text: string) =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line).id as string)

type AsyncMethod = (this: unknown, ...args: Array<unknown>) => Promise<unknown>

/** Wraps a method of every file handle for the scope: `wrap` gets the original and returns its stand-in. */
const patchHandles = (
  method: "read" | "write" | "stat" | "truncate" | "sync" | "datasync",
  wrap: (original: AsyncMethod) => AsyncMethod
) =>
  Effect.gen(function* () {
    const dir = yield* tempDir
    const probe = yield* Effect.promise(() => fs.open(join(dir, "probe"), "w"))
    const prototype = Object.getPrototypeOf(probe) as Record<typeof method, AsyncMethod>
    yield* Effect.promise(() => probe.close())
    const original = prototype[method]
    prototype[method] = wrap(original)
    yield* Effect.addFinalizer(() => Effect.sync(() => void (prototype[method] = original)))
  })

/**
 * Wraps a function of `node:fs/promises` for the scope, as the sink sees it too (the module's
 * namespace follows its exports once they are synced).
 */
const patchFs = (name: "open" | "stat", wrap: (original: AsyncMethod) => AsyncMethod) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const exports = fsExports as unknown as Record<typeof name, AsyncMethod>
      const original = exports[name]
      exports[name] = wrap(original)
      syncBuiltinESMExports()
      return () => {
        exports[name] = original
        syncBuiltinESMExports()
      }
    }),
    (restore) => Effect.sync(restore)
  )

/** An error as Node gives it for a failed system call. */
const systemError = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}`), { code })

/** While `when()` holds, a write puts half of its bytes in the file, then fails as a full disk does. */
const tornWrites = (when: () => boolean) =>
  patchHandles(
    "write",
    (original) =>
      async function (...args) {
        if (!when()) return original.apply(this, args)
        const [buffer, offset, length] = args as [Buffer, number, number]
        await original.call(this, buffer, offset, Math.ceil(length / 2))
        throw systemError("ENOSPC", "no space left on device, write")
      }
  )

/** The messages the sink logged as warnings. */
const warningsIn = (logs: ReturnType<typeof captureLogs>) =>
  logs.lines
    .filter(({ level }) => level === "WARN")
    .flatMap(({ text }) => JSON.parse(text).message as ReadonlyArray<string>)

describe("FileSink", () => {
  it.scoped("a new sink over the same file counts the pending events already written", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(7)
      yield* withSink(
        path,
        (sink) =>
          Effect.gen(function* () {
            expect(yield* sink.recover(events)).toBe(0)
            yield* sink.deliver(events.slice(0, 3))
            yield* sink.deliver(events.slice(3, 5))
          }),
        { maxBatch: 2 }
      )
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 5)))
      // the cursor moved after the first batch only: the second is in flight
      expect(yield* withSink(path, (sink) => sink.recover(events.slice(3)))).toBe(2)
      // the cursor never moved
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(5)
      // everything written was acknowledged
      expect(yield* withSink(path, (sink) => sink.recover(events.slice(5)))).toBe(0)
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 5)))
    })
  )

  it.scoped("cuts a partial last line away and does not count the event it held", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(5)
      yield* withSink(path, (sink) => sink.deliver(events.slice(0, 3)))
      // a write cut short: the id is complete, the line is not
      const half = toJsonLine(events[3].event).slice(0, 80)
      expect(half).toContain(events[3].event.id)
      yield* Effect.promise(() => fs.appendFile(path, half))

      const count = yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          const count = yield* sink.recover(events.slice(3))
          yield* sink.deliver(events.slice(3 + count))
          return count
        })
      )
      expect(count).toBe(0)
      expect(yield* read(path)).toBe(linesOf(events))

      // a file holding nothing but half a line
      const lone = join(yield* tempDir, "lone.jsonl")
      yield* Effect.promise(() => fs.writeFile(lone, half))
      expect(yield* withSink(lone, (sink) => sink.recover(events.slice(3)))).toBe(0)
      expect(yield* read(lone)).toBe("")
    })
  )

  it.scoped("crashes at any point of a delivery leave every event in the file exactly once", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(60)
      const batch = 7
      // what happens to each batch: delivered and acknowledged, written but the cursor not moved,
      // or the process killed in the middle of the write (a prefix of its bytes on disk)
      const fates = ["ok", "unacknowledged", "torn", "ok", "torn", "unacknowledged", "unacknowledged", "ok"]
      let cursor = 0 // index of the first event not acknowledged
      let round = 0
      let needsRecovery = true
      while (cursor < events.length) {
        const fate = fates[round % fates.length]
        round++
        yield* withSink(path, (sink) =>
          Effect.gen(function* () {
            if (needsRecovery) {
              const pending = events.slice(cursor, cursor + batch)
              cursor += yield* sink.recover(pending)
              needsRecovery = false
            }
            const next = events.slice(cursor, cursor + batch)
            if (next.length === 0) return
            if (fate === "torn") {
              const bytes = Buffer.from(linesOf(next))
              // cut inside the third line, or inside the last one of a short batch
              const cut = Math.min(bytes.length - 5, linesOf(next.slice(0, 2)).length + 40)
              yield* Effect.promise(() => fs.appendFile(path, bytes.subarray(0, cut)))
              needsRecovery = true
              return
            }
            yield* sink.deliver(next)
            if (fate === "ok") cursor += next.length
            else needsRecovery = true
          })
        )
      }
      const ids = idsIn(yield* read(path))
      expect(ids).toEqual(events.map(({ event }) => event.id))
      expect((yield* read(path)).endsWith("\n")).toBe(true)
    })
  )

  it.scoped("a missing or empty file has nothing: 0, and the file is created", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const events = pendingEvents(3)
      const path = join(dir, "missing.jsonl")
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(0)
      expect(yield* read(path)).toBe("")

      // deleted between the start and the recovery, then while running
      const count = yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => fs.rm(path))
          const count = yield* sink.recover(events)
          yield* sink.deliver(events.slice(0, 1))
          yield* Effect.promise(() => fs.rm(path))
          yield* sink.deliver(events.slice(1))
          return count
        })
      )
      expect(count).toBe(0)
      expect(yield* read(path)).toBe(linesOf(events.slice(1)))

      const empty = join(dir, "empty.jsonl")
      yield* Effect.promise(() => fs.writeFile(empty, ""))
      expect(yield* withSink(empty, (sink) => sink.recover(events))).toBe(0)
    })
  )

  it.scoped("fails when the pending events in the file's tail are not the first pending ones", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(6)
      yield* withSink(path, (sink) => sink.deliver(events.slice(0, 3)))
      // the file ends with event 3 but the state says event 1 (not in the file's tail) comes first
      const elsewhere = [events[5], ...events.slice(2)]
      const error = yield* withSink(path, (sink) => sink.recover(elsewhere)).pipe(Effect.flip)
      expect(error._tag).toBe("SinkError")
      expect(error.sink).toBe("file")
      expect(error.message).toContain("does not continue this watcher's state")
      expect(error.message).toContain(events[2].event.id)

      // out of order
      const swapped = [events[2], events[1], events[0]]
      const swappedError = yield* withSink(path, (sink) => sink.recover(swapped)).pipe(Effect.flip)
      expect(swappedError._tag).toBe("SinkError")
      // three found: all named
      const [a, b, c] = events.map(({ event }) => event.id)
      expect(swappedError.message).toContain(`ends with 3 pending event(s) (${a}, ${b}, ${c}) that are not`)
      // the file is left as it was
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 3)))
    })
  )

  it.scoped("a tail that repeats pending events is not taken for a delivery", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(3)
      const [a, b, c] = events.map(({ event }) => event.id)
      yield* Effect.promise(() => fs.writeFile(path, linesOf(events) + linesOf(events)))
      const error = yield* withSink(path, (sink) => sink.recover(events)).pipe(Effect.flip)
      // read back from the end until one line more than there are pending events
      expect(error.message).toBe(
        `${path} does not continue this watcher's state: it ends with 4 pending event(s) (${c}, ${a}, ${b}, …) ` +
          `that are not the first pending ones (${a} first); is the file shared, or from another database?`
      )
    })
  )

  it.scoped("a file that cannot be opened fails with its path and the reason", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "missing", "events.jsonl")
      const error = yield* Effect.flip(FileSink.make(path))
      expect(error).toMatchObject({ _tag: "SinkError", sink: "file" })
      expect(error.message).toMatch(new RegExp(`^cannot open ${path}: ENOENT`))
    })
  )

  it.scoped("appends at most maxBatch events per write: 1000 unless set, at least 1", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      let writes = 0
      yield* patchHandles(
        "write",
        (original) =>
          function (...args) {
            writes++
            return original.apply(this, args)
          }
      )
      const writesOf = (events: ReadonlyArray<PendingEvent>, maxBatch?: number) =>
        Effect.gen(function* () {
          const path = join(dir, `${events.length}-${maxBatch ?? "default"}.jsonl`)
          writes = 0
          yield* withSink(path, (sink) => sink.deliver(events), maxBatch === undefined ? {} : { maxBatch })
          expect(yield* read(path)).toBe(linesOf(events))
          return writes
        })
      expect(yield* writesOf(pendingEvents(5), 2)).toBe(3)
      expect(yield* writesOf(pendingEvents(5), 0)).toBe(5)
      expect(yield* writesOf(pendingEvents(1000))).toBe(1)
      expect(yield* writesOf(pendingEvents(1001))).toBe(2)
    })
  )

  it.scoped("reads back only the tail of a large file", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const old = pendingEvents(3000, 1)
      const fresh = pendingEvents(3, 5000)
      // a long history (about 1.5 MB), then the batch in flight
      yield* Effect.promise(() => fs.writeFile(path, linesOf(old) + linesOf(fresh.slice(0, 2))))
      const { size } = yield* Effect.promise(() => fs.stat(path))
      expect(size).toBeGreaterThan(1_000_000)

      // count the bytes read through file handles
      let bytesRead = 0
      yield* patchHandles(
        "read",
        (original) =>
          async function (...args) {
            const result = (await original.apply(this, args)) as { bytesRead: number }
            bytesRead += result.bytesRead
            return result
          }
      )

      expect(yield* withSink(path, (sink) => sink.recover(fresh))).toBe(2)
      expect(bytesRead).toBeGreaterThan(0)
      expect(bytesRead).toBeLessThanOrEqual(2 * FileSink.CHUNK_BYTES)

      // nothing pending: nothing read back, only the end checked for a partial line
      bytesRead = 0
      expect(yield* withSink(path, (sink) => sink.recover([]))).toBe(0)
      expect(bytesRead).toBe(FileSink.CHUNK_BYTES)

      // a last line, not pending, that starts right after the chunk read back first: no more read
      const skeleton = JSON.stringify({ id: "elsewhere", note: "" })
      const line = skeleton.slice(0, -2) + "x".repeat(FileSink.CHUNK_BYTES - 1 - skeleton.length) + '"}'
      expect(Buffer.byteLength(line)).toBe(FileSink.CHUNK_BYTES - 1)
      yield* Effect.promise(() => fs.appendFile(path, line + "\n"))
      bytesRead = 0
      expect(yield* withSink(path, (sink) => sink.recover(fresh.slice(2)))).toBe(0)
      expect(bytesRead).toBe(2 * FileSink.CHUNK_BYTES)
    })
  )

  it.scoped("a write that fails is taken back: no partial line, nor lines the caller will send again", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(6)
      let failing: "write" | "datasync" | undefined
      yield* tornWrites(() => failing === "write")
      yield* patchHandles(
        "datasync",
        (original) =>
          function (...args) {
            return failing === "datasync"
              ? Promise.reject(systemError("EIO", "i/o error, fdatasync"))
              : original.apply(this, args)
          }
      )
      yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          yield* sink.deliver(events.slice(0, 2))
          failing = "write"
          const writeError = yield* Effect.flip(sink.deliver(events.slice(2, 4)))
          expect(writeError).toMatchObject({ _tag: "SinkError", sink: "file" })
          expect(writeError.message).toBe(`cannot append to ${path}: ENOSPC: no space left on device, write`)
          expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
          // every line written, but not known to be on disk
          failing = "datasync"
          const syncError = yield* Effect.flip(sink.deliver(events.slice(2, 4)))
          expect(syncError.message).toBe(`cannot append to ${path}: EIO: i/o error, fdatasync`)
          expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
          failing = undefined
          yield* sink.deliver(events.slice(2))
        })
      )
      expect(yield* read(path)).toBe(linesOf(events))
    })
  )

  it.scoped("a failed write that cannot be taken back at once is taken back before the next one", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(6)
      let writeFails = false
      let truncateFails = false
      yield* tornWrites(() => writeFails)
      yield* patchHandles(
        "truncate",
        (original) =>
          function (...args) {
            return truncateFails
              ? Promise.reject(systemError("EROFS", "read-only file system"))
              : original.apply(this, args)
          }
      )
      yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          yield* sink.deliver(events.slice(0, 2))
          writeFails = true
          truncateFails = true
          // the write's failure is the one reported, not the take-back's
          const writeError = yield* Effect.flip(sink.deliver(events.slice(2, 4)))
          expect(writeError.message).toBe(`cannot append to ${path}: ENOSPC: no space left on device, write`)
          const torn = yield* read(path)
          expect(torn.length).toBeGreaterThan(linesOf(events.slice(0, 2)).length)
          // nothing is appended behind the torn line
          writeFails = false
          const undoError = yield* Effect.flip(sink.deliver(events.slice(2, 4)))
          expect(undoError).toMatchObject({ _tag: "SinkError", sink: "file" })
          expect(undoError.message).toBe(`cannot take back a failed write to ${path}: EROFS: read-only file system`)
          expect(yield* read(path)).toBe(torn)
          truncateFails = false
          yield* sink.deliver(events.slice(2))
        })
      )
      expect(yield* read(path)).toBe(linesOf(events))
    })
  )

  it.scoped("reads and stats that fail name the path and the reason", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(3)
      yield* withSink(path, (sink) => sink.deliver(events.slice(0, 2)))
      const failures = { handleStat: false, pathStat: undefined as unknown, readsBeforeFailure: -1 }
      yield* patchHandles(
        "stat",
        (original) =>
          function (...args) {
            return failures.handleStat
              ? Promise.reject(systemError("EIO", "i/o error, fstat"))
              : original.apply(this, args)
          }
      )
      yield* patchHandles(
        "read",
        (original) =>
          function (...args) {
            // a read of no bytes reaches no disk: it neither counts nor fails
            if (args[2] === 0) return original.apply(this, args)
            if (failures.readsBeforeFailure === 0) return Promise.reject(systemError("EIO", "i/o error, read"))
            failures.readsBeforeFailure--
            return original.apply(this, args)
          }
      )
      yield* patchFs(
        "stat",
        (original) =>
          function (...args) {
            return failures.pathStat === undefined ? original.apply(this, args) : Promise.reject(failures.pathStat)
          }
      )
      yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          // the first read repairs the end of the file, the next ones read back its pending events
          failures.readsBeforeFailure = 0
          const repair = yield* Effect.flip(sink.recover(events))
          expect(repair).toMatchObject({ _tag: "SinkError", sink: "file" })
          expect(repair.message).toBe(`cannot repair the end of ${path}: EIO: i/o error, read`)
          failures.readsBeforeFailure = 1
          expect((yield* Effect.flip(sink.recover(events))).message).toBe(
            `cannot read back ${path}: EIO: i/o error, read`
          )
          failures.readsBeforeFailure = -1
          expect(yield* sink.recover(events)).toBe(2)

          failures.handleStat = true
          expect((yield* Effect.flip(sink.deliver(events.slice(2)))).message).toBe(
            `cannot stat ${path}: EIO: i/o error, fstat`
          )
          failures.handleStat = false
          // a path that cannot be looked up is not a missing one
          failures.pathStat = systemError("EACCES", "permission denied, stat")
          expect((yield* Effect.flip(sink.deliver(events.slice(2)))).message).toBe(
            `cannot stat ${path}: EACCES: permission denied, stat`
          )
          // the recovery opens the file again first
          expect((yield* Effect.flip(sink.recover(events))).message).toBe(
            `cannot open ${path}: EACCES: permission denied, stat`
          )
          // a reason that is not an Error is written as it is
          failures.pathStat = null
          expect((yield* Effect.flip(sink.deliver(events.slice(2)))).message).toBe(`cannot stat ${path}: null`)
          failures.pathStat = undefined
        })
      )
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
      failures.pathStat = systemError("EACCES", "permission denied, stat")
      expect((yield* Effect.flip(FileSink.make(path))).message).toBe(
        `cannot open ${path}: EACCES: permission denied, stat`
      )
    })
  )

  it.scoped(
    "a file replaced at its path is left alone: the next delivery starts on the new one, with a warning",
    () => {
      const logs = captureLogs()
      return Effect.gen(function* () {
        const path = join(yield* tempDir, "events.jsonl")
        const events = pendingEvents(4)
        const warning = `${path} was moved or deleted: writing to a new file there`
        yield* withSink(path, (sink) =>
          Effect.gen(function* () {
            yield* sink.deliver(events.slice(0, 1))
            expect(warningsIn(logs)).toEqual([])
            // the file kept under another name too, then another one moved to its path
            yield* Effect.promise(() => fs.link(path, `${path}.1`))
            yield* Effect.promise(() => fs.writeFile(`${path}.new`, ""))
            yield* Effect.promise(() => fs.rename(`${path}.new`, path))
            yield* sink.deliver(events.slice(1, 3))
            expect(warningsIn(logs)).toEqual([warning])
            yield* sink.deliver(events.slice(3))
            expect(warningsIn(logs)).toEqual([warning])
          })
        )
        expect(yield* read(`${path}.1`)).toBe(linesOf(events.slice(0, 1)))
        expect(yield* read(path)).toBe(linesOf(events.slice(1)))

        // the same inode number on another device is another file
        const other = join(dirname(path), "other.jsonl")
        let otherDevice = false
        yield* patchFs(
          "stat",
          (original) =>
            async function (...args) {
              const stats = (await original.apply(this, args)) as { readonly dev: number }
              return otherDevice ? { ...stats, dev: stats.dev + 1 } : stats
            }
        )
        yield* withSink(other, (sink) =>
          Effect.gen(function* () {
            otherDevice = true
            yield* sink.deliver(events)
          })
        )
        expect(warningsIn(logs)).toEqual([warning, `${other} was moved or deleted: writing to a new file there`])
        expect(yield* read(other)).toBe(linesOf(events))
      }).pipe(Effect.provide(logs.layer))
    }
  )

  it.scoped("a new file's directory entry is synced, best effort; an existing file's is not", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = join(dir, "events.jsonl")
      const events = pendingEvents(2)
      const { ino: directory } = yield* Effect.promise(() => fs.stat(dir))
      // the inode of each handle synced, and whether that sync fails
      const synced: Array<number> = []
      let syncFails = false
      yield* patchHandles(
        "sync",
        (original) =>
          async function (...args) {
            synced.push((await (this as FileHandle).stat()).ino)
            if (syncFails) throw systemError("EINVAL", "invalid argument, fsync")
            return original.apply(this, args)
          }
      )
      yield* withSink(path, () => Effect.void)
      expect(synced).toEqual([directory])
      synced.length = 0
      yield* withSink(path, (sink) => sink.deliver(events.slice(0, 1)))
      expect(synced).toEqual([])
      // a file deleted under the sink: the new one is synced into the directory as well
      yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => fs.rm(path))
          yield* sink.deliver(events.slice(1))
        })
      )
      expect(synced).toEqual([directory])
      expect(yield* read(path)).toBe(linesOf(events.slice(1)))

      // a directory that cannot be synced, or not even opened, does not stop the sink
      syncFails = true
      const unsynced = join(dir, "unsynced.jsonl")
      yield* withSink(unsynced, (sink) => sink.deliver(events))
      expect(yield* read(unsynced)).toBe(linesOf(events))
      yield* patchFs(
        "open",
        (original) =>
          function (...args) {
            return args[1] === "r"
              ? Promise.reject(systemError("EACCES", "permission denied, open"))
              : original.apply(this, args)
          }
      )
      const unopened = join(dir, "unopened.jsonl")
      yield* withSink(unopened, (sink) => sink.deliver(events))
      expect(yield* read(unopened)).toBe(linesOf(events))
    })
  )

  it.scoped("reads and writes that move fewer bytes than asked are carried on", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(5)
      // at most 100 bytes per call: a line takes several
      yield* patchHandles(
        "write",
        (original) =>
          function (...args) {
            const [buffer, offset, length] = args as [Buffer, number, number]
            return original.call(this, buffer, offset, Math.min(length, 100))
          }
      )
      yield* patchHandles(
        "read",
        (original) =>
          function (...args) {
            const [buffer, offset, length, position] = args as [Buffer, number, number, number]
            return original.call(this, buffer, offset, Math.min(length, 100), position)
          }
      )
      yield* withSink(path, (sink) => sink.deliver(events.slice(0, 3)))
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 3)))
      yield* Effect.promise(() => fs.appendFile(path, toJsonLine(events[3].event).slice(0, 150)))
      expect(yield* withSink(path, (sink) => sink.recover(events.slice(1)))).toBe(2)
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 3)))
    })
  )

  it.scoped("a read that meets the end of the file early stops there (the file cut shorter meanwhile)", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(3)
      yield* Effect.promise(() => fs.writeFile(path, linesOf(events)))
      let cut = false
      yield* patchHandles(
        "read",
        (original) =>
          async function (...args) {
            if (!cut) {
              cut = true
              await fs.truncate(path, linesOf(events.slice(0, 2)).length)
            }
            return original.apply(this, args)
          }
      )
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(2)
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
    })
  )

  it.scoped("a file that ends with a whole line is left untouched by the recovery", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(3)
      yield* Effect.promise(() => fs.writeFile(path, linesOf(events)))
      let truncated = 0
      yield* patchHandles(
        "truncate",
        (original) =>
          function (...args) {
            truncated++
            return original.apply(this, args)
          }
      )
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(3)
      expect(truncated).toBe(0)
      yield* Effect.promise(() => fs.appendFile(path, "{"))
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(3)
      expect(truncated).toBe(1)
    })
  )

  it.scoped("a partial line is cut, and only it, when it fills the last chunk read exactly or spans several", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      const events = pendingEvents(3)
      // the newline before the partial line is the first byte of the last chunk
      const partial = "x".repeat(FileSink.CHUNK_BYTES - 1)
      yield* Effect.promise(() => fs.writeFile(path, linesOf(events.slice(0, 2)) + partial))
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(2)
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
      // longer than two chunks: no newline in the last two read
      yield* Effect.promise(() => fs.appendFile(path, "x".repeat(2 * FileSink.CHUNK_BYTES + 1)))
      expect(yield* withSink(path, (sink) => sink.recover(events))).toBe(2)
      expect(yield* read(path)).toBe(linesOf(events.slice(0, 2)))
    })
  )

  it.scoped("delivering no events touches nothing, not even a file deleted meanwhile", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const path = join(yield* tempDir, "events.jsonl")
      yield* withSink(path, (sink) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => fs.rm(path))
          yield* sink.deliver([])
        })
      )
      const exists = yield* Effect.promise(() =>
        fs.stat(path).then(
          () => true,
          () => false
        )
      )
      expect(exists).toBe(false)
      expect(warningsIn(logs)).toEqual([])
    }).pipe(Effect.provide(logs.layer))
  })
})
