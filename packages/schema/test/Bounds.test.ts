/**
 * The bounds of integers and amounts, checked on each decoding and encoding path on its own: the
 * Effect Schema transformation, and the fast path `Decoder` and `Encoder` take first. The limits
 * are written out here, never computed from the constants the modules share.
 */
import { describe, expect, it } from "@effect/vitest"
import { Amount, Integer } from "@vega-effect/schema"
import { Either, Schema } from "effect"
import * as FastDecode from "../src/internal/fastDecode.js"
import * as FastEncode from "../src/internal/fastEncode.js"

/** 2^256 − 1 and 2^256. */
const U256_MAX = "115792089237316195423570985008687907853269984665640564039457584007913129639935"
const U256_OVER = "115792089237316195423570985008687907853269984665640564039457584007913129639936"

type Bounded = Schema.Schema<bigint, string>

/** What each path makes of a decimal string: the bigint, or undefined when refused. */
const decoded = (schema: Bounded, text: string) => {
  const slow = Schema.decodeUnknownEither(schema)(text)
  const fast = FastDecode.compile(schema.ast)(text)
  return {
    schema: Either.isRight(slow) ? slow.right : undefined,
    fast: fast === FastDecode.FAIL ? undefined : (fast as bigint)
  }
}

/** What each path makes of a bigint: the decimal string, or undefined when refused. */
const encoded = (schema: Bounded, value: bigint) => {
  const slow = Schema.encodeEither(schema)(value)
  const fast = FastEncode.compile(schema.ast)(value)
  return {
    schema: Either.isRight(slow) ? slow.right : undefined,
    fast: fast === FastEncode.FAIL ? undefined : (fast as string)
  }
}

/** Accepted on both paths, in both directions, as the same value. */
const accepted = (schema: Bounded, text: string) => {
  expect(decoded(schema, text)).toEqual({ schema: BigInt(text), fast: BigInt(text) })
  expect(encoded(schema, BigInt(text))).toEqual({ schema: text, fast: text })
}

/** Refused on both paths, in both directions. */
const refused = (schema: Bounded, text: string) => {
  expect(decoded(schema, text)).toEqual({ schema: undefined, fast: undefined })
  expect(encoded(schema, BigInt(text))).toEqual({ schema: undefined, fast: undefined })
}

describe("bounds on every path", () => {
  it("Amount: 0 to 2^256 − 1", () => {
    accepted(Amount.Amount, U256_MAX)
    accepted(Amount.Amount, "0")
    refused(Amount.Amount, U256_OVER)
    refused(Amount.Amount, "-1")
  })

  it("SignedAmount: −(2^256 − 1) to 2^256 − 1", () => {
    accepted(Amount.SignedAmount, U256_MAX)
    accepted(Amount.SignedAmount, `-${U256_MAX}`)
    refused(Amount.SignedAmount, U256_OVER)
    refused(Amount.SignedAmount, `-${U256_OVER}`)
  })

  it("Uint64: 0 to 2^64 − 1", () => {
    accepted(Integer.Uint64, "18446744073709551615")
    accepted(Integer.Uint64, "0")
    refused(Integer.Uint64, "18446744073709551616")
    refused(Integer.Uint64, "-1")
  })

  it("Int64: −2^63 to 2^63 − 1", () => {
    accepted(Integer.Int64, "9223372036854775807")
    accepted(Integer.Int64, "-9223372036854775808")
    refused(Integer.Int64, "9223372036854775808")
    refused(Integer.Int64, "-9223372036854775809")
  })
})

describe("what a refusal says", () => {
  const messageOf = (schema: Schema.Schema<any, any>, input: unknown) =>
    Either.match(Schema.decodeUnknownEither(schema)(input), { onLeft: (e) => e.message, onRight: () => "accepted" })

  it("names the type and what it expected", () => {
    expect(messageOf(Amount.Amount, U256_OVER)).toBe(
      `Amount\n└─ Transformation process failure\n   └─ Expected an unsigned integer amount in base units (at most 256 bits) as a decimal string, actual "${U256_OVER}"`
    )
    expect(messageOf(Amount.SignedAmount, "x")).toBe(
      'SignedAmount\n└─ Transformation process failure\n   └─ Expected a signed integer amount in base units (at most 256 bits) as a decimal string, actual "x"'
    )
    expect(messageOf(Integer.Uint64, "-1")).toBe(
      'Uint64\n└─ Transformation process failure\n   └─ Expected an unsigned 64-bit integer as a decimal string, actual "-1"'
    )
    expect(messageOf(Integer.Int64, "x")).toBe(
      'Int64\n└─ Transformation process failure\n   └─ Expected a signed 64-bit integer as a decimal string, actual "x"'
    )
    expect(messageOf(Integer.Uint32, -1)).toBe(
      "Uint32\n└─ Predicate refinement failure\n   └─ Expected an unsigned 32-bit integer, actual -1"
    )
    expect(messageOf(Integer.Int32, -2147483649)).toBe(
      "Int32\n└─ Predicate refinement failure\n   └─ Expected a signed 32-bit integer, actual -2147483649"
    )
  })

  it("a uint64 given as a JSON number: 0 and 2^53 − 1 accepted, −1 and 2^53 refused", () => {
    const decode = Schema.decodeUnknownSync(Integer.Uint64FromStringOrNumber)
    expect(decode(0)).toBe(0n)
    expect(decode(9007199254740991)).toBe(9007199254740991n)
    expect(messageOf(Integer.Uint64FromStringOrNumber, -1)).toBe(
      "Uint64\n└─ Transformation process failure\n   └─ Expected an unsigned 64-bit integer, actual -1"
    )
    expect(messageOf(Integer.Uint64FromStringOrNumber, 9007199254740992)).toContain("actual 9007199254740992")
  })
})
