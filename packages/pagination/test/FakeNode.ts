/**
 * An in-memory list served with the data node's cursor semantics (datanode-api-facts §2): parameter
 * resolution, base64 JSON cursors, an inclusive cursor predicate with `limit + 1` / `limit + 2` rows,
 * and the `PageEntities` table for the page flags, including backward pages flipped back into
 * display order. Base order is ascending `seq`; the display order is newest (highest seq) first
 * unless `newestFirst` is false.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { Paginate } from "@vega-effect/pagination"

export class NodeError extends Data.TaggedError("NodeError")<{ readonly status: number; readonly message: string }> {}

export interface Row {
  readonly seq: number
  readonly label: string
}

export const rows = (count: number): ReadonlyArray<Row> =>
  Array.from({ length: count }, (_, i) => ({ seq: i + 1, label: `row-${String(i + 1).padStart(3, "0")}` }))

const cursorJson = (row: Row) => JSON.stringify({ seq: row.seq })
export const cursorOf = (row: Row): string => Buffer.from(cursorJson(row)).toString("base64")

const decodeCursor = (which: "after" | "before", cursor: string): { json: string; seq: number } | NodeError => {
  if (cursor.length === 0)
    return new NodeError({ status: 400, message: `failed to decode ${which} cursor: cursor is empty` })
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cursor) || cursor.length % 4 !== 0) {
    return new NodeError({ status: 400, message: `failed to decode ${which} cursor: illegal base64 data` })
  }
  const json = Buffer.from(cursor, "base64").toString("utf8")
  try {
    const parsed = JSON.parse(json)
    if (typeof parsed?.seq !== "number") throw new Error("bad cursor")
    return { json, seq: parsed.seq }
  } catch {
    return new NodeError({ status: 500, message: "parsing cursor: parsing cursor" })
  }
}

/** One page, exactly as the node computes it, or the error the node would answer with. */
export const servePage = (all: ReadonlyArray<Row>, params: Paginate.PageParams): Paginate.Page<Row> | NodeError => {
  const { after, before, first, last } = params
  const newestFirst = params.newestFirst ?? true
  if (after !== undefined && before !== undefined) {
    return new NodeError({ status: 400, message: "cannot set both a before and after cursor" })
  }
  let forward: boolean
  let limit: number
  let cursor: string | undefined
  if (first !== undefined) [forward, limit, cursor] = [true, first, after]
  else if (last !== undefined) [forward, limit, cursor] = [false, last, before]
  else if (after !== undefined) [forward, limit, cursor] = [true, 1000, after]
  else if (before !== undefined) [forward, limit, cursor] = [false, 1000, before]
  else [forward, limit, cursor] = [true, 1000, undefined]
  if (!Number.isInteger(limit) || limit <= 0 || limit > 5000) {
    return new NodeError({ status: 400, message: "pagination limit must be in range 0-5000" })
  }
  const decoded = cursor === undefined ? undefined : decodeCursor(forward ? "after" : "before", cursor)
  if (decoded instanceof NodeError) return decoded

  const reversed = (forward && newestFirst) || (!forward && !newestFirst)
  const sql = reversed ? [...all].reverse() : [...all]
  const kept = decoded === undefined ? sql : sql.filter((r) => (reversed ? r.seq <= decoded.seq : r.seq >= decoded.seq))
  const n = Math.min(kept.length, limit + (decoded === undefined ? 1 : 2))
  const got = kept.slice(0, n)

  let out: Array<Row>
  let hasNext: boolean
  let hasPrev: boolean
  if (decoded === undefined) {
    out = got.slice(0, limit)
    const more = n === limit + 1
    ;[hasNext, hasPrev] = forward ? [more, false] : [false, more]
  } else {
    const isCursorRow = got.length > 0 && cursorJson(got[0]) === decoded.json
    if (n === limit + 2) {
      out = got.slice(1, limit + 1)
      ;[hasNext, hasPrev] = [true, true]
    } else if (n === limit + 1) {
      out = got.slice(1, limit + 1)
      ;[hasNext, hasPrev] = forward ? [false, true] : [true, false]
    } else if (isCursorRow) {
      out = got.slice(1)
      ;[hasNext, hasPrev] = forward ? [false, true] : [true, false]
    } else {
      out = got
      ;[hasNext, hasPrev] = [false, false]
    }
  }
  if (!forward) out = out.reverse()
  const items = out.map((row) => ({ node: row, cursor: cursorOf(row) }))
  return {
    items,
    hasNextPage: hasNext,
    hasPreviousPage: hasPrev,
    startCursor: items.length > 0 ? items[0].cursor : "",
    endCursor: items.length > 0 ? items[items.length - 1].cursor : ""
  }
}

/** The display order for `newestFirst`. */
export const displayOrder = (all: ReadonlyArray<Row>, newestFirst: boolean): ReadonlyArray<Row> =>
  newestFirst ? [...all].reverse() : all

/**
 * A fake node over `all`: `fetch` records every request (at its start) before answering. A walk
 * needs at most one request per row and one more, so far more than that (three walks' worth) means
 * paging no longer ends: the fetch dies instead of answering forever, and the test fails rather
 * than hangs.
 */
export const makeNode = (all: ReadonlyArray<Row>) => {
  const requests: Array<Paginate.PageParams> = []
  const maxRequests = 3 * (all.length + 2)
  const fetch = (params: Paginate.PageParams): Effect.Effect<Paginate.Page<Row>, NodeError> =>
    Effect.suspend(() => {
      if (requests.length >= maxRequests)
        return Effect.dieMessage(`more than ${maxRequests} requests over ${all.length} rows`)
      requests.push(params)
      const page = servePage(all, params)
      return page instanceof NodeError ? Effect.fail(page) : Effect.succeed(page)
    })
  return { fetch, requests }
}
