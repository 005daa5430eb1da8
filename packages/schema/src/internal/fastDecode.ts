/**
 * A fast path for decoding JSON with a schema.
 *
 * The schema's AST is compiled once into plain functions: structs become loops over their
 * fields, arrays loops over their elements, and each codec of this package (integers, amounts,
 * ids, enums, decimals) supplies a direct decoder through the {@link FastDecodeId} annotation,
 * built from the same parse function as its Effect transformation. Whatever the compiler does not
 * know is decoded by Effect's own parser.
 *
 * The fast path is only ever trusted when it succeeds. On any doubt it returns {@link FAIL}, and
 * the caller decodes again with Effect's parser, which produces the value or the error.
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

/** Annotation: a function that decodes an input exactly as the annotated node does, or returns {@link FAIL}. */
export const FastDecodeId: unique symbol = Symbol.for("@vega-effect/schema/FastDecode")

export const FAIL: unique symbol = Symbol.for("@vega-effect/schema/FastDecode/FAIL")

export type Fast = (input: unknown) => unknown

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
  const decode = ParseResult.decodeUnknownEither(Schema.make(ast))
  return (input) => {
    const result = decode(input)
    return result._tag === "Right" ? result.right : FAIL
  }
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const build = (ast: AST.AST): Fast => {
  const annotated = ast.annotations[FastDecodeId] as Fast | undefined
  if (annotated !== undefined) return annotated
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => (typeof u === "string" ? u : FAIL)
    case "BooleanKeyword":
      return (u) => (typeof u === "boolean" ? u : FAIL)
    case "Literal": {
      const literal = ast.literal
      return (u) => (u === literal ? u : FAIL)
    }
    case "Refinement": {
      const from = compile(ast.from)
      return (u) => {
        const value = from(u)
        return value !== FAIL && Option.isNone(ast.filter(value, noOptions, ast)) ? value : FAIL
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
        decode: compile(ps.type)
      }))
      return (u) => {
        if (!isPlainObject(u)) return FAIL
        const out: Record<string, unknown> = {}
        for (const field of fields) {
          const input = u[field.name]
          if (input === undefined) {
            if (field.optional && !Object.prototype.hasOwnProperty.call(u, field.name)) continue
            return FAIL
          }
          const value = field.decode(input)
          if (value === FAIL) return FAIL
          out[field.name] = value
        }
        return out
      }
    }
    default:
      return viaEffect(ast)
  }
}

/** The annotation a codec adds to expose its direct decoder. */
export const annotation = (decode: (input: unknown) => unknown) => ({ [FastDecodeId]: decode })
