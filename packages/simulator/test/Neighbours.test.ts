import { describe, expect, it } from "@effect/vitest"
import { Asset, ChainInfo, CoreApi, Epoch, Market } from "@vega-effect/schema"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)

describe("neighbour endpoints", () => {
  it("/blockchain/height gives what a submitter needs", () => {
    const res = decoded(ChainInfo.LastBlockHeightResponse, call(node, "/blockchain/height"))
    expect(res.height).toBe(BigInt(world.height))
    expect(res.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(res.spamPowHashFunction).toBe("sha3_24_rounds")
    expect(res.chainId).toBe(world.chain.chainId)
  })

  it("/statistics and /api/v2/vega/time follow the block", () => {
    const stats = decoded(ChainInfo.StatisticsResponse, call(node, "/statistics")).statistics
    expect(stats.blockHeight).toBe(BigInt(world.height))
    expect(stats.epochSeq).toBe(BigInt(world.epoch))
    expect(stats.status).toBe("CHAIN_STATUS_CONNECTED")
    const time = decoded(ChainInfo.GetVegaTimeResponse, call(node, "/api/v2/vega/time"))
    expect(time.timestamp).toBe(BigInt(world.chain.blockTime(world.height)) * 1000n)
    expect(decoded(ChainInfo.InfoResponse, call(node, "/api/v2/info")).version).toBe("v0.75.8")
  })

  it("core's /time gives the core's block time, ahead of a lagging data node's", () => {
    const lagging = nodeOf(world, { height: world.height - 2 })
    const core = decoded(CoreApi.GetVegaTimeResponse, call(lagging, "/time"))
    expect(core.timestamp).toBe(BigInt(world.chain.blockTime(world.height)) * 1000n)
    const node = decoded(ChainInfo.GetVegaTimeResponse, call(lagging, "/api/v2/vega/time"))
    expect(node.timestamp).toBe(BigInt(world.chain.blockTime(world.height - 2)) * 1000n)
    expect(call(lagging, "/time").body).toMatch(/^\{"timestamp":"\d{19}"\}$/)
  })

  it("/api/v2/epoch gives the current epoch or one by id", () => {
    const current = decoded(Epoch.GetEpochResponse, call(node, "/api/v2/epoch")).epoch
    expect(current.seq).toBe(BigInt(world.epoch))
    expect(current.timestamps.endTime).toBe(0n)
    const past = decoded(Epoch.GetEpochResponse, call(node, "/api/v2/epoch", { id: 2n })).epoch
    expect(past.timestamps.firstBlock).toBe(BigInt(world.chain.epochFirstBlock(2)))
    expect(past.timestamps.endTime > past.timestamps.startTime).toBe(true)
    const unknown = call(node, "/api/v2/epoch", { id: 10_000n })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 250001,
      message: "failed to get epoch",
      inner: "no resource corresponding to this id"
    })
  })

  it("assets have 18 and 6 decimals; markets have price and position decimals", () => {
    const assets = decoded(Asset.ListAssetsResponse, call(node, "/api/v2/assets")).assets.edges.map((e) => e.node)
    const decimals = new Set(assets.map((a) => a.details.decimals))
    expect(decimals).toEqual(new Set([18, 6]))
    const vega = decoded(
      Asset.GetAssetResponse,
      call(node, "/api/v2/asset/{assetId}", {}, { assetId: world.catalog.vega.id })
    )
    expect(vega.asset.details.symbol).toBe("VEGA")
    const markets = decoded(Market.ListMarketsResponse, call(node, "/api/v2/markets")).markets.edges.map((e) => e.node)
    expect(markets.length).toBe(world.catalog.markets.length)
    expect(markets.some((m) => m.positionDecimalPlaces < 0)).toBe(true)
    for (const m of markets) expect(assets.some((a) => a.id === Market.settlementAsset(m))).toBe(true)
  })

  it("answers unknown and invalid ids like the node", () => {
    const unknown = call(node, "/api/v2/market/{marketId}", {}, { marketId: "ab".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toBe(
      '{"code":5,"message":"NotFound error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":30002,"message":"failed to get market for ID","inner":"no resource corresponding to this id"}]}'
    )
    expect(call(node, "/api/v2/market/{marketId}", {}, { marketId: "x" }).status).toBe(400)
    const asset = call(node, "/api/v2/asset/{assetId}", {}, { assetId: "cd".repeat(32) })
    expect(asset.status).toBe(404)
    expect(JSON.parse(asset.body).details[0].code).toBe(200002)
  })
})
