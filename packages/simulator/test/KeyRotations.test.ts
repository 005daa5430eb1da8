import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const vegaPath = "/api/v2/vega/keys/rotations"
const ethPath = "/api/v2/vega/keys/ethereum/rotations"
const world = smallWorld({ scale: { validators: 6 } })
const node = nodeOf(world)
type Query = Parameters<typeof call>[2]
const vega = (query: Query = {}, at = node) =>
  decoded(DataNode.ListKeyRotationsResponse, call(at, vegaPath, query)).rotations
const eth = (query: Query = {}, at = node) =>
  decoded(DataNode.ListEthereumKeyRotationsResponse, call(at, ethPath, query)).keyRotations

describe("GET /api/v2/vega/keys/rotations", () => {
  it("lists rotations newest first, each validator's chain ending at the key its node shows", () => {
    const edges = vega().edges
    expect(edges.length).toBe(world.keyRotations.vega.length)
    expect(edges.length).toBeGreaterThan(3)
    const heights = edges.map((e) => Number(e.node.blockHeight))
    expect(heights).toEqual([...heights].sort((a, b) => b - a))
    expect(Object.keys(JSON.parse(cursorJson(edges[0].cursor)))).toEqual([
      "vega_time",
      "node_id",
      "old_pub_key",
      "new_pub_key"
    ])
    const nodes = JSON.parse(call(node, "/api/v2/nodes", {}).body).nodes.edges.map((e: any) => e.node)
    for (const n of nodes) {
      const own = edges.filter((e) => e.node.nodeId === n.id).reverse()
      if (own.length === 0) continue
      expect(own.at(-1)!.node.newPubKey).toBe(n.pubKey)
      for (let i = 1; i < own.length; i++) expect(own[i].node.oldPubKey).toBe(own[i - 1].node.newPubKey)
    }
  })

  it("pages over all rotations and over one node's, both ways", () => {
    const all = vega({ "pagination.newestFirst": false }).edges.map((e) => e.cursor)
    const forward = walk((after) => {
      const p = vega({
        "pagination.first": 2,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: p.edges.map((e) => e.cursor), next: p.pageInfo.hasNextPage, end: p.pageInfo.endCursor }
    })
    expect(forward).toEqual(all)
    const last = vega({ "pagination.last": 2, "pagination.newestFirst": false })
    expect(last.edges.map((e) => e.cursor)).toEqual(all.slice(-2))
    // the store compares the keys' bytes: a cursor written in upper case reads the same
    const upper = JSON.parse(cursorJson(all[1]))
    upper.old_pub_key = upper.old_pub_key.toUpperCase()
    upper.node_id = upper.node_id.toUpperCase()
    const after = Buffer.from(JSON.stringify(upper)).toString("base64")
    expect(
      vega({ "pagination.first": 2, "pagination.newestFirst": false, "pagination.after": after }).edges.map(
        (e) => e.cursor
      )
    ).toEqual(all.slice(2, 4))
    const rotating = world.keyRotations.vega.find(
      (r) => world.keyRotations.vega.filter((s) => s.validator === r.validator).length >= 2
    )!
    const nodeId = rotating.validator.nodeId
    const own = vega({ nodeId, "pagination.newestFirst": false }).edges
    const count = world.keyRotations.vega.filter((r) => r.validator.nodeId === nodeId).length
    expect(own.length).toBe(count)
    const second = vega({
      nodeId,
      "pagination.newestFirst": false,
      "pagination.first": 1,
      "pagination.after": own[0].cursor
    })
    expect(second.edges.map((e) => e.cursor)).toEqual([own[1].cursor])
    expect(second.pageInfo).toMatchObject({ hasNextPage: count > 2, hasPreviousPage: true })
    const first = vega({
      nodeId,
      "pagination.newestFirst": false,
      "pagination.last": 1,
      "pagination.before": own[1].cursor
    })
    expect(first.edges.map((e) => e.cursor)).toEqual([own[0].cursor])
    // newest first by default
    expect(vega({ nodeId }).edges.map((e) => e.cursor)).toEqual(own.map((e) => e.cursor).reverse())
  })

  it("a lagging node sees only the rotations written by its height", () => {
    const mid = world.keyRotations.vega[Math.floor(world.keyRotations.vega.length / 2)]
    const lagging = nodeOf(world, { height: mid.from - 1 })
    expect(vega({}, lagging).edges.length).toBe(world.keyRotations.vega.filter((r) => r.from < mid.from).length)
  })

  it("words its errors as the node does", () => {
    expect(call(node, vegaPath, { nodeId: "xyz" }).body).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":340001,"message":"failed to get key rotations for node","inner":"nodeID: xyz: failed to retrieve key rotations: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"}]}`
    )
    const badCursor = Buffer.from('{"vega_time":1}').toString("base64")
    const all = call(node, vegaPath, { "pagination.after": badCursor })
    expect(all.status).toBe(500)
    expect(JSON.parse(all.body).details[0]).toMatchObject({ code: 340002, message: "failed to get all key rotations" })
    const one = JSON.parse(call(node, vegaPath, { nodeId: "ab", "pagination.after": badCursor }).body).details[0]
    expect(one.code).toBe(340001)
    expect(one.inner).toMatch(/^nodeID: ab: could not parse key rotation cursor: /)
    expect(JSON.parse(call(node, vegaPath, { "pagination.first": 0 }).body).details[0].code).toBe(10028)
  })
})

describe("GET /api/v2/vega/keys/ethereum/rotations", () => {
  it("lists Ethereum rotations ending at each validator's address, filtered by node", () => {
    const edges = eth().edges
    expect(edges.length).toBe(world.keyRotations.ethereum.length)
    expect(Object.keys(JSON.parse(cursorJson(edges[0].cursor)))).toEqual([
      "vegaTime",
      "nodeID",
      "oldAddress",
      "newAddress"
    ])
    for (const v of world.catalog.validators) {
      const own = eth({ nodeId: v.nodeId.toUpperCase(), "pagination.newestFirst": false }).edges
      expect(own.every((e) => e.node.nodeId === v.nodeId)).toBe(true)
      if (own.length > 0) expect(own.at(-1)!.node.newAddress).toBe(v.ethereumAddress)
      expect(own.every((e) => /^0x[0-9a-f]{40}$/.test(e.node.oldAddress))).toBe(true)
    }
    const all = eth({ "pagination.newestFirst": false }).edges.map((e) => e.cursor)
    const paged = walk((after) => {
      const p = eth({
        "pagination.first": 3,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: p.edges.map((e) => e.cursor), next: p.pageInfo.hasNextPage, end: p.pageInfo.endCursor }
    })
    expect(paged).toEqual(all)
  })

  it("words its errors as the node does", () => {
    expect(JSON.parse(call(node, ethPath, { nodeId: "q" }).body).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 350001,
      message: "failed to get ethereum key rotations for node",
      inner: "nodeID: q: scany: query multiple result rows: decoding 'q': not a valid hex id (or well known exception)"
    })
    const bad = call(node, ethPath, { "pagination.after": Buffer.from("{").toString("base64") })
    expect(bad.status).toBe(500)
    expect(JSON.parse(bad.body).details[0].inner).toMatch(/^nodeID: : parsing cursor/)
  })
})
