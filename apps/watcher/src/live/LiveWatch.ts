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
import { FailureText, ReadTracking, RequestBudget } from "@vega-effect/http"
import * as Duration from "effect/Duration"
import { identity } from "effect/Function"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { ResourceName } from "../Event.js"
import type { Outages as OutagesService } from "../Outages.js"
import {
  applyRows,
  commitStaged,
  type LiveState,
  readSince,
  readSlice,
  recordsSilently,
  seenOf,
  touch
} from "./Apply.js"
import * as BlockClock from "./BlockClock.js"
import type { LiveItem } from "./LiveItem.js"
import { liveItems } from "./Sources.js"

export interface LiveSettings {
  /** How often every watched resource is read again whatever the streams said. */
  readonly reconcileEvery: Duration.Duration
  /**
   * How often positions are read again from where the last read stopped: a block the positions
   * stream left out (the node misses one when it subscribes, and may lose one under load) gives
   * no sign, and this read costs a request or two, whatever the number of positions.
   */
  readonly positionsCheckEvery: Duration.Duration
  /** Requests per second reconciliations may use (the node allows 20). */
  readonly reconcileBudget: number
  /** Requests per second first reads may use. */
  readonly backfillBudget: number
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
  readonly state: Omit<LiveState, "clock" | "lock" | "liveWrites" | "readAt" | "silentUntil" | "staged">
  /** Takes up and lets go of slices; returns the slices taken up. */
  readonly rebalance: Effect.Effect<ReadonlyArray<string>>
  readonly renewEvery: Duration.Duration
  /** A block was processed: the chain is at `height`. */
  readonly onBlock: (height: number) => Effect.Effect<void>
  /** Where a node's streams and reads that fail are told: one line per step for the node (see `Outages.ts`). */
  readonly outages: OutagesService
}

/**
 * What is not done yet: resources waiting to be (or being) reconciled, each with the height its
 * read must reach, and hint reads in flight per block. A slice's checkpoint moves to a block only
 * once nothing before it is left: then every change up to that block has been reported.
 */
interface Backlog {
  readonly due: Map<ResourceName, number>
  readonly reconciling: Set<ResourceName>
  /**
   * Per resource, the height its slices' reads must reach to cover its last gap: a slice read
   * there since is complete again, whatever its resource's other slices.
   */
  readonly gapFrom: Map<ResourceName, number>
  /** Resources whose first read (backfill) is running. */
  readonly backfilling: Set<ResourceName>
  /**
   * Resources whose live source is down: marked as soon as the source says so, not when the
   * applier (which may be waiting on a read) comes to it, so that no settling in between takes
   * what the source could not say as said. A gap clears it only if no later end came meanwhile.
   */
  readonly down: Set<ResourceName>
  /** Per resource, the arrival number of the last end of its source. */
  readonly downAt: Map<ResourceName, number>
  /** One settling at a time, so that blocks are committed in order. */
  readonly settling: Effect.Semaphore
  /**
   * Whether a block has been settled since the start. Until then, and for at most
   * {@link CATCH_UP_WAIT} from the start, every resource waits for all of them (each source
   * connected, each gap read), so that what a quick restart catches up is reported in the order an
   * uninterrupted run reports it; later, one resource's gap holds only its own. A resource in a
   * first read that reports nothing (an empty state's) is not waited for.
   */
  started: boolean
  /** When watching started (`Date.now()`). */
  readonly startedAt: number
  /** Hint reads in flight, per resource and block. */
  readonly hints: Map<ResourceName, Map<number, number>>
  /** Resources whose reconciliation is running: a request for one waits for it to end. */
  readonly running: Set<ResourceName>
  /**
   * First reads (backfills, catch-ups) go one resource at a time, in report order: the node's limit
   * goes to one of them and to the live work, so the first resources are reported soon, not all late.
   */
  readonly backfill: Effect.Semaphore
  /**
   * Live items whose block is being found from their time (a stream's message may come before
   * the bus's tick of its block): until it is, no block can be taken as complete.
   */
  placing: number
  readonly wake: Queue.Queue<void>
}

/**
 * Asks for `resources` to be read again from `minHeight`. A gap (`blocking`: a stream was down, a
 * first sync, a slice taken over) holds their blocks unsettled until read; a routine check does not.
 */
