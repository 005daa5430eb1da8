import { describe, expect, it } from "@effect/vitest"
import { DataNode, SignerBundle } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const removedPath = "/api/v2/erc20/multisigcontrol/signer/removed/bundles"
const signaturesPath = "/api/v2/node/signatures"
const assetPath = "/api/v2/erc20/asset/list/bundle"
const withdrawalPath = "/api/v2/erc20/asset/withdrawal/bundle"

const world = smallWorld({ scale: { signerBundles: 8, validators: 5 }, activity: { bundleEveryEpochs: 1 } })
world.advance(world.chain.blocksPerEpoch * 2)
const node = nodeOf(world)
type Query = Parameters<typeof call>[2]
const removed = (query: Query = {}, at = node) =>
  decoded(DataNode.ListERC20MultiSigSignerRemovedBundlesResponse, call(at, removedPath, query)).bundles
const signatures = (query: Query = {}, at = node) =>
  decoded(DataNode.ListNodeSignaturesResponse, call(at, signaturesPath, query)).signatures
const body = (path: string, query: Query, at = node) => call(at, path, query).body

describe("GET /api/v2/erc20/multisigcontrol/signer/removed/bundles", () => {
  it("lists one bundle per submitter of each removal, newest first, with 65-byte signatures", () => {
    const rows = world.signerRemovals.rows
    expect(rows.length).toBeGreaterThan(4)
    const edges = removed().edges
    expect(edges.length).toBe(rows.length)
    // newest first: the rows in reverse of `vega_time, id`
    expect(edges.map((e) => JSON.parse(cursorJson(e.cursor)).id)).toEqual([...rows].reverse().map((r) => r.id))
    expect(Object.keys(JSON.parse(cursorJson(edges[0].cursor)))).toEqual(["vega_time", "id"])
    for (const { node: b } of edges) {
      expect(b.oldSigner).toBe(b.oldSigner.toLowerCase())
      expect(b.oldSigner).not.toBe(b.submitter)
      const sigs = SignerBundle.splitSignatures(b.signatures as SignerBundle.BundleSignatures)
      expect(sigs.every((s) => s.length === 130)).toBe(true)
      expect(sigs).toEqual([...sigs].sort())
    }
    // the bundles of one removal share the nonce and the old signer
    const first = rows[0]
    const same = edges.filter((e) => e.node.nonce === BigInt(first.nonce))
    expect(same.length).toBe(world.catalog.validators.length - 1)
    expect(new Set(same.map((e) => e.node.oldSigner))).toEqual(new Set([first.validator.ethereumAddress]))
  })

  it("pages both ways with cursors that continue", () => {
    const all = removed({ "pagination.newestFirst": false }).edges.map((e) => e.cursor)
    const paged = walk((after) => {
      const page = removed({
        "pagination.first": 3,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: page.edges.map((e) => e.cursor), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(paged).toEqual(all)
    const last = removed({ "pagination.last": 2, "pagination.newestFirst": false })
    expect(last.edges.map((e) => e.cursor)).toEqual(all.slice(-2))
    const before = removed({
      "pagination.last": 2,
      "pagination.newestFirst": false,
      "pagination.before": last.pageInfo.startCursor
    })
    expect(before.edges.map((e) => e.cursor)).toEqual(all.slice(-4, -2))
  })

  it("filters by node, submitter and epoch", () => {
    const row = world.signerRemovals.rows[0]
    const byNode = removed({ nodeId: row.validator.nodeId.toUpperCase() }).edges
    expect(byNode.length).toBeGreaterThan(0)
    expect(byNode.every((e) => e.node.oldSigner === row.validator.ethereumAddress)).toBe(true)
    const bySubmitter = removed({ submitter: row.submitter.ethereumAddress }).edges
    expect(bySubmitter.every((e) => e.node.submitter === row.submitter.ethereumAddress)).toBe(true)
    expect(bySubmitter.length).toBe(world.signerRemovals.rows.filter((r) => r.submitter === row.submitter).length)
    const byEpoch = removed({ epochSeq: String(row.epoch) }).edges
    expect(byEpoch.length).toBeGreaterThan(0)
    expect(byEpoch.every((e) => e.node.epochSeq === BigInt(row.epoch))).toBe(true)
  })

  it("a lagging node sees only the removals written by its height", () => {
    const late = world.signerRemovals.rows.at(-1)!
    expect(late.from).toBeGreaterThan(world.height - world.chain.blocksPerEpoch * 2)
    const lagging = nodeOf(world, { height: late.from - 1 })
    expect(removed({}, lagging).edges.length).toBe(world.signerRemovals.rows.filter((r) => r.from < late.from).length)
  })

  it("words its errors as the node does", () => {
    expect(body(removedPath, { epochSeq: "x" })).toContain('"code":10036')
    expect(JSON.parse(body(removedPath, { "pagination.first": 0 })).details[0].code).toBe(10028)
    expect(body(removedPath, { nodeId: "xyz" })).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":270002,"message":"failed to get removed multisig events","inner":"decoding 'xyz': not a valid hex id (or well known exception)"}]}`
    )
    expect(
      JSON.parse(body(removedPath, { "pagination.after": Buffer.from("{").toString("base64") })).details[0].code
    ).toBe(270002)
  })

  it("a v0.79 node adds the multisig's chain id", () => {
    const edge = JSON.parse(call(nodeOf(world, { nodeVersion: "v0.79" }), removedPath, {}).body).bundles.edges[0]
    expect(Object.keys(edge.node)).toEqual([
      "oldSigner",
      "submitter",
      "nonce",
      "timestamp",
      "signatures",
      "epochSeq",
      "chainId"
    ])
    expect(edge.node.chainId).toBe("1")
  })
})

describe("GET /api/v2/node/signatures", () => {
  it("lists a resource's signatures in byte order, as the bundles pack them", () => {
    for (const row of [world.signerBundles.rows[0], world.signerRemovals.rows[0]]) {
      const edges = signatures({ id: row.id, "pagination.newestFirst": false }).edges
      const hex = edges.map((e) => Buffer.from(e.node.sig, "base64").toString("hex"))
      expect(row.signatures).toBe(hex.length === 0 ? "" : `0x${hex.join("")}`)
      expect(hex).toEqual([...hex].sort())
      expect(edges.every((e) => e.node.id === row.id)).toBe(true)
    }
    const kinds = (id: string) => new Set(signatures({ id }).edges.map((e) => e.node.kind))
    expect(kinds(world.signerRemovals.rows[0].id)).toEqual(
      new Set(["NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_REMOVED"])
    )
    expect(kinds(world.signerBundles.rows[0].id)).toEqual(new Set(["NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED"]))
    expect(kinds(world.catalog.assets[0].id)).toEqual(new Set(["NODE_SIGNATURE_KIND_ASSET_NEW"]))
    expect(kinds(world.accounts.withdrawals[0].id)).toEqual(new Set(["NODE_SIGNATURE_KIND_ASSET_WITHDRAWAL"]))
  })

  it("pages by resource and signature, newest first by default", () => {
    const id = world.catalog.assets[1].id
    const ascending = signatures({ id, "pagination.newestFirst": false }).edges
    expect(ascending.length).toBe(world.catalog.validators.length)
    const descending = signatures({ id }).edges
    expect(descending.map((e) => e.node.sig)).toEqual(ascending.map((e) => e.node.sig).reverse())
    const cursor = JSON.parse(cursorJson(ascending[1].cursor))
    expect(Object.keys(cursor)).toEqual(["resource_id", "sig"])
    expect(cursor).toEqual({ resource_id: id, sig: ascending[1].node.sig })
    const next = signatures({
      id,
      "pagination.newestFirst": false,
      "pagination.first": 2,
      "pagination.after": ascending[1].cursor
    })
    expect(next.edges.map((e) => e.node.sig)).toEqual(ascending.slice(2, 4).map((e) => e.node.sig))
    expect(next.pageInfo.hasPreviousPage).toBe(true)
    const back = signatures({
      id,
      "pagination.newestFirst": false,
      "pagination.last": 1,
      "pagination.before": ascending[1].cursor
    })
    expect(back.edges.map((e) => e.node.sig)).toEqual([ascending[0].node.sig])
  })

  it("answers an empty page for an unknown resource and errors as the node does", () => {
    expect(signatures({ id: "ab".repeat(32) }).edges).toEqual([])
    expect(body(signaturesPath, {})).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10025,"message":"missing resource ID","inner":""}]}`
    )
    expect(body(signaturesPath, { id: "zz" })).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":180001,"message":"failed to get notary for resource ID","inner":"resourceID: zz: decoding 'zz': not a valid hex id (or well known exception)"}]}`
    )
    const bad = call(node, signaturesPath, { id: "ab", "pagination.after": Buffer.from("[]").toString("base64") })
    expect(bad.status).toBe(500)
    expect(JSON.parse(bad.body).details[0].inner).toMatch(/^resourceID: ab: parsing cursor/)
  })

  it("a lagging node has no signatures of a withdrawal made after its height", () => {
    const row = world.accounts.withdrawals.at(-1)!
    expect(signatures({ id: row.id }, nodeOf(world, { height: row.height - 1 })).edges).toEqual([])
    expect(signatures({ id: row.id }, nodeOf(world, { height: row.height })).edges.length).toBe(5)
  })
})

