import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { joinParty } from "../src/internal/world/catalog.js"
import { compareStrings } from "../src/internal/world/versioned.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld({ scale: { parties: 12 } })
// a party first seen in a transaction two blocks before the world's height
const joiner = "ab".repeat(32)
const joinedAt = world.height - 2
world.profiles.join(joinParty(world.catalog, joiner), joinedAt)

type Query = Parameters<typeof call>[2]

const list = (query: Query = {}, node = nodeOf(world)) =>
  decoded(DataNode.ListPartiesResponse, call(node, "/api/v2/parties", query)).parties
const ids = (connection: ReturnType<typeof list>) => connection.edges.map((e) => e.node.id)
const get = (partyId: string, node = nodeOf(world)) => call(node, "/api/v2/party/{partyId}", {}, { partyId })

const generated = world.catalog.parties
  .slice(1)
  .map((p) => p.id)
  .sort(compareStrings)

describe("ListParties", () => {
  it("orders by first-seen time then id, the network party (no time) last going up", () => {
    const up = list({ "pagination.newestFirst": false })
    expect(ids(up)).toEqual([...generated, joiner, "network"])
    expect(up.edges.every((e) => e.node.alias === "" && e.node.metadata.length === 0)).toBe(true)
    // newest first: the network party's NULL time sorts first
    expect(ids(list())).toEqual(["network", joiner, ...[...generated].reverse()])
    // a node behind the party's first block does not know it
    expect(ids(list({}, nodeOf(world, { height: joinedAt - 1 })))).not.toContain(joiner)
  })

  it("writes the whole entity as cursor; no cursor predicate keeps the network party", () => {
    const first = list({ "pagination.first": 2 })
    expect(ids(first)).toEqual(["network", joiner])
    expect(cursorJson(first.edges[0].cursor)).toBe('{"ID":"network","TxHash":"01","VegaTime":null}')
    expect(cursorJson(first.edges[1].cursor)).toMatch(
      new RegExp(`^\\{"ID":"${joiner}","TxHash":"[0-9a-f]{64}","VegaTime":"\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z"\\}$`)
    )
    // after the network party's cursor: nothing (vega_time compared with NULL)
    const afterNetwork = list({ "pagination.first": 2, "pagination.after": first.edges[0].cursor })
    expect(afterNetwork.edges).toEqual([])
    expect(afterNetwork.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false })
    // walking up from the start: the network party is only on a first page that reaches it
    const up = walk((after) => {
      const page = list({
        "pagination.first": 3,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: ids(page), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(up).toEqual([...generated, joiner])
    const up3 = list({ "pagination.first": 6, "pagination.newestFirst": false })
    const back = list({
      "pagination.last": 2,
      "pagination.before": up3.edges[5].cursor,
      "pagination.newestFirst": false
    })
    expect(ids(back)).toEqual(generated.slice(3, 5))
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    // newer than the joiner, newest first: only the network party, which the predicate drops
    expect(list({ "pagination.last": 2, "pagination.before": first.edges[1].cursor }).edges).toEqual([])
  })

  it("filters by party id (bytes, any case), ignoring the pagination", () => {
    const one = list({ partyId: generated[3].toUpperCase(), "pagination.first": 5 })
    expect(ids(one)).toEqual([generated[3]])
    expect(one.pageInfo.startCursor).toBe(one.edges[0].cursor)
    expect(one.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false })
    expect(ids(list({ partyId: "03" }))).toEqual(["network"])
    const unknown = call(nodeOf(world), "/api/v2/parties", { partyId: "cd".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({
      code: 50001,
      message: "failed to get parties",
      inner: "no resource corresponding to this id"
    })
    const notHex = call(nodeOf(world), "/api/v2/parties", { partyId: "xyz" })
    expect(notHex.status).toBe(400)
    expect(JSON.parse(notHex.body).details[0].inner).toBe("not a valid hex id (or well known exception)")
    const badCursor = call(nodeOf(world), "/api/v2/parties", {
      "pagination.after": Buffer.from('{"ID":"xyz"}').toString("base64")
    })
    expect(badCursor.status).toBe(400)
    expect(call(nodeOf(world), "/api/v2/parties", { "pagination.first": 0 }).status).toBe(400)
  })
})

describe("GetParty", () => {
  it("answers the party by id, with its id only", () => {
    const party = decoded(DataNode.GetPartyResponse, get(generated[0].toUpperCase())).party!
    expect(party).toEqual({ id: generated[0], alias: "", metadata: [] })
    expect(get("network").body).toBe('{"party":{"id":"network","alias":"","metadata":[]}}')
  })

  it("refuses ids that are not ids and does not know unknown parties", () => {
    const invalid = get("abc")
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.body).details[0].message).toBe("invalid party id")
    const unknown = get("cd".repeat(32))
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({ code: 50002, message: "failed to get party for ID" })
    expect(get(joiner, nodeOf(world, { height: joinedAt - 1 })).status).toBe(404)
  })
})
