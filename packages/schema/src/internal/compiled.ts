/**
 * Compiles a schema into a fast path for one direction (decoding JSON or encoding values): structs
 * become loops over their fields, arrays loops over their elements, and each codec of this package
 * supplies a direct function through an annotation, built from the same checks as its Effect
 * transformation. Whatever the compiler does not know is handled by Effect's own parser.
 *
 * The fast path is only ever trusted when it succeeds. On any doubt it returns {@link FAIL}, and
 * the caller runs Effect's parser again, which produces the value or the error.
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

export const FAIL: unique symbol = Symbol.for("@vega-effect/schema/Compiled/FAIL")

export type Fast = (input: unknown) => unknown

export interface Direction {
  /** The annotation under which a codec exposes its direct function for this direction. */
  readonly annotationId: symbol
  /** Effect's parser for this direction. */
  readonly effect: (ast: AST.AST) => (input: unknown) => ReturnType<ReturnType<typeof ParseResult.decodeUnknownEither>>
  /** Whether the input (encoding) or the output (decoding) is the type side a refinement checks. */
  readonly refineInput: boolean
}

export const decoding: Direction = {
  annotationId: Symbol.for("@vega-effect/schema/FastDecode"),
  effect: (ast) => ParseResult.decodeUnknownEither(Schema.make(ast)),
  refineInput: false
}

export const encoding: Direction = {
  annotationId: Symbol.for("@vega-effect/schema/FastEncode"),
  effect: (ast) => ParseResult.encodeUnknownEither(Schema.make(ast)),
  refineInput: true
}

const noOptions: AST.ParseOptions = {}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** An array of `element`s. */
const arrayOf =
  (element: Fast): Fast =>
  (u) => {
    if (!Array.isArray(u)) return FAIL
    const out: Array<unknown> = []
    for (let i = 0; i < u.length; i++) {
      const value = element(u[i])
      if (value === FAIL) return FAIL
      out.push(value)
    }
    return out
  }

interface Field {
  readonly name: string
  readonly optional: boolean
  readonly run: Fast
  /**
   * A property-signature transformation of the member (`nullable`: `null` on the wire, absent
   * once decoded): what the member becomes, under the name `to`, from its decoded value or from
   * its absence.
   */
  readonly transformation: AST.PropertySignatureTransformation | undefined
}

const hasOwn = (u: object, name: string) => Object.prototype.hasOwnProperty.call(u, name)

/**
 * An object of these fields, and nothing else in the output, in the order of the fields (which
 * is the order of Effect's output).
 */
const structOf =
  (fields: ReadonlyArray<Field>): Fast =>
  (u) => {
    if (!isPlainObject(u)) return FAIL
    const out: Record<string, unknown> = {}
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]
      const input = u[field.name]
      const t = field.transformation
      if (input === undefined) {
        if (!field.optional || hasOwn(u, field.name)) return FAIL
        if (t !== undefined) {
          const moved = t.decode(Option.none())
          if (Option.isSome(moved)) out[t.to as string] = moved.value
        }
        continue
      }
      const value = field.run(input)
      if (value === FAIL) return FAIL
      if (t === undefined) {
        out[field.name] = value
        continue
      }
      const moved = t.decode(Option.some(value))
      if (Option.isSome(moved)) out[t.to as string] = moved.value
    }
    return out
  }

/**
 * A struct whose members are decoded by property-signature transformations (an unset message
 * `null` on the wire and absent once decoded): the encoded struct first, then each member moved
 * or dropped as its transformation says. The decoded members need no check of their own. Used
 * where the members would not come out in the order of the decoded struct (see `structOf`).
 */
const renamedOrDefaulted =
  (from: Fast, transformations: ReadonlyArray<AST.PropertySignatureTransformation>): Fast =>
  (u) => {
    const out = from(u)
    if (out === FAIL) return FAIL
    const record = out as Record<PropertyKey, unknown>
    for (const t of transformations) {
      const present = Object.prototype.hasOwnProperty.call(record, t.from)
      const value = t.decode(present ? Option.some(record[t.from]) : Option.none())
      delete record[t.from]
      if (Option.isSome(value)) record[t.to] = value.value
    }
    return out
  }

