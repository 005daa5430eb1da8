import { describe, expect, it } from "@effect/vitest"
import { decodeBase64 } from "../src/internal/goJson.js"
import {
  atOrBeyond,
  isDescending,
  page,
  pageInOrder,
  type PageRequest,
  resolve,
  type Source
} from "../src/internal/paging.js"

// ten rows, 1..10 in base (ascending) order; newest first shows 10, 9, ..., 1
const rows = Array.from({ length: 10 }, (_, i) => i + 1)
const source: Source<number, number> = {
  size: rows.length,
  at: (i) => rows[i],
  include: () => true,
  compare: (row, key) => row - key,
  cursorOf: (row) => `{"n":${row}}`
}

const run = (request: { forward: boolean; limit: number; cursor?: number; newestFirst?: boolean }) => {
  const pageRequest: PageRequest = {
    forward: request.forward,
    limit: request.limit,
    cursor: request.cursor === undefined ? undefined : `{"n":${request.cursor}}`,
    newestFirst: request.newestFirst ?? true
  }
  const result = page(source, pageRequest, request.cursor)
  return [result.rows, result.hasNextPage, result.hasPreviousPage]
}

describe("page: every row of the node's PageEntities table", () => {
  it("forward, no cursor", () => {
    expect(run({ forward: true, limit: 3 })).toEqual([[10, 9, 8], true, false]) // n = L+1
    expect(run({ forward: true, limit: 20 })).toEqual([[10, 9, 8, 7, 6, 5, 4, 3, 2, 1], false, false]) // n <= L
  })

  it("forward, cursor", () => {
    expect(run({ forward: true, limit: 3, cursor: 8 })).toEqual([[7, 6, 5], true, true]) // n = L+2
    expect(run({ forward: true, limit: 3, cursor: 4 })).toEqual([[3, 2, 1], false, true]) // n = L+1
    expect(run({ forward: true, limit: 5, cursor: 3 })).toEqual([[2, 1], false, true]) // n <= L, cursor row
    expect(run({ forward: true, limit: 5, cursor: 3.5 })).toEqual([[3, 2, 1], false, false]) // n <= L, not the cursor row
  })

  it("backward, no cursor", () => {
    expect(run({ forward: false, limit: 3 })).toEqual([[3, 2, 1], false, true]) // n = L+1
    expect(run({ forward: false, limit: 20 })).toEqual([[10, 9, 8, 7, 6, 5, 4, 3, 2, 1], false, false]) // n <= L
  })

  it("backward, cursor", () => {
    expect(run({ forward: false, limit: 3, cursor: 5 })).toEqual([[8, 7, 6], true, true]) // n = L+2
    expect(run({ forward: false, limit: 3, cursor: 7 })).toEqual([[10, 9, 8], true, false]) // n = L+1
    expect(run({ forward: false, limit: 5, cursor: 8 })).toEqual([[10, 9], true, false]) // n <= L, cursor row
    expect(run({ forward: false, limit: 5, cursor: 8.5 })).toEqual([[10, 9], false, false]) // n <= L, not the cursor row
  })

  it("oldest first flips the order in both directions", () => {
    expect(run({ forward: true, limit: 3, newestFirst: false })).toEqual([[1, 2, 3], true, false])
    expect(run({ forward: true, limit: 3, cursor: 3, newestFirst: false })).toEqual([[4, 5, 6], true, true])
    expect(run({ forward: false, limit: 3, newestFirst: false })).toEqual([[8, 9, 10], false, true])
    expect(run({ forward: false, limit: 3, cursor: 8, newestFirst: false })).toEqual([[5, 6, 7], true, true])
  })

  it("reproduces the skip of a real row when the cursor matches no row and the page is full", () => {
    // 7.5 is no row: SQL reads 7, 6, 5, 4 and the node drops 7 assuming it is the cursor row
    expect(run({ forward: true, limit: 2, cursor: 7.5 })).toEqual([[6, 5], true, true])
  })

  it("walks every row exactly once, forwards and backwards", () => {
    for (const newestFirst of [true, false]) {
      for (const limit of [1, 3, 4, 10]) {
        const seen: Array<number> = []
        let cursor: number | undefined
        for (;;) {
          const [items, next] = run({
            forward: true,
            limit,
            ...(cursor === undefined ? {} : { cursor }),
            newestFirst
          }) as [Array<number>, boolean]
          seen.push(...items)
          if (!next) break
          cursor = items[items.length - 1]
        }
        expect(seen).toEqual(newestFirst ? [...rows].reverse() : rows)
        const back: Array<number> = []
        cursor = undefined
        for (;;) {
          const [items, , previous] = run({
            forward: false,
            limit,
            ...(cursor === undefined ? {} : { cursor }),
            newestFirst
          }) as [Array<number>, boolean, boolean]
          back.unshift(...items)
          if (!previous) break
          cursor = items[0]
        }
        expect(back).toEqual(newestFirst ? [...rows].reverse() : rows)
      }
    }
  })
})

