import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
world.advance(30)
const node = nodeOf(world)
const path = "/api/v2/ledgerentry/history"

type Query = Parameters<typeof call>[2]
const entries = (query: Query = {}, n = node) => decoded(DataNode.ListLedgerEntriesResponse, call(n, path, query))

const party = world.catalog.parties[4].id
const from = { "filter.fromAccountFilter.partyIds": [party] }
const either = { ...from, "filter.toAccountFilter.partyIds": [party] }

const all = (query: Query, n = node, size = 37) =>
  walk((after) => {
    const page = entries(
      { "pagination.first": size, ...query, ...(after === undefined ? {} : { "pagination.after": after }) },
      n
    )
    return {
      nodes: page.ledgerEntries.edges,
      next: page.ledgerEntries.pageInfo.hasNextPage,
      end: page.ledgerEntries.pageInfo.endCursor
    }
  })

/** The world's own rows of the party, as the route should see them. */
const rowsOf = (test: (fromParty: string, toParty: string) => boolean) =>
  world.accounts.ledger.filter((r) => test(r.from.owner, r.to.owner))

const MARGIN_LOW = "TRANSFER_TYPE_MARGIN_LOW" // as the gateway parses it
const MAKER_FEE_RECEIVE = "TRANSFER_TYPE_MAKER_FEE_RECEIVE" // as the gateway parses it
const GENERAL = "ACCOUNT_TYPE_GENERAL" // as the gateway parses it

describe("GET /api/v2/ledgerentry/history", () => {
  it("lists a party's entries once, newest first, each at its own time", () => {
    const edges = all(either)
    expect(edges.length).toBe(rowsOf((f, t) => f === party || t === party).length)
    const times = edges.map((e) => e.node.timestamp)
    for (let i = 1; i < times.length; i++) expect(times[i] < times[i - 1]).toBe(true)
    // block time plus the entry's index in the block, in microseconds
    expect(times.every((t) => t % 1000n === 0n)).toBe(true)
    expect(cursorJson(edges[0].cursor)).toMatch(/^\{"vega_time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z"\}$/)
    const row = world.accounts.ledger.find((r) => r.from.owner === party || r.to.owner === party)!
    expect(times[times.length - 1] / 1000n - BigInt(row.vt)).toBe(
      BigInt(world.accounts.ledger.filter((r) => r.height === row.height && r.seq < row.seq).length)
    )
  })

  it("pages backwards and oldest first to the same entries", () => {
    const forward = all(either).map((e) => e.node.timestamp)
    const backward: Array<bigint> = []
    let before: string | undefined
    for (;;) {
      const page = entries({
        ...either,
        "pagination.last": 23,
        ...(before === undefined ? {} : { "pagination.before": before })
      })
      backward.unshift(...page.ledgerEntries.edges.map((e) => e.node.timestamp))
      if (!page.ledgerEntries.pageInfo.hasPreviousPage) break
      before = page.ledgerEntries.pageInfo.startCursor
    }
    expect(backward).toEqual(forward)
    expect(all({ ...either, "pagination.newestFirst": false }).map((e) => e.node.timestamp)).toEqual(
      [...forward].reverse()
    )
  })

  it("ORs the from and to filters, or ANDs them when closed", () => {
    expect(all(from).length).toBe(rowsOf((f) => f === party).length)
    const general = { "filter.toAccountFilter.accountTypes": [GENERAL] }
    const open = all({ ...from, ...general }).map((e) => e.node)
    const closed = all({ ...from, ...general, "filter.closeOnAccountFilters": true }).map((e) => e.node)
    expect(closed.every((e) => e.fromAccountPartyId === party && e.toAccountType === "ACCOUNT_TYPE_GENERAL")).toBe(true)
    expect(open.every((e) => e.fromAccountPartyId === party || e.toAccountType === "ACCOUNT_TYPE_GENERAL")).toBe(true)
    expect(open.length).toBe(
      rowsOf(() => true).filter((r) => r.from.owner === party || r.to.type === "ACCOUNT_TYPE_GENERAL").length
    )
    expect(closed.length).toBeLessThan(open.length)
  })

  it("filters by transfer type", () => {
    const typed = all({ ...either, "filter.transferTypes": [MARGIN_LOW, MAKER_FEE_RECEIVE] }).map((e) => e.node)
    expect(typed.length).toBe(
      rowsOf((f, t) => f === party || t === party).filter(
        (r) => r.type === "TRANSFER_TYPE_MARGIN_LOW" || r.type === "TRANSFER_TYPE_MAKER_FEE_RECEIVE"
      ).length
    )
    expect(typed.length).toBeGreaterThan(0)
  })

  it("needs exactly one party, and ids that decode", () => {
    const none = call(node, path, { "filter.fromAccountFilter.accountTypes": [GENERAL] })
    expect(none.status).toBe(400)
    expect(none.body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10029,"message":"invalid filter","inner":"invalid filters: filtering ledger entries should be limited to a single party"}]}'
    )
    const two = call(node, path, { "filter.toAccountFilter.partyIds": [party, world.catalog.parties[5].id] })
    expect(JSON.parse(two.body).details[0].code).toBe(10029)
    const bad = call(node, path, { "filter.fromAccountFilter.partyIds": ["xyz"] })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).details[0]).toMatchObject({
      code: 260001,
      message: "failed to query ledger entries",
      inner:
        "invalid filters: invalid fromAccount filters: invalid party id: decoding 'xyz': not a valid hex id (or well known exception)"
    })
  })

  it("keeps to a window of at most 5 days, cut to whole seconds", () => {
    const edges = all(either)
    const newest = edges[0].node.timestamp
    const second = (newest / 1_000_000_000n) * 1_000_000_000n
    // a start inside the newest entry's second still finds it (the bound is cut to the second)
    expect(all({ ...either, "dateRange.startTimestamp": newest - 1n }).length).toBe(
      edges.filter((e) => e.node.timestamp >= second).length
    )
    // a range that ends before the newest entry's second excludes it
    const ended = all({ ...either, "dateRange.endTimestamp": second })
    expect(ended.length).toBe(edges.filter((e) => e.node.timestamp < second).length)
    // a start more than 5 days before ends 5 days after it
    const early = BigInt(world.chain.blockTime(1)) * 1000n - 6n * 86_400n * 1_000_000_000n
    expect(all({ ...either, "dateRange.startTimestamp": early })).toEqual([])
  })

  it("shows a lagging node only the entries of blocks it has", () => {
    const fresh = smallWorld()
    const height = fresh.height
    fresh.advance(8)
    // a party with entries in the new blocks
    const mover = fresh.accounts.ledger.find((r) => r.height > height && r.from.owner !== "network")!.from.owner
    const query = { "filter.fromAccountFilter.partyIds": [mover], "filter.toAccountFilter.partyIds": [mover] }
    const expected = fresh.accounts.ledger.filter(
      (r) => r.height <= height && (r.from.owner === mover || r.to.owner === mover)
    )
    const lagging = all(query, nodeOf(fresh, { height }))
    expect(lagging.length).toBe(expected.length)
    expect(all(query, nodeOf(fresh)).length).toBeGreaterThan(lagging.length)
  })
})
