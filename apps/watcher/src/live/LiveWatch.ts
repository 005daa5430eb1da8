/**
 * Real-time watching: the node's live streams say what changed, block by block, and the watcher
 * applies it to the slices it holds as it comes; reads of whole resources (reconciliations) catch
 * what the streams could not say.
 *
 * - Whole rows (positions, profiles) are applied at once; hints (stake, liquidity, rewards,
 *   referral sets, signer bundles) read again what they name once the node can show the block.
 * - A resource is reconciled at start (the first sync of an empty state), whenever a stream that
 *   feeds it (re)connects (nothing is replayed), when this watcher takes one of its slices over,
 *   and every `reconcileEvery`, its requests within `reconcileBudget` so that the live work keeps
 *   the rest of the node's limit. What only a reconciliation finds is counted in
 *   `vega_watcher_reconciled_total`: the measure of what the streams miss.
 * - Each block's time update moves the checkpoint of every slice with nothing to commit.
 */
import type * as Socket from "@effect/platform/Socket"
import type { DataNodeClient } from "@vega-effect/http"
import { RequestBudget } from "@vega-effect/http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { ResourceName } from "../Event.js"
import { applyRows, type LiveState, readSlice, touch } from "./Apply.js"
import * as BlockClock from "./BlockClock.js"
import type { LiveItem } from "./LiveItem.js"
import { liveItems } from "./Sources.js"

export interface LiveSettings {
  /** How often every watched resource is read again whatever the streams said. */
  readonly reconcileEvery: Duration.Duration
  /** Requests per second reconciliations may use (the node allows 20). */
  readonly reconcileBudget: number
  /** How long a chain without a new block is taken as done writing its last one. */
  readonly quiet: Duration.Duration
  /** A bus silent this long is reconnected. */
  readonly idleTimeout: Duration.Duration
}

export interface LiveContext {
  readonly client: DataNodeClient.Service
  /** The resources watched, in report order. */
  readonly resources: ReadonlyArray<ResourceName>
  /** The slices of each resource. */
  readonly slicesOf: (resource: ResourceName) => ReadonlyArray<string>
  readonly state: Omit<LiveState, "clock" | "lock" | "liveWrites" | "readAt" | "waiting">
  /** Takes up and lets go of slices; returns the slices taken up. */
  readonly rebalance: Effect.Effect<ReadonlyArray<string>>
  readonly renewEvery: Duration.Duration
  /** A block was processed: the chain is at `height`. */
  readonly onBlock: (height: number) => Effect.Effect<void>
}

/** What is waiting to be reconciled: each resource with the height its read must reach. */
interface Due {
  readonly resources: Map<ResourceName, number>
  readonly wake: Queue.Queue<void>
}

const request = (due: Due, resources: ReadonlyArray<ResourceName>, minHeight: number) =>
  Effect.suspend(() => {
    for (const resource of resources) due.resources.set(resource, Math.max(due.resources.get(resource) ?? 0, minHeight))
    return Queue.offer(due.wake, undefined)
  })

/** Reads again, slice by slice within the budget, what is due; forever. */
const reconciler = (context: LiveContext, state: LiveState, due: Due, budget: RequestBudget.RequestBudget) =>
  Effect.forever(
    Effect.gen(function* () {
      yield* Queue.take(due.wake)
      const jobs = [...due.resources]
      due.resources.clear()
      for (const [resource, minHeight] of jobs) {
        yield* Effect.forEach(
          context.slicesOf(resource).filter((slice) => state.works.has(slice)),
          (slice) =>
            readSlice(state, slice, { minHeight, budget, reconciled: true }).pipe(
              Effect.catchAll((error) =>
                Effect.zipRight(
                  Effect.logWarning(`reconciling ${slice} failed; trying again shortly`, error),
                  Effect.delay(request(due, [resource], minHeight), Duration.seconds(1))
                )
              )
            ),
          { discard: true }
        )
      }
    })
  )

