/**
 * The resources the watcher watches, in report order: the one list of them. Every per-resource
 * table elsewhere (names, shard counts, the `watch` configuration, the readers, the live
 * subscriptions, the console's fields, the command line's filters) is derived from it, so adding a
 * resource is writing its definition (see `ResourceDefinition.ts`) and listing it here.
 *
 * Modules the definitions import must not import this one (the names are a type here, imported
 * type-only elsewhere where a value import would close a cycle).
 */
import type { ResourceDefinition } from "./ResourceDefinition.js"
import * as Liquidity from "./resources/liquidity.js"
import * as Positions from "./resources/positions.js"
import * as Profiles from "./resources/profiles.js"
import * as Referrals from "./resources/referrals.js"
import * as Rewards from "./resources/rewards.js"
import * as SignerBundles from "./resources/signerBundles.js"
import * as Stake from "./resources/stake.js"

// stake last: read party by party, its first read and a restart's catch-up take longest, and
// first reads go one resource at a time in this order (see live/LiveWatch.ts)
export const definitions = [
  Positions.definition,
  Liquidity.definition,
  SignerBundles.definition,
  Profiles.definition,
  Rewards.definition,
  Referrals.definition,
  Stake.definition
] as const

/** Any one of the definitions. */
export type Definition = (typeof definitions)[number]

export type ResourceName = Definition["name"]

/**
 * A definition with its own types forgotten, for loops over all of them: a definition's options
 * are those of `watch.<its name>`, which a loop over the names cannot tell the compiler.
 */
export type AnyDefinition = ResourceDefinition<ResourceName, any, any, any>

/** The definitions, for loops over all of them (see `AnyDefinition`). */
export const allDefinitions: ReadonlyArray<AnyDefinition> = definitions

export const resourceNames: ReadonlyArray<ResourceName> = definitions.map((definition) => definition.name)

/** The definitions by name (`fromEntries` loses the names' types, hence the cast). */
export const definitionOf: { readonly [R in ResourceName]: Extract<Definition, { readonly name: R }> } =
  Object.fromEntries(definitions.map((definition) => [definition.name, definition])) as never
