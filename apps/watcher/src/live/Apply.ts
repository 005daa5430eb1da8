/**
 * Applying what the live sources say, and reading resources again, on the slices this watcher
 * holds: each change is compared with the rows held, turned into events and committed like a
 * cycle's, one slice at a time under that slice's lock.
 *
 * Two rules keep live rows and REST reads from undoing each other (a read at height H shows at
 * least block H-1, a live change of block N is newer than that when N ≥ H):
 *
 * - a read does not touch a key a live change of a block at or above the read's height wrote;
 * - a live change of a block below the height of the slice's last read is already in that read.
 *
 * Findings are staged by block and committed once their block is settled, block by block and
 * slice by slice in report order, so the outbox order does not depend on which stream or read
 * answered first. Before a slice's first read is committed, its findings are recorded silently (a
 * first sync reports nothing unless told to), and so are live changes of the blocks that read may
 * have seen.
 */
import { type DataNodeError, ReadTracking, RequestBudget } from "@vega-effect/http"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import {
  canonicalOf,
  commitHeld,
  compare,
  countRefused,
  isBehind,
  pointOf,
  type Prepared,
  readContext,
  type SliceOutcome,
  type SliceWork
} from "../Cycle.js"
import type { ReadPoint, ResourceName, Row } from "../Event.js"
import * as Metrics from "../Metrics.js"
import type { DiffContext } from "../Resource.js"
import { sliceOfRow } from "../Slice.js"
import type { LeaseLost, Service as Store } from "../Store.js"
import type { BlockClock, Seen } from "./BlockClock.js"

/** What applying needs, and what it keeps per slice. */
export interface LiveState {
  readonly store: Store
  readonly clock: BlockClock
  /** The slices held, by slice. */
  readonly works: ReadonlyMap<string, SliceWork>
  readonly diffContext: Effect.Effect<DiffContext, DataNodeError.DataNodeError>
  /** Where the chain is, for a read that asked the node nothing (a shard with nothing in it). */
  readonly head: Effect.Effect<ReadPoint, DataNodeError.DataNodeError>
  readonly initialEvents: boolean
  /** Called with each slice's committed outcome, and with a slice lost to another watcher. */
  readonly committed: (slice: string, outcome: SliceOutcome) => Effect.Effect<void>
  readonly lost: (lost: LeaseLost) => Effect.Effect<void>
  readonly lock: (slice: string) => Effect.Semaphore
  /** Per slice: keys written by live changes, with the block that wrote them. */
  readonly liveWrites: Map<string, Map<string, number>>
  /** Per slice: the height of its last committed read. */
  readonly readAt: Map<string, number>
  /**
   * Per slice whose first read recorded silently: the highest block that read saw. A live change
   * of a block up to there may be in what it recorded or not (a long read sees each key at its own
   * height), so it is recorded silently too, as part of the first sync.
   */
  readonly silentUntil: Map<string, number>
  /** What was found, by block, then slice, waiting for its block to be settled (see {@link commitStaged}). */
  readonly staged: Map<number, Map<string, Array<Staged>>>
}

/** Something found of a slice: rows from a live source or a hint's read, or a read of the whole slice. */
export interface Staged {
  readonly found: Found
  readonly at: ReadPoint
  /** `read`: a read of the whole slice (it then counts as the slice's read). */
  readonly origin: "live" | "read"
  /** Found by a reconciliation: its events are counted as what the streams missed. */
  readonly reconciled: boolean
  /** For a read: the highest block it saw. */
  readonly through?: number | undefined
}

/** The block a REST answer showed. */
export const seenOf = (read: ReadTracking.ReadAt): Seen => ({
  height: read.height,
  timeNanos:
    read.blockTimestamp !== undefined && /^\d+$/.test(read.blockTimestamp) ? BigInt(read.blockTimestamp) : undefined
})

/** Whether each slice, as this watcher took it, came with a checkpoint (read by a run before). */
const resumed = new WeakMap<SliceWork, boolean>()

/**
 * Whether a slice has been read once: in this run, or by a run before whose state it holds. A
 * checkpoint this run's own live commits made does not count: until the slice's first read, what
 * the streams say is recorded silently, like the first sync it precedes.
 */