describe("pageInOrder: rows in an order of the query's own", () => {
  // a view that lists the rows odd first, then even, while the cursor compares them by number
  const view = [9, 7, 5, 3, 1, 10, 8, 6, 4, 2]
  const cursorOf = (row: number) => `{"n":${row}}`
  const run = (limit: number, cursor?: number) => {
    const request: PageRequest = {
      forward: true,
      limit,
      cursor: cursor === undefined ? undefined : cursorOf(cursor),
      newestFirst: true
    }
    const descending = isDescending(request)
    const rows = cursor === undefined ? view : view.filter((row) => atOrBeyond(row - cursor, descending))
    const result = pageInOrder(rows, request, cursor !== undefined, cursorOf)
    return [result.rows, result.hasNextPage, result.hasPreviousPage]
  }

  it("takes the SQL limit in the view's order, then the node's PageEntities", () => {
    expect(run(3)).toEqual([[9, 7, 5], true, false])
    // the predicate keeps 5 and below; the first row read is taken to be the cursor row
    expect(run(3, 5)).toEqual([[3, 1, 4], true, true])
    expect(run(20, 1)).toEqual([[], false, true])
    // the cursor row comes second in the view's order, so it is not dropped
    expect(run(20, 2)).toEqual([[1, 2], false, false])
  })

  it("is at or beyond the cursor in the direction read", () => {
    expect([atOrBeyond(-1, true), atOrBeyond(0, true), atOrBeyond(1, true)]).toEqual([true, true, false])
    expect([atOrBeyond(-1, false), atOrBeyond(0, false), atOrBeyond(1, false)]).toEqual([false, true, true])
  })
})

describe("resolve: the node's pagination rules", () => {
  const b64 = (s: string) => Buffer.from(s).toString("base64")

  it("defaults to a forward page of 1000, newest first", () => {
    expect(resolve({})).toEqual({ forward: true, limit: 1000, cursor: undefined, newestFirst: true })
    expect(resolve({ newestFirst: false })).toEqual({
      forward: true,
      limit: 1000,
      cursor: undefined,
      newestFirst: false
    })
  })

  it("rejects before together with after, before anything else", () => {
    expect(resolve({ first: 0, after: "", before: "x" })).toEqual({
      error: "cannot set both a before and after cursor"
    })
  })

  it("lets first win over last, and ignores before then", () => {
    expect(resolve({ first: 5, last: 7, before: b64("{}") })).toEqual({
      forward: true,
      limit: 5,
      cursor: undefined,
      newestFirst: true
    })
    expect(resolve({ last: 7, after: b64("{}") })).toEqual({
      forward: false,
      limit: 7,
      cursor: undefined,
      newestFirst: true
    })
  })

  it("uses the default size with a cursor alone", () => {
    expect(resolve({ after: b64('{"a":1}') })).toEqual({
      forward: true,
      limit: 1000,
      cursor: '{"a":1}',
      newestFirst: true
    })
    expect(resolve({ before: b64('{"a":1}') })).toEqual({
      forward: false,
      limit: 1000,
      cursor: '{"a":1}',
      newestFirst: true
    })
  })

  it("checks the limit, rejecting 0 too", () => {
    for (const first of [0, -1, 5001]) {
      expect(resolve({ first })).toEqual({ error: "pagination limit must be in range 0-5000" })
    }
    expect(resolve({ last: 5000 })).toMatchObject({ limit: 5000 })
  })

  it("decodes cursors strictly, with the node's wording", () => {
    expect(resolve({ first: 1, after: "" })).toEqual({ error: "failed to decode after cursor: cursor is empty" })
    expect(resolve({ last: 1, before: "abc" })).toEqual({
      error: "failed to decode before cursor: failed to decode cursor: illegal base64 data at input byte 0"
    })
    expect(resolve({ first: 1, after: "ab$d" })).toEqual({
      error: "failed to decode after cursor: failed to decode cursor: illegal base64 data at input byte 2"
    })
  })
})

describe("decodeBase64 (Go's StdEncoding)", () => {
  it("decodes padded base64", () => {
    expect(decodeBase64("eyJhIjoxfQ==")).toEqual({ text: '{"a":1}' })
    expect(decodeBase64("")).toEqual({ text: "" })
    expect(decodeBase64("YWJj\nZA==")).toEqual({ text: "abcd" })
  })

  it("reports the first illegal byte as Go does", () => {
    expect(decodeBase64("abc")).toEqual({ error: "illegal base64 data at input byte 0" })
    expect(decodeBase64("YWJjZA")).toEqual({ error: "illegal base64 data at input byte 4" })
    // Go reports the byte before the missing second "="
    expect(decodeBase64("YW=j")).toEqual({ error: "illegal base64 data at input byte 2" })
    expect(decodeBase64("=AAA")).toEqual({ error: "illegal base64 data at input byte 0" })
    expect(decodeBase64("YWJjZA==YQ==")).toEqual({ error: "illegal base64 data at input byte 8" })
    expect(decodeBase64("YW-j")).toEqual({ error: "illegal base64 data at input byte 2" })
  })
})
