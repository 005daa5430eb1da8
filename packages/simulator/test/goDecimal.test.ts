import { describe, expect, it } from "@effect/vitest"
import { parseGoDecimal } from "../src/internal/goDecimal.js"

describe("parseGoDecimal (decimal.NewFromString)", () => {
  it("reads what the library reads", () => {
    expect(parseGoDecimal("1.5e3")).toEqual({ value: 15n, exp: 2 })
    expect(parseGoDecimal("-.5")).toEqual({ value: -5n, exp: -1 })
    expect(parseGoDecimal("+5")).toEqual({ value: 5n, exp: 0 })
    expect(parseGoDecimal("5.")).toEqual({ value: 5n, exp: 0 })
    expect(parseGoDecimal("0.0650")).toEqual({ value: 650n, exp: -4 })
    expect(parseGoDecimal("123456789012345678901234.5")).toEqual({ value: 1234567890123456789012345n, exp: -1 })
    expect(parseGoDecimal("2E-3")).toEqual({ value: 2n, exp: -3 })
  })

  it("refuses the rest with the library's texts", () => {
    expect(parseGoDecimal("")).toEqual({ error: "can't convert  to decimal" })
    expect(parseGoDecimal("abc")).toEqual({ error: "can't convert abc to decimal" })
    expect(parseGoDecimal(".")).toEqual({ error: "can't convert . to decimal" })
    expect(parseGoDecimal("1.2.3")).toEqual({ error: "can't convert 1.2.3 to decimal: too many .s" })
    // the text after the exponent is cut off once the exponent is read
    expect(parseGoDecimal("1.2.3e4")).toEqual({ error: "can't convert 1.2.3 to decimal: too many .s" })
    expect(parseGoDecimal("1e")).toEqual({ error: "can't convert 1e to decimal: exponent is not numeric" })
    expect(parseGoDecimal("1e5x")).toEqual({ error: "can't convert 1e5x to decimal: exponent is not numeric" })
    expect(parseGoDecimal("1e9999999999")).toEqual({
      error: "can't convert 1e9999999999 to decimal: fractional part too long"
    })
    expect(parseGoDecimal("1_000")).toEqual({ error: "can't convert 1_000 to decimal" })
    expect(parseGoDecimal("--1")).toEqual({ error: "can't convert --1 to decimal" })
  })
})
