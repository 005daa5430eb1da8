/**
 * A report file is written whole or not at all: many megabytes in several writes come back byte
 * for byte, and a failure while the report is rendered leaves the previous file and no temporary
 * one.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { createHash } from "node:crypto"
import { mkdtempSync, promises, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FLUSH_EVERY, writeFileAtomically } from "../src/Output.js"

/** `count` pieces of 100,000 characters, each line naming its piece (and one non-ASCII character). */
function* pieces(count: number, failAt?: number): Generator<string> {
  for (let i = 0; i < count; i++) {
    if (i === failAt) throw new Error(`piece ${i} cannot be rendered`)
    const line = `piece ${i} é `.padEnd(99, "x") + "\n"
    yield line.repeat(1_000)
  }
}

const tempDir = () => mkdtempSync(join(tmpdir(), "reward-report-output-"))

describe("writeFileAtomically", () => {
  it.effect("writes many megabytes in several writes, whole and in order, and leaves no temporary file", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = join(dir, "report.csv")
      writeFileSync(file, "previous report\n")
      yield* writeFileAtomically(file, pieces(60))
      expect(readFileSync(file, "utf8")).toBe([...pieces(60)].join(""))
      expect(readdirSync(dir)).toEqual(["report.csv"])
    })
  )

  it.effect("flushes what it has written to disk on the way, every so many megabytes, and writes it whole", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = join(dir, "report.csv")
      // the flushes are made through the file handle's datasync
      const handle = yield* Effect.promise(() => promises.open(join(dir, "probe"), "w"))
      yield* Effect.promise(() => handle.close())
      const datasync = vi.spyOn(Object.getPrototypeOf(handle) as { datasync: () => Promise<void> }, "datasync")
      try {
        const count = Math.ceil((2.5 * FLUSH_EVERY) / 100_000)
        yield* writeFileAtomically(file, pieces(count))
        const digest = (text: Iterable<string>) => {
          const hash = createHash("sha256")
          for (const piece of text) hash.update(piece)
          return hash.digest("hex")
        }
        expect(digest([readFileSync(file, "utf8")])).toBe(digest(pieces(count)))
        expect(datasync.mock.calls.length).toBe(2)
      } finally {
        datasync.mockRestore()
      }
    })
  )

  it.effect("a failure after some writes keeps the previous file and removes the temporary one", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = join(dir, "report.csv")
      writeFileSync(file, "previous report\n")
      // 45 pieces are about 4.5 MB: several writes have been made when the 46th fails
      const outcome = yield* Effect.either(writeFileAtomically(file, pieces(60, 45)))
      expect(Either.isLeft(outcome) && outcome.left.message).toBe(`cannot write ${file}: piece 45 cannot be rendered`)
      expect(readFileSync(file, "utf8")).toBe("previous report\n")
      expect(readdirSync(dir)).toEqual(["report.csv"])
    })
  )

  it.effect("a directory that does not exist is a write error naming the file", () =>
    Effect.gen(function* () {
      const file = join(tempDir(), "missing", "report.csv")
      const outcome = yield* Effect.either(writeFileAtomically(file, pieces(1)))
      expect(Either.isLeft(outcome) && outcome.left.message).toMatch(
        new RegExp(`^cannot write ${file}: ENOENT: no such file or directory`)
      )
    })
  )
})
