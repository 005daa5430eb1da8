import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const PATH = "/api/v2/erc20/asset/limits/bundle"
const world = smallWorld()
world.advance(40)
const node = nodeOf(world)
const { governance } = world

const updates = governance.placed.filter((p) => p.kind === "updateAsset").map((p) => governance.current(p.id)!)
const enacted = updates.filter((p) => p.state === "STATE_ENACTED")
const other = governance.placed.find((p) => p.kind !== "updateAsset")!

const bundle = (proposalId: string, n = node) =>
  decoded(DataNode.GetERC20SetAssetLimitsBundleResponse, call(n, PATH, { proposalId }))
const signatures = (id: string, n = node) =>
  decoded(
    DataNode.ListNodeSignaturesResponse,
    call(n, "/api/v2/node/signatures", { id, "pagination.newestFirst": false })
  ).signatures.edges.map((e) => e.node)
const errorOf = (reply: { status: number; body: string }) => {
  const detail = JSON.parse(reply.body).details[0]
  return [reply.status, detail.code, detail.message, detail.inner]
}

describe("GET /api/v2/erc20/asset/limits/bundle", () => {
  it("answers an enacted asset update's limits, signed by every validator", () => {
    expect(enacted.length).toBeGreaterThan(0)
    const proposal = enacted[0]
    const answer = bundle(proposal.id)
    const terms = JSON.parse(call(node, "/api/v2/governance", { proposalId: proposal.id }).body).data.proposal.terms
    expect(Object.keys(terms)).toEqual(["closingTimestamp", "enactmentTimestamp", "validationTimestamp", "updateAsset"])
    const asset = world.catalog.assetById.get(terms.updateAsset.assetId)!
    expect(answer.vegaAssetId).toBe(asset.id)
    expect(answer.assetSource).toBe(asset.contractAddress)
    expect(String(answer.lifetimeLimit)).toBe(terms.updateAsset.changes.erc20.lifetimeLimit)
    expect(String(answer.threshold)).toBe(terms.updateAsset.changes.erc20.withdrawThreshold)
    expect(terms.updateAsset.changes.quantum).toBe(asset.quantum)
    expect(answer.nonce).toBe(BigInt(`0x${proposal.id}`))
    const sigs = signatures(proposal.id)
    expect(sigs.length).toBe(world.catalog.validators.length)
    expect(sigs.every((s) => s.kind === "NODE_SIGNATURE_KIND_ASSET_UPDATE")).toBe(true)
    // the bundle packs the notary's signatures in the store's order
    const hex = sigs.map((s) => Buffer.from(s.sig, "base64").toString("hex")).join("")
    expect(answer.signatures).toBe(`0x${hex}`)
    expect(bundle(proposal.id.toUpperCase())).toEqual(answer)
    const raw = JSON.parse(call(node, PATH, { proposalId: proposal.id }).body)
    expect(Object.keys(raw)).toEqual([
      "assetSource",
      "vegaAssetId",
      "nonce",
      "lifetimeLimit",
      "threshold",
      "signatures"
    ])
  })

  it("has no signatures before the enactment, and no proposal before it was made", () => {
    const proposal = enacted[0]
    const passedAt = governance.byId.get(proposal.id)!.find((v) => v.state !== "STATE_OPEN")!.from
    const before = nodeOf(world, { height: passedAt })
    const unsigned = JSON.parse(call(before, PATH, { proposalId: proposal.id }).body)
    expect(unsigned.signatures).toBe("")
    expect(unsigned.lifetimeLimit).toBe(String(proposal.assetUpdate!.lifetimeLimit))
    expect(signatures(proposal.id, before)).toEqual([])
    const enactedAt = governance.byId.get(proposal.id)!.at(-1)!.from
    expect(bundle(proposal.id, nodeOf(world, { height: enactedAt })).signatures).toBe(bundle(proposal.id).signatures)
    const unmade = nodeOf(world, { height: governance.byId.get(proposal.id)![0].from - 1 })
    expect(errorOf(call(unmade, PATH, { proposalId: proposal.id }))).toEqual([
      404,
      170001,
      "failed to get proposal",
      "no resource corresponding to this id"
    ])
    // a declined update is never signed
    const declined = updates.find((p) => p.state === "STATE_DECLINED")
    if (declined !== undefined)
      expect(JSON.parse(call(node, PATH, { proposalId: declined.id }).body).signatures).toBe("")
  })

  it("lists the asset updates with the governance routes, with their votes", () => {
    const listed = decoded(
      DataNode.ListGovernanceDataResponse,
      call(node, "/api/v2/governances", { proposalType: "TYPE_UPDATE_ASSET", "pagination.first": 100 })
    ).connection.edges.map((e) => e.node.proposal!.id)
    expect([...listed].sort()).toEqual(updates.map((p) => p.id).sort())
    const voted = updates.find((p) => (governance.votesByProposal.get(p.id)?.length ?? 0) > 0)!
    const votes = decoded(DataNode.ListVotesResponse, call(node, "/api/v2/votes", { proposalId: voted.id })).votes
    expect(votes.edges.length).toBe(governance.votesByProposal.get(voted.id)!.length)
  })

  it("leaves the assets' limits as they were (nobody submits the bundle to the bridge)", () => {
    const asset = enacted[0].assetUpdate!.asset
    const json = JSON.parse(call(node, "/api/v2/asset/{assetId}", {}, { assetId: asset.id }).body)
    expect(json.asset.details.erc20.lifetimeLimit).toBe(String(asset.lifetimeLimit))
  })

  it("words its errors as the node does", () => {
    expect(errorOf(call(node, PATH, {}))).toEqual([400, 10021, "proposal id is a required parameter", ""])
    expect(errorOf(call(node, PATH, { proposalId: "abc" }))).toEqual([400, 10000, "invalid proposal id", ""])
    expect(errorOf(call(node, PATH, { proposalId: "ab".repeat(32) }))).toEqual([
      404,
      170001,
      "failed to get proposal",
      "no resource corresponding to this id"
    ])
    expect(errorOf(call(node, PATH, { proposalId: other.id }))).toEqual([
      500,
      10000,
      "not an update asset proposal",
      ""
    ])
  })
})
