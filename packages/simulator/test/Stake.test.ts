import { describe, expect, it } from "@effect/vitest"
import { StakeLinking } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)
const path = "/api/v2/parties/{partyId}/stake"
// the party with the most linkings
const [partyId] = [...world.stakeLinkings.byParty.entries()].sort((a, b) => b[1].length - a[1].length)[0]
const stake = (query: Parameters<typeof call>[2] = {}, party = partyId) =>
  decoded(StakeLinking.GetStakeResponse, call(node, path, query, { partyId: party }))

describe("GET /api/v2/parties/{partyId}/stake", () => {
  it("sums accepted links minus accepted unlinks over all pages", () => {
    const all = walk((after) => {
      const page = stake({ "pagination.first": 7, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.stakeLinkings.edges.map((e) => e.node),
        next: page.stakeLinkings.pageInfo.hasNextPage,
        end: page.stakeLinkings.pageInfo.endCursor
      }
    })
    const expected = all
      .filter((l) => l.status === "STATUS_ACCEPTED")
      .reduce((sum, l) => sum + (l.type === "TYPE_LINK" ? l.amount : -l.amount), 0n)
    expect(stake({ "pagination.first": 1 }).currentStakeAvailable).toBe(expected)
    expect(all.length).toBe(world.stakeLinkings.byParty.get(partyId)!.filter((r) => r.to === Infinity).length)
  })

  it("writes realistic rows: seconds for Ethereum times, nanoseconds for Vega, EIP-55 addresses", () => {
    const rows = stake().stakeLinkings.edges.map((e) => e.node)
    for (const row of rows) {
      expect(row.ts).toBe(row.blockTime)
      expect(row.ts < 10_000_000_000n).toBe(true)
      expect(row.amount % 1_000_000_000_000_000n).toBe(0n)
      expect(row.ethereumAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(row.ethereumAddress).not.toBe(row.ethereumAddress.toLowerCase())
      if (row.status === "STATUS_PENDING") expect(row.finalizedAt).toBe(0n)
      else expect(row.finalizedAt % 1000n).toBe(0n)
    }
  })

  it("orders by vega_time then id, newest first, with the node's cursor", () => {
    const edges = stake({ "pagination.first": 3 }).stakeLinkings.edges
    const cursors = edges.map((e) => JSON.parse(cursorJson(e.cursor)) as { vegaTime: string; id: string })
    expect(Object.keys(cursors[0])).toEqual(["vegaTime", "id"])
    for (let i = 1; i < cursors.length; i++) {
      const [a, b] = [cursors[i - 1], cursors[i]]
      expect(a.vegaTime > b.vegaTime || (a.vegaTime === b.vegaTime && a.id > b.id)).toBe(true)
    }
  })

  it("answers 0 and no edges for a party without stake, and accepts the network party", () => {
    const unknown = "ab".repeat(32)
    expect(stake({}, unknown)).toEqual({
      currentStakeAvailable: 0n,
      stakeLinkings: {
        edges: [],
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: "", endCursor: "" }
      }
    })
    expect(call(node, path, {}, { partyId: "network" }).status).toBe(200)
    expect(call(node, path, {}, { partyId: partyId.toUpperCase() }).body).toBe(call(node, path, {}, { partyId }).body)
  })

  it("validates the party id first, then pagination", () => {
    expect(call(node, path, { "pagination.first": 0 }, { partyId: "" }).body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10014,"message":"missing party id","inner":""}]}'
    )
    expect(call(node, path, { "pagination.first": 0 }, { partyId: "xyz" }).body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":""}]}'
    )
    const reply = call(
      node,
      path,
      { "pagination.first": 1, "pagination.before": "x", "pagination.after": "y" },
      { partyId }
    )
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0].inner).toBe("cannot set both a before and after cursor")
  })
})
