import { describe, expect, it } from "@effect/vitest"
import { Position } from "@vega-effect/schema"
import { comparePositions } from "../src/internal/world/positions.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)
const path = "/api/v2/positions"
const list = (query: Parameters<typeof call>[2] = {}) =>
  decoded(Position.ListPositionsResponse, call(node, path, query))

const key = (p: Position.Position) => [p.updatedAt, p.partyId === "network" ? "03" : p.partyId, p.marketId] as const
const before = (a: ReturnType<typeof key>, b: ReturnType<typeof key>) =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]

describe("GET /api/v2/positions", () => {
  it("lists every position once, newest first, in pages of any size", () => {
    const all = walk((after) => {
      const page = list({ "pagination.first": 97, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.positions.edges.map((e) => e.node),
        next: page.positions.pageInfo.hasNextPage,
        end: page.positions.pageInfo.endCursor
      }
    })
    expect(all.length).toBe(world.positions.current.size)
    for (let i = 1; i < all.length; i++) expect(before(key(all[i]), key(all[i - 1]))).toBe(true)
  })

  it("defaults to 1000 rows and newestFirst=false reverses the order", () => {
    expect(list().positions.edges.length).toBe(1000)
    const newest = list({ "pagination.first": 5 }).positions.edges.map((e) => e.node)
    const oldest = list({ "pagination.last": 5, "pagination.newestFirst": false }).positions.edges.map((e) => e.node)
    expect(oldest).toEqual([...newest].reverse())
  })

  it("writes the cursor as the node's snake_case struct", () => {
    const edge = list({ "pagination.first": 1 }).positions.edges[0]
    expect(cursorJson(edge.cursor)).toMatch(
      /^\{"vega_time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z","party_id":"([0-9a-f]{64}|network)","market_id":"[0-9a-f]{64}"\}$/
    )
  })

  it("filters by parties and markets, repeated or comma-separated, in any case", () => {
    const party = world.catalog.parties[3].id
    const market = world.catalog.markets[1].id
    const byParty = list({ "filter.partyIds": [party.toUpperCase()] }).positions.edges.map((e) => e.node)
    expect(byParty.length).toBeGreaterThan(0)
    expect(byParty.filter((p) => p.partyId !== party)).toEqual([])
    const two = world.catalog.parties[4].id
    const both = list({ "filter.partyIds": [`${party},${two}`], "filter.marketIds": [market] }).positions.edges
    expect(both.length).toBeGreaterThan(0)
    expect(both.filter((e) => ![party, two].includes(e.node.partyId) || e.node.marketId !== market)).toEqual([])
    const network = list({ "filter.partyIds": ["network"] }).positions.edges
    expect(network.length).toBe(world.catalog.markets.length)
  })

  it("rejects invalid ids, market ids first, with the node's body", () => {
    const reply = call(node, path, { "filter.partyIds": ["nope"], "filter.marketIds": ["bad"] })
    expect(reply.status).toBe(400)
    expect(reply.body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":"one or more market id is invalid"}]}'
    )
    expect(JSON.parse(call(node, path, { "filter.partyIds": ["a,"] }).body).details[0].inner).toBe(
      "one or more party id is invalid"
    )
  })

  it("rejects bad pagination after the ids", () => {
    const reply = call(node, path, { "pagination.first": 0 })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10028,
      message: "invalid pagination",
      inner: "pagination limit must be in range 0-5000"
    })
  })

  it("answers a cursor that is base64 but not the cursor JSON with a 500", () => {
    const reply = call(node, path, { "pagination.first": 1, "pagination.after": Buffer.from("xyz").toString("base64") })
    expect(reply.status).toBe(500)
    expect(JSON.parse(reply.body)).toMatchObject({
      code: 13,
      message: "Internal error",
      details: [
        {
          code: 160001,
          message: "failed to get positions for party",
          inner: "parsing cursor: parsing cursor: invalid character 'x' looking for beginning of value"
        }
      ]
    })
  })

  it("shows a lagging node the positions as they were", () => {
    const fresh = smallWorld()
    const height = fresh.height
    const then = list({ "pagination.first": 50 })
    fresh.advance(5)
    const lagging = decoded(
      Position.ListPositionsResponse,
      call(nodeOf(fresh, { height }), path, { "pagination.first": 50 })
    )
    expect(lagging).toEqual(then)
    const now = decoded(Position.ListPositionsResponse, call(nodeOf(fresh), path, { "pagination.first": 50 }))
    expect(now).not.toEqual(then)
  })
})

describe("position indexes", () => {
  it("keep each party's and market's versions in base order as the world evolves", () => {
    const w = smallWorld({ activity: { positionTrades: 80 } })
    w.advance(40)
    for (const list of [...w.positions.byParty, ...w.positions.byMarket]) {
      if (list === undefined) continue
      for (let i = 1; i < list.length; i++) expect(comparePositions(list[i - 1], list[i])).toBeLessThan(0)
    }
  })
})
