/**
 * The watcher's work, cut into slices that watchers sharing one state divide among themselves
 * (see `Leases.ts`). A resource with many rows is cut into shards by the id its reads can filter
 * on (see each definition's `sharding`): positions by market, stake by party; every other resource is one slice. Each sink's delivery
 * is a slice too, so one watcher at a time feeds a sink.
 *
 * The shard counts are part of the stored state (a row belongs to the slice that wrote it), so
 * they are fixed in the definitions rather than configured.
 */
import type { Row } from "./Event.js"
import { allDefinitions, definitionOf, type ResourceName } from "./Resources.js"
import { shardOf } from "./Shard.js"

export { inShard, type Shard, shardOf, whole } from "./Shard.js"

/** The shards of each resource, from its definition (`fromEntries` loses the names' types; `Resources.test.ts` checks them). */
export const shardCounts: { readonly [R in ResourceName]: number } = Object.fromEntries(
  allDefinitions.map((definition) => [definition.name, definition.sharding.count])
) as { readonly [R in ResourceName]: number }

export const sliceName = (resource: ResourceName, index: number): string =>
  shardCounts[resource] === 1 ? resource : `${resource}:${index}`

export const sinkSlice = (sink: string): string => `sink:${sink}`

/** Every slice of the resources, in report order. */
export const resourceSlices = (resources: ReadonlyArray<ResourceName>): ReadonlyArray<string> =>
  resources.flatMap((resource) =>
    Array.from({ length: shardCounts[resource] }, (_, index) => sliceName(resource, index))
  )

/** The slice a stored row belongs to, from its key and value (see each definition's `sharding.idOf`). */
export const sliceOfRow = (resource: ResourceName, key: string, row: Row): string => {
  const { count, idOf } = definitionOf[resource].sharding
  return count === 1 ? resource : sliceName(resource, shardOf(idOf(key, row), count))
}