/** Applies one live item. Hints wait for their block to be readable, so they run beside the rest. */
const applier = (
  context: LiveContext,
  state: LiveState,
  due: Due,
  background: FiberSet.FiberSet
) => {
  const heightOf = (at: { readonly height: number } | { readonly timeNanos: bigint }) =>
    "height" in at
      ? Effect.succeed(at.height)
      : Effect.flatMap(state.clock.heightAt(at.timeNanos), (height) =>
          Option.match(height, { onNone: () => state.clock.head, onSome: Effect.succeed })
        )
  return (item: LiveItem) =>
    Effect.gen(function* () {
      switch (item._tag) {
        case "Tick": {
          yield* state.clock.tick(item.height, item.timeNanos)
          yield* Effect.forEach(state.works.keys(), (slice) => touch(state, slice, item.height, ""), { discard: true })
          return yield* context.onBlock(item.height)
        }
        case "Gap":
          return yield* request(due, item.resources, (yield* state.clock.head) + 2)
        case "Rows":
          return yield* applyRows(state, item.resource, yield* heightOf(item.at), item.node, item.rows)
        case "Hints": {
          const height = yield* heightOf(item.at)
          const slices = context.slicesOf(item.resource).filter((slice) => state.works.has(slice))
          const read = Effect.forEach(
            slices,
            (slice) => readSlice(state, slice, { minHeight: height + 1, hints: item.hints, reconciled: false }),
            { discard: true }
          ).pipe(
            Effect.catchAll((error) =>
              Effect.zipRight(
                Effect.logWarning(`reading ${item.resource} again after a change failed; reconciling it`, error),
                request(due, [item.resource], height + 1)
              )
            )
          )
          return yield* Effect.asVoid(FiberSet.run(background, read))
        }
      }
    }).pipe(Effect.catchAll((error) => Effect.logWarning(`a live change could not be applied`, error)))
}

/** Runs real-time watching until interrupted. */
export const run = (
  context: LiveContext,
  settings: LiveSettings
): Effect.Effect<never, never, Socket.WebSocketConstructor | Scope.Scope> =>
  Effect.gen(function* () {
    const locks = new Map<string, Effect.Semaphore>()
    const state: LiveState = {
      ...context.state,
      clock: yield* BlockClock.make(settings.quiet),
      lock: (slice) => {
        let lock = locks.get(slice)
        if (lock === undefined) {
          lock = Effect.unsafeMakeSemaphore(1)
          locks.set(slice, lock)
        }
        return lock
      },
      liveWrites: new Map(),
      readAt: new Map(),
      waiting: new Map()
    }
    const due: Due = { resources: new Map(), wake: yield* Queue.sliding<void>(1) }
    const background = yield* FiberSet.make()
    const budget = RequestBudget.make({ perSecond: settings.reconcileBudget })
    const items = yield* Queue.unbounded<LiveItem>()

    yield* Effect.forkScoped(
      Stream.runForEach(liveItems(context.client, { resources: context.resources, idleTimeout: settings.idleTimeout }), (item) =>
        Queue.offer(items, item)
      )
    )
    yield* Effect.forkScoped(reconciler(context, state, due, budget))
    // the first sync (or a catch-up after a stop), then every reconcileEvery
    yield* request(due, context.resources, 0)
    yield* Effect.forkScoped(
      Effect.flatMap(state.clock.head, (head) => request(due, context.resources, head + 1)).pipe(
        Effect.delay(settings.reconcileEvery),
        Effect.forever
      )
    )
    // slices taken over were worked by another watcher until now: read them again
    yield* Effect.forkScoped(
      context.rebalance.pipe(
        Effect.flatMap((acquired) => {
          const resources = context.resources.filter((r) => context.slicesOf(r).some((s) => acquired.includes(s)))
          return resources.length === 0 ? Effect.void : Effect.flatMap(state.clock.head, (h) => request(due, resources, h + 1))
        }),
        Effect.repeat(Schedule.spaced(context.renewEvery))
      )
    )
    const apply = applier(context, state, due, background)
    return yield* Effect.forever(Effect.flatMap(Queue.take(items), apply))
  })

