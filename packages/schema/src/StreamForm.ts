/**
 * The data node writes JSON in two ways. REST responses use jsonpb with defaults emitted and
 * enums as names, which is what every schema of this package encodes. Streams (`/api/v2/stream/...`,
 * the event bus) use `EnumsAsInts` and omit default values: `""`, `"0"`, `0`, `false`, `[]` and
 * enum value 0 are absent, and enums are numbers.
 *
 * {@link make} derives the stream form of any REST schema, so each wire shape is described once.
 *
 * @since 0.1.0
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as GatewayError from "./GatewayError.js"
import { getWireEnum, getWireZero, type WireEnum } from "./internal/wire.js"

type Plan =
  | { readonly _tag: "Enum"; readonly table: WireEnum; readonly zero: string }
  | { readonly _tag: "Scalar"; readonly zero: unknown }
  | { readonly _tag: "Message"; readonly fields: ReadonlyArray<Field> }
  | { readonly _tag: "Array"; readonly element: Plan }
  | { readonly _tag: "Map"; readonly value: Plan }
  | { readonly _tag: "Nullable"; readonly inner: Plan }
  | { readonly _tag: "Opaque" }

interface Field {
  readonly key: PropertyKey
  readonly optional: boolean
  readonly plan: () => Plan
}

const opaque: Plan = { _tag: "Opaque" }

const planOf = (ast: AST.AST): Plan => {
  const table = getWireEnum(ast)
  if (table !== undefined) return { _tag: "Enum", table, zero: table.numbers.get(0) ?? "" }
  const zero = getWireZero(ast)
  if (zero !== undefined) return { _tag: "Scalar", zero: zero.value }
  switch (ast._tag) {
    case "Transformation":
    case "Refinement":
      return planOf(ast.from)
    case "Suspend":
      return planOf(ast.f())
    case "TypeLiteral": {
      // a proto map: a JSON object of entries, each value in the form of its own type
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1)
        return { _tag: "Map", value: planOf(ast.indexSignatures[0]!.type) }
      const fields = ast.propertySignatures.map((ps): Field => {
        let plan: Plan | undefined
        return { key: ps.name, optional: ps.isOptional, plan: () => (plan ??= planOf(ps.type)) }
      })
      return { _tag: "Message", fields }
    }
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1
        ? { _tag: "Array", element: planOf(ast.rest[0].type) }
        : opaque
    case "Union": {
      const others = ast.types.filter((t) => !(AST.isLiteral(t) && t.literal === null))
      if (others.length === ast.types.length - 1 && others.length === 1) {
        return { _tag: "Nullable", inner: planOf(others[0]) }
      }
      return opaque
    }
    case "StringKeyword":
    case "TemplateLiteral":
      return { _tag: "Scalar", zero: "" }
    case "NumberKeyword":
      return { _tag: "Scalar", zero: 0 }
    case "BooleanKeyword":
      return { _tag: "Scalar", zero: false }
    case "Literal":
      return {
        _tag: "Scalar",
        zero: typeof ast.literal === "string" ? "" : typeof ast.literal === "number" ? 0 : false
      }
    default:
      return opaque
  }
}

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const mapValues = (record: Record<PropertyKey, unknown>, f: (v: unknown) => unknown): Record<PropertyKey, unknown> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]))

const restZero = (plan: Plan): unknown => {
  switch (plan._tag) {
    case "Enum":
      return plan.zero
    case "Scalar":
      return plan.zero
    case "Message":
      return toRest(plan, {})
    case "Array":
      return []
    case "Map":
      return {}
    case "Nullable":
      return null
    case "Opaque":
      return undefined
  }
}

const toRest = (plan: Plan, value: unknown): unknown => {
  switch (plan._tag) {
    case "Enum":
      return typeof value === "number" ? (plan.table.numbers.get(value) ?? value) : value
    case "Message": {
      if (!isRecord(value)) return value
      const out: Record<PropertyKey, unknown> = {}
      for (const field of plan.fields) {
        const v = value[field.key]
        if (v === undefined) {
          if (!field.optional) out[field.key] = restZero(field.plan())
        } else {
          out[field.key] = toRest(field.plan(), v)
        }
      }
      return out
    }
    case "Array":
      return Array.isArray(value) ? value.map((v) => toRest(plan.element, v)) : value
    case "Map":
      return isRecord(value) ? mapValues(value, (v) => toRest(plan.value, v)) : value
    case "Nullable":
      return value === null || value === undefined ? null : toRest(plan.inner, value)
    default:
      return value
  }
}

const isDefault = (plan: Plan, value: unknown): boolean => {
  switch (plan._tag) {
    case "Enum":
      return value === plan.zero || value === 0
    case "Scalar":
      return value === plan.zero
    case "Array":
      return Array.isArray(value) && value.length === 0
    case "Map":
      return isRecord(value) && Object.keys(value).length === 0
    case "Nullable":
      return value === null
    default:
      return false
  }
}

const toStream = (plan: Plan, value: unknown): unknown => {
  switch (plan._tag) {
    case "Enum":
      return typeof value === "string" ? (plan.table.names.get(value) ?? value) : value
    case "Message": {
      if (!isRecord(value)) return value
      const out: Record<PropertyKey, unknown> = {}
      for (const field of plan.fields) {
        const v = value[field.key]
        if (v === undefined) continue
        const fieldPlan = field.plan()
        // a member the node may leave out is written even at its default, but a repeated field has
        // no presence: an empty one is never written
        if ((!field.optional || fieldPlan._tag === "Array" || fieldPlan._tag === "Map") && isDefault(fieldPlan, v))
          continue
        out[field.key] = toStream(fieldPlan, v)
      }
      return out
    }
    case "Array":
      return Array.isArray(value) ? value.map((v) => toStream(plan.element, v)) : value
    case "Map":
      return isRecord(value) ? mapValues(value, (v) => toStream(plan.value, v)) : value
    case "Nullable":
      return value === null ? null : toStream(plan.inner, value)
    default:
      return value
  }
}

/**
 * The stream form of a REST schema: same decoded type, JSON with enums as numbers and default
 * values omitted. Build it once, at module level.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <A, I, R>(rest: Schema.Schema<A, I, R>): Schema.Schema<A, unknown, R> => {
  const plan = planOf(rest.ast)
  return Schema.transformOrFail(Schema.Unknown, rest, {
    strict: true,
    decode: (json) => ParseResult.succeed(toRest(plan, json) as I),
    encode: (restJson) => ParseResult.succeed(toStream(plan, restJson))
  }).annotations({
    identifier: `${Option.getOrElse(AST.getIdentifierAnnotation(rest.ast), () => "value")} (stream form)`
  })
}

/**
 * Converts a REST-form JSON value to its stream form, given the schema that describes it.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fromRestJson = <A, I, R>(rest: Schema.Schema<A, I, R>, json: I): unknown =>
  toStream(planOf(rest.ast), json)

/**
 * Converts a stream-form JSON value to its REST form, given the schema that describes it.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toRestJson = <A, I, R>(rest: Schema.Schema<A, I, R>, json: unknown): unknown =>
  toRest(planOf(rest.ast), json)

/**
 * One message of a streaming route, as framed by the gateway: `{"result":…}` for a message, or
 * `{"error":…}` when the stream fails (each frame is one line of NDJSON, or one WebSocket text
 * frame). The error body is written in stream form too, so an empty `details` is absent.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const frame = <A, I, R>(result: Schema.Schema<A, I, R>) =>
  Schema.Union(Schema.Struct({ result }), Schema.Struct({ error: make(GatewayError.ErrorBody) })).annotations({
    identifier: "StreamFrame"
  })
