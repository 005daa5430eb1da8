import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Integer, StreamForm } from "@vega-effect/schema"
import { decodeError, expectRoundTrips } from "./utils.js"

describe("Integer", () => {
  const decodeU64 = Schema.decodeUnknownSync(Integer.Uint64)
  const decodeI64 = Schema.decodeUnknownSync(Integer.Int64)

  it("decodes uint64 strings to bigint, up to the maximum", () => {
    expect(decodeU64("0")).toBe(0n)
    expect(decodeU64("18446744073709551615")).toBe(18446744073709551615n)
    expect(Schema.encodeSync(Integer.Uint64)(18446744073709551615n)).toBe("18446744073709551615")
  })

  it("rejects values a uint64 cannot hold", () => {
    expect(decodeError(Integer.Uint64, "18446744073709551616")).toContain(
      'Expected an unsigned 64-bit integer as a decimal string, actual "18446744073709551616"'
    )
    expect(decodeError(Integer.Uint64, "-1")).toContain("unsigned 64-bit")
    expect(decodeError(Integer.Uint64, "")).toContain('actual ""')
    expect(decodeError(Integer.Uint64, "1.5")).toContain('actual "1.5"')
    expect(decodeError(Integer.Uint64, " 1")).toContain('actual " 1"')
    expect(decodeError(Integer.Uint64, 1)).toContain("Expected string, actual 1")
  })

  it("decodes int64 across its whole range and no further", () => {
    expect(decodeI64("-9223372036854775808")).toBe(-9223372036854775808n)
    expect(decodeI64("9223372036854775807")).toBe(9223372036854775807n)
    expect(decodeError(Integer.Int64, "9223372036854775808")).toContain("signed 64-bit")
    expect(decodeError(Integer.Int64, "-9223372036854775809")).toContain("signed 64-bit")
    expect(decodeError(Integer.Int64, "+5")).toContain('actual "+5"')
  })

  it("keeps 64-bit values exact where a float would not", () => {
    const big = decodeU64("9007199254740993")
    expect(big).toBe(9007199254740993n)
    expect(Schema.encodeSync(Integer.Uint64)(big)).toBe("9007199254740993")
  })

  it("accepts a request uint64 as a string or a safe number, and writes a string", () => {
    const decode = Schema.decodeUnknownSync(Integer.Uint64FromStringOrNumber)
    expect(decode("42")).toBe(42n)
    expect(decode(42)).toBe(42n)
    expect(Schema.encodeSync(Integer.Uint64FromStringOrNumber)(42n)).toBe("42")
    expect(decodeError(Integer.Uint64FromStringOrNumber, 2 ** 60)).toContain("unsigned 64-bit")
    expect(decodeError(Integer.Uint64FromStringOrNumber, -1)).toContain("unsigned 64-bit")
  })

  it("leaves a 64-bit zero out of a stream message and reads it back from its absence", () => {
    // streams omit default values; a 64-bit integer's default is the string "0"
    const Message = Schema.Struct({
      u64: Integer.Uint64,
      i64: Integer.Int64,
      nonce: Integer.Uint64FromStringOrNumber
    })
    const Stream = StreamForm.make(Message)
    expect(Schema.encodeSync(Stream)({ u64: 0n, i64: 0n, nonce: 0n })).toStrictEqual({})
    expect(Schema.encodeSync(Stream)({ u64: 1n, i64: -1n, nonce: 2n })).toStrictEqual({
      u64: "1",
      i64: "-1",
      nonce: "2"
    })
    expect(Schema.decodeUnknownSync(Stream)({})).toStrictEqual({ u64: 0n, i64: 0n, nonce: 0n })
  })

  it("checks 32-bit numbers", () => {
    expect(Schema.decodeUnknownSync(Integer.Uint32)(4294967295)).toBe(4294967295)
    expect(decodeError(Integer.Uint32, 4294967296)).toContain("Uint32")
    expect(decodeError(Integer.Int32, 1.5)).toContain("Int32")
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Integer.Uint64)
    expectRoundTrips(Integer.Int64)
  })
})