const synced = (state: LiveState, work: SliceWork): boolean => {
  if (!resumed.has(work)) resumed.set(work, Option.isSome(work.checkpoint))
  return state.readAt.has(work.slice) || resumed.get(work) === true
}

/**
 * Whether what a read of the slice finds now is only recorded, not reported: its first read, when
 * a first sync reports nothing. Such a read adds nothing to the outbox, so no other slice's
 * events need to wait for it to keep their order.
 */
export const recordsSilently = (state: LiveState, slice: string): boolean => {
  const work = state.works.get(slice)
  return work !== undefined && !state.initialEvents && !synced(state, work)
}

/** What was found of a slice: rows as canonical JSON (`null`: gone). */
interface Found {
  readonly rows: ReadonlyMap<string, string | null>
  readonly complete: boolean
  readonly resume?: string | undefined
}

/**
 * Compares `found` with the slice, commits rows and events, and tells `state.committed`. Keys a
 * live change of a block at or above `at.height` wrote are left alone unless `live` (the change
 * itself). A lost lease drops the slice.
 */
const commitFound = (
  state: LiveState,
  work: SliceWork,
  found: Found,
  at: ReadPoint,
  origin: "live" | "read"
): Effect.Effect<SliceOutcome | undefined, DataNodeError.DataNodeError | SqlError> =>
  Effect.gen(function* () {
    if (found.rows.size === 0 && !found.complete) {
      // nothing to compare: only the checkpoint moves
      const outcome = yield* commitHeld(
        state.store,
        work,
        { _tag: "Ready", at, resume: work.resume, events: [], writes: [] },
        state.lost
      )
      if (outcome !== undefined) yield* state.committed(work.slice, outcome)
      return outcome
    }
    const writes = state.liveWrites.get(work.slice)
    const skip =
      origin === "live" || writes === undefined ? undefined : (key: string) => (writes.get(key) ?? -1) >= at.height
    const context = yield* state.diffContext
    const firstSync = origin === "live" && at.height <= (state.silentUntil.get(work.slice) ?? -1)
    const report = (synced(state, work) || state.initialEvents) && !firstSync
    const compared = yield* compare(state.store, work, found.rows, found.complete, at, context, report, skip)
    const prepared: Prepared = {
      _tag: "Ready",
      at,
      resume: found.resume ?? work.resume,
      events: compared.events,
      writes: compared.writes
    }
    yield* Effect.logDebug(
      `${work.slice}: ${origin} ${found.rows.size} row(s) at ${at.height}: ${compared.writes.length} changed, ${compared.events.length} event(s)`
    )
    const outcome = yield* commitHeld(state.store, work, prepared, state.lost)
    if (outcome === undefined) return undefined
    if (origin === "live") {
      const keys = state.liveWrites.get(work.slice) ?? new Map<string, number>()
      for (const write of compared.writes) keys.set(write.key, Math.max(keys.get(write.key) ?? -1, at.height))
      state.liveWrites.set(work.slice, keys)
    }
    yield* state.committed(work.slice, outcome)
    return outcome
  })

/** Runs `work` on a slice this watcher holds, under the slice's lock. */
const onSlice = (
  state: LiveState,
  slice: string,
  work: (slice: SliceWork) => Effect.Effect<void, DataNodeError.DataNodeError | SqlError>
): Effect.Effect<void, DataNodeError.DataNodeError | SqlError> =>
  Effect.suspend(() =>
    state.works.has(slice)
      ? state.lock(slice).withPermits(1)(
          Effect.suspend(() => {
            const current = state.works.get(slice)
            return current === undefined ? Effect.void : work(current)
          })
        )
      : Effect.void
  )

/**
 * Keeps what was found of a slice until its block is settled. Keys from live sources are marked
 * as written at that block, so that a read of the slice from below it leaves them alone.
 */
const stage = (state: LiveState, slice: string, staged: Staged): void => {
  const { at, found, origin } = staged
  const bySlice = state.staged.get(at.height) ?? new Map<string, Array<Staged>>()
  state.staged.set(at.height, bySlice)
  const entries = bySlice.get(slice) ?? []
  bySlice.set(slice, entries)
  entries.push(staged)
  if (origin === "read") return
  const writes = state.liveWrites.get(slice) ?? new Map<string, number>()
  state.liveWrites.set(slice, writes)
  for (const key of found.rows.keys()) writes.set(key, Math.max(writes.get(key) ?? -1, at.height))
}

