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
import { canonical, type DiffContext, type Resource, type Snapshot } from "../../src/Resource.js"

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

/** Rows as the watcher stores them. */
export const stored = (rows: ReadonlyMap<string, Row>): Map<string, string> =>
  new Map([...rows].map(([key, row]) => [key, canonical(row)]))

/** The state after a snapshot: a complete one replaces it, a partial one overlays it. */
export const applied = (previous: ReadonlyMap<string, string>, snapshot: Snapshot): Map<string, string> => {
  const next = snapshot.complete ? new Map<string, string>() : new Map(previous)
  for (const [key, row] of snapshot.rows) next.set(key, canonical(row))
  return next
}

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
    const rowBefore = b === undefined ? undefined : (JSON.parse(b) as Row)
    const rowAfter = a === undefined ? undefined : (JSON.parse(a) as Row)
    for (const change of resource.diff(rowBefore, rowAfter, noAssets)) {
      found.push({ ...change, key, before: rowBefore, after: rowAfter })
    }
  }
  return found
}

export const kindsOf = (found: ReadonlyArray<Change>): Array<string> => [...new Set(found.map((c) => c.kind))].sort()
