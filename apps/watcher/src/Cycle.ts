/**
 * One cycle: read the slices this watcher holds, compare each with the rows held, turn each
 * difference into events, and commit each slice's rows, events and checkpoint together.
 *
 * Slices are read a few at a time but committed one by one in their order, so one watcher always
 * writes the outbox in the same order, and only the slices in flight are held in memory. A slice's
 * cycle is refused, and nothing written, when a node answers from below its checkpoint: the
 * watcher never goes backwards. A slice is skipped while the chain has not moved past it.
 */
import { type DataNodeClient, type DataNodeError, ReadTracking } from "@vega-effect/http"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { type Change, makeEvent, type ReadPoint, type Row, type SerializedEvent, serialize } from "./Event.js"
import { type Fingerprints, fingerprintOf } from "./Fingerprints.js"
import * as Metrics from "./Metrics.js"
import { canonical, type DiffContext, type ReadContext, type Resource } from "./Resource.js"
import { type Checkpoint, LeaseLost, type RowWrite, type Service as Store, type SliceState } from "./Store.js"

/** A slice as its holder works it: the resource reading it, and what the store holds of it. */
export interface SliceWork {
  readonly slice: string
  readonly resource: Resource
  /** The rows held, as fingerprints: the in-memory summary of the store's rows. */
  readonly held: Fingerprints
  checkpoint: Option.Option<Checkpoint>
  /** Where the next read may start, as last committed. */
  resume: string | undefined
}

export const workOf = (slice: string, resource: Resource, state: SliceState): SliceWork => ({
  slice,
  resource,
  held: state.held,
  checkpoint: state.checkpoint,
  resume: state.resume
})

export type SliceOutcome =
  | {
      readonly _tag: "Committed"
      readonly checkpoint: Checkpoint
      readonly lastSeq: number | undefined
      readonly events: number
      readonly writes: number
      /** Events per kind. */
      readonly kinds: ReadonlyMap<string, number>
    }
  | { readonly _tag: "Unchanged"; readonly height: number }
  | { readonly _tag: "Behind"; readonly height: number; readonly node: string; readonly checkpoint: number }

/** A cycle over every slice held. */
export interface CycleOutcome {
  /** Where the chain's head was read. */
  readonly head: ReadPoint
  readonly slices: ReadonlyMap<string, SliceOutcome>
  /** Slices whose lease another watcher holds now: nothing was written for them. */
  readonly lost: ReadonlyArray<LeaseLost>
}

export interface CycleContext {
  readonly client: DataNodeClient.Service
  readonly store: Store
  readonly works: ReadonlyArray<SliceWork>
  readonly diffContext: Effect.Effect<DiffContext, DataNodeError.DataNodeError>
  /** Whether the first sync of an empty slice reports every row it finds (by default it only records them). */
  readonly initialEvents: boolean
  /** Slices read at the same time; default 4. */
  readonly concurrency?: number
  /** Whether the slice is still this watcher's to work; one given up or lost during the cycle is skipped. */
  readonly holds?: (slice: string) => boolean
  /** Run after each slice's commit: a long cycle (a first sync) lets the work be shared meanwhile. */
  readonly between?: Effect.Effect<void>
}

export const pointOf = (read: ReadTracking.ReadAt): ReadPoint => ({
  height: read.height,
  time: Option.match(ReadTracking.blockTime(read), { onNone: () => "", onSome: (d) => d.toISOString() }),
  node: read.node
})

const parse = (json: string | undefined): Row | undefined =>
  json === undefined ? undefined : (JSON.parse(json) as Row)

/**
 * Rows as canonical JSON (`null`: gone), converted as soon as they are read so the objects can go:
 * a string weighs less than its object.
 */
export const canonicalOf = (rows: Iterable<readonly [string, Row | null]>): Map<string, string | null> => {
  const out = new Map<string, string | null>()
  for (const [key, row] of rows) out.set(key, row === null ? null : canonical(row))
  return out
}

/**
 * Whether what was read at `height` is older than the slice's checkpoint: it is refused and
 * nothing written, by polling and real time alike, so the watcher never goes backwards.
 */
export const isBehind = (work: SliceWork, height: number): boolean =>
  Option.isSome(work.checkpoint) && height < work.checkpoint.value.height

