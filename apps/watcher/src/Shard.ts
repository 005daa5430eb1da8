/**
 * Shards: how the ids a resource's reads can filter on (markets, parties) spread over a fixed
 * number of shards. Pure arithmetic, shared by the resources (which read one shard), the slices
 * (which name them) and the migrations (which must compute what they computed when they shipped).
 */

export interface Shard {
  readonly index: number
  readonly count: number
}

/** The whole of a resource: one shard. */
export const whole: Shard = { index: 0, count: 1 }

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
