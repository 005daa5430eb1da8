/**
 * One cycle: read every watched resource, compare with the rows held, turn each difference into
 * events, and commit rows, events and checkpoint together.
 *
 * A cycle is refused, and nothing is written, when a node answers from below the checkpoint: the
 * watcher never goes backwards. It is also skipped while the chain has not moved.
 */
import { type DataNodeClient, type DataNodeError, ReadTracking } from "@vega-effect/http"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  type Change,
  makeEvent,
  type ReadPoint,
  type ResourceName,
  resourceNames,
  type Row,
  type SerializedEvent,
  serialize
} from "./Event.js"
import { canonical, type DiffContext, fingerprintOf, type Resource } from "./Resource.js"
import type { SqlError } from "@effect/sql/SqlError"
import type { Checkpoint, LockLost, RowWrite, Service as Store } from "./Store.js"

/** The rows held per resource, as fingerprints: the in-memory summary of the store's state. */
export type Held = Map<ResourceName, Map<string, string>>

/** The in-memory summary of rows loaded from the store. */
export const heldOf = (state: ReadonlyMap<ResourceName, ReadonlyMap<string, string>>): Held => {
  const out: Held = new Map()
  for (const [resource, rows] of state) {
    const prints = new Map<string, string>()
    for (const [key, json] of rows) prints.set(key, fingerprintOf(json))
    out.set(resource, prints)
  }
  return out
}

export type CycleOutcome =
  | {
      readonly _tag: "Committed"
      readonly checkpoint: Checkpoint
      readonly events: number
      readonly writes: number
      /** Events per kind. */
      readonly kinds: ReadonlyMap<string, number>
    }
  | { readonly _tag: "Unchanged"; readonly height: number }
  | { readonly _tag: "Behind"; readonly height: number; readonly node: string; readonly checkpoint: number }

export interface CycleContext {
  readonly client: DataNodeClient.Service
  readonly store: Store
  readonly resources: ReadonlyArray<Resource>
  readonly held: Held
  readonly checkpoint: Option.Option<Checkpoint>
  readonly diffContext: Effect.Effect<DiffContext, DataNodeError.DataNodeError>
  /** Whether the first sync of an empty state reports every row it finds (by default it only records them). */
  readonly initialEvents: boolean
}

const pointOf = (read: ReadTracking.ReadAt): ReadPoint => ({
  height: read.height,
  time: Option.match(ReadTracking.blockTime(read), { onNone: () => "", onSome: (d) => d.toISOString() }),
  node: read.node
})

const parse = (json: string | undefined): Row | undefined =>
  json === undefined ? undefined : (JSON.parse(json) as Row)

/** A resource's rows as canonical JSON, converted as soon as they are read so the objects can go. */
const canonicalRows = (rows: ReadonlyMap<string, Row>): Map<string, string> => {
  const out = new Map<string, string>()
  for (const [key, row] of rows) out.set(key, canonical(row))
  return out
}

/**
 * The events and row writes of one resource, keys in sorted order so that every run orders them
 * alike. Only fingerprints are held in memory: the rows held under changed keys come from the store.
 */
const compare = (
  store: Store,
  resource: Resource,
  rows: ReadonlyMap<string, string>,
  complete: boolean,
  held: ReadonlyMap<string, string>,
  at: ReadPoint,
  context: DiffContext,
  report: boolean
) =>
  Effect.gen(function* () {
    const writes: Array<RowWrite & { readonly fingerprint: string | null }> = []
    const keys = [...rows.keys()]
    if (complete) for (const key of held.keys()) if (!rows.has(key)) keys.push(key)
    keys.sort()
    for (const key of keys) {
      const after = rows.get(key)
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
      const beforeRow = parse(befores.get(write.key))
      const afterRow = parse(write.value ?? undefined)
      const changes: ReadonlyArray<Change> = resource.diff(beforeRow, afterRow, context)
      for (const change of changes) {
        events.push(serialize(makeEvent(resource.name, write.key, change, at, beforeRow ?? null, afterRow ?? null)))
      }
    }
    return { events, writes }
  })

export const runCycle = (
  context: CycleContext
): Effect.Effect<CycleOutcome, DataNodeError.DataNodeError | SqlError | LockLost> =>
  Effect.gen(function* () {
    const { checkpoint, client, held, resources, store } = context
    const stored = Option.getOrUndefined(checkpoint)
    const [head, headRead] = yield* ReadTracking.track(client.lastBlockHeight)
    const headPoint: ReadPoint =
      headRead.lowest !== undefined
        ? pointOf(headRead.lowest)
        : { height: Number(head.height), time: "", node: headRead.nodes[0] ?? "" }
    if (stored !== undefined && headPoint.height <= stored.height) {
      return headPoint.height < stored.height
        ? ({ _tag: "Behind", height: headPoint.height, node: headPoint.node, checkpoint: stored.height } as const)
        : ({ _tag: "Unchanged", height: headPoint.height } as const)
    }
    const diffContext = yield* context.diffContext
    const reads = yield* Effect.forEach(
      resources,
      (resource) =>
        ReadTracking.track(resource.read({ previous: held.get(resource.name) ?? new Map() })).pipe(
          Effect.map(([snapshot, read]) => ({
            resource,
            rows: canonicalRows(snapshot.rows),
            complete: snapshot.complete,
            at: read.lowest ? pointOf(read.lowest) : headPoint
          }))
        ),
      { concurrency: 4 }
    )
    const lowest = reads.reduce((low, r) => (r.at.height < low.height ? r.at : low), headPoint)
    if (stored !== undefined && lowest.height < stored.height) {
      return { _tag: "Behind", height: lowest.height, node: lowest.node, checkpoint: stored.height } as const
    }
    const report = stored !== undefined || context.initialEvents
    const events: Array<SerializedEvent> = []
    const writes: Array<RowWrite & { readonly fingerprint: string | null }> = []
    for (const name of resourceNames) {
      for (const { at, complete, resource, rows } of reads) {
        if (resource.name !== name) continue
        const found = yield* compare(
          store,
          resource,
          rows,
          complete,
          held.get(name) ?? new Map(),
          at,
          diffContext,
          report
        )
        events.push(...found.events)
        writes.push(...found.writes)
      }
    }
    const committed = yield* store.commit({ point: lowest, writes, events })
    for (const write of writes) {
      let rows = held.get(write.resource)
      if (rows === undefined) held.set(write.resource, (rows = new Map()))
      if (write.fingerprint === null) rows.delete(write.key)
      else rows.set(write.key, write.fingerprint)
    }
    const kinds = new Map<string, number>()
    for (const event of events) kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1)
    return { _tag: "Committed", checkpoint: committed, events: events.length, writes: writes.length, kinds } as const
  })
