/**
 * Helpers for proto messages modelled in part: optional members, oneofs and sub-messages kept as
 * raw JSON.
 */
import type * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as FastDecode from "./fastDecode.js"
import { WireZeroId } from "./wire.js"

/** A non-optional singular message field: `null` on the wire when unset, absent in the decoded value. */
export const nullable = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.requiredToOptional(Schema.NullOr(schema), Schema.typeSchema(schema), {
    decode: Option.fromNullable,
    encode: Option.getOrNull
  })

/** A member the node may leave out (proto3 `optional`, oneof members, fields added by later versions). */
export const optional = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { exact: true })

/**
 * A message member that a later version added: absent from older nodes' answers, and `null` in a
 * newer node's when unset; decoded absent either way.
 */
export const laterMessage = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.optionalWith(schema, { exact: true, nullable: true })

/**
 * A sub-message this package does not model, kept exactly as received so that encoding writes it
 * back unchanged. Generated values are JSON values (no `-0`, no `undefined`).
 */
export const Opaque = Schema.Unknown.annotations({
  identifier: "Opaque",
  description: "a JSON value kept as received",
  arbitrary: () => jsonValue
})

/** Small JSON values that survive `JSON.stringify` then `JSON.parse` unchanged. */
export const jsonValue = (fc: typeof FastCheck): FastCheck.Arbitrary<unknown> =>
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown)

/**
 * A proto `oneof` laid out flat, as the gateway writes it: at most one of `members` is present.
 */
export const oneof =
  (name: string, members: ReadonlyArray<string>) =>
  <S extends Schema.Schema.Any>(self: S) =>
    self.pipe(
      Schema.filter((u) => {
        const present = members.filter((m) => (u as Record<string, unknown>)[m] !== undefined)
        return (
          present.length <= 1 || `oneof ${name} may hold only one of ${members.join(", ")}, got ${present.join(", ")}`
        )
      })
    )

/**
 * A string member that is `schema`, or `""` where the node leaves it unset (an id, an address).
 * `""` is also the member's zero, so the stream form leaves it out.
 */
export const orEmpty = <A extends string, I extends string>(schema: Schema.Schema<A, I>) => {
  let fast: ((u: unknown) => unknown) | undefined
  return Schema.Union(Schema.Literal(""), schema).annotations({
    [WireZeroId]: "",
    ...FastDecode.annotation((u) => (u === "" ? "" : (fast ??= FastDecode.compile(schema.ast))(u)))
  })
}