/** Whether a struct's members are plain: string names, no index signatures. */
const isPlainStruct = (ast: AST.AST): ast is AST.TypeLiteral =>
  ast._tag === "TypeLiteral" &&
  ast.indexSignatures.length === 0 &&
  ast.propertySignatures.every((ps) => typeof ps.name === "string")

/**
 * The members of a struct with property-signature transformations, for one pass over its encoded
 * members, each transformed as it is decoded, when that gives the members in the decoded struct's
 * order (as Effect's parser, which checks the decoded struct last, gives them): the members of the
 * encoded struct, renamed as the transformations say, in the decoded struct's order.
 */
const transformedFields = (
  ast: AST.Transformation,
  transformations: ReadonlyArray<AST.PropertySignatureTransformation>,
  compile: (ast: AST.AST) => Fast
): ReadonlyArray<Field> | undefined => {
  const { from, to } = ast
  if (!isPlainStruct(from) || !isPlainStruct(to)) return undefined
  const byFrom = new Map(transformations.map((t) => [t.from, t]))
  if (byFrom.size !== transformations.length) return undefined
  if (transformations.some((t) => !from.propertySignatures.some((ps) => ps.name === t.from))) return undefined
  const names = from.propertySignatures.map((ps) => byFrom.get(ps.name)?.to ?? ps.name)
  const order = to.propertySignatures.map((ps) => ps.name)
  if (names.length !== order.length || names.some((name, i) => name !== order[i])) return undefined
  return from.propertySignatures.map((ps) => ({
    name: ps.name as string,
    optional: ps.isOptional,
    run: compile(ps.type),
    transformation: byFrom.get(ps.name)
  }))
}

export const makeCompiler = (direction: Direction) => {
  const cache = new WeakMap<AST.AST, Fast>()

  const compile = (ast: AST.AST): Fast => {
    let fast = cache.get(ast)
    if (fast === undefined) {
      fast = build(ast)
      cache.set(ast, fast)
    }
    return fast
  }

  const viaEffect = (ast: AST.AST): Fast => {
    const run = direction.effect(ast)
    return (input) => {
      const result = run(input)
      return result._tag === "Right" ? result.right : FAIL
    }
  }

  const build = (ast: AST.AST): Fast => {
    const annotated = ast.annotations[direction.annotationId] as Fast | undefined
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
          const out = from(u)
          if (out === FAIL) return FAIL
          return Option.isNone(ast.filter(direction.refineInput ? u : out, noOptions, ast)) ? out : FAIL
        }
      }
      case "TupleType": {
        if (ast.elements.length !== 0 || ast.rest.length !== 1) return viaEffect(ast)
        return arrayOf(compile(ast.rest[0].type))
      }
      case "TypeLiteral": {
        if (!isPlainStruct(ast)) return viaEffect(ast)
        return structOf(
          ast.propertySignatures.map((ps) => ({
            name: ps.name as string,
            optional: ps.isOptional,
            run: compile(ps.type),
            transformation: undefined
          }))
        )
      }
      case "Union":
        return unionOf(ast)
      case "Transformation": {
        if (direction !== decoding || ast.transformation._tag !== "TypeLiteralTransformation") return viaEffect(ast)
        const transformations = ast.transformation.propertySignatureTransformations
        const fields = transformedFields(ast, transformations, compile)
        return fields !== undefined ? structOf(fields) : renamedOrDefaulted(compile(ast.from), transformations)
      }
      default:
        return viaEffect(ast)
    }
  }

  /**
   * A union of literals and at most one other member (`null` or a message, `""` or an id): the
   * members cannot both accept an input, so trying them in order gives Effect's answer.
   */
  const unionOf = (ast: AST.Union): Fast => {
    if (ast.types.filter((t) => t._tag !== "Literal").length > 1) return viaEffect(ast)
    const members = ast.types.map(compile)
    return (u) => {
      for (const member of members) {
        const out = member(u)
        if (out !== FAIL) return out
      }
      return FAIL
    }
  }

  return compile
}