const request = (
  backlog: Backlog,
  resources: ReadonlyArray<ResourceName>,
  minHeight: number,
  blocking: boolean = true
) =>
  Effect.suspend(() => {
    for (const resource of resources) {
      backlog.due.set(resource, Math.max(backlog.due.get(resource) ?? 0, minHeight))
      if (blocking) {
        backlog.reconciling.add(resource)
        backlog.gapFrom.set(resource, Math.max(backlog.gapFrom.get(resource) ?? 0, minHeight))
      }
    }
    return Queue.offer(backlog.wake, undefined)
  })

/**
 * How long the resources' catch-up reads after a restart hold every resource's first block: one
 * that takes longer (stake's, party by party: minutes on a big network) then holds only its own
 * slices, as a gap does later, rather than leave the others blind.
 */
const CATCH_UP_WAIT = Duration.seconds(5)

/** Moves the checkpoints of the slices with nothing left before the head to it. */
const settle = (context: LiveContext, state: LiveState, backlog: Backlog) =>
  backlog.settling.withPermits(1)(settleNow(context, state, backlog))

const settleNow = (context: LiveContext, state: LiveState, backlog: Backlog) =>
  Effect.gen(function* () {
    if (backlog.placing > 0) return yield* Effect.logDebug("not settling: a live change's block is being found")
    const head = yield* state.clock.known
    // a resource still in a first read that reports nothing (an empty state's, which can take
    // minutes on a big network) adds nothing to the outbox until it is done: no other waits for
    // it, neither for its read nor for its hints
    const silent = (resource: ResourceName) =>
      backlog.backfilling.has(resource) ||
      context
        .slicesOf(resource)
        .filter((slice) => state.works.has(slice))
        .every((slice) => recordsSilently(state, slice))
    const heard = context.resources.filter((resource) => !silent(resource))
    const oldestHint = Math.min(
      Infinity,
      ...heard.flatMap((resource) => [...(backlog.hints.get(resource)?.keys() ?? [])])
    )
    const height = Math.min(head, oldestHint - 1)
    if (height <= 0) return
    const quiet = context.resources.filter(
      (resource) => !backlog.reconciling.has(resource) && !backlog.down.has(resource)
    )
    if (quiet.length < context.resources.length || oldestHint <= head) {
      const hinted = [...backlog.hints].flatMap(([resource, blocks]) =>
        [...blocks.keys()].map((h) => `${resource} ${h}`)
      )
      yield* Effect.logDebug(
        `settling at ${height} of ${head}: reconciling ${[...backlog.reconciling].join(", ") || "nothing"}, down ${[...backlog.down].join(", ") || "nothing"}, hints of ${hinted.join(", ") || "no block"}`
      )
    }
    const waiting = Date.now() - backlog.startedAt < Duration.toMillis(CATCH_UP_WAIT)
    if (!backlog.started && waiting && heard.some((resource) => !quiet.includes(resource))) return
    backlog.started = true
    const slices = quiet.flatMap((resource) => context.slicesOf(resource)).filter((slice) => state.works.has(slice))
    yield* commitStaged(state, height, slices)
    yield* Effect.forEach(slices, (slice) => touch(state, slice, height, ""), { discard: true })
    // a resource being read again holds back only its slices not read since its gap: the others go
    // on, as far as that resource's own hint reads allow
    for (const resource of context.resources) {
      if (quiet.includes(resource) || backlog.down.has(resource)) continue
      const from = backlog.gapFrom.get(resource) ?? 0
      const read = context.slicesOf(resource).filter((slice) => state.works.has(slice) && readSince(state, slice, from))
      const own = Math.min(height, Math.min(Infinity, ...(backlog.hints.get(resource)?.keys() ?? [])) - 1)
      if (read.length === 0 || own <= 0) continue
      yield* commitStaged(state, own, read)
      yield* Effect.forEach(read, (slice) => touch(state, slice, own, ""), { discard: true })
    }
    yield* context.onBlock(height)
  })

/** The shares of the node's limit that reads of whole resources may use. */
interface Budgets {
  readonly reconcile: RequestBudget.RequestBudget
  readonly backfill: RequestBudget.RequestBudget
}

/** How soon a reconciliation that failed is requested again. */
const RECONCILE_RETRY = Duration.seconds(1)

