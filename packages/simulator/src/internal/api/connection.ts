/**
 * Runs a page request over an endpoint's rows and writes the connection JSON
 * (`{"edges":[{"node":…,"cursor":…}],"pageInfo":{…}}`).
 */
import { Pagination } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { base64 } from "../goJson.js"
import { page, pageInOrder, type PageRequest, type Source } from "../paging.js"
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
export type Listed = { readonly json: string } | { readonly cursorError: string }

/** The request's cursor key: none, the key, or why the cursor's JSON could not be read. */
const cursorKey = <Key>(
  request: PageRequest,
  spec: CursorSpec,
  keyOf: (values: CursorValues) => Key
): { readonly key: Key | undefined } | { readonly cursorError: string } => {
  if (request.cursor === undefined) return { key: undefined }
  const values = readCursor(spec, request.cursor)
  if ("error" in values) return { cursorError: values.error as string }
  return { key: keyOf(values as CursorValues) }
}

export const list = <Row, Key>(listing: Listing<Row, Key>): Listed => {
  const { request, source } = listing
  const key = cursorKey(request, listing.cursor, listing.keyOf)
  if ("cursorError" in key) return key
  const result = page(source, request, key.key)
  return {
    json: connectionJson(result.rows, listing.nodeJson, source.cursorOf, result.hasNextPage, result.hasPreviousPage)
  }
}

/** A listing whose rows come in the order the query reads them (see `pageInOrder`). */
export interface OrderedListing<Row, Key> {
  readonly request: PageRequest
  readonly cursor: CursorSpec
  readonly keyOf: (values: CursorValues) => Key
  /**
   * The rows in the order the query reads them, kept by its filters and, when there is a cursor
   * (`key`), by the cursor predicate.
   */
  readonly rows: (key: Key | undefined) => Iterable<Row>
  readonly cursorOf: (row: Row) => string
  readonly nodeJson: (row: Row) => string
}

/** {@link list} for rows the query reads in an order of their own. */
export const listInOrder = <Row, Key>(listing: OrderedListing<Row, Key>): Listed => {
  const { request } = listing
  const key = cursorKey(request, listing.cursor, listing.keyOf)
  if ("cursorError" in key) return key
  const result = pageInOrder(listing.rows(key.key), request, key.key !== undefined, listing.cursorOf)
  return {
    json: connectionJson(result.rows, listing.nodeJson, listing.cursorOf, result.hasNextPage, result.hasPreviousPage)
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
