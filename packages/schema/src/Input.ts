/**
 * Checks for values that reach a public function from outside the type system (JavaScript callers,
 * configuration, JSON): `undefined`, `null`, a number where a string belongs. Functions taking
 * user input use them to fail with their own typed error instead of a `TypeError`.
 *
 * @since 0.1.0
 */

/**
 * A value for an error message: strings quoted, bigints with `n`, objects as JSON. Never throws,
 * whatever the input.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const show = (u: unknown): string => {
  if (typeof u === "string") return JSON.stringify(u)
  if (typeof u === "bigint") return `${u}n`
  try {
    return typeof u === "object" && u !== null ? (JSON.stringify(u) ?? String(u)) : String(u)
  } catch {
    return Object.prototype.toString.call(u)
  }
}

/**
 * Whether a value is a non-null object (an options bag, say), arrays excluded.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Whether a value is a string with at least one non-blank character.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isNonEmptyString = (u: unknown): u is string => typeof u === "string" && u.trim() !== ""

/**
 * Whether a value is bytes (`Uint8Array`, `Buffer` included).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isBytes = (u: unknown): u is Uint8Array => u instanceof Uint8Array
