/**
 * Compiles a schema into a fast path for one direction (decoding JSON or encoding values): structs
 * become loops over their fields, arrays loops over their elements, and each codec of this package
 * supplies a direct function through an annotation, built from the same checks as its Effect
 * transformation. Whatever the compiler does not know is handled by Effect's own parser.
 *
 * The fast path is only ever trusted when it succeeds. On any doubt it returns {@link FAIL}, and
 * the caller runs Effect's parser again, which produces the value or the error.
 *
 * Structs, arrays and unions are made from JavaScript source where the platform allows it (`new
 * Function`; a Content-Security-Policy without `unsafe-eval` does not): one function of its own
 * for each struct, with its members' names written in, so that V8 specialises each property access
 * and call to one shape and one callee, instead of one shared loop seeing every struct of the API.
 * Elsewhere they are those shared loops, which do the same.
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

/**
 * A function made from JavaScript source (`source` returns it), its free names bound to
 * `bindings`; `undefined` where the platform does not allow code from strings (an `EvalError`:
 * a Content-Security-Policy without `unsafe-eval`, some edge runtimes). Any other error is a bug
 * here, and is thrown.
 */
const fromSource = (bindings: Readonly<Record<string, unknown>>, source: string): Fast | undefined => {
  const names = Object.keys(bindings)
  let make: (...values: ReadonlyArray<unknown>) => Fast
  try {
    make = new Function(...names, `"use strict"\n${source}`) as typeof make
  } catch (e) {
    if (e instanceof EvalError) return undefined
    throw e
  }
  return make(...names.map((name) => bindings[name]))
}

/** An array of `element`s. */
const arrayLoop =
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
const structLoop =
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

const arraySource = `return function (u) {
  if (!Array.isArray(u)) return FAIL
  const out = []
  for (let i = 0; i < u.length; i++) {
    const value = element(u[i])
    if (value === FAIL) return FAIL
    out.push(value)
  }
  return out
}`

/** `structLoop` written out for these fields: `r<i>` decodes member i, `t<i>` is its transformation. */
const structSource = (fields: ReadonlyArray<Field>): string => {
  const lines = [
    "return function (u) {",
    '  if (typeof u !== "object" || u === null || Array.isArray(u)) return FAIL',
    "  const out = {}",
    "  let v"
  ]
  fields.forEach((field, i) => {
    const name = JSON.stringify(field.name)
    const t = field.transformation
    const to = t === undefined ? name : JSON.stringify(String(t.to))
    const moved = (from: string) => `v = t${i}.decode(${from}); if (isSome(v)) out[${to}] = v.value`
    const absent = !field.optional
      ? "return FAIL"
      : `if (hasOwn(u, ${name})) return FAIL${t === undefined ? "" : `; ${moved("none")}`}`
    const present = t === undefined ? `out[${name}] = v` : moved("some(v)")
    lines.push(
      `  v = u[${name}]`,
      `  if (v === undefined) { ${absent} } else { v = r${i}(v); if (v === FAIL) return FAIL; ${present} }`
    )
  })
  lines.push("  return out", "}")
  return lines.join("\n")
}

/** `unionLoop` written out for `n` members, `m<i>` the member i. */
const unionSource = (n: number): string =>
  [
    "return function (u) {",
    "  let v",
    ...Array.from({ length: n }, (_, i) => `  v = m${i}(u); if (v !== FAIL) return v`),
    "  return FAIL",
    "}"
  ].join("\n")

/** A union's members tried in order: the first that accepts the input gives the output. */
const unionLoop =
  (members: ReadonlyArray<Fast>): Fast =>
  (u) => {
    for (const member of members) {
      const out = member(u)
      if (out !== FAIL) return out
    }
    return FAIL
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

/** An array of `element`s, made from source when `generate`. */
const arrayOf = (element: Fast, generate: boolean): Fast =>
  (generate ? fromSource({ FAIL, element }, arraySource) : undefined) ?? arrayLoop(element)

/** A struct of these fields, made from source when `generate`. */
const structOf = (fields: ReadonlyArray<Field>, generate: boolean): Fast => {
  const bindings: Record<string, unknown> = {
    FAIL,
    hasOwn,
    isSome: Option.isSome,
    none: Option.none(),
    some: Option.some
  }
  fields.forEach((field, i) => {
    bindings[`r${i}`] = field.run
    bindings[`t${i}`] = field.transformation
  })
  return (generate ? fromSource(bindings, structSource(fields)) : undefined) ?? structLoop(fields)
}

/** A union of these members, made from source when `generate`. */
const unionOf = (members: ReadonlyArray<Fast>, generate: boolean): Fast => {
  const bindings: Record<string, unknown> = { FAIL }
  members.forEach((member, i) => (bindings[`m${i}`] = member))
  return (generate ? fromSource(bindings, unionSource(members.length)) : undefined) ?? unionLoop(members)
}

export interface Options {
  /** Whether structs, arrays and unions are made from JavaScript source where allowed (default). */
  readonly generate?: boolean
}

export const makeCompiler = (direction: Direction, options: Options = {}) => {
  const cache = new WeakMap<AST.AST, Fast>()
  const generate = options.generate ?? true

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
        return arrayOf(compile(ast.rest[0].type), generate)
      }
      case "TypeLiteral": {
        if (!isPlainStruct(ast)) return viaEffect(ast)
        const fields = ast.propertySignatures.map((ps): Field => ({
          name: ps.name as string,
          optional: ps.isOptional,
          run: compile(ps.type),
          transformation: undefined
        }))
        return structOf(fields, generate)
      }
      case "Union":
        // literals and at most one other member (`null` or a message, `""` or an id): the members
        // cannot both accept an input, so trying them in order gives Effect's answer
        if (ast.types.filter((t) => t._tag !== "Literal").length > 1) return viaEffect(ast)
        return unionOf(ast.types.map(compile), generate)
      case "Transformation": {
        if (direction !== decoding || ast.transformation._tag !== "TypeLiteralTransformation") return viaEffect(ast)
        const transformations = ast.transformation.propertySignatureTransformations
        const fields = transformedFields(ast, transformations, compile)
        return fields !== undefined
          ? structOf(fields, generate)
          : renamedOrDefaulted(compile(ast.from), transformations)
      }
      default:
        return viaEffect(ast)
    }
  }

  return compile
}
