/**
 * How far the watcher has got, as the operations endpoint reports it: whether the first full sync
 * is done, and the height and time of the last cycle that committed.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"

export interface ReadinessState {
  /** The first full sync is done: the stored state matches the node, so events are real changes. */
  readonly synced: boolean
  /** Block height the last good cycle read at. */
  readonly height: Option.Option<number>
  /** Wall-clock time the last good cycle finished (not the block time: staleness is judged by it). */
  readonly lastCycleAt: Option.Option<Date>
}

export const initialState: ReadinessState = { synced: false, height: Option.none(), lastCycleAt: Option.none() }

export interface Service {
  /** Records a cycle that committed: the height it read at and when it finished. */
  readonly markCycle: (height: number, at: Date) => Effect.Effect<void>
  /** Records that the first full sync is done. */
  readonly markSynced: Effect.Effect<void>
  readonly state: Effect.Effect<ReadinessState>
  /** The current state, then every change. */
  readonly changes: Stream.Stream<ReadinessState>
}

export const make: Effect.Effect<Service> = Effect.map(SubscriptionRef.make(initialState), (ref) => ({
  markCycle: (height, at) =>
    SubscriptionRef.update(ref, (s) => ({ ...s, height: Option.some(height), lastCycleAt: Option.some(at) })),
  markSynced: SubscriptionRef.update(ref, (s) => (s.synced ? s : { ...s, synced: true })),
  state: SubscriptionRef.get(ref),
  changes: ref.changes
}))

export class Readiness extends Context.Tag("@vega-effect/watcher/Readiness")<Readiness, Service>() {
  static readonly layer: Layer.Layer<Readiness> = Layer.effect(this, make)
}
