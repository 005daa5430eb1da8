import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)
const market = world.catalog.markets[1]

type Query = Parameters<typeof call>[2]

const successors = (marketId: string, query: Query = {}) =>
  call(node, "/api/v2/successor_markets/{marketId}", query, { marketId })
const list = (marketId: string, query: Query = {}) =>
  decoded(DataNode.ListSuccessorMarketsResponse, successors(marketId, query)).successorMarkets

describe("ListSuccessorMarkets", () => {
  it("answers a market without parent or successor alone, as GetMarket writes it", () => {
    const page = list(market.id.toUpperCase(), { includeFullHistory: true })
    expect(page.edges.length).toBe(1)
    const own = JSON.parse(call(node, "/api/v2/market/{marketId}", {}, { marketId: market.id }).body).market
    expect(JSON.parse(successors(market.id).body).successorMarkets.edges[0].node).toEqual({
      market: own,
      proposals: []
    })
    // the edge carries the market's own cursor
    expect(JSON.parse(cursorJson(page.edges[0].cursor))).toEqual({
      vegaTime: expect.stringMatching(/Z$/),
      id: market.id
    })
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false })
    expect(page.pageInfo.startCursor).toBe(page.edges[0].cursor)
  })

  it("answers the market again, with an empty page info, when the page is empty", () => {
    const cursor = list(market.id).edges[0].cursor
    const after = list(market.id, { "pagination.first": 5, "pagination.after": cursor })
    expect(after.edges.map((e) => e.node.market?.id)).toEqual([market.id])
    expect(after.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: "", endCursor: "" })
  })

  it("refuses bad ids, unknown markets, bad pagination and bad cursors as the node does", () => {
    const invalid = successors("xyz")
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.body).details[0].message).toBe("invalid market ID")
    const unknown = successors("cd".repeat(32))
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({
      code: 30005,
      message: "failed to get all markets paged",
      inner: "no resource corresponding to this id"
    })
    expect(successors(market.id, { "pagination.first": 0 }).status).toBe(400)
    const cursor = successors(market.id, { "pagination.after": Buffer.from("[]").toString("base64") })
    expect(cursor.status).toBe(500)
    expect(JSON.parse(cursor.body).details[0].inner).toMatch(/^parsing cursor: parsing cursor: json: cannot unmarshal/)
  })
})
