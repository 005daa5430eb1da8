import { describe, expect, it } from "@effect/vitest"
import { Either, Option, ParseResult, Schema } from "effect"
import { Amount, Decimal, DurationText, Ids, Input, Integer } from "@vega-effect/schema"

/** What JavaScript callers and configuration pass where a string belongs. */
const BAD: ReadonlyArray<unknown> = [undefined, null, 42, ""]

describe("bad input", () => {
  it("the parse helpers answer none, never throw", () => {
    for (const bad of BAD) {
      expect(Decimal.parse(bad as string), String(bad)).toEqual(Option.none())
      expect(DurationText.parse(bad as string), String(bad)).toEqual(Option.none())
      expect(Ids.isVegaId(bad as string)).toBe(false)
      expect(Ids.isPartyId(bad as string)).toBe(false)
    }
  })

  it("the schemas fail with a ParseError that shows the value", () => {
    const schemas = [
      Amount.Amount,
      Amount.SignedAmount,
      Decimal.Decimal,
      Ids.PartyId,
      Ids.MarketId,
      Integer.Uint64,
      DurationText.DurationFromText
    ] as const
    for (const schema of schemas) {
      for (const bad of BAD) {
        const result = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(bad)
        expect(Either.isLeft(result), `${String(schema)} ${Input.show(bad)}`).toBe(true)
        if (Either.isLeft(result)) {
          expect(ParseResult.isParseError(result.left)).toBe(true)
          expect(result.left.message).toContain(Input.show(bad))
        }
      }
    }
  })

  it("Input.show never throws", () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(Input.show(undefined)).toBe("undefined")
    expect(Input.show(null)).toBe("null")
    expect(Input.show("")).toBe('""')
    expect(Input.show(1n)).toBe("1n")
    expect(Input.show(cyclic)).toBe("[object Object]")
  })

  it("the guards", () => {
    expect(BAD.map(Input.isNonEmptyString)).toEqual([false, false, false, false])
    expect(Input.isNonEmptyString("a")).toBe(true)
    expect(BAD.map(Input.isRecord)).toEqual([false, false, false, false])
    expect(Input.isRecord({})).toBe(true)
    expect(Input.isRecord([])).toBe(false)
    expect(Input.isBytes(new Uint8Array(1))).toBe(true)
    expect(BAD.map(Input.isBytes)).toEqual([false, false, false, false])
  })
})
