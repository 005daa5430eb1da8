import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Option, Schema } from "effect"
import { Decimal } from "@vega-effect/schema"
import { decodeError, expectRoundTrips } from "./utils.js"

describe("Decimal", () => {
  const decode = Schema.decodeUnknownSync(Decimal.Decimal)
  const encode = Schema.encodeSync(Decimal.Decimal)

  it("decodes plain decimal strings exactly", () => {
    expect(decode("0.001")).toEqual(BigDecimal.make(1n, 3))
    expect(decode("1")).toEqual(BigDecimal.make(1n, 0))
    expect(decode("-2.50")).toEqual(BigDecimal.make(-25n, 1))
    expect(BigDecimal.equals(decode("0.1"), BigDecimal.make(1n, 1))).toBe(true)
    // 0.1 + 0.2 is exactly 0.3 here, unlike floats
    expect(Decimal.format(BigDecimal.sum(decode("0.1"), decode("0.2")))).toBe("0.3")
  })

  it("writes the node's form: plain notation, trailing zeros trimmed", () => {
    expect(encode(BigDecimal.make(1n, 4))).toBe("0.0001")
    expect(encode(BigDecimal.make(1000n, 4))).toBe("0.1")
    expect(encode(BigDecimal.make(1n, 16))).toBe("0.0000000000000001")
    expect(encode(BigDecimal.make(100n, 0))).toBe("100")
    expect(encode(BigDecimal.normalize(BigDecimal.make(100n, 0)))).toBe("100")
    expect(encode(BigDecimal.make(-15n, 1))).toBe("-1.5")
    expect(encode(BigDecimal.make(-5n, 3))).toBe("-0.005")
    expect(encode(BigDecimal.make(0n, 5))).toBe("0")
  })

  it("rejects anything that is not plain decimal notation", () => {
    for (const bad of ["", "1.", ".5", "+1", "1e-5", "abc", " 1", "1,5", "NaN"]) {
      expect(decodeError(Decimal.Decimal, bad)).toContain(
        `Expected a decimal number in plain notation, actual ${JSON.stringify(bad)}`
      )
    }
  })

  it("maps the empty string of deprecated fields to None and back", () => {
    const decodeOrEmpty = Schema.decodeUnknownSync(Decimal.DecimalOrEmpty)
    expect(decodeOrEmpty("")).toEqual(Option.none())
    expect(decodeOrEmpty("0.05")).toEqual(Option.some(BigDecimal.make(5n, 2)))
    expect(Schema.encodeSync(Decimal.DecimalOrEmpty)(Option.none())).toBe("")
    expect(decodeError(Decimal.DecimalOrEmpty, "x")).toContain('actual "x"')
  })

  it("formats with a fixed number of places, truncating", () => {
    expect(Decimal.formatFixed(BigDecimal.make(123456n, 5), 2)).toBe("1.23")
    expect(Decimal.formatFixed(BigDecimal.make(-5n, 1), 3)).toBe("-0.500")
    expect(Decimal.formatFixed(BigDecimal.make(7n, 0), 0)).toBe("7")
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Decimal.Decimal)
    expectRoundTrips(Decimal.DecimalOrEmpty)
  })
})