/** Counts what {@link isBehind} refused, in `vega_watcher_refused_total`. */
export const countRefused = (work: SliceWork, origin: "read" | "live"): Effect.Effect<void> =>
  Metric.update(
    Metrics.refusedTotal.pipe(Metric.tagged("resource", work.resource.name), Metric.tagged("origin", origin)),
    1
  )

/**
 * The events and row writes of a slice's rows read now (canonical JSON, `null`: gone), keys in
 * sorted order so that every run orders them alike. Only fingerprints are held in memory: the rows
 * held under changed keys, and the keys held when the read is complete, come from the store.
 */
export const compare = (
  store: Store,
  work: SliceWork,
  rows: ReadonlyMap<string, string | null>,
  complete: boolean,
  at: ReadPoint,
  context: DiffContext,
  report: boolean,
  skip: (key: string) => boolean = () => false
) =>
  Effect.gen(function* () {
    const { held, resource } = work
    const writes: Array<RowWrite & { readonly fingerprint: string | null }> = []
    const keys = [...rows.keys()]
    if (complete) for (const key of yield* store.keys(work.slice)) if (!rows.has(key)) keys.push(key)
    keys.sort()
    for (const key of keys) {
      if (skip(key)) continue
      const after = rows.get(key) ?? undefined
      const print = after === undefined ? null : fingerprintOf(after)
      if (held.get(key) === (print ?? undefined)) continue
      writes.push({ resource: resource.name, key, value: after ?? null, fingerprint: print })
    }
    const events: Array<SerializedEvent> = []
    if (!report || writes.length === 0) return { events, writes }
    const befores = yield* store.rows(
      resource.name,
      writes.filter((w) => held.has(w.key)).map((w) => w.key)
    )
    for (const write of writes) {
      // a key whose hash another key shares looks changed: the store has the truth
      if (befores.get(write.key) === (write.value ?? undefined)) continue
      const beforeRow = parse(befores.get(write.key))
      const afterRow = parse(write.value ?? undefined)
      const changes: ReadonlyArray<Change> = resource.diff(beforeRow, afterRow, context)
      for (const change of changes) {
        events.push(serialize(makeEvent(resource.name, write.key, change, at, beforeRow ?? null, afterRow ?? null)))
      }
    }
    return { events, writes }
  })

/** What a read of the slice is given: the rows held, and where the last read stopped. */
export const readContext = (store: Store, work: SliceWork): ReadContext => ({
  previous: work.held,
  heldKeys: store.keys(work.slice),
  resume: work.resume
})

/** The chain's head, as the client's nodes report it. */
export const readHead = (client: DataNodeClient.Service): Effect.Effect<ReadPoint, DataNodeError.DataNodeError> =>
  Effect.map(ReadTracking.track(client.lastBlockHeight), ([head, read]) =>
    read.lowest !== undefined
      ? pointOf(read.lowest)
      : { height: Number(head.height), time: "", node: read.nodes[0] ?? "" }
  )

export type Prepared =
  | { readonly _tag: "Done"; readonly outcome: SliceOutcome }
  | {
      readonly _tag: "Ready"
      readonly at: ReadPoint
      readonly resume: string | undefined
      readonly events: ReadonlyArray<SerializedEvent>
      readonly writes: ReadonlyArray<RowWrite & { readonly fingerprint: string | null }>
    }

/** Reads a slice and works out its writes and events; nothing is written yet. */
const prepare = (
  store: Store,
  work: SliceWork,
  head: ReadPoint,
  diffContext: DiffContext,
  initialEvents: boolean
): Effect.Effect<Prepared, DataNodeError.DataNodeError | SqlError> =>
  Effect.gen(function* () {
    const stored = Option.getOrUndefined(work.checkpoint)
    const behind = (at: ReadPoint) =>
      Effect.as(countRefused(work, "read"), {
        _tag: "Done",
        outcome: { _tag: "Behind", height: at.height, node: at.node, checkpoint: stored!.height }
      } as const)
    if (isBehind(work, head.height)) return yield* behind(head)
    if (stored !== undefined && head.height === stored.height) {
      return { _tag: "Done", outcome: { _tag: "Unchanged", height: head.height } } as const
    }
    const [snapshot, read] = yield* ReadTracking.track(work.resource.read(readContext(store, work)))
    const at = read.lowest ? pointOf(read.lowest) : head
    if (isBehind(work, at.height)) return yield* behind(at)
    const found = yield* compare(
      store,
      work,
      canonicalOf(snapshot.rows),
      snapshot.complete,
      at,
      diffContext,
      stored !== undefined || initialEvents
    )
    return { _tag: "Ready", at, resume: snapshot.resume, ...found } as const
  })

