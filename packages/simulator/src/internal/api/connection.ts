/**
 * Runs a page request over an endpoint's rows and writes the connection JSON
 * (`{"edges":[{"node":…,"cursor":…}],"pageInfo":{…}}`).
 */
import { Pagination } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { base64 } from "../goJson.js"
import { page, type PageRequest, type Source } from "../paging.js"
import { type CursorSpec, type CursorValues, readCursor } from "./cursors.js"
import type { NodeVersion } from "./nodeVersion.js"

const encodePageInfo = Schema.encodeSync(Pagination.PageInfo)

export interface Listing<Row, Key> {
  readonly request: PageRequest
  readonly cursor: CursorSpec
  readonly keyOf: (values: CursorValues) => Key
  readonly source: Source<Row, Key>
  readonly nodeJson: (row: Row) => string
}

/** The connection JSON, or the reason the cursor could not be read (which the node reports as a 500). */
export const list = <Row, Key>(
  listing: Listing<Row, Key>
): { readonly json: string } | { readonly cursorError: string } => {
  const { request, source } = listing
  let key: Key | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(listing.cursor, request.cursor)
    if ("error" in values) return { cursorError: values.error as string }
    key = listing.keyOf(values as CursorValues)
  }
  const result = page(source, request, key)
  return {
    json: connectionJson(result.rows, listing.nodeJson, source.cursorOf, result.hasNextPage, result.hasPreviousPage)
  }
}

export const connectionJson = <Row>(
  rows: ReadonlyArray<Row>,
  nodeJson: (row: Row) => string,
  cursorOf: (row: Row) => string,
  hasNextPage: boolean,
  hasPreviousPage: boolean
): string => {
  const cursors = rows.map((row) => encodedCursor(row, cursorOf))
  let edges = ""
  for (let i = 0; i < rows.length; i++) {
    edges += `${i === 0 ? "" : ","}{"node":${nodeJson(rows[i])},"cursor":"${cursors[i]}"}`
  }
  const pageInfo = JSON.stringify(
    encodePageInfo({
      hasNextPage,
      hasPreviousPage,
      startCursor: (cursors[0] ?? "") as Pagination.Cursor,
      endCursor: (cursors[cursors.length - 1] ?? "") as Pagination.Cursor
    })
  )
  return `{"edges":[${edges}],"pageInfo":${pageInfo}}`
}

const encodedCursors = new WeakMap<(row: never) => string, WeakMap<object, string>>()

/** The base64 cursor of a row, cached per row and cursor writer (rows are immutable versions). */
const encodedCursor = <Row>(row: Row, cursorOf: (row: Row) => string): string => {
  if (typeof row !== "object" || row === null) return base64(cursorOf(row))
  let cache = encodedCursors.get(cursorOf)
  if (cache === undefined) {
    cache = new WeakMap()
    encodedCursors.set(cursorOf, cache)
  }
  let cursor = cache.get(row)
  if (cursor === undefined) {
    cursor = base64(cursorOf(row))
    cache.set(row, cursor)
  }
  return cursor
}

/** Rows already filtered and sorted in base order. */
export const arraySource = <Row, Key>(
  rows: ReadonlyArray<Row>,
  compare: (row: Row, key: Key) => number,
  cursorOf: (row: Row) => string
): Source<Row, Key> => ({
  size: rows.length,
  at: (i) => rows[i],
  include: () => true,
  compare,
  cursorOf
})

/** Caches a row's JSON: rows are immutable versions, so their JSON never changes. */
/**
 * {@link cachedJson} for each node release: `byVersion(version)(row)` is the row's JSON as a
 * node of that release writes it.
 */
export const cachedJsonByVersion = <Row extends object>(encode: (row: Row, version: NodeVersion) => string) => {
  const caches = {
    "v0.75": cachedJson((row: Row) => encode(row, "v0.75")),
    "v0.79": cachedJson((row: Row) => encode(row, "v0.79"))
  }
  return (version: NodeVersion): ((row: Row) => string) => caches[version]
}

export const cachedJson = <Row extends object>(encode: (row: Row) => string) => {
  const cache = new WeakMap<Row, string>()
  return (row: Row): string => {
    let json = cache.get(row)
    if (json === undefined) {
      json = encode(row)
      cache.set(row, json)
    }
    return json
  }
}