/**
 * Reads a resource again, slice by slice, from `minHeight`. A resource's first read in this run
 * (an empty state's backfill, which reports nothing, a restart's catch-up, or a first sync that
 * reports) waits for the first reads before it, in report order, and stays within the backfill
 * budget, leaving the rest of the node's limit to the live work: side by side, a resource reading
 * many requests at a time (stake's parties) would take nearly all of it, and a resource read in a
 * few (positions, from where it stopped) would wait behind it. A slice taken over later is read as
 * fast as the node allows; later reads stay within the reconciliation budget.
 */
const reconcile = (
  context: LiveContext,
  state: LiveState,
  backlog: Backlog,
  budgets: Budgets,
  outages: OutagesService,
  resource: ResourceName,
  minHeight: number
) =>
  Effect.gen(function* () {
    const held = context.slicesOf(resource).filter((slice) => state.works.has(slice))
    // read in this run: committed, or waiting for its block
    const read = (slice: string) => readSince(state, slice, 0)
    const first = held.length > 0 && !held.some(read)
    const backfill = first && held.every((slice) => recordsSilently(state, slice))
    yield* Effect.logDebug(`${backfill ? "backfilling" : "reconciling"} ${resource} from ${minHeight}`)
    const failed = yield* Effect.forEach(held, (slice) =>
      readSlice(state, slice, {
        minHeight,
        budget: read(slice) ? budgets.reconcile : first ? budgets.backfill : undefined,
        reconciled: true
      }).pipe(
        Effect.as(false),
        Effect.catchAll((error) => Effect.as(outages.readFailed(`reconciling ${slice}`, error, RECONCILE_RETRY), true))
      )
    ).pipe(
      first
        ? (reads) =>
            backlog.backfill.withPermits(1)(
              backfill
                ? Effect.ensuring(
                    Effect.zipRight(
                      Effect.sync(() => backlog.backfilling.add(resource)),
                      reads
                    ),
                    Effect.sync(() => backlog.backfilling.delete(resource))
                  )
                : reads
            )
        : identity
    )
    if (failed.some(Boolean)) {
      yield* Effect.forkScoped(Effect.delay(request(backlog, [resource], minHeight), RECONCILE_RETRY))
    } else if (!backlog.due.has(resource)) {
      backlog.reconciling.delete(resource)
    }
    yield* settle(context, state, backlog)
  })

/**
 * Starts the reconciliation of each resource that is due, forever; the resources' reads run side
 * by side, so that one resource's long read (stake's, party by party) holds up no other's.
 */
const reconciler = (
  context: LiveContext,
  state: LiveState,
  backlog: Backlog,
  budgets: Budgets,
  outages: OutagesService
) =>
  Effect.gen(function* () {
    const reads = yield* FiberSet.make()
    return yield* Effect.forever(
      Effect.gen(function* () {
        yield* Queue.take(backlog.wake)
        for (const [resource, minHeight] of [...backlog.due]) {
          if (backlog.running.has(resource)) continue // asked again when its running read ends
          backlog.due.delete(resource)
          backlog.running.add(resource)
          yield* FiberSet.run(
            reads,
            reconcile(context, state, backlog, budgets, outages, resource, minHeight).pipe(
              Effect.ensuring(
                Effect.suspend(() => {
                  backlog.running.delete(resource)
                  return Queue.offer(backlog.wake, undefined)
                })
              )
            )
          )
        }
      })
    )
  })

/**
 * The slices of a resource whose first read is under way that were read before its source's gap,
 * read again now: the request the gap made waits for the whole first read to end, and until then
 * the slices read since the gap would be the only ones let through. A failed read is left to that
 * request.
 */
const rereadBeforeGap = (
  context: LiveContext,
  state: LiveState,
  backlog: Backlog,
  budgets: Budgets,
  outages: OutagesService,
  resource: ResourceName,
  minHeight: number
) =>
  Effect.suspend(() => {
    const stale = context
      .slicesOf(resource)
      .filter((slice) => state.works.has(slice) && (state.readAt.get(slice) ?? minHeight) < minHeight)
    return Effect.forEach(
      stale,
      (slice) =>
        readSlice(state, slice, { minHeight, budget: budgets.reconcile, reconciled: true }).pipe(
          Effect.catchAll((error) => outages.readFailed(`reading ${slice} again after its stream's gap`, error))
        ),
      { discard: true }
    ).pipe(Effect.zipRight(Effect.ignore(settle(context, state, backlog))))
  })

/** A live item, numbered in the order it arrived. */
interface Arrived {
  readonly arrival: number
  readonly item: LiveItem
}

