import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { isLiveAt } from "../src/internal/world/liquidity.js"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const PATH = "/api/v2/liquidity/providers"
const MARKET_DATA = "/api/v2/market/data/{marketId}/latest"

const world = smallWorld({ blocksPerEpoch: 10 })
world.advance(12)
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]
const providers = (query: Query, height?: number) =>
  decoded(
    DataNode.ListLiquidityProvidersResponse,
    call(height === undefined ? node : nodeOf(world, { height }), PATH, query)
  ).liquidityProviders

const market = world.catalog.markets.find((m) => world.marketData.providersAt(m, world.height).length > 1)!

describe("GET /api/v2/liquidity/providers", () => {
  it("lists a market's fee shares and SLAs as its market data has them, newest first", () => {
    const page = providers({ marketId: market.id })
    const data = JSON.parse(call(node, MARKET_DATA, {}, { marketId: market.id }).body).marketData
    const live = (world.liquidityProvisions.byMarket.get(market.id) ?? []).filter((r) => isLiveAt(r, world.height))
    // one row per live provision of each party with a fee share
    const expected = data.liquidityProviderFeeShare.flatMap((s: { party: string }) =>
      live.filter((r) => r.party.id === s.party).map(() => s.party)
    )
    const parties = page.edges.map((e) => e.node.partyId)
    expect(parties).toEqual([...expected].sort().reverse())
    const body = JSON.parse(call(node, PATH, { marketId: market.id }).body)
    for (const edge of body.liquidityProviders.edges) {
      const share = data.liquidityProviderFeeShare.find((s: { party: string }) => s.party === edge.node.partyId)
      const sla = data.liquidityProviderSla.find((s: { party: string }) => s.party === edge.node.partyId)
      expect(edge.node).toEqual({ partyId: share.party, marketId: market.id, feeShare: share, sla })
    }
    const ascending = providers({ marketId: market.id, "pagination.newestFirst": false }).edges
    expect(ascending.map((e) => e.node.partyId)).toEqual([...parties].reverse())
  })

  it("filters by party, in any case", () => {
    const party = providers({ marketId: market.id }).edges[0].node.partyId
    const own = providers({ partyId: party.toUpperCase() }).edges
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((e) => e.node.partyId === party)).toBe(true)
    expect(own.some((e) => e.node.marketId === market.id)).toBe(true)
    expect(providers({ partyId: "ab".repeat(32) }).edges).toEqual([])
    expect(providers({ marketId: "" }).edges).toEqual([])
  })

  it("pages the first page only; the cursor names the party alone", () => {
    const first = providers({ marketId: market.id, "pagination.first": 1 })
    expect(first.edges.length).toBe(1)
    expect(first.pageInfo.hasNextPage).toBe(true)
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({
      marketId: "",
      partyId: first.edges[0].node.partyId,
      ordinality: 0
    })
    const next = call(node, PATH, { marketId: market.id, "pagination.after": first.pageInfo.endCursor })
    expect(next.status).toBe(500)
    expect(JSON.parse(next.body).details[0]).toMatchObject({
      code: 10000,
      message: "failed to get liquidity providers",
      inner: `marketID: ${market.id}: ERROR: column reference "market_id" is ambiguous (SQLSTATE 42702)`
    })
  })

  it("is empty before the exchange opened", () => {
    expect(providers({ marketId: market.id }, world.marketData.firstHeight - 1).edges).toEqual([])
  })

  it("needs a market or a party", () => {
    expect(call(node, PATH, {})).toEqual({
      status: 400,
      body: '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10015,"message":"malformed request","inner":"marketId or partyId or both must be provided"}]}'
    })
    expect(call(node, PATH, { partyId: "xyz" }).status).toBe(400)
  })
})
