/**
 * The watcher's work: the slices of the resources the configuration enables, in report order, each
 * with the reader of its part. Readers are made when a watcher takes a slice, so what one keeps in
 * memory between cycles (the positions' watermark) starts afresh after a takeover.
 */
import type { DataNodeClient } from "@vega-effect/http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { SqlError } from "@effect/sql/SqlError"
import type { WatcherConfig } from "./Config.js"
import { type SliceWork, workOf } from "./Cycle.js"
import type * as Leases from "./Leases.js"
import type * as Store from "./Store.js"
import { type ResourceName, resourceNames } from "./Event.js"
import type { Resource } from "./Resource.js"
import * as Liquidity from "./resources/liquidity.js"
import * as Positions from "./resources/positions.js"
import * as Profiles from "./resources/profiles.js"
import * as Referrals from "./resources/referrals.js"
import * as Rewards from "./resources/rewards.js"
import * as SignerBundles from "./resources/signerBundles.js"
import * as Stake from "./resources/stake.js"
import { shardCounts, sliceName } from "./Slice.js"

export interface SliceSpec {
  readonly slice: string
  readonly resource: ResourceName
  readonly make: () => Resource
}

/**
 * The slices to work. The lists a sharded resource is cut from (markets, parties) are read once
 * for all its slices, and kept for `listsFor` (by default a second): about one cycle.
 */
export const slicesOf = (
  client: DataNodeClient.Service,
  config: WatcherConfig,
  listsFor: Duration.DurationInput = "1 second"
): Effect.Effect<ReadonlyArray<SliceSpec>> =>
  Effect.gen(function* () {
    const { watch } = config
    const markets = yield* Effect.cachedWithTTL(Positions.marketIds(client), listsFor)
    const parties = yield* Effect.cachedWithTTL(Stake.partiesOf(client, watch.stake), listsFor)
    const readerOf = (resource: ResourceName, index: number): (() => Resource) | undefined => {
      const shard = { index, count: shardCounts[resource] }
      switch (resource) {
        case "positions":
          return watch.positions.enabled ? () => Positions.make(client, watch.positions, { shard, markets }) : undefined
        case "stake":
          return watch.stake.enabled ? () => Stake.make(client, watch.stake, {}, { shard, parties }) : undefined
        case "liquidity":
          return watch.liquidity.enabled ? () => Liquidity.make(client, watch.liquidity) : undefined
        case "signerBundles":
          return watch.signerBundles.enabled ? () => SignerBundles.make(client, watch.signerBundles) : undefined
        case "profiles":
          return watch.profiles.enabled ? () => Profiles.make(client, watch.profiles) : undefined
        case "rewards":
          return watch.rewards.enabled ? () => Rewards.make(client, watch.rewards) : undefined
        case "referrals":
          return watch.referrals.enabled ? () => Referrals.make(client, watch.referrals) : undefined
      }
    }
    const out: Array<SliceSpec> = []
    for (const resource of resourceNames) {
      for (let index = 0; index < shardCounts[resource]; index++) {
        const make = readerOf(resource, index)
        if (make !== undefined) out.push({ slice: sliceName(resource, index), resource, make })
      }
    }
    return out
  })

/**
 * Takes every slice and loads what the store holds of it: the work of a watcher alone on its state
 * (a benchmark, a test). Fails if another watcher holds one.
 */
export const takeAll = (
  leases: Leases.Service,
  store: Store.Service,
  specs: ReadonlyArray<SliceSpec>
): Effect.Effect<Array<SliceWork>, SqlError | Error> =>
  Effect.gen(function* () {
    yield* leases.join(specs.map((spec) => spec.slice))
    return yield* Effect.forEach(specs, (spec) =>
      Effect.gen(function* () {
        if ((yield* leases.acquire(spec.slice)) === undefined) {
          return yield* Effect.fail(new Error(`${spec.slice} is held by another watcher`))
        }
        return workOf(spec.slice, spec.make(), yield* store.load(spec.slice))
      })
    )
  })

/** How long the lists a sharded resource is cut from are kept: half an interval, at least 500 ms. */
export const cacheDuration = (interval: Duration.DurationInput): Duration.Duration =>
  Duration.max(Duration.millis(500), Duration.unsafeDivide(interval, 2))