/**
 * Where a commit of what was read at `at` moves the slice's checkpoint: there, or nowhere if it is
 * already higher (live work stamps events with the block that made them, which can be below the
 * checkpoint a block's time update moved it to; the checkpoint never goes back).
 */
const checkpointAt = (work: SliceWork, at: ReadPoint): ReadPoint =>
  Option.match(work.checkpoint, {
    onNone: () => at,
    onSome: (checkpoint) =>
      checkpoint.height > at.height ? { height: checkpoint.height, time: checkpoint.time, node: checkpoint.node } : at
  })

/** Commits what `prepare` found (or the live path staged). */
const commitSlice = (store: Store, work: SliceWork, prepared: Prepared) =>
  Effect.gen(function* () {
    if (prepared._tag === "Done") return prepared.outcome
    const { at, events, resume, writes } = prepared
    const committed = yield* store.commit({ slice: work.slice, point: checkpointAt(work, at), resume, writes, events })
    for (const write of writes) {
      if (write.fingerprint === null) work.held.delete(write.key)
      else work.held.set(write.key, write.fingerprint)
    }
    work.checkpoint = Option.some(committed.checkpoint)
    work.resume = resume
    const kinds = new Map<string, number>()
    for (const event of events) kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1)
    return {
      _tag: "Committed",
      checkpoint: committed.checkpoint,
      lastSeq: committed.lastSeq,
      events: events.length,
      writes: writes.length,
      kinds
    } satisfies SliceOutcome
  })

/**
 * Commits a slice's findings; when another watcher holds the slice's lease now, nothing is
 * written, `onLost` is told, and the outcome is `undefined`.
 */
export const commitHeld = (
  store: Store,
  work: SliceWork,
  prepared: Prepared,
  onLost: (lost: LeaseLost) => Effect.Effect<void>
): Effect.Effect<SliceOutcome | undefined, SqlError> =>
  commitSlice(store, work, prepared).pipe(
    Effect.catchIf(
      (error): error is LeaseLost => error instanceof LeaseLost,
      (error) => Effect.as(onLost(error), undefined)
    )
  )

export const runCycle = (context: CycleContext): Effect.Effect<CycleOutcome, DataNodeError.DataNodeError | SqlError> =>
  Effect.gen(function* () {
    const { client, store, works } = context
    const head = yield* readHead(client)
    const diffContext = yield* context.diffContext
    const slices = new Map<string, SliceOutcome>()
    const lost: Array<LeaseLost> = []
    const holds = context.holds ?? (() => true)
    yield* Stream.fromIterable(works).pipe(
      Stream.filter((work) => holds(work.slice)),
      Stream.mapEffect(
        (work) => Effect.map(prepare(store, work, head, diffContext, context.initialEvents), (p) => [work, p] as const),
        { concurrency: context.concurrency ?? 4 }
      ),
      Stream.runForEach(([work, prepared]) =>
        // given up while it was read: the work is dropped, nothing written
        !holds(work.slice)
          ? Effect.void
          : commitHeld(store, work, prepared, (error) => Effect.sync(() => void lost.push(error))).pipe(
              Effect.map((outcome) => void (outcome !== undefined && slices.set(work.slice, outcome))),
              Effect.zipRight(context.between ?? Effect.void)
            )
      )
    )
    return { head, slices, lost }
  })

/** A cycle's totals over its slices. */
export const totals = (outcome: CycleOutcome) => {
  let events = 0
  let writes = 0
  let committed = 0
  let lastSeq: number | undefined
  const kinds = new Map<string, number>()
  const behind: Array<SliceOutcome & { readonly _tag: "Behind" }> = []
  for (const slice of outcome.slices.values()) {
    if (slice._tag === "Behind") behind.push(slice)
    if (slice._tag !== "Committed") continue
    committed++
    events += slice.events
    writes += slice.writes
    if (slice.lastSeq !== undefined) lastSeq = Math.max(lastSeq ?? 0, slice.lastSeq)
    for (const [kind, count] of slice.kinds) kinds.set(kind, (kinds.get(kind) ?? 0) + count)
  }
  return { committed, events, writes, kinds, lastSeq, behind }
}
