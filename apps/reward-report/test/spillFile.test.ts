/**
 * Text appended to a spill file reads back as it was appended, by the ranges `append` gave:
 * gathered or written at once, short or longer than what is gathered, in any script.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { SpillFile } from "../src/internal/spillFile.js"

const decoder = new TextDecoder()

/** Texts of every length up to several times what the file gathers before it writes, some not ASCII. */
const texts = fc.array(
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom("é", "\u{1F600}", "ж"),
    fc.tuple(fc.constantFrom("a", "é", "\u{1F600}"), fc.integer({ min: 1, max: 700_000 })).map(([c, n]) => c.repeat(n))
  ),
  { maxLength: 12 }
)

/** Appends `appended` to a new file and checks every text reads back by its range, and as lines. */
const readsBack = (appended: ReadonlyArray<string>): void => {
  const file = SpillFile.create("vega-spill-test-")
  try {
    const ranges = appended.map((text) => file.append(`${text.replaceAll("\n", " ")}\n`))
    ranges.forEach(({ end, start }, i) => {
      expect(decoder.decode(file.bytes(start, end))).toBe(`${appended[i].replaceAll("\n", " ")}\n`)
    })
    expect(file.size).toBe(ranges.at(-1)?.end ?? 0)
    expect([...file.lines(0, file.size)]).toEqual(appended.map((text) => text.replaceAll("\n", " ")))
    // appending goes on after a read
    const more = file.append("more\n")
    expect(decoder.decode(file.bytes(more.start, more.end))).toBe("more\n")
  } finally {
    file.close()
  }
}

describe("spill file", () => {
  it("reads back each text appended, by its range, and all of them as lines", () => {
    fc.assert(fc.property(texts, readsBack), { numRuns: 40 })
  })

  it("writes what it gathered before text that would not fit after it", () => {
    // 600,000 bytes each, in 300,000 UTF-16 units: the second fits by its length, not by its bytes
    readsBack(["é".repeat(300_000), "é".repeat(300_000), "\u{1F600}".repeat(100_000), "a"])
  })
})
