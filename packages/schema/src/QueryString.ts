/**
 * Query strings the way the data node's gateway (grpc-gateway) reads them:
 *
 * - nested request fields become dotted keys (`pagination.first`, `filter.partyIds`);
 * - repeated fields repeat the key (`parties=a&parties=b`), never comma-joined;
 * - every key and value is percent-encoded, so base64 cursors keep their `+`, `/` and `=`;
 * - unset parameters are omitted, and so are empty strings and empty arrays: the gateway treats
 *   an empty value as set (`pagination.after=` fails with "cursor is empty").
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * A scalar the query string can carry.
 *
 * @since 0.1.0
 * @category Models
 */
export type Scalar = string | number | boolean | bigint

const isScalar = (u: unknown): u is Scalar =>
  typeof u === "string" || typeof u === "number" || typeof u === "boolean" || typeof u === "bigint"

const push = (out: Array<readonly [string, string]>, key: string, value: unknown): void => {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) {
    for (const element of value) {
      if (isScalar(element)) pushScalar(out, key, element)
      else throw new TypeError(`query parameter ${key}: arrays may only hold scalars`)
    }
    return
  }
  if (isScalar(value)) return pushScalar(out, key, value)
  if (typeof value === "object") {
    for (const [k, v] of Object.entries(value)) push(out, `${key}.${k}`, v)
    return
  }
  throw new TypeError(`query parameter ${key}: unsupported value of type ${typeof value}`)
}

const pushScalar = (out: Array<readonly [string, string]>, key: string, value: Scalar): void => {
  const text = String(value)
  if (text !== "") out.push([key, text])
}

/**
 * Flattens an encoded request into the gateway's `[key, value]` pairs, in field order.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const entries = (params: { readonly [key: string]: unknown }): Array<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  for (const [key, value] of Object.entries(params)) push(out, key, value)
  return out
}

/**
 * Percent-encodes like `encodeURIComponent`, which leaves only `A-Z a-z 0-9 - _ . ! ~ * ' ( )`
 * unescaped: `+` becomes `%2B` (the gateway would read a bare `+` as a space).
 *
 * @since 0.1.0
 * @category Encoding
 */
export const escape = (s: string): string => encodeURIComponent(s)

/**
 * Builds the query string (without the leading `?`) of an encoded request.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const make = (params: { readonly [key: string]: unknown }): string =>
  entries(params)
    .map(([key, value]) => `${escape(key)}=${escape(value)}`)
    .join("&")

/**
 * Encodes a typed request with its schema, then builds its query string.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const encode =
  <A, I extends { readonly [key: string]: unknown }>(schema: Schema.Schema<A, I>) =>
  (request: A): string =>
    make(Schema.encodeSync(schema)(request))