/**
 * Numbers each live item as it arrives and queues it for the applier. What must not wait behind
 * the applier is done at once: a block's time is known as soon as the bus says it (a stream row
 * queued before the tick would otherwise wait for it behind itself), and a source's end as soon
 * as it ends.
 */
const arrive = (state: LiveState, backlog: Backlog, items: Queue.Enqueue<Arrived>) => {
  let arrivals = 0
  return (item: LiveItem) =>
    Effect.suspend(() => {
      const arrival = arrivals++
      if (item._tag === "Tick") {
        return Effect.zipRight(state.clock.tick(item.height, item.timeNanos), Queue.offer(items, { arrival, item }))
      }
      if (item._tag === "Down") {
        for (const resource of item.resources) {
          backlog.down.add(resource)
          backlog.downAt.set(resource, arrival)
        }
      }
      return Queue.offer(items, { arrival, item })
    })
}

/**
 * What a hint names, read again on the slices held, side by side (each has its own lock); a
 * failure leaves it to a reconciliation.
 */
const readHints = (
  context: LiveContext,
  state: LiveState,
  backlog: Backlog,
  item: LiveItem & { readonly _tag: "Hints" },
  height: number,
  outages: OutagesService
) => {
  const slices = context.slicesOf(item.resource).filter((slice) => state.works.has(slice))
  const read = Effect.forEach(
    slices,
    (slice) => readSlice(state, slice, { minHeight: height + 1, hints: item.hints, reconciled: false }),
    { discard: true, concurrency: "unbounded" }
  ).pipe(
    Effect.catchAll((error) =>
      Effect.zipRight(
        outages.readFailed(`reading ${item.resource} again after a change (it is reconciled)`, error),
        request(backlog, [item.resource], height + 1)
      )
    )
  )
  return read
}

/** Applies one live item. Hints wait for their block to be readable, so they run beside the rest. */
const applier = (
  context: LiveContext,
  state: LiveState,
  backlog: Backlog,
  budgets: Budgets,
  background: FiberSet.FiberSet,
  outages: OutagesService
) => {
  const heightOf = (at: { readonly height: number } | { readonly timeNanos: bigint }) =>
    "height" in at
      ? Effect.succeed(at.height)
      : Effect.flatMap(state.clock.heightAt(at.timeNanos), (height) =>
          Option.match(height, { onNone: () => state.clock.known, onSome: Effect.succeed })
        )
  /** Finds an item's block and records the item there (`place`), holding settling back meanwhile. */
  const placed = <A, E>(
    at: { readonly height: number } | { readonly timeNanos: bigint },
    place: (height: number) => Effect.Effect<A, E>
  ) =>
    Effect.acquireUseRelease(
      Effect.sync(() => backlog.placing++),
      () => Effect.flatMap(heightOf(at), place),
      () => Effect.sync(() => backlog.placing--)
    )
  return ({ arrival, item }: Arrived) =>
    Effect.gen(function* () {
      switch (item._tag) {
        case "Tick":
          yield* state.clock.tick(item.height, item.timeNanos)
          return yield* settle(context, state, backlog)
        case "Gap": {
          if (item.source === "bus") yield* state.clock.busUp
          for (const resource of item.resources) {
            if ((backlog.downAt.get(resource) ?? -1) < arrival) backlog.down.delete(resource)
          }
          const minHeight = yield* state.clock.gapEnd(item.subscribed)
          yield* request(backlog, item.resources, minHeight)
          for (const resource of item.resources.filter((r) => backlog.backfilling.has(r))) {
            yield* FiberSet.run(
              background,
              rereadBeforeGap(context, state, backlog, budgets, outages, resource, minHeight)
            )
          }
          return
        }
        case "Down":
          // its resources were marked down as it arrived (see `arrive`)
          if (item.source === "bus") yield* state.clock.busDown
          return
        case "Rows":
          return yield* placed(item.at, (height) => applyRows(state, item.resource, height, item.node, item.rows))
        case "Hints": {
          // counted before its block is let go, so that no block is settled with this read still to come
          const height = yield* placed(item.at, (height) =>
            Effect.sync(() => {
              const blocks = backlog.hints.get(item.resource) ?? new Map<number, number>()
              backlog.hints.set(item.resource, blocks)
              blocks.set(height, (blocks.get(height) ?? 0) + 1)
              return height
            })
          )
          const done = Effect.sync(() => {
            const blocks = backlog.hints.get(item.resource)
            const left = (blocks?.get(height) ?? 1) - 1
            if (left > 0) blocks?.set(height, left)
            else blocks?.delete(height)
          })
          const read = Effect.ensuring(
            readHints(context, state, backlog, item, height, outages),
            Effect.zipRight(done, Effect.ignore(settle(context, state, backlog)))
          )
          return yield* Effect.asVoid(FiberSet.run(background, read))
        }
      }
    }).pipe(Effect.catchAll((error) => FailureText.logWarning("a live change could not be applied", error)))
}

