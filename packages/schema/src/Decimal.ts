/**
 * Exact decimal fractions (fees, factors, multipliers) as Effect `BigDecimal`.
 *
 * The node writes them in plain notation with trailing zeros trimmed (`"0.001"`, `"1"`); encoding
 * reproduces that form. Parsing is strict: no exponent, no sign other than a leading `-`, no
 * empty string.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as FastDecode from "./internal/fastDecode.js"
import * as FastEncode from "./internal/fastEncode.js"

const plainDecimal = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * Parses a plain decimal string (`"-12.034"`) exactly; `None` for anything else (non-strings included).
 *
 * @since 0.1.0
 * @category Parsing
 */
export const parse = (s: string): Option.Option<BigDecimal.BigDecimal> => {
  // a number is not a decimal string: `exec` would read its `String(...)` form
  const match = typeof s === "string" ? plainDecimal.exec(s) : null
  if (match === null) return Option.none()
  const fraction = match[3] ?? ""
  return Option.some(BigDecimal.make(BigInt(match[1] + match[2] + fraction), fraction.length))
}

/**
 * Formats a decimal in plain notation with trailing zeros trimmed, the way the node prints it:
 * `0.0001`, `1`, `-2.5`, `100`. Never uses exponent notation.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const format = (d: BigDecimal.BigDecimal): string => {
  const n = BigDecimal.normalize(d)
  if (n.scale <= 0) return (n.value * 10n ** BigInt(-n.scale)).toString()
  const negative = n.value < 0n
  const digits = (negative ? -n.value : n.value).toString().padStart(n.scale + 1, "0")
  const cut = digits.length - n.scale
  return `${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`
}

/**
 * Formats a decimal with exactly `places` digits after the point, truncating towards zero when it
 * has more. Useful for fixed-width reports.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const formatFixed = (d: BigDecimal.BigDecimal, places: number): string => {
  const scaled = BigDecimal.scale(d, places)
  const negative = scaled.value < 0n
  const digits = (negative ? -scaled.value : scaled.value).toString().padStart(places + 1, "0")
  if (places === 0) return `${negative ? "-" : ""}${digits}`
  const cut = digits.length - places
  return `${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`
}

const DecimalSelf = Schema.BigDecimalFromSelf.annotations({
  arbitrary: () => (fc) =>
    fc
      .tuple(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.integer({ min: 0, max: 20 }))
      .map(([value, scale]) => BigDecimal.make(value, scale))
})

/**
 * A decimal fraction carried as a string, e.g. a fee `"0.0001"`, decoded to an exact `BigDecimal`.
 *
 * @example
 * ```ts
 * import { BigDecimal, Schema } from "effect"
 * import { Decimal } from "@vega-effect/schema"
 *
 * // a maker fee factor as the node writes it
 * const fee = Schema.decodeUnknownSync(Decimal.Decimal)("0.0002")
 * assert.ok(BigDecimal.equals(fee, BigDecimal.make(2n, 4)))
 *
 * // exact arithmetic, then back to the node's notation
 * const doubled = BigDecimal.multiply(fee, BigDecimal.fromBigInt(2n))
 * assert.strictEqual(Schema.encodeSync(Decimal.Decimal)(doubled), "0.0004")
 *
 * // exponents are not the node's notation
 * assert.throws(() => Schema.decodeUnknownSync(Decimal.Decimal)("2e-4"))
 * ```
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Decimal = Schema.transformOrFail(Schema.String, DecimalSelf, {
  strict: true,
  decode: (s, _, ast) =>
    Option.match(parse(s), {
      onNone: () =>
        ParseResult.fail(
          new ParseResult.Type(ast, s, `Expected a decimal number in plain notation, actual ${JSON.stringify(s)}`)
        ),
      onSome: ParseResult.succeed
    }),
  encode: (d) => ParseResult.succeed(format(d))
}).annotations({
  identifier: "Decimal",
  description: "a decimal number in plain notation",
  ...FastDecode.annotation((u) =>
    typeof u === "string" ? Option.getOrElse(parse(u), () => FastDecode.FAIL) : FastDecode.FAIL
  ),
  ...FastEncode.annotation((u) => (BigDecimal.isBigDecimal(u) ? format(u) : FastEncode.FAIL))
})

/**
 * A decimal field that later nodes leave empty (`""`) once it is deprecated: `""` decodes to
 * `None` and `None` encodes back to `""`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DecimalOrEmpty = Schema.transformOrFail(Schema.String, Schema.OptionFromSelf(DecimalSelf), {
  strict: true,
  decode: (s, _, ast) => {
    if (s === "") return ParseResult.succeed(Option.none())
    const parsed = parse(s)
    return Option.isSome(parsed)
      ? ParseResult.succeed(parsed)
      : ParseResult.fail(
          new ParseResult.Type(ast, s, `Expected a decimal number in plain notation or "", actual ${JSON.stringify(s)}`)
        )
  },
  encode: (o) => ParseResult.succeed(Option.match(o, { onNone: () => "", onSome: format }))
}).annotations({
  identifier: "DecimalOrEmpty",
  ...FastDecode.annotation((u) =>
    u === ""
      ? Option.none()
      : typeof u === "string"
        ? Option.match(parse(u), { onNone: () => FastDecode.FAIL, onSome: Option.some })
        : FastDecode.FAIL
  ),
  ...FastEncode.annotation((u) =>
    !Option.isOption(u)
      ? FastEncode.FAIL
      : Option.isNone(u)
        ? ""
        : BigDecimal.isBigDecimal(u.value)
          ? format(u.value)
          : FastEncode.FAIL
  )
})