/** Commits one staged finding on its slice (held under its lock), unless a later read of the slice already holds it. */
const commitStagedOn = (state: LiveState, work: SliceWork, block: number, staged: Staged) =>
  Effect.gen(function* () {
    const { slice } = work
    if ((state.readAt.get(slice) ?? -1) > block) return
    // a read from a node behind the slice, or a change of a block the slice moved past meanwhile
    // (another watcher worked it while this one did not hold it): refused, as a cycle refuses it
    if (isBehind(work, block)) return yield* countRefused(work, staged.origin)
    const outcome = yield* commitFound(state, work, staged.found, staged.at, staged.origin)
    if (outcome === undefined) return
    if (staged.origin === "read") afterRead(state, slice, staged.at.height)
    if (outcome._tag === "Committed" && outcome.events > 0) {
      const counter = staged.reconciled ? Metrics.reconciledTotal : Metrics.liveEventsTotal
      yield* Metric.update(counter.pipe(Metric.tagged("resource", work.resource.name)), outcome.events)
    }
  })

const commitOne = (state: LiveState, slice: string, block: number, staged: Staged) =>
  onSlice(state, slice, (work) => commitStagedOn(state, work, block, staged))

/**
 * Commits what was staged for blocks up to `height`, block by block and, within a block, slice by
 * slice in the order given (report order): the outbox order then depends only on what changed, not
 * on when each stream or read happened to answer. Slices not given (a resource being reconciled)
 * keep theirs for later.
 */
export const commitStaged = (
  state: LiveState,
  height: number,
  slices: ReadonlyArray<string>
): Effect.Effect<void, DataNodeError.DataNodeError | SqlError> =>
  Effect.gen(function* () {
    const heights = [...state.staged.keys()].filter((h) => h <= height).sort((a, b) => a - b)
    for (const block of heights) {
      const bySlice = state.staged.get(block)!
      for (const slice of slices) {
        const entries = bySlice.get(slice)
        if (entries === undefined) continue
        bySlice.delete(slice)
        for (const staged of entries) yield* commitOne(state, slice, block, staged)
      }
      if (bySlice.size === 0) state.staged.delete(block)
    }
  })

/** Whole rows of block `height`, from a stream: applied to the slices they belong to. */
export const applyRows = (
  state: LiveState,
  resource: ResourceName,
  height: number,
  node: string,
  rows: ReadonlyArray<readonly [string, Row]>
): Effect.Effect<void, DataNodeError.DataNodeError | SqlError> => {
  const bySlice = new Map<string, Map<string, Row>>()
  for (const [key, row] of rows) {
    const slice = sliceOfRow(resource, key, row)
    const entries = bySlice.get(slice) ?? new Map<string, Row>()
    entries.set(key, row)
    bySlice.set(slice, entries)
  }
  const at: ReadPoint = { height, time: state.clock.timeOf(height), node }
  return Effect.sync(() => {
    for (const [slice, entries] of bySlice) {
      const watches = state.works.get(slice)?.resource.watches
      if (!state.works.has(slice)) continue
      const rows = canonicalOf(watches === undefined ? entries : [...entries].filter(([key, row]) => watches(key, row)))
      if (rows.size > 0)
        stage(state, slice, { found: { rows, complete: false }, at, origin: "live", reconciled: false })
    }
  })
}

/**
 * Reads a slice again, or only what hints name (`hints` given and the resource can), once the node
 * can show block `minHeight - 1`, and commits what changed. A read of the whole slice counts as
 * the slice's read; found by reconciliation (`reconciled`), its events are counted as such.
 */
