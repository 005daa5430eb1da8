/**
 * A report file is written whole or not at all: many megabytes in several writes come back byte
 * for byte, and a failure while the report is rendered leaves the previous file and no temporary
 * one.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { writeFileAtomically } from "../src/Output.js"

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
