import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const PATH = "/api/v2/liquidity/paidfees"

const world = smallWorld({ blocksPerEpoch: 10 })
world.advance(35)
const node = nodeOf(world)
const latest = world.feesStats.latestEpoch(world.height)

type Query = Parameters<typeof call>[2]
const paid = (query: Query = {}, height?: number) =>
  decoded(
    DataNode.ListPaidLiquidityFeesResponse,
    call(height === undefined ? node : nodeOf(world, { height }), PATH, query)
  ).paidLiquidityFees

/** The liquidity fees a market's trades paid in an epoch. */
const collected = (marketIndex: number, epoch: number) =>
  (world.exchange.trades.byMarket[marketIndex] ?? [])
    .filter((t) => world.chain.epochOf(t.height) === epoch)
    .reduce((sum, t) => sum + t.buyerFee.liquidityFee + t.sellerFee.liquidityFee, 0n)

describe("GET /api/v2/liquidity/paidfees", () => {
  it("lists the last epoch's allocations, newest first by default, agreeing with the trades", () => {
    const page = paid()
    expect(page.edges.length).toBeGreaterThan(0)
    expect(page.edges.every((e) => e.node.epochSeq === BigInt(latest))).toBe(true)
    const ids = page.edges.map((e) => e.node.market)
    // newest first reverses the base order (market id ascending)
    expect(ids).toEqual([...ids].sort().reverse())
    for (const { node: row } of page.edges) {
      const market = world.catalog.marketById.get(row.market)!
      expect(row.asset).toBe(market.settlementAsset.id)
      const sum = row.feesPaidPerParty.reduce((s, p) => s + p.amount, 0n)
      expect(sum).toBe(row.totalFeesPaid)
      // allocated in proportion to commitments, rounded down: at most one unit short per provider
      const fees = collected(market.index, latest)
      expect(row.totalFeesPaid <= fees).toBe(true)
      expect(fees - row.totalFeesPaid < BigInt(row.feesPaidPerParty.length)).toBe(true)
      const providers = world.marketData.providersAt(market, world.chain.epochLastBlock(latest))
      expect(row.feesPaidPerParty.map((p) => p.party)).toEqual(providers.map((p) => p.party.id).sort())
    }
    expect(paid({ "pagination.newestFirst": false }).edges.map((e) => e.node.market)).toEqual([...ids].reverse())
  })

  it("filters by market, asset, epoch and parties", () => {
    const row = paid().edges[0].node
    const market = world.catalog.marketById.get(row.market)!
    const history = paid({ marketId: market.id, assetId: market.settlementAsset.id }).edges.map((e) => e.node.epochSeq)
    // every epoch with fees, newest first reverses epoch descending: ascending
    expect(history.length).toBeGreaterThan(1)
    expect(history).toEqual([...history].sort((a, b) => (a < b ? -1 : 1)))
    expect(paid({ marketId: market.id }).edges.map((e) => e.node.epochSeq)).toEqual([BigInt(latest)])
    expect(
      paid({ assetId: market.settlementAsset.id }).edges.every((e) => e.node.asset === market.settlementAsset.id)
    ).toBe(true)
    expect(paid({ epochSeq: 1n }).edges).toEqual([])
    const party = row.feesPaidPerParty[0].party
    const own = paid({ partyIds: [party] }).edges
    expect(own.length).toBeGreaterThan(0)
    for (const e of own) expect(e.node.feesPaidPerParty.map((p) => p.party)).toEqual([party])
    expect(own.find((e) => e.node.market === row.market)!.node.totalFeesPaid).toBe(row.totalFeesPaid)
    expect(paid({ partyIds: ["ab".repeat(32)] }).edges).toEqual([])
  })

  it("pages the first page only: any cursor fails", () => {
    const first = paid({ "pagination.first": 1 })
    expect(first.edges.length).toBe(1)
    expect(first.pageInfo.hasNextPage).toBe(paid().edges.length > 1)
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({
      Epoch: latest,
      MarketID: first.edges[0].node.market,
      AssetID: first.edges[0].node.asset
    })
    const next = call(node, PATH, { "pagination.first": 1, "pagination.after": first.pageInfo.endCursor })
    expect(next.status).toBe(500)
    expect(JSON.parse(next.body).details[0]).toMatchObject({
      code: 10000,
      message: "failed to list paid liquidity fees",
      inner: "building cursor predicate: no field matching column name epoch_seq"
    })
    expect(paid({ "pagination.last": 1 }).edges.length).toBe(1)
  })

  it("reads as of the node's height", () => {
    const before = world.chain.epochLastBlock(latest) - 1
    expect(paid({}, before).edges.every((e) => e.node.epochSeq === BigInt(latest - 1))).toBe(true)
  })

  it("rejects ids that are not hex", () => {
    const reply = call(node, PATH, { marketId: "xyz" })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0].message).toBe("failed to list paid liquidity fees")
  })
})