export const readSlice = (
  state: LiveState,
  slice: string,
  options: {
    readonly minHeight: number
    readonly hints?: ReadonlyArray<string> | undefined
    readonly budget?: RequestBudget.RequestBudget | undefined
    readonly reconciled: boolean
  }
): Effect.Effect<void, DataNodeError.DataNodeError | SqlError> =>
  Effect.gen(function* () {
    yield* state.clock.awaitBlock(options.minHeight)
    const hinted = options.hints !== undefined ? state.works.get(slice)?.resource.readHinted : undefined
    const readOf = (
      work: SliceWork
    ): Effect.Effect<readonly [Found, ReadTracking.Reads], DataNodeError.DataNodeError | SqlError> => {
      const context = readContext(state.store, work)
      const read: Effect.Effect<Found, DataNodeError.DataNodeError | SqlError> =
        hinted !== undefined
          ? Effect.map(hinted(options.hints!, context), (rows) => ({ rows: canonicalOf(rows), complete: false }))
          : Effect.map(work.resource.read(context), (snapshot) => ({ ...snapshot, rows: canonicalOf(snapshot.rows) }))
      return ReadTracking.track(options.budget === undefined ? read : RequestBudget.within(options.budget)(read))
    }
    const keep = ([found, reads]: readonly [Found, ReadTracking.Reads]) =>
      Effect.gen(function* () {
        // a hint for another slice's keys: nothing was asked, nothing to keep
        if (hinted !== undefined && reads.lowest === undefined && found.rows.size === 0) return
        const at = reads.lowest === undefined ? yield* state.head : pointOf(reads.lowest)
        for (const read of [reads.lowest, reads.highest])
          if (read !== undefined) yield* state.clock.observe(seenOf(read))
        yield* Effect.logDebug(`${slice}: ${found.rows.size} row(s) read at ${at.height}`)
        const through = reads.highest?.height ?? at.height
        if (hinted !== undefined) {
          // reported with its block's other findings, once the block is settled
          return stage(state, slice, { found, at, origin: "live", reconciled: options.reconciled })
        }
        yield* keepRead(state, slice, { found, at, origin: "read", reconciled: options.reconciled, through })
      })
    if (hinted !== undefined) {
      // a hint's read is short: done under the lock, so hints of one slice apply in order
      return yield* onSlice(state, slice, (work) => Effect.flatMap(readOf(work), keep))
    }
    // a whole read may be long (a reconciliation within its budget): live changes go on meanwhile
    const work = state.works.get(slice)
    if (work === undefined) return
    // read at that height already (a reconciliation asked for twice)
    if ((state.readAt.get(slice) ?? -1) >= options.minHeight) return
    yield* Effect.flatMap(readOf(work), keep)
  })

/**
 * What a read of the whole slice found: committed at once when it reports nothing (the first read
 * of a slice, when a first sync is only recorded), so that the world is not held in memory until
 * every resource is read; otherwise it waits for its block, as canonical JSON.
 */
const keepRead = (state: LiveState, slice: string, staged: Staged) =>
  onSlice(state, slice, (work) =>
    !synced(state, work) && !state.initialEvents
      ? Effect.zipRight(
          Effect.sync(() => state.silentUntil.set(slice, staged.through ?? staged.at.height)),
          commitStagedOn(state, work, staged.at.height, staged)
        )
      : Effect.sync(() => stage(state, slice, staged))
  )

/** After a read of the whole slice: its height, and the live writes it covers forgotten. */
const afterRead = (state: LiveState, slice: string, height: number): void => {
  state.readAt.set(slice, height)
  const writes = state.liveWrites.get(slice)
  if (writes !== undefined) for (const [key, at] of writes) if (at < height) writes.delete(key)
}

/**
 * Whether the slice has been read whole at `height` or above: committed, or found and waiting for
 * its block (a read that reports waits for its block to be settled, and must not wait for itself).
 */
export const readSince = (state: LiveState, slice: string, height: number): boolean => {
  if ((state.readAt.get(slice) ?? -1) >= height) return true
  for (const [block, bySlice] of state.staged) {
    if (block >= height && bySlice.get(slice)?.some((staged) => staged.origin === "read") === true) return true
  }
  return false
}

/** Moves the checkpoint of a slice with nothing to commit to block `height` (the chain went past it quietly). */
export const touch = (state: LiveState, slice: string, height: number, node: string) =>
  onSlice(state, slice, (work) =>
    Option.match(work.checkpoint, {
      onNone: () => Effect.void,
      onSome: (checkpoint) =>
        checkpoint.height >= height
          ? Effect.void
          : Effect.asVoid(
              commitFound(
                state,
                work,
                { rows: new Map(), complete: false },
                { height, time: state.clock.timeOf(height), node },
                "live"
              )
            )
    })
  )
