/**
 * Test helpers for resources: a simulator with blocks moved by hand and a client aimed at it, and
 * the watcher's bookkeeping in miniature (stored rows, a snapshot applied, the changes between two
 * stored states).
 */
import { FetchHttpClient } from "@effect/platform"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import * as Effect from "effect/Effect"
import type { Change, Row } from "../../src/Event.js"
import { type DiffContext, fingerprint, type ReadContext, type Resource, type Snapshot } from "../../src/Resource.js"

export const noAssets: DiffContext = { asset: () => undefined }

/** A simulator (manual blocks) and a client reading its first node, for the life of the scope. */
export const simulated = (options: Simulator.Options) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ blockInterval: "manual", ...options })
    const client = yield* DataNodeClient.make({ urls: sim.url, rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    return { sim, client }
  })

/** The rows behind the fingerprints these helpers made, so that changes can be worked out from held state. */
const rowsByFingerprint = new Map<string, Row>()

const remember = (row: Row): string => {
  const print = fingerprint(row)
  rowsByFingerprint.set(print, row)
  return print
}

/** What a read is given, over rows held as `stored` or `applied` made them. */
export const contextOf = (previous: ReadonlyMap<string, string>, resume?: string): ReadContext => ({
  previous,
  heldKeys: Effect.sync(() => [...previous.keys()]),
  resume
})

/** Rows as the watcher holds them in memory: fingerprints by key. */
export const stored = (rows: ReadonlyMap<string, Row>): Map<string, string> =>
  new Map([...rows].map(([key, row]) => [key, remember(row)]))

/** The state after a snapshot: a complete one replaces it, a partial one overlays it. */
export const applied = (previous: ReadonlyMap<string, string>, snapshot: Snapshot): Map<string, string> => {
  const next = snapshot.complete ? new Map<string, string>() : new Map(previous)
  for (const [key, row] of snapshot.rows) next.set(key, remember(row))
  return next
}

/** The row behind a fingerprint made by `stored` or `applied`. */
export const rowOf = (print: string | undefined): Row | undefined =>
  print === undefined ? undefined : rowsByFingerprint.get(print)

/** Sorted by key, for comparing states. */
export const entries = (state: ReadonlyMap<string, string>): Array<[string, string]> =>
  [...state].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

export interface Found extends Change {
  readonly key: string
  readonly before: Row | undefined
  readonly after: Row | undefined
}

/** What the watcher would report going from one stored state to the next. */
export const changesBetween = (
  resource: Resource,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>
): Array<Found> => {
  const found: Array<Found> = []
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(key)
    const a = after.get(key)
    if (a === b) continue
    const rowBefore = rowOf(b)
    const rowAfter = rowOf(a)
    for (const change of resource.diff(rowBefore, rowAfter, noAssets)) {
      found.push({ ...change, key, before: rowBefore, after: rowAfter })
    }
  }
  return found
}

export const kindsOf = (found: ReadonlyArray<Change>): Array<string> => [...new Set(found.map((c) => c.kind))].sort()
