/**
 * Proto enums as they travel on the wire: names in REST responses, numbers in streams.
 *
 * Enums are open: a value added by a newer node decodes to an {@link UnknownEnumValue} instead of
 * failing, and encodes back to exactly what was received.
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as FastDecode from "./internal/fastDecode.js"
import * as FastEncode from "./internal/fastEncode.js"
import { WireEnumId, type WireEnum } from "./internal/wire.js"

/**
 * A value outside the enum's known set, kept as received (a name, or a bare number when the node
 * did not know the name either).
 *
 * @since 0.1.0
 * @category Models
 */
export interface UnknownEnumValue {
  readonly _tag: "UnknownEnumValue"
  readonly value: string | number
}

/**
 * An {@link UnknownEnumValue} holding `value`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const unknownEnumValue = (value: string | number): UnknownEnumValue => ({ _tag: "UnknownEnumValue", value })

/**
 * Whether a value is an {@link UnknownEnumValue}.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isUnknownEnumValue = (u: unknown): u is UnknownEnumValue =>
  Predicate.hasProperty(u, "_tag") && u._tag === "UnknownEnumValue"

/**
 * An open enum: a schema for the REST form (names) plus the stream form (`Number`) and the tables.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OpenEnum<Name extends string> extends Schema.SchemaClass<
  Name | UnknownEnumValue,
  string | number,
  never
> {
  /** The proto name of the enum, e.g. `vega.PositionStatus`. */
  readonly protoName: string
  /** Known names in declaration order, with their numbers. */
  readonly values: { readonly [K in Name]: number }
  readonly names: ReadonlyArray<Name>
  /** The name of value 0, which proto3 uses when a field is unset. */
  readonly zero: Name
  /** The closed set of known names. */
  readonly Known: Schema.Literal<[Name, ...Array<Name>]>
  /** The stream form: enums as numbers. */
  readonly Number: Schema.Schema<Name | UnknownEnumValue, number>
  readonly is: (u: unknown) => u is Name
  readonly numberOf: (value: Name | UnknownEnumValue) => number | undefined
  readonly nameOf: (n: number) => Name | undefined
}

/**
 * Defines an open enum from its proto name and its `NAME = number` table.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <const Values extends Record<string, number>>(
  protoName: string,
  values: Values
): OpenEnum<Extract<keyof Values, string>> => {
  type Name = Extract<keyof Values, string>
  const names = Object.keys(values) as Array<Name>
  const byName = new Map<string, number>(names.map((name) => [name, values[name]]))
  const byNumber = new Map<number, Name>(names.map((name) => [values[name], name]))
  const maybeZero = byNumber.get(0)
  if (maybeZero === undefined) throw new Error(`enum ${protoName} has no value 0`)
  const zero: Name = maybeZero
  const isName = (u: unknown): u is Name => typeof u === "string" && byName.has(u)
  const wire: WireEnum = { names: byName, numbers: byNumber }

  const Known = Schema.Literal(...(names as [Name, ...Array<Name>]))
  const Unknown = Schema.Struct({
    _tag: Schema.Literal("UnknownEnumValue"),
    value: Schema.Union(Schema.String, Schema.Int)
  }).pipe(
    Schema.filter((u) => !(typeof u.value === "string" ? byName.has(u.value) : byNumber.has(u.value)), {
      message: () => `an unknown value of ${protoName} must not be one of its known values`
    })
  )
  const TypeSide = Schema.Union(Known, Unknown).annotations({
    identifier: protoName,
    arbitrary: () => (fc) =>
      fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: Arbitrary.make(Unknown) })
  }) as unknown as Schema.Schema<Name | UnknownEnumValue>

  // what the type side accepts: a known name, or an unknown value that is not a known one
  const isUnknown = (u: unknown): u is UnknownEnumValue =>
    isUnknownEnumValue(u) &&
    (typeof u.value === "string" ? !byName.has(u.value) : Number.isSafeInteger(u.value) && !byNumber.has(u.value))

  const fromName = (v: string | number): Name | UnknownEnumValue =>
    typeof v === "string" ? (isName(v) ? v : unknownEnumValue(v)) : (byNumber.get(v) ?? unknownEnumValue(v))

  const NameForm = Schema.transform(Schema.Union(Schema.String, Schema.Int), TypeSide, {
    strict: true,
    decode: fromName,
    encode: (t) => (typeof t === "string" ? t : t.value)
  }).annotations({
    identifier: protoName,
    [WireEnumId]: wire,
    ...FastDecode.annotation((u) =>
      typeof u === "string" || Number.isSafeInteger(u) ? fromName(u as string | number) : FastDecode.FAIL
    ),
    ...FastEncode.annotation((u) => (isName(u) ? u : isUnknown(u) ? u.value : FastEncode.FAIL))
  })

  const NumberForm = Schema.transformOrFail(Schema.Int, TypeSide, {
    strict: true,
    decode: (n) => ParseResult.succeed(byNumber.get(n) ?? unknownEnumValue(n)),
    encode: (t, _, ast) => {
      if (typeof t === "string") return ParseResult.succeed(values[t])
      return typeof t.value === "number"
        ? ParseResult.succeed(t.value)
        : ParseResult.fail(new ParseResult.Type(ast, t, `${protoName} value "${t.value}" has no known number`))
    }
  }).annotations({
    identifier: `${protoName} (number)`,
    [WireEnumId]: wire,
    ...FastDecode.annotation((u) =>
      Number.isSafeInteger(u) ? (byNumber.get(u as number) ?? unknownEnumValue(u as number)) : FastDecode.FAIL
    ),
    ...FastEncode.annotation((u) =>
      isName(u) ? values[u] : isUnknown(u) && typeof u.value === "number" ? u.value : FastEncode.FAIL
    )
  })

  return class OpenEnumSchema extends Schema.make<Name | UnknownEnumValue, string | number, never>(NameForm.ast) {
    static readonly protoName = protoName
    static readonly values = values as { readonly [K in Name]: number }
    static readonly names = names
    static readonly zero = zero
    static readonly Known = Known
    static readonly Number = NumberForm
    static readonly is = isName
    static readonly numberOf = (value: Name | UnknownEnumValue): number | undefined =>
      typeof value === "string" ? values[value] : typeof value.value === "number" ? value.value : undefined
    static readonly nameOf = (n: number): Name | undefined => byNumber.get(n)
  }
}

/**
 * The decoded type of an open enum: its known names or an {@link UnknownEnumValue}.
 *
 * @since 0.1.0
 * @category Models
 */
export type Type<E extends OpenEnum<any>> = Schema.Schema.Type<E>

/**
 * The known names of an open enum (what a request may send: the node rejects others).
 *
 * @since 0.2.0
 * @category Models
 */
export type Known<E extends OpenEnum<any>> = Exclude<Type<E>, UnknownEnumValue>
