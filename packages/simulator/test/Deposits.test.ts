import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { receiverAddress } from "../src/internal/api/deposits.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
world.advance(40)
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]

const listDeposits = (query: Query = {}, n = node) =>
  decoded(DataNode.ListDepositsResponse, call(n, "/api/v2/deposits", query)).deposits
const listWithdrawals = (query: Query = {}, n = node) =>
  decoded(DataNode.ListWithdrawalsResponse, call(n, "/api/v2/withdrawals", query)).withdrawals

const allOf = <N>(
  fetch: (query: Query) => {
    edges: ReadonlyArray<{ node: N; cursor: string }>
    pageInfo: { hasNextPage: boolean; endCursor: string }
  },
  query: Query = {}
) =>
  walk((after) => {
    const page = fetch({
      "pagination.first": 53,
      ...query,
      ...(after === undefined ? {} : { "pagination.after": after })
    })
    return { nodes: page.edges, next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

const keyOf = (cursor: string) => {
  const c = JSON.parse(cursorJson(cursor)) as { vegaTime: string; id: string }
  return `${c.vegaTime}/${c.id}`
}

describe("GET /api/v2/deposits", () => {
  it("lists every deposit once, newest first by block time then id, over pages both ways", () => {
    const edges = allOf(listDeposits)
    expect(edges.length).toBe(world.accounts.deposits.length)
    expect(new Set(edges.map((e) => e.node.id)).size).toBe(edges.length)
    const nodes = edges.map((e) => e.node)
    for (let i = 1; i < nodes.length; i++) {
      const [a, b] = [nodes[i - 1], nodes[i]]
      expect(
        a.createdTimestamp > b.createdTimestamp || (a.createdTimestamp === b.createdTimestamp && a.id > b.id)
      ).toBe(true)
    }
    expect(nodes.every((d) => d.status === "STATUS_FINALIZED" && d.creditedTimestamp === d.createdTimestamp)).toBe(true)
    expect(cursorJson(edges[0].cursor)).toMatch(/^\{"vegaTime":"[^"]+","id":"[0-9a-f]{64}"\}$/)
    const backward: Array<string> = []
    let before: string | undefined
    for (;;) {
      const page = listDeposits({
        "pagination.last": 41,
        ...(before === undefined ? {} : { "pagination.before": before })
      })
      backward.unshift(...page.edges.map((e) => keyOf(e.cursor)))
      if (!page.pageInfo.hasPreviousPage) break
      before = page.pageInfo.startCursor
    }
    expect(backward).toEqual(edges.map((e) => keyOf(e.cursor)))
  })

  it("filters by party and date range, and rejects a party id that is not one", () => {
    const party = world.catalog.parties[6].id
    const mine = allOf(listDeposits, { partyId: party.toUpperCase() }).map((e) => e.node)
    expect(mine.length).toBe(world.accounts.deposits.filter((d) => d.party.id === party).length)
    expect(mine.every((d) => d.partyId === party)).toBe(true)
    const latest = world.accounts.deposits[world.accounts.deposits.length - 1]
    const since = allOf(listDeposits, { "dateRange.startTimestamp": BigInt(latest.vt) * 1000n })
    expect(since.length).toBe(world.accounts.deposits.filter((d) => d.vt >= latest.vt).length)
    const reply = call(node, "/api/v2/deposits", { partyId: "xyz" })
    expect(reply.status).toBe(400)
    expect(reply.body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":""}]}'
    )
  })

  it("answers one deposit by id, in any case, and the node's errors otherwise", () => {
    const deposit = world.accounts.deposits[3]
    const one = decoded(
      DataNode.GetDepositResponse,
      call(node, "/api/v2/deposit/{id}", {}, { id: deposit.id.toUpperCase() })
    )
    expect(one.deposit?.id).toBe(deposit.id)
    expect(one.deposit?.amount).toBe(deposit.amount)
    const unknown = call(node, "/api/v2/deposit/{id}", {}, { id: "ab".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toBe(
      '{"code":5,"message":"NotFound error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":210001,"message":"failed to get deposit","inner":"no resource corresponding to this id"}]}'
    )
    const invalid = call(node, "/api/v2/deposit/{id}", {}, { id: "xyz" })
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.body).details[0]).toMatchObject({ code: 10000, message: "not a valid vega id" })
  })
})

describe("GET /api/v2/withdrawals", () => {
  it("lists every withdrawal with its Ethereum side", () => {
    const nodes = allOf(listWithdrawals).map((e) => e.node)
    expect(nodes.length).toBe(world.accounts.withdrawals.length)
    expect(nodes.length).toBeGreaterThan(1)
    for (const w of nodes) {
      const row = world.accounts.withdrawals.find((r) => r.id === w.id)!
      const n = world.accounts.withdrawals.indexOf(row)
      expect(w.status).toBe("STATUS_FINALIZED")
      expect(w.ref).toBe(BigInt(n) + BigInt(Math.floor(row.vt / 1_000_000)))
      expect(w.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(w.withdrawnTimestamp).toBe(w.createdTimestamp)
      expect(w.ext?.erc20?.receiverAddress).toBe(receiverAddress(w.partyId))
    }
    expect(receiverAddress(nodes[0].partyId)).toMatch(/^0x[0-9a-f]{40}$/)
  })

  it("checks the party before the pagination, and answers one by id", () => {
    const reply = call(node, "/api/v2/withdrawals", { partyId: "xyz", "pagination.first": 0 })
    expect(JSON.parse(reply.body).details[0].message).toBe("invalid party id")
    const deposits = call(node, "/api/v2/deposits", { partyId: "xyz", "pagination.first": 0 })
    expect(JSON.parse(deposits.body).details[0].message).toBe("invalid pagination")
    const row = world.accounts.withdrawals[0]
    const one = decoded(DataNode.GetWithdrawalResponse, call(node, "/api/v2/withdrawal/{id}", {}, { id: row.id }))
    expect(one.withdrawal?.amount).toBe(row.amount)
    const invalid = call(node, "/api/v2/withdrawal/{id}", {}, { id: "xyz" })
    expect(JSON.parse(invalid.body).details[0].message).toBe("invalid withdrawal ID")
    const unknown = call(node, "/api/v2/withdrawal/{id}", {}, { id: "ab".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({ code: 150001, message: "failed to get withdrawal" })
  })

  it("shows a lagging node only what its blocks hold", () => {
    const height = world.accounts.withdrawals[world.accounts.withdrawals.length - 1].height - 1
    const lagging = nodeOf(world, { height })
    const seen = allOf((q) => listWithdrawals(q, lagging)).map((e) => e.node.id)
    expect(seen.length).toBe(world.accounts.withdrawals.filter((w) => w.height <= height).length)
    expect(seen.length).toBeLessThan(world.accounts.withdrawals.length)
    const last = world.accounts.withdrawals[world.accounts.withdrawals.length - 1]
    expect(call(lagging, "/api/v2/withdrawal/{id}", {}, { id: last.id }).status).toBe(404)
  })
})