describe("GET /api/v2/erc20/asset/list/bundle", () => {
  it("answers each asset's contract, id, nonce and its listing's signatures", () => {
    for (const asset of world.catalog.assets) {
      const reply = decoded(DataNode.GetERC20ListAssetBundleResponse, call(node, assetPath, { assetId: asset.id }))
      expect(reply.assetSource).toBe(asset.contractAddress)
      expect(reply.vegaAssetId).toBe(asset.id)
      expect(reply.nonce).toBe(BigInt(`0x${asset.id}`))
      const listed = signatures({ id: asset.id, "pagination.newestFirst": false }).edges
      expect(reply.signatures).toBe(
        `0x${listed.map((e) => Buffer.from(e.node.sig, "base64").toString("hex")).join("")}`
      )
      expect(reply.signatures.length).toBe(2 + 130 * world.catalog.validators.length)
    }
    expect(Object.keys(JSON.parse(body(assetPath, { assetId: world.catalog.assets[0].id })))).toEqual([
      "assetSource",
      "vegaAssetId",
      "nonce",
      "signatures"
    ])
  })

  it("errors for a missing, invalid or unknown asset", () => {
    expect(JSON.parse(body(assetPath, {})).details[0]).toMatchObject({ code: 10017, message: "missing asset ID" })
    expect(JSON.parse(body(assetPath, { assetId: "abc" })).details[0]).toMatchObject({ code: 10038 })
    const unknown = call(node, assetPath, { assetId: "cd".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({
      code: 200002,
      inner: "no resource corresponding to this id"
    })
  })
})

describe("GET /api/v2/erc20/asset/withdrawal/bundle", () => {
  it("approves each withdrawal as ListWithdrawals shows it", () => {
    const rows = world.accounts.withdrawals
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows.slice(0, 5)) {
      const approval = decoded(
        DataNode.GetERC20WithdrawalApprovalResponse,
        call(node, withdrawalPath, { withdrawalId: row.id })
      )
      const shown = JSON.parse(call(node, "/api/v2/withdrawal/{id}", {}, { id: row.id }).body).withdrawal
      expect(approval.amount.toString()).toBe(shown.amount)
      expect(approval.nonce.toString()).toBe(shown.ref)
      expect(approval.targetAddress).toBe(shown.ext.erc20.receiverAddress)
      expect(approval.creation).toBe(BigInt(shown.createdTimestamp) / 1_000_000_000n)
      expect(approval.assetSource).toBe(row.asset.contractAddress)
      expect(SignerBundle.splitSignatures(approval.signatures as SignerBundle.BundleSignatures).length).toBe(5)
    }
    const v79 = JSON.parse(
      call(nodeOf(world, { nodeVersion: "v0.79" }), withdrawalPath, { withdrawalId: rows[0].id }).body
    )
    expect(Object.keys(v79).at(-1)).toBe("sourceChainId")
  })

  it("errors for a missing, invalid or unknown withdrawal, and one after a lagging node's height", () => {
    expect(JSON.parse(body(withdrawalPath, {})).details[0]).toMatchObject({ code: 80003 })
    expect(JSON.parse(body(withdrawalPath, { withdrawalId: "xy" })).details[0]).toMatchObject({
      message: "invalid withdrawal ID"
    })
    const row = world.accounts.withdrawals.at(-1)!
    for (const [id, at] of [
      ["ef".repeat(32), node],
      [row.id, nodeOf(world, { height: row.height - 1 })]
    ] as const) {
      const reply = call(at, withdrawalPath, { withdrawalId: id })
      expect(reply.status).toBe(404)
      expect(JSON.parse(reply.body).details[0]).toMatchObject({ code: 150001, message: "failed to get withdrawal" })
    }
  })
})
