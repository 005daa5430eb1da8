/**
 * Strings that must match a pattern, with an error message that says what was expected.
 */
import * as Schema from "effect/Schema"
import { show } from "../Input.js"

/** `Schema.String` restricted to `pattern`; the message reads "Expected <expected>, actual …". */
export const matching = (pattern: RegExp, expected: string) =>
  Schema.String.pipe(
    Schema.pattern(pattern, { message: (issue) => `Expected ${expected}, actual ${show(issue.actual)}` })
  )
