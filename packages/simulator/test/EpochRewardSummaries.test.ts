import { describe, expect, it } from "@effect/vitest"
import { DataNode, RewardSummary } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]

const summaries = (query: Query = {}, view = node) =>
  decoded(DataNode.ListEpochRewardSummariesResponse, call(view, "/api/v2/rewards/epoch/summaries", query)).summaries!

const allSummaries = (query: Query = {}) =>
  walk((after) => {
    const page = summaries({
      ...query,
      "pagination.first": 7,
      "pagination.newestFirst": false,
      ...(after === undefined ? {} : { "pagination.after": after })
    })
    return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

describe("ListEpochRewardSummaries", () => {
  it("sums the reward rows per epoch, asset and type, adding up to ListRewardSummaries", () => {
    const all = allSummaries()
    const rows = world.rewards.rows
    const expected = new Map<string, bigint>()
    for (const r of rows) {
      const key = `${r.epoch}/${r.asset.id}/${r.rewardType}`
      expected.set(key, (expected.get(key) ?? 0n) + r.amount)
    }
    expect(new Map(all.map((s) => [`${s.epoch}/${s.assetId}/${s.rewardType}`, s.amount]))).toEqual(expected)
    expect(all.length).toBe(expected.size)
    const totals = decoded(RewardSummary.ListRewardSummariesResponse, call(node, "/api/v2/rewards/summaries")).summaries
    const perAsset = new Map<string, bigint>()
    for (const t of totals) perAsset.set(t.assetId, (perAsset.get(t.assetId) ?? 0n) + t.amount)
    const fromEpochs = new Map<string, bigint>()
    for (const s of all) fromEpochs.set(s.assetId, (fromEpochs.get(s.assetId) ?? 0n) + s.amount)
    expect(fromEpochs).toEqual(perAsset)
    expect(all.every((s) => s.marketId === "")).toBe(true)
  })

  it("orders by epoch (newest first by default) and filters by asset and epoch range", () => {
    const all = allSummaries()
    const epochs = all.map((s) => Number(s.epoch))
    expect(epochs).toEqual([...epochs].sort((a, b) => a - b))
    const newest = summaries({ "pagination.first": 1 }).edges[0].node
    expect(newest.epoch).toBe(all[all.length - 1].epoch)
    const vega = world.catalog.vega.id
    expect(allSummaries({ "filter.assetIds": [vega.toUpperCase()] })).toEqual(all.filter((s) => s.assetId === vega))
    expect(allSummaries({ "filter.fromEpoch": 2n, "filter.toEpoch": 3n })).toEqual(
      all.filter((s) => s.epoch >= 2n && s.epoch <= 3n)
    )
    expect(allSummaries({ "filter.marketIds": ["ab".repeat(32)] })).toEqual([])
    const first = summaries({ "pagination.first": 1, "pagination.newestFirst": false })
    const s = first.edges[0].node
    expect(cursorJson(first.pageInfo.endCursor)).toBe(
      `{"epoch_id":${s.epoch},"asset_id":"${s.assetId}","market_id":"","reward_type":"${s.rewardType}","amount":"${s.amount}"}`
    )
  })

  it("reports an asset id that is not hex", () => {
    const reply = call(node, "/api/v2/rewards/epoch/summaries", { "filter.assetIds": ["zz"] })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0]).toMatchObject({
      code: 140001,
      message: "failed to get summary",
      inner: "could not decode asset ID: decoding 'zz': not a valid hex id (or well known exception)"
    })
  })
})
