/**
 * Strings that must match a pattern, with an error message that says what was expected.
 */
import * as Schema from "effect/Schema"

/** An actual value for an error message; never throws, whatever the input (bigints, odd objects). */
export const showActual = (u: unknown): string => {
  if (typeof u === "string") return JSON.stringify(u)
  if (typeof u === "bigint") return `${u}n`
  try {
    return typeof u === "object" && u !== null ? (JSON.stringify(u) ?? String(u)) : String(u)
  } catch {
    return Object.prototype.toString.call(u)
  }
}

/** `Schema.String` restricted to `pattern`; the message reads "Expected <expected>, actual …". */
export const matching = (pattern: RegExp, expected: string) =>
  Schema.String.pipe(
    Schema.pattern(pattern, { message: (issue) => `Expected ${expected}, actual ${showActual(issue.actual)}` })
  )
