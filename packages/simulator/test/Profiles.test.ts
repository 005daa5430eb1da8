import { describe, expect, it } from "@effect/vitest"
import { PartyProfile } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const path = "/api/v2/parties/profiles"
const world = smallWorld()
const profiles = (query: Parameters<typeof call>[2] = {}, quirks = false) =>
  decoded(PartyProfile.ListPartiesProfilesResponse, call(nodeOf(world, { quirks }), path, query)).profiles

describe("GET /api/v2/parties/profiles", () => {
  it("lists every party the node has seen, by id descending, network as 03", () => {
    const all = profiles({ "pagination.first": 5000 }).edges.map((e) => e.node)
    expect(all.length).toBe(world.catalog.parties.length)
    const keys = all.map((p) => (p.partyId === "network" ? "03" : p.partyId))
    expect(keys).toEqual([...keys].sort().reverse())
    expect(all.find((p) => p.partyId === "network")).toEqual({ partyId: "network", alias: "network", metadata: [] })
    expect(all.some((p) => p.alias === "" && p.metadata.length === 0)).toBe(true)
    expect(all.some((p) => p.metadata.length > 0)).toBe(true)
  })

  it("writes the whole profile as cursor, Metadata null when empty", () => {
    const edges = profiles({ parties: ["network"] }).edges
    expect(cursorJson(edges[0].cursor)).toBe('{"PartyID":"network","Alias":"network","Metadata":null}')
  })

  it("pages with cursors on a correct node; a v0.75 node fails with 500", () => {
    const all = walk((after) => {
      const page = profiles({ "pagination.first": 30, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(all.length).toBe(world.catalog.parties.length)
    const cursor = profiles({ "pagination.first": 1 }).pageInfo.endCursor
    expect(
      call(nodeOf(world, { quirks: true }), path, { "pagination.first": 1, "pagination.after": cursor }).body
    ).toBe(
      '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"failed to get parties\' profiles","inner":"building cursor predicate: no field matching column name id"}]}'
    )
    expect(profiles({ "pagination.first": 2 }, true).edges.length).toBe(2)
  })

  it("filters parties and rejects ids that are not hex", () => {
    const a = world.catalog.parties[5].id
    expect(a > "03").toBe(true)
    expect(profiles({ parties: [a.toUpperCase(), "network"] }).edges.map((e) => e.node.partyId)).toEqual([a, "network"])
    expect(JSON.parse(call(nodeOf(world), path, { parties: ["nope"] }).body).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10000,
      message: "failed to get parties' profiles",
      inner: "invalid party ID found: decoding 'nope': not a valid hex id (or well known exception)"
    })
  })
})
