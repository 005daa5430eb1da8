/**
 * The number parsers the node's validation uses on string fields, reproduced exactly (no floats).
 */
import * as BigDecimal from "effect/BigDecimal"

const goBigInt = /^[+-]?[0-9]+$/

/** Go `new(big.Int).SetString(s, 10)`: an optional sign and decimal digits; `undefined` when it fails. */
export const parseGoBigInt = (s: string): bigint | undefined => (goBigInt.test(s) ? BigInt(s) : undefined)

const goDecimal = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/

/**
 * shopspring `decimal.NewFromString` (vega `num.DecimalFromString`): an optional sign, digits with
 * at most one decimal point, an optional exponent; `undefined` when it fails.
 */
export const parseGoDecimal = (s: string): BigDecimal.BigDecimal | undefined => {
  const match = goDecimal.exec(s)
  if (match === null) return undefined
  const [, sign, whole, fraction = "", exponent = "0"] = match
  const digits = whole + fraction
  if (digits.length === 0) return undefined
  const exp = Number(exponent)
  if (!Number.isSafeInteger(exp)) return undefined
  return BigDecimal.make(BigInt(sign + digits), fraction.length - exp)
}
