/**
 * The watcher's work: the slices of the resources the configuration enables, in report order (see
 * `Resources.ts`), each with the reader of its part (see each definition's `reader`). Readers are made when a watcher takes a slice, so what one keeps in
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
import type { Resource } from "./Resource.js"
import { allDefinitions, type AnyDefinition, type ResourceName } from "./Resources.js"
import { sliceName } from "./Slice.js"

export interface SliceSpec {
  readonly slice: string
  readonly resource: ResourceName
  readonly make: () => Resource
}

/** The slices of one enabled resource, each with the maker of its reader. */
const specsOf = (
  client: DataNodeClient.Service,
  definition: AnyDefinition,
  options: WatcherConfig["watch"][ResourceName],
  listsFor: Duration.DurationInput
): Effect.Effect<ReadonlyArray<SliceSpec>> =>
  Effect.map(Effect.cachedWithTTL(definition.sharding.ids(client, options), listsFor), (shardIds) => {
    const { count } = definition.sharding
    return Array.from({ length: count }, (_, index) => ({
      slice: sliceName(definition.name, index),
      resource: definition.name,
      make: () => definition.reader({ client, options, shard: { index, count }, shardIds })
    }))
  })

/**
 * The slices to work. The ids a sharded resource is cut from (markets, parties) are read once
 * for all its slices, and kept for `listsFor` (by default a second): about one cycle.
 */
export const slicesOf = (
  client: DataNodeClient.Service,
  config: WatcherConfig,
  listsFor: Duration.DurationInput = "1 second"
): Effect.Effect<ReadonlyArray<SliceSpec>> =>
  Effect.map(
    Effect.forEach(
      allDefinitions.filter((definition) => config.watch[definition.name].enabled),
      (definition) => specsOf(client, definition, config.watch[definition.name], listsFor)
    ),
    (perResource) => perResource.flat()
  )

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
