/**
 * Rows' lines in text order are the rows in report order, whenever the lines say they can be sorted
 * as text; and a line reads back as the row it was written from, whatever the row holds.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { OrderedLineReader, OrderedLineWriter, type Written } from "../src/internal/orderedLines.js"
import { compareRows, type RowFields } from "../src/RowOrder.js"
import { hex } from "./support/rows.js"

/** Text as the node sends it: mostly plain, some with what a line could be split or misordered by. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("", "a", "ab", "b", "a!", "game-1", "\u00e9", "\u{1F600}", " ", "~") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) }
)

/** Integers around the sizes the node sends (lengths differ, so text order of the digits alone would be wrong). */
const integer = (min: bigint) =>
  fc.oneof(
    fc.bigInt({ min, max: 12n }),
    fc.bigInt({ min: 0n, max: 10n ** 30n }),
    fc.constantFrom(9n, 10n, 99n, 100n, 10n ** 19n, 10n ** 34n, 10n ** 35n, 2n ** 256n - 1n)
  )

const row = (min: bigint): fc.Arbitrary<RowFields> =>
  fc.record({
    epoch: integer(0n),
    receivedAt: integer(min),
    partyId: fc.oneof(fc.constantFrom("network"), fc.nat(5).map(hex)),
    assetId: fc.nat(3).map(hex),
    rewardType: fc.oneof(fc.constantFrom("ACCOUNT_TYPE_GLOBAL_REWARD", "ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES"), text),
    amount: integer(0n),
    percentageOfTotal: fc.constantFrom("5e-05", "33.333333333333336", "100"),
    lockedUntilEpoch: integer(0n),
    gameId: fc.option(text, { nil: undefined }),
    teamId: fc.option(text, { nil: undefined })
  })

/** The lines of `rows` (a writer for all, as a read writes them). */
const linesOf = (rows: ReadonlyArray<RowFields>): Array<string> => {
  const writer = new OrderedLineWriter()
  return rows.map((r) => writer.line(r, r.rewardType).slice(0, -1))
}

/** What the writer noted of the lines of `rows`. */
const writtenOf = (rows: ReadonlyArray<RowFields>): Written => {
  const writer = new OrderedLineWriter()
  for (const r of rows) writer.line(r, r.rewardType)
  return writer.take()
}

const orderable = (r: RowFields): boolean => writtenOf([r]).orderable

const read = (reader: OrderedLineReader, line: string): RowFields => {
  const f = line.split("\t")
  return reader.row(f, f[1], f[2])
}

const base: RowFields = {
  epoch: 3n,
  receivedAt: 10n,
  partyId: hex(1),
  assetId: hex(2),
  rewardType: "ACCOUNT_TYPE_GLOBAL_REWARD",
  amount: 5n,
  percentageOfTotal: "100",
  lockedUntilEpoch: 0n,
  gameId: undefined,
  teamId: undefined
}

describe("rows' ordered lines", () => {
  it("sort as text into report order when they say they can", () => {
    let sorted = 0
    fc.assert(
      fc.property(fc.array(row(-5n), { maxLength: 40 }), (rows) => {
        const sortable = rows.filter(orderable)
        const reader = new OrderedLineReader()
        sorted += sortable.length
        expect(writtenOf(sortable).orderable).toBe(true)
        expect(
          linesOf(sortable)
            .sort()
            .map((line) => read(reader, line))
        ).toEqual([...sortable].sort(compareRows))
      }),
      { numRuns: 2000 }
    )
    // a good part of the rows could be sorted so (the others hold odd text or times before 1970)
    expect(sorted).toBeGreaterThan(5_000)
  })

  it("are sorted as text for rows as the node sends them", () => {
    fc.assert(
      fc.property(fc.array(row(0n), { maxLength: 40 }), (rows) => {
        const plain = rows.map((r) => ({
          ...r,
          rewardType: "ACCOUNT_TYPE_GLOBAL_REWARD",
          gameId: r.gameId && "g",
          teamId: r.teamId && "t"
        }))
        expect(writtenOf(plain)).toEqual({ orderable: true, plain: true })
      })
    )
  })

  it("tell rows equal but for their payout time apart by it, as report order does, in either order given", () => {
    const early = { ...base, receivedAt: 9n }
    const late = { ...base, receivedAt: 10n }
    const reader = new OrderedLineReader()
    for (const rows of [
      [late, early],
      [early, late]
    ]) {
      expect([...rows].sort(compareRows)).toEqual([early, late])
      expect(
        linesOf(rows)
          .sort()
          .map((line) => read(reader, line))
      ).toEqual([early, late])
    }
  })

  it("say so where text order would not be report order", () => {
    // an escaped tab sorts as a backslash, after "!", though a tab comes before it
    const [tab, bang] = linesOf([
      { ...base, gameId: "a\tb" },
      { ...base, gameId: "a!" }
    ])
    expect(compareRows({ ...base, gameId: "a\tb" }, { ...base, gameId: "a!" })).toBe(-1)
    expect(tab > bang).toBe(true)
    expect(orderable({ ...base, gameId: "a\tb" })).toBe(false)
    expect(orderable({ ...base, gameId: "a!" })).toBe(true)
    // a control character below the tab, and a payout time before 1970
    expect(orderable({ ...base, teamId: "\u0001" })).toBe(false)
    expect(orderable({ ...base, receivedAt: -1n })).toBe(false)
    // a lone surrogate is escaped; a pair is not, and sorts as it is
    expect(orderable({ ...base, gameId: "lone \ud800" })).toBe(false)
    expect(orderable({ ...base, gameId: "\u{1F600}" })).toBe(true)
  })

  it("say whether their text holds the mark of a laid-out row's slots, until taken", () => {
    const writer = new OrderedLineWriter()
    writer.line(base, "odd \u0001")
    writer.line(base, base.rewardType)
    expect(writer.take()).toEqual({ orderable: false, plain: false })
    writer.line(base, base.rewardType)
    expect(writer.take()).toEqual({ orderable: true, plain: true })
    // a type written before the take is looked at again after it
    writer.line(base, "tab\there")
    expect(writer.take().orderable).toBe(false)
    writer.line(base, "tab\there")
    expect(writer.take().orderable).toBe(false)
  })

  it("read back as the rows they were written from", () => {
    fc.assert(
      fc.property(fc.array(row(-(10n ** 20n)), { maxLength: 20 }), (rows) => {
        const reader = new OrderedLineReader()
        expect(linesOf(rows).map((line) => read(reader, line))).toEqual(rows)
      }),
      { numRuns: 1000 }
    )
  })
})
