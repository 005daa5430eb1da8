/**
 * Protobuf integers as the gateway writes them: 64-bit values as decimal strings (decoded to
 * `bigint`, never a float), 32-bit values as JSON numbers.
 *
 * @since 0.1.0
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as FastDecode from "./internal/fastDecode.js"
import * as FastEncode from "./internal/fastEncode.js"
import { WireZeroId } from "./internal/wire.js"

/**
 * The largest uint64: 2⁶⁴ − 1.
 *
 * @since 0.1.0
 * @category Constants
 */
export const UINT64_MAX = 18446744073709551615n
/**
 * The smallest int64: −2⁶³.
 *
 * @since 0.1.0
 * @category Constants
 */
export const INT64_MIN = -9223372036854775808n
/**
 * The largest int64: 2⁶³ − 1.
 *
 * @since 0.1.0
 * @category Constants
 */
export const INT64_MAX = 9223372036854775807n

const unsignedDigits = /^\d+$/
const signedDigits = /^-?\d+$/

const bigIntFromString = (options: {
  readonly identifier: string
  readonly description: string
  readonly pattern: RegExp
  readonly min: bigint
  readonly max: bigint
}) => {
  const { description, max, min, pattern } = options
  const parse = (s: string): bigint | undefined => {
    if (!pattern.test(s)) return undefined
    const n = BigInt(s)
    return n >= min && n <= max ? n : undefined
  }
  const to = Schema.BigIntFromSelf.pipe(Schema.betweenBigInt(min, max)).annotations({
    description,
    arbitrary: () => (fc) => fc.bigInt({ min, max })
  })
  return Schema.transformOrFail(Schema.String, to, {
    strict: true,
    decode: (s, _, ast) => {
      const n = parse(s)
      return n === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, s, `Expected ${description}, actual ${JSON.stringify(s)}`))
        : ParseResult.succeed(n)
    },
    encode: (n) => ParseResult.succeed(n.toString())
  }).annotations({
    identifier: options.identifier,
    description,
    [WireZeroId]: "0",
    ...FastDecode.annotation((u) => (typeof u === "string" ? (parse(u) ?? FastDecode.FAIL) : FastDecode.FAIL)),
    ...FastEncode.annotation((u) => (typeof u === "bigint" && u >= min && u <= max ? u.toString() : FastEncode.FAIL))
  })
}

/**
 * proto `uint64`: a decimal string in `0..2^64-1`, decoded to `bigint`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Uint64 = bigIntFromString({
  identifier: "Uint64",
  description: "an unsigned 64-bit integer as a decimal string",
  pattern: unsignedDigits,
  min: 0n,
  max: UINT64_MAX
})

/**
 * proto `int64`: a decimal string in `-2^63..2^63-1`, decoded to `bigint`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Int64 = bigIntFromString({
  identifier: "Int64",
  description: "a signed 64-bit integer as a decimal string",
  pattern: signedDigits,
  min: INT64_MIN,
  max: INT64_MAX
})

/**
 * proto `uint32`: a JSON number.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Uint32 = Schema.Int.pipe(Schema.between(0, 4294967295)).annotations({
  identifier: "Uint32",
  description: "an unsigned 32-bit integer"
})

/**
 * proto `int32`: a JSON number.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Int32 = Schema.Int.pipe(Schema.between(-2147483648, 2147483647)).annotations({
  identifier: "Int32",
  description: "a signed 32-bit integer"
})

/**
 * A proto `uint64` that a request may carry as a JSON string or a JSON number (the gateway's JSON
 * reader accepts both); it always encodes as a string. Numbers above 2^53 are rejected because
 * they have already lost precision.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Uint64FromStringOrNumber = Schema.transformOrFail(Schema.Union(Schema.String, Schema.Number), Uint64, {
  strict: true,
  decode: (u, _, ast) =>
    typeof u === "string"
      ? ParseResult.succeed(u)
      : Number.isSafeInteger(u) && u >= 0
        ? ParseResult.succeed(String(u))
        : ParseResult.fail(new ParseResult.Type(ast, u, `Expected an unsigned 64-bit integer, actual ${u}`)),
  encode: ParseResult.succeed
}).annotations({ identifier: "Uint64", [WireZeroId]: "0" })
