/**
 * Decoders for bulk responses: drop-in replacements for `Schema.decodeUnknownSync` and
 * `Schema.decodeUnknownEither` that give the same values and the same errors, several times
 * faster on JSON pages.
 *
 * The schema is compiled once into plain loops and direct calls to the codecs' parse functions.
 * Any input the fast path is not sure about (bad input included) is decoded again by Effect's
 * parser, so errors are Effect's own, with their paths.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { ParseOptions } from "effect/SchemaAST"
import * as FastDecode from "./internal/fastDecode.js"

/**
 * A drop-in replacement for `Schema.decodeUnknownEither`: the same values, and the same
 * `ParseError` on the left for bad input, faster on JSON pages. Passing parse options skips the
 * fast path.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodeUnknownEither = <A, I>(
  schema: Schema.Schema<A, I, never>
): ((input: unknown, options?: ParseOptions) => Either.Either<A, ParseResult.ParseError>) => {
  const fast = FastDecode.compile(schema.ast)
  const slow = Schema.decodeUnknownEither(schema)
  return (input, options) => {
    if (options === undefined) {
      const value = fast(input)
      if (value !== FastDecode.FAIL) return Either.right(value as A)
    }
    return slow(input, options)
  }
}

/**
 * A drop-in replacement for `Schema.decodeUnknownSync`: the same values, and the same
 * `ParseError` thrown for bad input, faster on JSON pages. Passing parse options skips the fast
 * path.
 *
 * @example
 * ```ts
 * import { Decoder, Position } from "@vega-effect/schema"
 *
 * // compile once, at module level, then decode every page with it
 * const decodePage = Decoder.decodeUnknownSync(Position.ListPositionsResponse)
 *
 * const body = `{"positions":{"edges":[],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"","endCursor":""}}}`
 * const page = decodePage(JSON.parse(body))
 * assert.strictEqual(page.positions.edges.length, 0)
 * assert.strictEqual(page.positions.pageInfo.hasNextPage, false)
 * ```
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodeUnknownSync = <A, I>(
  schema: Schema.Schema<A, I, never>
): ((input: unknown, options?: ParseOptions) => A) => {
  const fast = FastDecode.compile(schema.ast)
  const slow = Schema.decodeUnknownSync(schema)
  return (input, options) => {
    if (options === undefined) {
      const value = fast(input)
      if (value !== FastDecode.FAIL) return value as A
    }
    return slow(input, options)
  }
}
