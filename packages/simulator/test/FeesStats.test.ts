import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { quantumAmount } from "../src/internal/api/feesStats.js"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const STATS = "/api/v2/fees/stats"
const FOR_PARTY = "/api/v2/fees/stats/parties/{partyId}"

const world = smallWorld({ blocksPerEpoch: 10 })
world.advance(35)
const node = nodeOf(world)
const latest = world.feesStats.latestEpoch(world.height)
const market = world.catalog.markets[0]
const asset = market.settlementAsset

type Query = Parameters<typeof call>[2]
const stats = (query: Query, height?: number) =>
  decoded(DataNode.GetFeesStatsResponse, call(height === undefined ? node : nodeOf(world, { height }), STATS, query))
    .feesStats!
const forParty = (party: string, query: Query = {}, height?: number) =>
  decoded(
    DataNode.GetFeesStatsForPartyResponse,
    call(height === undefined ? node : nodeOf(world, { height }), FOR_PARTY, query, { partyId: party })
  ).feesStatsForParty

/** The world's trades of a market in an epoch that the fee engine tallies. */
const tradesOf = (epoch: number, m = market) =>
  (world.exchange.trades.byMarket[m.index] ?? []).filter(
    (t) => world.chain.epochOf(t.height) === epoch && t.type === "TYPE_DEFAULT"
  )

describe("GET /api/v2/fees/stats", () => {
  it("answers the last ended epoch's stats of a market, agreeing with its trades", () => {
    expect(latest).toBe(world.chain.epochOf(world.height) - 1)
    const s = stats({ marketId: market.id })
    expect(s.market).toBe(market.id)
    expect(s.asset).toBe(asset.id)
    expect(s.epochSeq).toBe(BigInt(latest))
    const trades = tradesOf(latest)
    expect(trades.length).toBeGreaterThan(0)
    const received = new Map<string, bigint>()
    for (const t of trades) {
      const maker = t.aggressor === "SIDE_BUY" ? t.seller.id : t.buyer.id
      const fee = t.aggressor === "SIDE_BUY" ? t.buyerFee.makerFee : t.sellerFee.makerFee
      received.set(maker, (received.get(maker) ?? 0n) + fee)
    }
    expect(s.totalMakerFeesReceived.map((p) => [p.party, p.amount])).toEqual(
      [...received].sort(([a], [b]) => (a < b ? -1 : 1))
    )
    const generated = s.makerFeesGenerated.flatMap((g) => g.makerFeesPaid.map((p) => p.amount))
    expect(generated.reduce((a, b) => a + b, 0n)).toBe([...received.values()].reduce((a, b) => a + b, 0n))
    // takers are sorted, each with zero discounts; no referral rewards in the world
    const takers = s.makerFeesGenerated.map((g) => g.taker)
    expect(takers).toEqual([...takers].sort())
    expect(s.refereesDiscountApplied.map((p) => p.party)).toEqual(takers)
    expect(s.volumeDiscountApplied.every((p) => p.amount === 0n)).toBe(true)
    expect(s.totalRewardsReceived).toEqual([])
    expect(s.totalFeesPaidAndReceived).toEqual([])
  })

  it("selects an epoch, and an asset's market with the lowest id", () => {
    expect(stats({ marketId: market.id, epochSeq: 2n }).epochSeq).toBe(2n)
    // epochs before the exchange opened have stats with empty lists
    expect(stats({ marketId: market.id, epochSeq: 2n }).totalMakerFeesReceived).toEqual([])
    const ofAsset = world.catalog.markets.filter((m) => m.settlementAsset === asset).map((m) => m.id)
    expect(stats({ assetId: asset.id }).market).toBe([...ofAsset].sort()[0])
  })

  it("filters by taker only, keeping the party's entries", () => {
    const s = stats({ marketId: market.id })
    const taker = s.makerFeesGenerated[0].taker
    const one = stats({ marketId: market.id, partyId: taker })
    expect(one.makerFeesGenerated.map((g) => g.taker)).toEqual([taker])
    expect(one.refereesDiscountApplied.map((p) => p.party)).toEqual([taker])
    const onlyMaker = s.totalMakerFeesReceived.find((p) => !s.makerFeesGenerated.some((g) => g.taker === p.party))
    if (onlyMaker !== undefined) {
      expect(JSON.parse(call(node, STATS, { marketId: market.id, partyId: onlyMaker.party }).body)).toMatchObject({
        code: 13,
        details: [{ code: 10000, message: "failed to get current fees stats", inner: "no  fees stats found" }]
      })
    }
  })

  it("reads as of the node's height", () => {
    const earlier = world.chain.epochLastBlock(latest) - 1
    expect(stats({ marketId: market.id }, earlier).epochSeq).toBe(BigInt(latest - 1))
  })

  it("answers the node's errors", () => {
    expect(call(node, STATS, {})).toEqual({
      status: 500,
      body: '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"marketID or assetID must be provided","inner":""}]}'
    })
    const both = JSON.parse(call(node, STATS, { marketId: market.id, assetId: asset.id }).body)
    expect(both.details[0].inner).toBe("only a marketID or assetID should be provided")
    expect(call(node, STATS, { marketId: "zz" }).status).toBe(400)
    expect(JSON.parse(call(node, STATS, { marketId: "ab".repeat(32) }).body).details[0].inner).toBe(
      "no  fees stats found"
    )
    expect(call(node, STATS, { marketId: market.id, epochSeq: BigInt(latest + 1) }).status).toBe(500)
  })

  it("writes quantum amounts truncated to 6 places", () => {
    expect(quantumAmount(1234n, "1000000")).toBe("0.001234")
    expect(quantumAmount(0n, "1000000")).toBe("0")
    expect(quantumAmount(12_500_000n, "1000000")).toBe("12.5")
    expect(quantumAmount(1n, "1000000000000000000")).toBe("0")
  })
})

describe("GET /api/v2/fees/stats/parties/{partyId}", () => {
  it("sums a party's maker fees per asset over an epoch range", () => {
    const s = stats({ marketId: market.id })
    const maker = s.totalMakerFeesReceived[0].party
    const last = forParty(maker)
    const own = last.find((r) => r.assetId === asset.id)!
    // the last epoch, all the party's markets of the asset
    let expected = 0n
    for (const m of world.catalog.markets.filter((x) => x.settlementAsset === asset)) {
      for (const t of tradesOf(latest, m)) {
        const isMaker = (t.aggressor === "SIDE_BUY" ? t.seller.id : t.buyer.id) === maker
        if (isMaker) expected += t.aggressor === "SIDE_BUY" ? t.buyerFee.makerFee : t.sellerFee.makerFee
      }
    }
    expect(own.totalMakerFeesReceived).toBe(expected)
    expect(own.refereesDiscountApplied).toBe(0n)
    const ids = last.map((r) => r.assetId)
    expect(ids).toEqual([...ids].sort())
    const all = forParty(maker, { fromEpoch: 1n }).find((r) => r.assetId === asset.id)!
    expect(all.totalMakerFeesReceived >= own.totalMakerFeesReceived).toBe(true)
    expect(forParty(maker, { fromEpoch: 1n, toEpoch: 1n })).toEqual([])
    expect(forParty(maker, { assetId: asset.id }).map((r) => r.assetId)).toEqual([asset.id])
  })

  it("is empty for an unknown party and rejects an id that is not hex", () => {
    expect(forParty("ab".repeat(32))).toEqual([])
    expect(call(node, FOR_PARTY, {}, { partyId: "xyz" }).status).toBe(400)
  })
})
