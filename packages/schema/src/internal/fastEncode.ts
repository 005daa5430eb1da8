/**
 * A fast path for encoding with a schema, the mirror of `fastDecode`: the AST is compiled once
 * into plain functions, codecs supply direct encoders through the {@link FastEncodeId}
 * annotation (sharing their checks with their Effect transformations), and whatever the compiler
 * does not know is encoded by Effect itself. A value the fast path is unsure about gives
 * {@link FAIL}, and the caller encodes again with Effect, which produces the value or the error.
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

/** Annotation: a function that encodes a value exactly as the annotated node does, or returns {@link FAIL}. */
export const FastEncodeId: unique symbol = Symbol.for("@vega-effect/schema/FastEncode")

export const FAIL: unique symbol = Symbol.for("@vega-effect/schema/FastEncode/FAIL")

export type Fast = (value: unknown) => unknown

const cache = new WeakMap<AST.AST, Fast>()
const noOptions: AST.ParseOptions = {}

export const compile = (ast: AST.AST): Fast => {
  let fast = cache.get(ast)
  if (fast === undefined) {
    fast = build(ast)
    cache.set(ast, fast)
  }
  return fast
}

const viaEffect = (ast: AST.AST): Fast => {
  const encode = ParseResult.encodeUnknownEither(Schema.make(ast))
  return (value) => {
    const result = encode(value)
    return result._tag === "Right" ? result.right : FAIL
  }
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const build = (ast: AST.AST): Fast => {
  const annotated = ast.annotations[FastEncodeId] as Fast | undefined
  if (annotated !== undefined) return annotated
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => (typeof u === "string" ? u : FAIL)
    case "BooleanKeyword":
      return (u) => (typeof u === "boolean" ? u : FAIL)
    case "NumberKeyword":
      return (u) => (typeof u === "number" && Number.isFinite(u) ? u : FAIL)
    case "Literal": {
      const literal = ast.literal
      return (u) => (u === literal ? u : FAIL)
    }
    case "Refinement": {
      const from = compile(ast.from)
      return (u) => {
        const encoded = from(u)
        return encoded !== FAIL && Option.isNone(ast.filter(u, noOptions, ast)) ? encoded : FAIL
      }
    }
    case "TupleType": {
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return viaEffect(ast)
      const element = compile(ast.rest[0].type)
      return (u) => {
        if (!Array.isArray(u)) return FAIL
        const out: Array<unknown> = []
        for (let i = 0; i < u.length; i++) {
          const value = element(u[i])
          if (value === FAIL) return FAIL
          out.push(value)
        }
        return out
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0 || ast.propertySignatures.some((ps) => typeof ps.name !== "string")) {
        return viaEffect(ast)
      }
      const fields = ast.propertySignatures.map((ps) => ({
        name: ps.name as string,
        optional: ps.isOptional,
        encode: compile(ps.type)
      }))
      return (u) => {
        if (!isPlainObject(u)) return FAIL
        const out: Record<string, unknown> = {}
        for (const field of fields) {
          const value = u[field.name]
          if (value === undefined) {
            if (field.optional && !Object.prototype.hasOwnProperty.call(u, field.name)) continue
            return FAIL
          }
          const encoded = field.encode(value)
          if (encoded === FAIL) return FAIL
          out[field.name] = encoded
        }
        return out
      }
    }
    default:
      return viaEffect(ast)
  }
}

/** The annotation a codec adds to expose its direct encoder. */
export const annotation = (encode: (value: unknown) => unknown) => ({ [FastEncodeId]: encode })
