import { describe, expect, it } from "@effect/vitest"
import { DataNode, Epoch } from "@vega-effect/schema"
import { goFloat32 } from "../src/internal/goJson.js"
import { microsToRfc3339 } from "../src/internal/goTime.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]

const listNodes = (query: Query = {}) => decoded(DataNode.ListNodesResponse, call(node, "/api/v2/nodes", query)).nodes
const body = (path: string, query: Query = {}, pathParams: Record<string, string> = {}): any =>
  JSON.parse(call(node, path, query, pathParams).body)
const epochOf = (id?: bigint) =>
  decoded(Epoch.GetEpochResponse, call(node, "/api/v2/epoch", id === undefined ? {} : { id })).epoch

describe("ListNodes", () => {
  it("lists the validators GetEpoch names, by id (descending unless newestFirst is false), with its stake", () => {
    const nodes = listNodes({ "pagination.newestFirst": false }).edges.map((e) => e.node)
    const ids = world.catalog.validators.map((v) => v.nodeId).sort()
    expect(nodes.map((n) => n.id)).toEqual(ids)
    expect(listNodes().edges.map((e) => e.node.id)).toEqual([...ids].reverse())
    const listed = body("/api/v2/nodes", { "pagination.newestFirst": false }).nodes.edges.map((e: any) => e.node)
    expect(listed).toEqual(body("/api/v2/epoch").epoch.validators)
    for (const n of nodes) {
      expect(n.stakedTotal).toBe(n.stakedByOperator + n.stakedByDelegates)
      expect(n.stakedByDelegates > 0n).toBe(true)
      expect(n.rankingScore?.status).toBe("VALIDATOR_NODE_STATUS_TENDERMINT")
    }
  })

  it("answers a past epoch's stake, and 404 for an epoch the node does not have", () => {
    const past = body("/api/v2/nodes", { epochSeq: 2n, "pagination.newestFirst": false }).nodes.edges
    expect(past.map((e: any) => e.node)).toEqual(body("/api/v2/epoch", { id: 2n }).epoch.validators)
    expect(past).not.toEqual(body("/api/v2/nodes", { "pagination.newestFirst": false }).nodes.edges)
    const reply = call(node, "/api/v2/nodes", { epochSeq: BigInt(world.epoch + 1) })
    expect(reply.status).toBe(404)
    expect(JSON.parse(reply.body)).toEqual({
      code: 5,
      message: "NotFound error",
      details: [
        {
          "@type": "type.googleapis.com/vega.ErrorDetail",
          code: 250001,
          message: "failed to get epoch",
          inner: "no resource corresponding to this id"
        }
      ]
    })
    // above the int64 range the node reads the current epoch
    expect(listNodes({ epochSeq: 2n ** 63n })).toEqual(listNodes())
  })

  it('pages by id with the cursor {"id":…}; a bad cursor is 500 failed to get nodes', () => {
    const first = listNodes({ "pagination.first": 2, "pagination.newestFirst": false })
    expect(cursorJson(first.pageInfo.endCursor)).toBe(`{"id":"${first.edges[1].node.id}"}`)
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    const all = walk((after) => {
      const page = listNodes({
        "pagination.first": 2,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: page.edges.map((e) => e.node.id), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(all).toEqual(world.catalog.validators.map((v) => v.nodeId).sort())
    const last = listNodes({ "pagination.last": 2, "pagination.newestFirst": false })
    expect(last.edges.map((e) => e.node.id)).toEqual(all.slice(-2))
    const bad = call(node, "/api/v2/nodes", { "pagination.after": Buffer.from("{").toString("base64") })
    expect(bad.status).toBe(500)
    expect(JSON.parse(bad.body).details[0]).toMatchObject({ code: 110001, message: "failed to get nodes" })
  })
})

describe("GetNode", () => {
  it("answers a node of the current epoch, and 404 for an unknown id", () => {
    const [first] = body("/api/v2/nodes").nodes.edges
    const one = decoded(DataNode.GetNodeResponse, call(node, "/api/v2/node/{id}", {}, { id: first.node.id }))
    expect(one.node?.id).toBe(first.node.id)
    expect(body("/api/v2/node/{id}", {}, { id: first.node.id.toUpperCase() }).node).toEqual(first.node)
    const unknown = call(node, "/api/v2/node/{id}", {}, { id: "ab".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({
      code: 10000,
      message: "no resource corresponding to this id"
    })
  })
})

describe("stake", () => {
  it("a node's delegations add up to its totals, and follow the parties' linked stake", () => {
    for (const seq of [1n, 2n, BigInt(world.epoch)]) {
      const epoch = epochOf(seq)
      for (const v of epoch.validators) {
        const mine = epoch.delegations.filter((d) => d.nodeId === v.id)
        expect(mine).toEqual(v.delegations)
        expect(mine.reduce((sum, d) => sum + d.amount, 0n)).toBe(v.stakedTotal)
        const delegated = mine.filter((d) => d.party !== (v.pubKey as string)).reduce((sum, d) => sum + d.amount, 0n)
        expect(delegated).toBe(v.stakedByDelegates)
      }
      const first = world.chain.epochFirstBlock(Number(seq))
      for (const d of epoch.delegations) {
        if (world.catalog.validators.some((v) => v.pubKey === (d.party as string))) continue
        expect(d.amount).toBe(BigInt(world.stakeLinkings.available(d.party, first)) * 10n ** 15n)
      }
    }
  })
})

const delegations = (query: Query = {}) =>
  decoded(DataNode.ListDelegationsResponse, call(node, "/api/v2/delegations", query)).delegations

describe("ListDelegations", () => {
  it("sums, per node and epoch, to the node's stake of that epoch", () => {
    for (const seq of [1, 3, world.epoch]) {
      const rows = delegations({ epochId: String(seq), "pagination.first": 1000 }).edges.map((e) => e.node)
      const nodes = decoded(DataNode.ListNodesResponse, call(node, "/api/v2/nodes", { epochSeq: BigInt(seq) })).nodes
      for (const { node: n } of nodes.edges) {
        const sum = rows.filter((d) => d.nodeId === n.id).reduce((total, d) => total + d.amount, 0n)
        expect(sum).toBe(n.stakedTotal)
      }
      expect(rows.every((d) => d.epochSeq === BigInt(seq))).toBe(true)
    }
  })

  it("lists every epoch without epochId, filters by party and node, and orders by time, party, node", () => {
    const all = walk((after) => {
      const page = delegations({
        "pagination.first": 50,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(new Set(all.map((d) => d.epochSeq)).size).toBe(world.epoch)
    const keys = all.map((d) => `${String(d.epochSeq).padStart(6, "0")} ${d.party} ${d.nodeId}`)
    expect(keys).toEqual([...keys].sort())
    const newest = delegations({ "pagination.first": 1 })
    expect(newest.edges[0].node).toEqual(all[all.length - 1])
    const party = all.find((d) => !world.catalog.validators.some((v) => v.pubKey === (d.party as string)))!.party
    const mine = delegations({ partyId: party.toUpperCase(), "pagination.first": 1000 }).edges.map((e) => e.node)
    expect(mine.length).toBe(all.filter((d) => d.party === party).length)
    const nodeId = world.catalog.validators[0].nodeId
    const theirs = delegations({ nodeId, epochId: "2", "pagination.first": 1000 }).edges.map((e) => e.node)
    expect(theirs).toEqual(all.filter((d) => d.nodeId === nodeId && d.epochSeq === 2n).reverse())
    const cursor = cursorJson(
      delegations({ "pagination.first": 1, "pagination.newestFirst": false }).pageInfo.endCursor
    )
    const first = all[0]
    expect(cursor).toBe(
      `{"vegaTime":"${microsToRfc3339(world.chain.blockTime(1))}","partyId":"${first.party}","nodeId":"${first.nodeId}","epochId":1}`
    )
  })

  it("reports an epochId that does not parse and an id that is not hex", () => {
    const epoch = call(node, "/api/v2/delegations", { epochId: "x" })
    expect(epoch.status).toBe(400)
    expect(JSON.parse(epoch.body).details[0]).toMatchObject({
      code: 10036,
      message: "failed to parse epoch id",
      inner: 'epochID: x: strconv.ParseInt: parsing "x": invalid syntax'
    })
    const party = call(node, "/api/v2/delegations", { partyId: "zz" })
    expect(party.status).toBe(400)
    expect(JSON.parse(party.body).details[0]).toMatchObject({ code: 130001, message: "failed to get delegation" })
    expect(delegations({ epochId: String(world.epoch + 5) }).edges).toEqual([])
  })
})

describe("GetNetworkData", () => {
  it("totals the current epoch's nodes and the ended epochs' minutes", () => {
    const data = decoded(DataNode.GetNetworkDataResponse, call(node, "/api/v2/network/data")).nodeData!
    const nodes = decoded(DataNode.ListNodesResponse, call(node, "/api/v2/nodes")).nodes.edges
    expect(data.stakedTotal).toBe(nodes.reduce((sum, e) => sum + e.node.stakedTotal, 0n))
    expect(data.totalNodes).toBe(world.catalog.validators.length)
    expect(data.inactiveNodes).toBe(0)
    expect(data.tendermintNodes).toMatchObject({ total: nodes.length, inactive: 0, maximum: 30 })
    expect(data.ersatzNodes).toMatchObject({ total: 0, maximum: 15 })
    const { chain } = world
    let micros = 0
    for (let e = 1; e < world.epoch; e++) {
      micros += chain.blockTime(chain.epochLastBlock(e)) - chain.blockTime(chain.epochFirstBlock(e))
    }
    // the running epoch has no end time: only ended epochs count
    expect(Math.fround(data.uptime)).toBe(Math.fround(micros / 60e6))
    expect(data.uptime > 0).toBe(true)
  })

  it("writes the uptime as Go writes a float32", () => {
    expect(goFloat32(0.1)).toBe("0.1")
    expect(goFloat32(150.25)).toBe("150.25")
    expect(goFloat32(1234567)).toBe("1.234567e+06")
    expect(goFloat32(16777217)).toBe("1.6777216e+07")
    expect(goFloat32(0.00001)).toBe("1e-05")
    expect(goFloat32(1 / 3)).toBe("0.33333334")
  })
})

describe("pruning", () => {
  // accepted linkings are never superseded, so what an epoch's first block saw survives pruning
  it("leaves past epochs' stake as it was", () => {
    const pruned = smallWorld()
    pruned.prune(pruned.height)
    const ask = (w: typeof world) =>
      call(nodeOf(w), "/api/v2/delegations", { epochId: "2", "pagination.first": 1000 }).body
    expect(ask(pruned)).toBe(ask(world))
  })
})
