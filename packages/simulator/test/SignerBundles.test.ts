import { describe, expect, it } from "@effect/vitest"
import { SignerBundle } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const path = "/api/v2/erc20/multisigcontrol/signer/added/bundles"
const world = smallWorld({ scale: { signerBundles: 12, validators: 6 } })
const node = nodeOf(world)
const bundles = (query: Parameters<typeof call>[2] = {}) =>
  decoded(SignerBundle.ListSignerAddedBundlesResponse, call(node, path, query)).bundles

describe("GET /api/v2/erc20/multisigcontrol/signer/added/bundles", () => {
  it("lists bundles of 65-byte signatures with lowercase addresses, newest first", () => {
    const edges = bundles().edges
    expect(edges.length).toBe(12)
    for (const { node: b } of edges) {
      expect(b.newSigner).toBe(b.newSigner.toLowerCase())
      expect(SignerBundle.splitSignatures(b.signatures).every((s) => s.length === 130)).toBe(true)
    }
    const times = edges.map((e) => e.node.timestamp)
    expect(times).toEqual([...times].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)))
    expect(Object.keys(JSON.parse(cursorJson(edges[0].cursor)))).toEqual(["vega_time", "id"])
  })

  it("filters by node, submitter and epoch", () => {
    const row = world.signerBundles.rows[0]
    expect(
      bundles({ nodeId: row.validator.nodeId }).edges.every((e) => e.node.newSigner === row.validator.ethereumAddress)
    ).toBe(true)
    expect(
      bundles({ submitter: row.submitter.ethereumAddress.toUpperCase().replace("0X", "0x") }).edges.length
    ).toBeGreaterThan(0)
    expect(bundles({ epochSeq: String(row.epoch) }).edges.every((e) => e.node.epochSeq === BigInt(row.epoch))).toBe(
      true
    )
  })

  it("rejects an epoch that is not an integer before anything else", () => {
    expect(call(node, path, { epochSeq: "abc", "pagination.first": 0 }).body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10036,"message":"failed to parse epoch id","inner":"epochSql: abc: strconv.ParseInt: parsing \\"abc\\": invalid syntax"}]}'
    )
    expect(JSON.parse(call(node, path, { "pagination.first": 0 }).body).details[0].code).toBe(10028)
    expect(JSON.parse(call(node, path, { submitter: "abcd" }).body).details[0].code).toBe(270001)
  })
})