/** What applying keeps, empty: per-slice locks, the block clock, staged findings. */
const makeState = (context: LiveContext, settings: LiveSettings) =>
  Effect.gen(function* () {
    const locks = new Map<string, Effect.Semaphore>()
    const state: LiveState = {
      ...context.state,
      clock: yield* BlockClock.make(
        settings.quiet,
        ReadTracking.track(context.client.lastBlockHeight).pipe(
          Effect.map(([, reads]) => Option.map(Option.fromNullable(reads.highest), seenOf)),
          Effect.orElseSucceed(() => Option.none())
        )
      ),
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
      silentUntil: new Map(),
      staged: new Map()
    }
    return state
  })

/** Runs real-time watching until interrupted. */
export const run = (
  context: LiveContext,
  settings: LiveSettings
): Effect.Effect<never, never, Socket.WebSocketConstructor | Scope.Scope> =>
  Effect.gen(function* () {
    const state = yield* makeState(context, settings)
    const backlog: Backlog = {
      due: new Map(),
      reconciling: new Set(),
      // every source counts as down until it first connects
      down: new Set(context.resources),
      downAt: new Map(),
      settling: Effect.unsafeMakeSemaphore(1),
      started: false,
      startedAt: Date.now(),
      hints: new Map(),
      running: new Set(),
      gapFrom: new Map(),
      backfilling: new Set(),
      backfill: Effect.unsafeMakeSemaphore(1),
      placing: 0,
      wake: yield* Queue.sliding<void>(1)
    }
    const background = yield* FiberSet.make()
    const budgets: Budgets = {
      reconcile: RequestBudget.make({ perSecond: settings.reconcileBudget }),
      backfill: RequestBudget.make({ perSecond: settings.backfillBudget })
    }
    const items = yield* Queue.unbounded<Arrived>()
    const { outages } = context

    yield* Effect.forkScoped(
      Stream.runForEach(
        liveItems(context.client, { resources: context.resources, idleTimeout: settings.idleTimeout, outages }),
        arrive(state, backlog, items)
      )
    )
    yield* Effect.forkScoped(reconciler(context, state, backlog, budgets, outages))
    // the first sync (or a catch-up after a stop), then every reconcileEvery
    yield* request(backlog, context.resources, 0)
    yield* Effect.forkScoped(
      Effect.flatMap(state.clock.head, (head) => request(backlog, context.resources, head + 1, false)).pipe(
        Effect.delay(settings.reconcileEvery),
        Effect.forever
      )
    )
    if (context.resources.includes("positions")) {
      yield* Effect.forkScoped(
        Effect.flatMap(state.clock.head, (head) => request(backlog, ["positions"], head + 1, false)).pipe(
          Effect.delay(settings.positionsCheckEvery),
          Effect.forever
        )
      )
    }
    // slices taken over were worked by another watcher until now: read them again
    yield* Effect.forkScoped(
      context.rebalance.pipe(
        Effect.flatMap((acquired) => {
          const resources = context.resources.filter((r) => context.slicesOf(r).some((s) => acquired.includes(s)))
          return resources.length === 0
            ? Effect.void
            : Effect.flatMap(state.clock.head, (h) => request(backlog, resources, h + 1))
        }),
        Effect.repeat(Schedule.spaced(context.renewEvery))
      )
    )
    // a chain with no new block for a while (a stopped test chain, a bus down) settles on what REST shows
    yield* Effect.forkScoped(
      Effect.ignore(settle(context, state, backlog)).pipe(Effect.repeat(Schedule.spaced(settings.quiet)))
    )
    const apply = applier(context, state, backlog, budgets, background, outages)
    return yield* Effect.forever(Effect.flatMap(Queue.take(items), apply))
  })
