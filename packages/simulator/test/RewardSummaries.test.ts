import { describe, expect, it } from "@effect/vitest"
import { RewardSummary } from "@vega-effect/schema"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const path = "/api/v2/rewards/summaries"

describe("GET /api/v2/rewards/summaries", () => {
  const world = smallWorld()
  const summaries = (query: Parameters<typeof call>[2] = {}, node = nodeOf(world)) =>
    decoded(RewardSummary.ListRewardSummariesResponse, call(node, path, query)).summaries

  it("returns every party and asset in one unpaged answer, ignoring pagination", () => {
    const all = summaries()
    expect(all.length).toBeGreaterThan(100)
    expect(summaries({ "pagination.first": 0, "pagination.after": "garbage" })).toEqual(all)
    expect(all.some((s) => s.assetId === world.catalog.vega.id && s.amount % 1_000_000_000_000n === 0n)).toBe(true)
  })

  it("filters by party and asset", () => {
    const one = summaries()[0]
    const byParty = summaries({ partyId: one.partyId })
    const byAsset = summaries({ assetId: one.assetId })
    // a filter that returned nothing would pass `every` without checking anything
    expect(byParty.length).toBeGreaterThan(0)
    expect(byAsset.length).toBeGreaterThan(1)
    expect(byParty.filter((s) => s.partyId !== one.partyId)).toEqual([])
    expect(byAsset.filter((s) => s.assetId !== one.assetId)).toEqual([])
    expect(summaries({ partyId: "ab".repeat(32) })).toEqual([])
  })

  it("rejects ids that are not hex", () => {
    const reply = call(nodeOf(world), path, { assetId: "xyz" })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0]).toMatchObject({
      code: 140001,
      message: "failed to get summary",
      inner:
        "querying rewards: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
    })
  })

  it("grows at each epoch end", () => {
    const w = smallWorld()
    const total = (list: ReadonlyArray<RewardSummary.RewardSummary>) => list.reduce((s, x) => s + x.amount, 0n)
    const before = total(summaries({}, nodeOf(w)))
    const epoch = w.epoch
    while (w.epoch === epoch) w.advance(1)
    expect(total(summaries({}, nodeOf(w)))).toBeGreaterThan(before)
  })
})
