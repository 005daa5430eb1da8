/**
 * A row laid out with slots, then filled, is the row laid out whole: whatever its text holds,
 * the characters slots are made of included.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { EpochRow } from "../src/Report.js"
import { renderRow, type RowLayout, type RowTemplate, SlotFiller, SlotWriter } from "../src/RowTemplate.js"

/**
 * Text laid out with slots, filled as the report fills it (as UTF-8), after `room` bytes (of slot
 * marks, which must not be read) that the filled text may take.
 */
const fillSlots = (text: string, alias: (party: number) => string, layout: RowLayout, room = 0): string => {
  const encoded = new TextEncoder().encode(text)
  const bytes = new Uint8Array(room + encoded.length).fill(1)
  bytes.set(encoded, room)
  return new TextDecoder().decode(new SlotFiller(alias, layout).fill(bytes, room))
}

/** What a row's template writes, piece by piece. */
type Piece =
  | { readonly text: string }
  | { readonly alias: true }
  | { readonly constant: number }
  | { readonly pad: number; readonly width: number }

const layout = { constants: ["\u0001c1\u0002", ",tail\r\n", ""], widths: [0, 3, 12] }

/** A template writing the row's pieces (kept in its `gameId`, as JSON). */
const scripted: RowTemplate = {
  name: "scripted",
  withIds: false,
  listing: "report",
  row: (row, out) => {
    for (const piece of JSON.parse(row.gameId!) as ReadonlyArray<Piece>) {
      if ("text" in piece) out.text(piece.text)
      else if ("alias" in piece) out.alias()
      else if ("pad" in piece) out.pad(piece.pad, piece.width)
      else out.constant(piece.constant)
    }
  },
  alias: (partyId, alias) => `<${alias ?? partyId}>`
}

const rowOf = (pieces: ReadonlyArray<Piece>, party: number): EpochRow =>
  ({
    partyId: `party-${party}`,
    alias: party % 2 === 0 ? `\u0001a${party}\u0002` : undefined,
    gameId: JSON.stringify(pieces)
  }) as unknown as EpochRow

// text made mostly of what slots are made of
const text = fc
  .array(fc.constantFrom("\u0001", "\u0002", "a", "c", "0", "7", "x", ",", '"', "\n"), { maxLength: 12 })
  .map((chars) => ({ text: chars.join("") }))
const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: fc.constant({ alias: true as const }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: layout.constants.length - 1 }).map((constant) => ({ constant })) },
  {
    weight: 1,
    arbitrary: fc.record({ pad: fc.integer({ min: 0, max: layout.widths.length - 1 }), width: fc.nat(15) })
  }
)

describe("row templates", () => {
  it("lay out with slots, filled afterwards, what they lay out whole", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(piece, { maxLength: 8 }), fc.nat(20)), { maxLength: 20 }),
        // room before the text: none, some (running out on the way), plenty
        fc.oneof(fc.constant(0), fc.nat(40), fc.constant(4096)),
        (rows, room) => {
          const writer = new SlotWriter(scripted)
          for (const [pieces, party] of rows) writer.row(rowOf(pieces, party), party)
          const alias = (party: number) => scripted.alias(`party-${party}`, rowOf([], party).alias, layout)
          const whole = rows.map(([pieces, party]) => renderRow(scripted, rowOf(pieces, party), layout)).join("")
          expect(fillSlots(writer.take(), alias, layout, room)).toBe(whole)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("refuse text with a slot they do not know", () => {
    expect(() => fillSlots("a\u0001z3\u0002b", () => "", layout)).toThrow(/unknown slot/)
    expect(() => fillSlots("a\u0001c9\u0002b", () => "", layout)).toThrow(/unknown slot/)
    expect(() => fillSlots("a\u0001p7.1\u0002b", () => "", layout)).toThrow(/width 7/)
  })
})
