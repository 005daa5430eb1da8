/**
 * Go's `decimal.NewFromString` (github.com/vegaprotocol/decimal v1.3.1-uint256, the shopspring
 * fork the v0.75.8 node uses), read exactly: an optional exponent after `e` or `E` (an int32),
 * at most one `.`, and an integer (optional sign, decimal digits) once the point is taken out;
 * else the library's error text; and its division.
 */
import * as BigDecimal from "effect/BigDecimal"
import { divRound } from "./world/orders.js"

/** A decimal `value × 10^exp`. */
export interface GoDecimal {
  readonly value: bigint
  readonly exp: number
}

const INT = /^[+-]?[0-9]+$/
const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

export const parseGoDecimal = (input: string): GoDecimal | { readonly error: string } => {
  let value = input
  let exp = 0
  const e = value.search(/[eE]/)
  if (e !== -1) {
    const text = value.slice(e + 1)
    if (!INT.test(text)) return { error: `can't convert ${value} to decimal: exponent is not numeric` }
    const n = Number(text)
    if (n < INT32_MIN || n > INT32_MAX) return { error: `can't convert ${value} to decimal: fractional part too long` }
    value = value.slice(0, e)
    exp = n
  }
  const point = value.indexOf(".")
  if (point !== -1 && value.indexOf(".", point + 1) !== -1) {
    return { error: `can't convert ${value} to decimal: too many .s` }
  }
  const digits = point === -1 ? value : value.slice(0, point) + value.slice(point + 1)
  if (point !== -1) exp -= value.length - point - 1
  if (!INT.test(digits)) return { error: `can't convert ${value} to decimal` }
  if (exp < INT32_MIN || exp > INT32_MAX)
    return { error: `can't convert ${input} to decimal: fractional part too long` }
  return { value: BigInt(digits), exp }
}

export const isGoDecimalError = (d: GoDecimal | { readonly error: string }): d is { readonly error: string } =>
  "error" in d

/** Places of a quotient: the library divides to `DivisionPrecision` (16), rounding half away from zero. */
const DIVISION_PLACES = 16

/** `n / d` (`d` > 0) as the library's `Div` gives it. */
export const divide = (n: bigint, d: bigint): BigDecimal.BigDecimal =>
  BigDecimal.make(divRound(n * 10n ** BigInt(DIVISION_PLACES), d), DIVISION_PLACES)
