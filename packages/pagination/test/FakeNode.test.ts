import { describe, expect, it } from "@effect/vitest"
import { cursorOf, NodeError, rows, servePage } from "./FakeNode.js"

// The fake node must follow the node's table (datanode-api-facts §2.3), or the paging tests prove nothing.
describe("FakeNode", () => {
  const all = rows(10)
  const seqs = (page: ReturnType<typeof servePage>) =>
    page instanceof NodeError ? page : page.items.map((i) => i.node.seq)

  it("forward without cursor: newest first by default, flags per the table", () => {
    const page = servePage(all, { first: 3, newestFirst: true })
    expect(seqs(page)).toEqual([10, 9, 8])
    expect(page).toMatchObject({ hasNextPage: true, hasPreviousPage: false, endCursor: cursorOf(all[7]) })
    expect(servePage(all, { first: 10, newestFirst: false })).toMatchObject({ hasNextPage: false })
  })

  it("forward with cursor drops the cursor row and reports both flags", () => {
    const page = servePage(all, { first: 3, after: cursorOf(all[7]), newestFirst: true })
    expect(seqs(page)).toEqual([7, 6, 5])
    expect(page).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const tail = servePage(all, { first: 3, after: cursorOf(all[1]), newestFirst: true })
    expect(seqs(tail)).toEqual([1])
    expect(tail).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
  })

  it("backward pages come back in display order", () => {
    const page = servePage(all, { last: 3, newestFirst: true })
    expect(seqs(page)).toEqual([3, 2, 1])
    expect(page).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: cursorOf(all[2]) })
    const next = servePage(all, { last: 3, before: cursorOf(all[2]), newestFirst: true })
    expect(seqs(next)).toEqual([6, 5, 4])
    expect(next).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const oldestFirst = servePage(all, { last: 4, before: cursorOf(all[3]), newestFirst: false })
    expect(seqs(oldestFirst)).toEqual([1, 2, 3])
    expect(oldestFirst).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
  })

  it("rejects what the node rejects", () => {
    expect(servePage(all, { first: 0, newestFirst: true })).toBeInstanceOf(NodeError)
    expect(servePage(all, { first: 5001, newestFirst: true })).toBeInstanceOf(NodeError)
    expect(servePage(all, { first: 1, after: "", newestFirst: true })).toBeInstanceOf(NodeError)
    expect(servePage(all, { first: 1, after: "x", before: "y", newestFirst: true })).toBeInstanceOf(NodeError)
  })
})
