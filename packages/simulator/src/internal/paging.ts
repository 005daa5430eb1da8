/**
 * Cursor pagination exactly as the data node computes it (datanode/entities/pagination.go,
 * sqlstore/cursor.go, entities.go PageEntities):
 *
 * 1. {@link resolve} turns the five request parameters into a page request (§2.1 of our notes):
 *    forward or backward, a limit, an optional cursor, and the order (newest first by default).
 * 2. {@link page} runs it over rows kept in the endpoint's base order, as the SQL would: the
 *    order is reversed for a forward newest-first or a backward oldest-first page, the cursor
 *    predicate keeps rows at or beyond the cursor, `limit + 1` rows are read (`+ 2` with a
 *    cursor), and the first row is dropped when it is taken to be the cursor row.
 */
import { Pagination } from "@vega-effect/schema"
import { decodeBase64 } from "./goJson.js"

const { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } = Pagination

export interface PaginationInput {
  readonly first?: number
  readonly after?: string
  readonly last?: number
  readonly before?: string
  readonly newestFirst?: boolean
}

export interface PageRequest {
  readonly forward: boolean
  readonly limit: number
  /** The cursor's decoded JSON text, when a cursor was given. */
  readonly cursor: string | undefined
  readonly newestFirst: boolean
}

/** Resolves the request parameters, or returns the node's error text (the `inner` of detail 10028). */
export const resolve = (p: PaginationInput): PageRequest | { readonly error: string } => {
  const newestFirst = p.newestFirst ?? true
  if (p.first === undefined && p.last === undefined && p.after === undefined && p.before === undefined) {
    return { forward: true, limit: DEFAULT_PAGE_SIZE, cursor: undefined, newestFirst }
  }
  if (p.before !== undefined && p.after !== undefined) return { error: "cannot set both a before and after cursor" }
  let forward: boolean
  let limit: number
  let raw: string | undefined
  if (p.first !== undefined) {
    forward = true
    limit = p.first
    raw = p.after
  } else if (p.last !== undefined) {
    forward = false
    limit = p.last
    raw = p.before
  } else if (p.after !== undefined) {
    forward = true
    limit = DEFAULT_PAGE_SIZE
    raw = p.after
  } else {
    forward = false
    limit = DEFAULT_PAGE_SIZE
    raw = p.before
  }
  if (limit <= 0 || limit > MAX_PAGE_SIZE) return { error: `pagination limit must be in range 0-${MAX_PAGE_SIZE}` }
  if (raw === undefined) return { forward, limit, cursor: undefined, newestFirst }
  const which = forward ? "after" : "before"
  if (raw === "") return { error: `failed to decode ${which} cursor: cursor is empty` }
  const decoded = decodeBase64(raw)
  if ("error" in decoded)
    return { error: `failed to decode ${which} cursor: failed to decode cursor: ${decoded.error}` }
  return { forward, limit, cursor: decoded.text, newestFirst }
}

/** Rows of one endpoint, in its base (ascending) order, as seen by one query. */
export interface Source<Row, Key> {
  readonly size: number
  readonly at: (index: number) => Row
  /** Whether the row is part of the result (visible at the queried height, matching the filters). */
  readonly include: (row: Row) => boolean
  /** Base-order comparison of a row with a cursor key. */
  readonly compare: (row: Row, key: Key) => number
  /** The cursor JSON of a row, byte for byte as the node writes it. */
  readonly cursorOf: (row: Row) => string
}

export interface Page<Row> {
  readonly rows: ReadonlyArray<Row>
  readonly hasNextPage: boolean
  readonly hasPreviousPage: boolean
}

