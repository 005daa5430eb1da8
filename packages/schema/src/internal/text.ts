/**
 * Strings that must match a pattern, with an error message that says what was expected.
 */
import * as Schema from "effect/Schema"

/** An actual value for an error message; safe for any input (bigints included). */
export const showActual = (u: unknown): string =>
  typeof u === "string" ? JSON.stringify(u) : typeof u === "bigint" ? `${u}n` : String(u)

/** `Schema.String` restricted to `pattern`; the message reads "Expected <expected>, actual …". */
export const matching = (pattern: RegExp, expected: string) =>
  Schema.String.pipe(
    Schema.pattern(pattern, { message: (issue) => `Expected ${expected}, actual ${showActual(issue.actual)}` })
  )
