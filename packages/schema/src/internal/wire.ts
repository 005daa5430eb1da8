/**
 * Annotations that describe how a schema's encoded value travels in the data node's JSON, so that
 * the two marshallers of the gateway (REST: defaults emitted, enums as names; streams: defaults
 * omitted, enums as numbers) can both be derived from one schema.
 */
import type * as AST from "effect/SchemaAST"

/** The encoded zero value of a proto scalar whose JSON type does not say it (64-bit integers: `"0"`). */
export const WireZeroId: unique symbol = Symbol.for("@vega-effect/schema/WireZero")

/** The name/number table of a proto enum. */
export const WireEnumId: unique symbol = Symbol.for("@vega-effect/schema/WireEnum")

export interface WireEnum {
  readonly names: ReadonlyMap<string, number>
  readonly numbers: ReadonlyMap<number, string>
}

export const getWireZero = (ast: AST.AST): { readonly value: unknown } | undefined => {
  const annotation = ast.annotations[WireZeroId]
  return annotation === undefined ? undefined : { value: annotation }
}

export const getWireEnum = (ast: AST.AST): WireEnum | undefined => ast.annotations[WireEnumId] as WireEnum | undefined