/** First index i with compare(at(i)) >= 0 (rows sorted ascending). */
const lowerBound = <Row, Key>(source: Source<Row, Key>, key: Key): number => {
  let lo = 0
  let hi = source.size
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (source.compare(source.at(mid), key) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Last index i with compare(at(i)) <= 0, or -1 (rows sorted ascending). */
const upperBoundInclusive = <Row, Key>(source: Source<Row, Key>, key: Key): number => {
  let lo = 0
  let hi = source.size
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (source.compare(source.at(mid), key) <= 0) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/**
 * Computes a page. `key` is the decoded cursor (undefined without a cursor); `cursorText` is the
 * cursor JSON the client sent, compared byte for byte with the first row's cursor.
 */
export const page = <Row, Key>(source: Source<Row, Key>, request: PageRequest, key: Key | undefined): Page<Row> => {
  const { forward, limit } = request
  const hasCursor = request.cursor !== undefined && key !== undefined
  const descending = isDescending(request)
  const sqlLimit = limit + (hasCursor ? 2 : 1)
  const rows: Array<Row> = []
  if (descending) {
    let i = hasCursor ? upperBoundInclusive(source, key as Key) : source.size - 1
    for (; i >= 0 && rows.length < sqlLimit; i--) {
      const row = source.at(i)
      if (source.include(row)) rows.push(row)
    }
  } else {
    let i = hasCursor ? lowerBound(source, key as Key) : 0
    for (; i < source.size && rows.length < sqlLimit; i++) {
      const row = source.at(i)
      if (source.include(row)) rows.push(row)
    }
  }
  return pageEntities(rows, limit, forward, hasCursor ? request.cursor : undefined, source.cursorOf)
}

/**
 * Whether the query reads the rows in the reverse of their base order: a forward newest-first or
 * a backward oldest-first page (`paginateQueryInternal` reverses the table ordering then).
 */
export const isDescending = (request: PageRequest): boolean =>
  (request.forward && request.newestFirst) || (!request.forward && !request.newestFirst)

/**
 * The cursor predicate (`CursorPredicate`, sqlstore/cursor.go): whether a row is at or beyond the
 * cursor in the direction the query reads, given the base-order comparison of the row with the
 * cursor's key.
 */
export const atOrBeyond = (comparison: number, descending: boolean): boolean =>
  descending ? comparison <= 0 : comparison >= 0

/**
 * A page over rows the query reads in an order of their own rather than by the cursor's columns:
 * a view whose own sort the query keeps (`PaginateQueryWithoutOrderBy`), or one that sorts by more
 * columns than the cursor has. `rows` yields the rows in that order, already kept by the query's
 * filters and by the cursor predicate ({@link atOrBeyond}); the SQL limit is applied to them, then
 * `PageEntities` as for {@link page}.
 */
export const pageInOrder = <Row>(
  rows: Iterable<Row>,
  request: PageRequest,
  hasCursor: boolean,
  cursorOf: (row: Row) => string
): Page<Row> => {
  const sqlLimit = request.limit + (hasCursor ? 2 : 1)
  const taken: Array<Row> = []
  if (sqlLimit > 0) {
    for (const row of rows) {
      taken.push(row)
      if (taken.length >= sqlLimit) break
    }
  }
  return pageEntities(taken, request.limit, request.forward, hasCursor ? request.cursor : undefined, cursorOf)
}

/** entities.go PageEntities: trims the SQL rows to the page and works out hasNext/hasPrevious. */
const pageEntities = <Row>(
  rows: ReadonlyArray<Row>,
  limit: number,
  forward: boolean,
  cursor: string | undefined,
  cursorOf: (row: Row) => string
): Page<Row> => {
  const n = rows.length
  if (cursor === undefined) {
    const cut = n === limit + 1 ? rows.slice(0, limit) : rows
    return forward
      ? { rows: cut, hasNextPage: n === limit + 1, hasPreviousPage: false }
      : { rows: [...cut].reverse(), hasNextPage: false, hasPreviousPage: n === limit + 1 }
  }
  if (n === limit + 2 || n === limit + 1) {
    const cut = rows.slice(1, limit + 1)
    return forward
      ? { rows: cut, hasNextPage: n === limit + 2, hasPreviousPage: true }
      : { rows: cut.reverse(), hasNextPage: true, hasPreviousPage: n === limit + 2 }
  }
  const startsAtCursor = n > 0 && cursorOf(rows[0]) === cursor
  const cut = startsAtCursor ? rows.slice(1) : rows
  return forward
    ? { rows: cut, hasNextPage: false, hasPreviousPage: startsAtCursor }
    : { rows: [...cut].reverse(), hasNextPage: startsAtCursor, hasPreviousPage: false }
}
