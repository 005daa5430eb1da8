/**
 * The watcher's work, cut into slices that watchers sharing one state divide among themselves
 * (see `Leases.ts`). A resource with many rows is cut into shards by the id its reads can filter
 * on: positions by market, stake by party; every other resource is one slice. Each sink's delivery
 * is a slice too, so one watcher at a time feeds a sink.
 *
 * The shard counts are part of the stored state (a row belongs to the slice that wrote it), so
 * they are fixed here rather than configured.
 */
import type { ResourceName, Row } from "./Event.js"

export interface Shard {
  readonly index: number
  readonly count: number
}

/** The whole of a resource: one shard. */
export const whole: Shard = { index: 0, count: 1 }

export const shardCounts: { readonly [R in ResourceName]: number } = {
  positions: 16,
  stake: 16,
  liquidity: 1,
  signerBundles: 1,
  profiles: 1,
  rewards: 1,
  referrals: 1
}

/** FNV-1a, 32 bits: a stable spread of ids over shards, the same in every process and version. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

export const shardOf = (id: string, count: number): number => (count === 1 ? 0 : fnv1a(id.toLowerCase()) % count)

export const inShard = (shard: Shard, id: string): boolean => shardOf(id, shard.count) === shard.index

export const sliceName = (resource: ResourceName, index: number): string =>
  shardCounts[resource] === 1 ? resource : `${resource}:${index}`

export const sinkSlice = (sink: string): string => `sink:${sink}`

/** Every slice of the resources, in report order. */
export const resourceSlices = (resources: ReadonlyArray<ResourceName>): ReadonlyArray<string> =>
  resources.flatMap((resource) =>
    Array.from({ length: shardCounts[resource] }, (_, index) => sliceName(resource, index))
  )

/**
 * The slice a stored row belongs to, from its key and value: positions are keyed
 * `<market>/<party>`, stake rows carry their party (`party`, or `partyId` for the available row).
 */
export const sliceOfRow = (resource: ResourceName, key: string, row: Row): string => {
  const count = shardCounts[resource]
  if (count === 1) return resource
  const id =
    resource === "positions"
      ? key.slice(0, key.indexOf("/"))
      : typeof row.partyId === "string"
        ? row.partyId
        : typeof row.party === "string"
          ? row.party
          : ""
  return sliceName(resource, shardOf(id, count))
}
