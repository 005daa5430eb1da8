import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { microsToRfc3339 } from "../src/internal/goTime.js"
import { base58, durationMicros, peerIdOf } from "../src/internal/world/history.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

// 20 epochs of 50 blocks: snapshots (and segments) at 300, 600 and 900
const world = smallWorld({ scale: { epochs: 20 } })
const node = nodeOf(world)
const v79 = nodeOf(world, { nodeVersion: "v0.79" })

type Query = Parameters<typeof call>[2]
type View = ReturnType<typeof nodeOf>

const checkpoints = (query: Query = {}, at: View = node) =>
  decoded(DataNode.ListCheckpointsResponse, call(at, "/api/v2/checkpoints", query)).checkpoints
const snapshots = (query: Query = {}, at: View = node) =>
  decoded(DataNode.ListCoreSnapshotsResponse, call(at, "/api/v2/snapshots", query)).coreSnapshots
const proposals = (query: Query = {}, at: View = node) =>
  decoded(DataNode.ListProtocolUpgradeProposalsResponse, call(at, "/api/v2/upgrade/proposals", query))
    .protocolUpgradeProposals
const segments = (at: View = node) =>
  decoded(DataNode.ListAllNetworkHistorySegmentsResponse, call(at, "/api/v2/networkhistory/segments")).segments

const detail = (reply: { body: string }) => JSON.parse(reply.body).details[0]
const heightsOf = (page: { edges: ReadonlyArray<{ node: { atBlock: bigint } }> }) =>
  page.edges.map((e) => Number(e.node.atBlock))

