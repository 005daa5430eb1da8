import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { generate, outputFile, sourceFile } from "../codegen/networkParameters.js"
import { TESTNET_NETWORK_PARAMETERS } from "../src/internal/world/networkParameters.generated.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

// a world without governance keeps testnet's parameters as they are
const world = smallWorld({ activity: { proposalChance: 0 } })

type Query = Parameters<typeof call>[2]

const list = (query: Query = {}, node = nodeOf(world)) =>
  decoded(DataNode.ListNetworkParametersResponse, call(node, "/api/v2/network/parameters", query)).networkParameters
const get = (key: string, node = nodeOf(world)) => call(node, "/api/v2/network/parameters/{key}", {}, { key })

const captured = JSON.parse(readFileSync(sourceFile, "utf8")) as {
  networkParameters: { edges: Array<{ node: { key: string; value: string }; cursor: string }> }
}

describe("src/internal/world/networkParameters.generated.ts", () => {
  it("is what the generator writes (`pnpm generate` mends it)", async () => {
    expect(readFileSync(outputFile, "utf8")).toBe(await generate())
  }, 30_000)
})

describe("ListNetworkParameters", () => {
  it("answers the captured testnet set byte for byte on one page", () => {
    const reply = call(nodeOf(world), "/api/v2/network/parameters", { "pagination.first": 1000 })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body)).toEqual(captured)
    expect(TESTNET_NETWORK_PARAMETERS.length).toBe(209)
  })

  it("pages by key ascending, the cursor being the key, newestFirst ignored", () => {
    const first = list({ "pagination.first": 3 })
    expect(first.edges.map((e) => e.node.key)).toEqual(
      captured.networkParameters.edges.slice(0, 3).map((e) => e.node.key)
    )
    expect(cursorJson(first.pageInfo.endCursor)).toBe(first.edges[2].node.key)
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    expect(list({ "pagination.first": 3, "pagination.newestFirst": true })).toEqual(first)
    expect(list({ "pagination.first": 3, "pagination.newestFirst": false })).toEqual(first)

    const all = walk((after) => {
      const page = list({ "pagination.first": 50, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: page.edges.map((e) => e.node.key), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(all).toEqual(captured.networkParameters.edges.map((e) => e.node.key))

    // backward from the end, and a cursor that is no key (any text is a cursor; with a full
    // page after it, the first row read is taken for the cursor's, as the node's paging does)
    const last = list({ "pagination.last": 2 })
    expect(last.edges.map((e) => e.node.key)).toEqual(all.slice(-2))
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    const before = list({ "pagination.last": 2, "pagination.before": last.pageInfo.startCursor })
    expect(before.edges.map((e) => e.node.key)).toEqual(all.slice(-4, -2))
    const between = list({ "pagination.first": 2, "pagination.after": Buffer.from("market.").toString("base64") })
    expect(between.edges.map((e) => e.node.key)).toEqual(all.filter((k) => k > "market.").slice(1, 3))
    expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
  })

  it("answers the pagination's errors", () => {
    const reply = call(nodeOf(world), "/api/v2/network/parameters", {
      "pagination.after": "YQ==",
      "pagination.before": "YQ=="
    })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10028,
      message: "invalid pagination",
      inner: "cannot set both a before and after cursor"
    })
  })
})

describe("GetNetworkParameter", () => {
  it("answers a parameter by its exact key", () => {
    const [key, value] = TESTNET_NETWORK_PARAMETERS[100]
    const reply = get(key)
    expect(reply.status).toBe(200)
    expect(reply.body).toBe(JSON.stringify({ networkParameter: { key, value } }))
    expect(decoded(DataNode.GetNetworkParameterResponse, reply).networkParameter).toEqual({ key, value })
  })

  it("answers an unknown key with the store's not-found error", () => {
    const reply = get("market.nope")
    expect(reply.status).toBe(404)
    expect(reply.body).toBe(
      JSON.stringify({
        code: 5,
        message: "NotFound error",
        details: [
          {
            "@type": "type.googleapis.com/vega.ErrorDetail",
            code: 100002,
            message: "failed to get network parameters",
            inner: "no resource corresponding to this id"
          }
        ]
      })
    )
    expect(get(TESTNET_NETWORK_PARAMETERS[0][0].toUpperCase()).status).toBe(404)
  })

  it("serves the values the world's enacted proposals set, and testnet's for the rest", () => {
    const w = smallWorld()
    const changed = new Map<string, string>()
    const enacted = w.governance.placed
      .map((first) => w.governance.current(first.id)!)
      .filter((row) => row.state === "STATE_ENACTED" && row.change !== undefined)
      .sort((a, b) => a.from - b.from)
    for (const row of enacted) changed.set(row.change!.key, row.change!.value)
    expect(changed.size).toBeGreaterThan(0)
    const served = list({ "pagination.first": 1000 }, nodeOf(w)).edges.map((e) => [e.node.key, e.node.value])
    expect(served).toEqual(TESTNET_NETWORK_PARAMETERS.map(([key, value]) => [key, changed.get(key) ?? value]))
  })

  it("serves a changed value from the height that changed it", () => {
    const w = smallWorld()
    const key = "governance.proposal.freeform.minClose"
    const before = w.networkParameters.current(key)
    w.networkParameters.set(key, "1h", w.height + 1)
    expect(JSON.parse(get(key, nodeOf(w)).body).networkParameter.value).toBe(before)
    w.advance(1)
    expect(JSON.parse(get(key, nodeOf(w)).body).networkParameter.value).toBe("1h")
    expect(list({ "pagination.first": 1000 }, nodeOf(w)).edges.find((e) => e.node.key === key)?.node.value).toBe("1h")
  })
})

describe("GetNetworkLimits", () => {
  it("derives the limits from the limits.* parameters", () => {
    const limits = decoded(DataNode.GetNetworkLimitsResponse, call(nodeOf(world), "/api/v2/network/limits", {})).limits!
    // testnet's parameters: no "from" times, spot and perpetual markets enabled
    expect(limits).toMatchObject({
      canProposeMarket: true,
      canProposeAsset: true,
      genesisLoaded: true,
      proposeMarketEnabledFrom: 0n,
      canProposeSpotMarket: true,
      canProposePerpetualMarket: true
    })
    const later = JSON.parse(call(nodeOf(world, { nodeVersion: "v0.79" }), "/api/v2/network/limits", {}).body)
    expect(later.limits.canUseAmm).toBe(false)
    expect(JSON.parse(call(nodeOf(world), "/api/v2/network/limits", {}).body).limits.canUseAmm).toBeUndefined()
  })
})
