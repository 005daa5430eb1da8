/**
 * The building blocks of `watch.<resource>` in the configuration: each resource's definition
 * declares its own fields with these (see `ResourceDefinition.ts`), and `Config.ts` assembles the
 * `watch` section from the definitions. Kept apart from `Config.ts` so that a definition does not
 * depend on the configuration that is built from it.
 */
import { Ids } from "@vega-effect/schema"
import * as Schema from "effect/Schema"

/** A 64-character hex id, lowercased as the node writes ids. */
export const Id = Schema.String.pipe(
  Schema.filter((s) => Ids.isVegaId(s), { message: () => "a 64-character hex id" }),
  Schema.transform(Schema.String, { strict: true, decode: (s) => s.toLowerCase(), encode: (s) => s })
)
export const IdList = Schema.Array(Id)

/** An exact integer in the wire's raw units, e.g. "-5000000". */
export const RawAmount = Schema.String.pipe(
  Schema.pattern(/^-?\d+$/, { message: () => "an integer string (raw units)" })
)

export const PnlThresholds = Schema.Struct({
  realisedBelow: Schema.optional(RawAmount),
  realisedAbove: Schema.optional(RawAmount),
  unrealisedBelow: Schema.optional(RawAmount),
  unrealisedAbove: Schema.optional(RawAmount)
})
export type PnlThresholds = typeof PnlThresholds.Type

/** The switch every resource has: on unless configured off. */
const enabled = { enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }) }

/** `watch.<resource>`: `enabled` first, then the resource's own fields. */
export const Toggle = <Fields extends Schema.Struct.Fields>(fields: Fields) => Schema.Struct({ ...enabled, ...fields })

/** The decoded options of a resource with these fields: `enabled` and the fields. */
export type OptionsOf<Fields extends Schema.Struct.Fields> = Schema.Struct.Type<typeof enabled & Fields>

/**
 * `watch.<resource>` as a field of the `watch` section: absent means enabled, unfiltered. Every
 * resource field is optional, so `{ enabled: true }` decodes for any of them.
 */
export const toggleField = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.optionalWith(Toggle(fields), {
    default: () => ({ enabled: true }) as Schema.Struct.Type<typeof enabled & Fields>
  })