describe("ListCheckpoints", () => {
  const all = heightsOf(checkpoints({ "pagination.first": 1000, "pagination.newestFirst": false }))

  it("takes a checkpoint at the first block a minute past the last one", () => {
    const { chain } = world
    const delta = durationMicros("1m")
    expect(all.length).toBeGreaterThan(10)
    // the first block only sets the time of the first checkpoint
    let next = chain.blockTime(1) + delta
    const expected: Array<number> = []
    for (let h = 2; h <= world.height; h++) {
      if (chain.blockTime(h) >= next) {
        expected.push(h)
        next = chain.blockTime(h) + delta
      }
    }
    expect(all).toEqual(expected)
    // about one a minute at a block a second
    for (let i = 1; i < all.length; i++) expect(all[i] - all[i - 1]).toBeGreaterThanOrEqual(60)
  })

  it("writes the hash, the block's hash and height, newest first by default", () => {
    const page = checkpoints({ "pagination.first": 3 })
    expect(heightsOf(page)).toEqual([...all].reverse().slice(0, 3))
    const edge = page.edges[0]
    expect(edge.node.blockHash).toBe(world.chain.blockHash(Number(edge.node.atBlock)))
    expect(edge.node.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(edge.node.hash).not.toBe(edge.node.blockHash)
    expect(cursorJson(edge.cursor)).toBe(`{"blockHeight":${edge.node.atBlock}}`)
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    // the JSON as the gateway writes it: int64 as a string, fields in proto order
    expect(JSON.stringify(JSON.parse(call(node, "/api/v2/checkpoints").body).checkpoints.edges[0].node)).toBe(
      `{"hash":"${edge.node.hash}","blockHash":"${edge.node.blockHash}","atBlock":"${edge.node.atBlock}"}`
    )
  })

  it("pages forward and back with cursors, in both orders", () => {
    const forward = walk((after) => {
      const page = checkpoints({ "pagination.first": 4, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: heightsOf(page), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(forward).toEqual([...all].reverse())
    const oldest = checkpoints({ "pagination.first": 4, "pagination.newestFirst": false })
    expect(heightsOf(oldest)).toEqual(all.slice(0, 4))
    const next = checkpoints({
      "pagination.first": 4,
      "pagination.newestFirst": false,
      "pagination.after": oldest.pageInfo.endCursor
    })
    expect(heightsOf(next)).toEqual(all.slice(4, 8))
    expect(next.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const back = checkpoints({
      "pagination.last": 2,
      "pagination.newestFirst": false,
      "pagination.before": next.pageInfo.startCursor
    })
    expect(heightsOf(back)).toEqual(all.slice(2, 4))
    const last = checkpoints({ "pagination.last": 3 })
    expect(heightsOf(last)).toEqual(all.slice(0, 3).reverse())
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
  })

  it("reads a zero cursor as none, keeping every row, the page still read as one after a cursor", () => {
    const zero = Buffer.from('{"blockHeight":0}').toString("base64")
    // with a full page, the first row read is dropped as the cursor's own, as the node does
    const newest = checkpoints({ "pagination.first": 3, "pagination.after": zero })
    expect(heightsOf(newest)).toEqual([...all].reverse().slice(1, 4))
    expect(newest.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const oldest = checkpoints({ "pagination.first": 3, "pagination.newestFirst": false, "pagination.after": zero })
    expect(heightsOf(oldest)).toEqual(all.slice(1, 4))
    const empty = Buffer.from("{}").toString("base64")
    expect(snapshots({ "pagination.after": empty }).edges.map((e) => Number(e.node.blockHeight))).toEqual([
      900, 600, 300
    ])
    expect(proposals({ "pagination.after": empty }).edges.length).toBe(proposals().edges.length)
  })

  it("shows a lagging node only the checkpoints of its height", () => {
    const height = all[5]
    const lagging = nodeOf(world, { height })
    expect(heightsOf(checkpoints({ "pagination.first": 100 }, lagging))).toEqual(all.slice(0, 6).reverse())
    expect(heightsOf(checkpoints({ "pagination.first": 100 }, nodeOf(world, { height: height - 1 })))).toEqual(
      all.slice(0, 5).reverse()
    )
  })

  it("refuses bad pagination and bad cursors", () => {
    expect(call(node, "/api/v2/checkpoints", { "pagination.first": 0 }).status).toBe(400)
    const bad = call(node, "/api/v2/checkpoints", { "pagination.after": Buffer.from("[1]").toString("base64") })
    expect(bad.status).toBe(500)
    expect(detail(bad)).toMatchObject({ code: 290001, message: "failed to get checkpoint" })
    expect(detail(bad).inner).toMatch(/^parsing cursor: parsing cursor: json: cannot unmarshal array/)
    const typed = call(node, "/api/v2/checkpoints", {
      "pagination.after": Buffer.from('{"blockHeight":"9"}').toString("base64")
    })
    expect(detail(typed).inner).toContain("Go struct field CheckpointCursor.blockHeight of type int64")
  })
})

describe("ListCoreSnapshots", () => {
  it("lists a snapshot every snapshot.interval.length blocks, with the core's release", () => {
    const page = snapshots()
    expect(page.edges.map((e) => Number(e.node.blockHeight))).toEqual([900, 600, 300])
    const first = page.edges[2]
    expect(first.node).toEqual({
      blockHeight: 300n,
      blockHash: world.chain.blockHash(300),
      coreVersion: "v0.75.8",
      protocolUpgradeBlock: false
    })
    expect(JSON.parse(cursorJson(first.cursor))).toEqual({
      VegaTime: microsToRfc3339(world.chain.blockTime(300)),
      BlockHeight: 300,
      BlockHash: world.chain.blockHash(300),
      VegaCoreVersion: "v0.75.8"
    })
    expect(snapshots({}, v79).edges[0].node.coreVersion).toBe("v0.79.0")
  })

  it("writes the snapshot's time as the node's own block time at that height", () => {
    const at300 = nodeOf(world, { height: 300 })
    const time = JSON.parse(call(at300, "/api/v2/vega/time").body).timestamp as string
    const cursor = JSON.parse(cursorJson(snapshots({}, at300).edges[0].cursor))
    expect(`${BigInt(Date.parse(cursor.VegaTime)) * 1_000_000n}`.slice(0, 13)).toBe(time.slice(0, 13))
    expect(cursor.VegaTime).toBe(microsToRfc3339(Number(BigInt(time) / 1000n)))
  })

  it("pages with cursors, and a lagging node sees the snapshots of its height", () => {
    const one = snapshots({ "pagination.first": 1 })
    const two = snapshots({ "pagination.first": 1, "pagination.after": one.pageInfo.endCursor })
    expect(two.edges.map((e) => Number(e.node.blockHeight))).toEqual([600])
    expect(two.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const back = snapshots({ "pagination.last": 1, "pagination.before": two.pageInfo.startCursor })
    expect(back.edges.map((e) => Number(e.node.blockHeight))).toEqual([900])
    const old = snapshots({ "pagination.newestFirst": false, "pagination.first": 2 })
    expect(old.edges.map((e) => Number(e.node.blockHeight))).toEqual([300, 600])
    expect(snapshots({}, nodeOf(world, { height: 599 })).edges.map((e) => Number(e.node.blockHeight))).toEqual([300])
    expect(snapshots({}, nodeOf(world, { height: 299 })).edges).toEqual([])
  })

  it("refuses bad cursors", () => {
    const bad = call(node, "/api/v2/snapshots", { "pagination.before": Buffer.from("nope").toString("base64") })
    expect(bad.status).toBe(500)
    expect(detail(bad)).toMatchObject({ code: 320001, message: "failed to list core snapshots" })
    expect(detail(bad).inner).toMatch(/^parsing cursor: parsing cursor: invalid character/)
  })
})

describe("ListAllNetworkHistorySegments", () => {
  it("has a segment per core snapshot, contiguous from block 1, each naming the one before", () => {
    const all = segments()
    expect(all.map((s) => [Number(s.fromHeight), Number(s.toHeight)])).toEqual([
      [601, 900],
      [301, 600],
      [1, 300]
    ])
    for (const s of all) {
      expect(s.historySegmentId).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/)
      expect(s.chainId).toBe(world.chain.chainId)
      expect(s.databaseVersion).toBe(99n)
    }
    // a v0.79 node's schema is at its own last migration
    expect(segments(v79).map((s) => s.databaseVersion)).toEqual([123n, 123n, 123n])
    expect(all[2].previousHistorySegmentId).toBe("")
    expect(all[1].previousHistorySegmentId).toBe(all[2].historySegmentId)
    expect(all[0].previousHistorySegmentId).toBe(all[1].historySegmentId)
    // the same segments for every node of the world, each as far as its height
    expect(segments(nodeOf(world, { height: 600 })).map((s) => s.historySegmentId)).toEqual(
      all.slice(1).map((s) => s.historySegmentId)
    )
    expect(segments(nodeOf(world, { height: 200 }))).toEqual([])
    expect(call(node, "/api/v2/networkhistory/segments").body).toMatch(
      /^\{"segments":\[\{"fromHeight":"601","toHeight":"900","historySegmentId":"Qm/
    )
  })

  it("ends each segment at a snapshot", () => {
    const heights = snapshots().edges.map((e) => e.node.blockHeight)
    expect(segments().map((s) => BigInt(s.toHeight))).toEqual(heights)
  })
})

describe("GetNetworkHistoryStatus and GetNetworkHistoryBootstrapPeers", () => {
  const status = (at: View = node) =>
    decoded(DataNode.GetNetworkHistoryStatusResponse, call(at, "/api/v2/networkhistory"))

  it("derives the swarm key from the chain id, and names the node's IPFS peer", () => {
    const answer = status()
    expect(answer.swarmKeySeed).toBe(world.chain.chainId)
    const hex = Buffer.concat([Buffer.from(world.chain.chainId), Buffer.alloc(32)])
      .subarray(0, 32)
      .toString("hex")
    expect(answer.swarmKey).toBe(`/key/swarm/psk/1.0.0/\n/base16/\n${hex}`)
    expect(answer.ipfsAddress).toMatch(/^\/ip4\/[\d.]+\/tcp\/4001\/p2p\/12D3KooW[1-9A-HJ-NP-Za-km-z]{44}$/)
    expect(answer.connectedPeers.length).toBeGreaterThan(0)
    for (const peer of answer.connectedPeers) expect(peer).toMatch(/^\/ip4\/[\d.]+\/tcp\/\d+\/p2p\/12D3KooW/)
  })

  it("answers the same peers in an order of the height read, reproducibly", () => {
    const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()
    const orders = new Set<string>()
    for (let h = world.height - 10; h <= world.height; h++) {
      const at = nodeOf(world, { height: h })
      expect(sorted(status(at).connectedPeers)).toEqual(sorted(status().connectedPeers))
      orders.add(status(at).connectedPeers.join())
    }
    expect(orders.size).toBeGreaterThan(1)
    expect(call(node, "/api/v2/networkhistory").body).toBe(call(nodeOf(world), "/api/v2/networkhistory").body)
    expect(call(node, "/api/v2/networkhistory").body).toBe(
      call(nodeOf(smallWorld({ scale: { epochs: 20 } })), "/api/v2/networkhistory").body
    )
  })

  it("lists bootstrap peers among the connected ones", () => {
    const { bootstrapPeers } = decoded(
      DataNode.GetNetworkHistoryBootstrapPeersResponse,
      call(node, "/api/v2/networkhistory/bootstrap")
    )
    expect(bootstrapPeers.length).toBeGreaterThan(0)
    const ids = status().connectedPeers.map((p) => p.split("/p2p/")[1])
    for (const peer of bootstrapPeers) {
      expect(peer).toMatch(/^\/ip4\/[\d.]+\/tcp\/4001\/ipfs\//)
      expect(ids).toContain(peer.split("/ipfs/")[1])
    }
  })

  it("writes peer ids and content ids in base58", () => {
    expect(base58("0000ff")).toBe("115Q")
    expect(base58("00")).toBe("1")
    expect(peerIdOf("00".repeat(32))).toMatch(/^12D3KooW/)
  })
})

describe("ListProtocolUpgradeProposals and GetProtocolUpgradeStatus", () => {
  const keysOf = (page: ReturnType<typeof proposals>) =>
    page.edges.map((e) => `${e.node.upgradeBlockHeight}/${e.node.vegaReleaseTag}`)
  const all = proposals({ "pagination.newestFirst": false })
  const validators = world.catalog.validators.map((v) => v.pubKey)

  it("lists each proposal's latest state, by upgrade height then tag", () => {
    expect(all.edges.length).toBeGreaterThanOrEqual(2)
    const heights = all.edges.map((e) => Number(e.node.upgradeBlockHeight))
    expect([...heights].sort((a, b) => a - b)).toEqual(heights)
    expect(keysOf(proposals())).toEqual([...keysOf(all)].reverse())
    for (const { node: p } of all.edges) {
      expect(p.vegaReleaseTag).toMatch(/^v\d+\.\d+\.\d+$/)
      expect(p.approvers.length).toBeGreaterThan(0)
      // short of the two-thirds majority: the chain never stops for an upgrade
      expect(p.approvers.length / validators.length).toBeLessThan(2 / 3)
      expect([...p.approvers].sort()).toEqual(p.approvers)
      for (const key of p.approvers) expect(validators).toContain(key)
      const passed = Number(p.upgradeBlockHeight) <= world.height
      expect(p.status).toBe(
        passed ? "PROTOCOL_UPGRADE_PROPOSAL_STATUS_REJECTED" : "PROTOCOL_UPGRADE_PROPOSAL_STATUS_PENDING"
      )
    }
    const cursor = JSON.parse(cursorJson(all.edges[0].cursor))
    expect(Object.keys(cursor)).toEqual(["VegaTime", "UpgradeBlockHeight", "VegaReleaseTag"])
    expect(cursor.UpgradeBlockHeight).toBe(Number(all.edges[0].node.upgradeBlockHeight))
    expect(call(node, "/api/v2/upgrade/status").body).toBe(`{"ready":false}`)
  })

  it("shows a lagging node the proposal as it stood, pending with fewer approvals", () => {
    const first = all.edges[0].node
    const before = nodeOf(world, { height: Number(first.upgradeBlockHeight) - 1 })
    const then = proposals({ "pagination.newestFirst": false }, before).edges[0].node
    expect(then.status).toBe("PROTOCOL_UPGRADE_PROPOSAL_STATUS_PENDING")
    expect(then.approvers).toEqual(first.approvers)
    // at the first proposal's first block, one approver
    const history = world.history.proposalHistory.filter((r) => r.upgradeHeight === Number(first.upgradeBlockHeight))
    const start = nodeOf(world, { height: history[0].from })
    const atStart = proposals({}, start).edges.map((e) => e.node)
    expect(atStart.find((p) => p.upgradeBlockHeight === first.upgradeBlockHeight)?.approvers.length).toBe(1)
    expect(proposals({}, nodeOf(world, { height: history[0].from - 1 })).edges.length).toBeLessThan(all.edges.length)
  })

  it("filters by status and by approver", () => {
    const rejected = proposals({ status: "PROTOCOL_UPGRADE_PROPOSAL_STATUS_REJECTED" })
    expect(rejected.edges.length).toBeGreaterThan(0)
    for (const e of rejected.edges) expect(e.node.status).toBe("PROTOCOL_UPGRADE_PROPOSAL_STATUS_REJECTED")
    expect(proposals({ status: "PROTOCOL_UPGRADE_PROPOSAL_STATUS_APPROVED" }).edges).toEqual([])
    expect(proposals({ status: "PROTOCOL_UPGRADE_PROPOSAL_STATUS_UNSPECIFIED" }).edges).toEqual([])
    const approver = all.edges[0].node.approvers[0]
    const mine = proposals({ approvedBy: approver })
    expect(mine.edges.length).toBeGreaterThan(0)
    for (const e of mine.edges) expect(e.node.approvers).toContain(approver)
    // compared as text: another case, or an empty key, matches nothing
    expect(proposals({ approvedBy: approver.toUpperCase() }).edges).toEqual([])
    expect(proposals({ approvedBy: "" }).edges).toEqual([])
  })

  it("pages with cursors and refuses bad ones", () => {
    const one = proposals({ "pagination.first": 1, "pagination.newestFirst": false })
    const two = proposals({
      "pagination.first": 1,
      "pagination.newestFirst": false,
      "pagination.after": one.pageInfo.endCursor
    })
    expect(keysOf(two)).toEqual(keysOf(all).slice(1, 2))
    const back = proposals({
      "pagination.last": 1,
      "pagination.newestFirst": false,
      "pagination.before": two.pageInfo.startCursor
    })
    expect(keysOf(back)).toEqual(keysOf(all).slice(0, 1))
    const bad = call(node, "/api/v2/upgrade/proposals", { "pagination.after": Buffer.from("7").toString("base64") })
    expect(bad.status).toBe(500)
    expect(detail(bad)).toMatchObject({ code: 330001, message: "failed to list protocol upgrade proposals" })
    const both = call(node, "/api/v2/upgrade/proposals", {
      "pagination.after": one.pageInfo.endCursor,
      "pagination.before": one.pageInfo.endCursor
    })
    expect(both.status).toBe(400)
    expect(detail(both)).toMatchObject({ code: 10028, inner: "cannot set both a before and after cursor" })
  })
})
