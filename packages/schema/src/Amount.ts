/**
 * Amounts in base units (asset, price or volume units): integer decimal strings of any size,
 * decoded to `bigint`. Vega amounts are 256-bit, so they are not bounded to 64 bits.
 *
 * Which decimals scale an amount (asset, market price, position) is the job of the `Scaling` module.
 *
 * @since 0.1.0
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as FastDecode from "./internal/fastDecode.js"
import * as FastEncode from "./internal/fastEncode.js"

const UINT256_MAX = (1n << 256n) - 1n

interface Range {
  readonly pattern: RegExp
  readonly min: bigint
}

const UNSIGNED: Range = { pattern: /^\d+$/, min: 0n }
const SIGNED: Range = { pattern: /^-?\d+$/, min: -UINT256_MAX }

/** The amount a string holds, or `undefined` when it is not one of the range. */
const parser =
  ({ min, pattern }: Range) =>
  (s: string): bigint | undefined => {
    if (!pattern.test(s)) return undefined
    const n = BigInt(s)
    return n >= min && n <= UINT256_MAX ? n : undefined
  }

const integerString = (options: Range & { readonly identifier: string; readonly description: string }) => {
  const { description, min } = options
  const parse = parser(options)
  const to = Schema.BigIntFromSelf.pipe(Schema.betweenBigInt(min, UINT256_MAX)).annotations({
    description,
    arbitrary: () => (fc) =>
      fc.oneof(fc.bigInt({ min: min < 0n ? -(10n ** 30n) : 0n, max: 10n ** 30n }), fc.bigInt({ min, max: UINT256_MAX }))
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
    ...FastDecode.annotation((u) => (typeof u === "string" ? (parse(u) ?? FastDecode.FAIL) : FastDecode.FAIL)),
    ...FastEncode.annotation((u) =>
      typeof u === "bigint" && u >= min && u <= UINT256_MAX ? u.toString() : FastEncode.FAIL
    )
  })
}

/**
 * An unsigned integer amount in base units, e.g. `"5000000000000000000"` (5 VEGA at 18 decimals).
 *
 * @example
 * ```ts
 * import { Either, Schema } from "effect"
 * import { Amount, Decimal, Scaling } from "@vega-effect/schema"
 *
 * // 5 VEGA in base units: beyond 2^53, so a bigint
 * const stake = Schema.decodeUnknownSync(Amount.Amount)("5000000000000000000")
 * assert.strictEqual(stake, 5_000_000_000_000_000_000n)
 *
 * // to tokens with the asset's decimals (18 for VEGA)
 * assert.strictEqual(Decimal.format(Scaling.fromAssetUnits(stake, Scaling.assetDecimals(18))), "5")
 *
 * // a signed amount is not an Amount
 * assert.ok(Either.isLeft(Schema.decodeUnknownEither(Amount.Amount)("-1")))
 * ```
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Amount = integerString({
  identifier: "Amount",
  description: "an unsigned integer amount in base units (at most 256 bits) as a decimal string",
  ...UNSIGNED
})

/**
 * A signed integer amount in base units, e.g. profit and loss: `"-1250000"`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SignedAmount = integerString({
  identifier: "SignedAmount",
  description: "a signed integer amount in base units (at most 256 bits) as a decimal string",
  ...SIGNED
})

const parseUnsigned = parser(UNSIGNED)
const EMPTY_DESCRIPTION = 'an unsigned integer amount in base units as a decimal string, or "" when unset'

/**
 * An unsigned amount that the node leaves empty (`""`) while it is unset: `""` decodes to `None`
 * and `None` encodes back to `""`.
 *
 * @since 0.2.0
 * @category Schemas
 */
export const AmountOrEmpty = Schema.transformOrFail(
  Schema.String,
  Schema.OptionFromSelf(Schema.BigIntFromSelf.pipe(Schema.betweenBigInt(0n, UINT256_MAX))),
  {
    strict: true,
    decode: (s, _, ast) => {
      if (s === "") return ParseResult.succeed(Option.none())
      const n = parseUnsigned(s)
      return n === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, s, `Expected ${EMPTY_DESCRIPTION}, actual ${JSON.stringify(s)}`))
        : ParseResult.succeed(Option.some(n))
    },
    encode: (o) => ParseResult.succeed(Option.match(o, { onNone: () => "", onSome: (n) => n.toString() }))
  }
).annotations({
  identifier: "AmountOrEmpty",
  description: EMPTY_DESCRIPTION,
  ...FastDecode.annotation((u) => {
    if (u === "") return Option.none()
    const n = typeof u === "string" ? parseUnsigned(u) : undefined
    return n === undefined ? FastDecode.FAIL : Option.some(n)
  }),
  ...FastEncode.annotation((u) =>
    !Option.isOption(u)
      ? FastEncode.FAIL
      : Option.isNone(u)
        ? ""
        : typeof u.value === "bigint" && u.value >= 0n && u.value <= UINT256_MAX
          ? u.value.toString()
          : FastEncode.FAIL
  )
})
