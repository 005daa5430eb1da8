/**
 * A change the watcher found: what changed (kind, resource, key), the values before and after,
 * and where and when it was read. Its `id` is derived from all of that, so the same change found
 * again (after a crash, by another instance) has the same id: sinks and receivers deduplicate by it.
 */
import { createHash } from "node:crypto"
import type { ResourceName } from "./Resources.js"

/** A JSON value, as rows and events carry them: amounts stay exact decimal strings. */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** A resource row in its wire form (the encoded `@vega-effect/schema` value), or a resource's own summary of it. */
export type Row = { readonly [key: string]: Json }

/** The name of a watched resource; the list of them is `Resources.ts`'s. */
export type { ResourceName } from "./Resources.js"

/** Where a snapshot was read: the block height and time the node reported, and the node. */
export interface ReadPoint {
  readonly height: number
  /** RFC 3339 UTC, from the node's `X-Block-Timestamp`. */
  readonly time: string
  readonly node: string
}

/** What a resource's diff says about one key; the watcher adds the rest. */
export interface Change {
  /** `<resource-kind>.<what>`, e.g. `position.opened`. */
  readonly kind: string
  /** Facts derived from before and after (a delta in human units, a signature count...). */
  readonly details?: { readonly [key: string]: Json }
}

export interface WatchEvent extends ReadPoint {
  readonly id: string
  readonly kind: string
  readonly resource: ResourceName
  readonly key: string
  readonly before: Row | null
  readonly after: Row | null
  readonly details: { readonly [key: string]: Json }
}

/** The idempotency key: a SHA-256 over everything that makes the event, except the node it came from. */
export const eventId = (
  resource: ResourceName,
  key: string,
  change: Change,
  height: number,
  before: Row | null,
  after: Row | null
): string =>
  createHash("sha256")
    .update(JSON.stringify([resource, key, change.kind, height, before, after, change.details ?? {}]))
    .digest("hex")
    .slice(0, 32)

export const makeEvent = (
  resource: ResourceName,
  key: string,
  change: Change,
  at: ReadPoint,
  before: Row | null,
  after: Row | null
): WatchEvent => ({
  id: eventId(resource, key, change, at.height, before, after),
  kind: change.kind,
  resource,
  key,
  before,
  after,
  details: change.details ?? {},
  height: at.height,
  time: at.time,
  node: at.node
})

/** One event as one line of JSON, fields always in the same order. */
export const toJsonLine = (event: WatchEvent): string =>
  JSON.stringify({
    id: event.id,
    kind: event.kind,
    resource: event.resource,
    key: event.key,
    height: event.height,
    time: event.time,
    node: event.node,
    before: event.before,
    after: event.after,
    details: event.details
  })

/** An event as the outbox keeps it: serialized once, when it is found. */
export interface SerializedEvent {
  readonly id: string
  readonly kind: string
  readonly json: string
}

/** The outbox keeps the event as its JSON line: one field order for the outbox and every sink. */
export const serialize = (event: WatchEvent): SerializedEvent => ({
  id: event.id,
  kind: event.kind,
  json: toJsonLine(event)
})
