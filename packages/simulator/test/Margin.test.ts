import { describe, expect, it } from "@effect/vitest"
import { type Commands, DataNode, StreamForm, Vega } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Schema } from "effect"
import { accountId } from "../src/internal/api/accounts.js"
import { marketJson } from "../src/internal/api/marketJson.js"
import { ISOLATED_MARGIN_NOT_MODELLED } from "../src/internal/world/batch.js"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import { versionAt } from "../src/internal/world/versioned.js"
import type { World } from "../src/World.js"
import { block, freshKey, marketOrder } from "./support/apply.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"
import { request } from "./support/http.js"
import { connect, type SocketClient, sleep } from "./support/streams.js"

type Query = Parameters<typeof call>[2]

const errorOf = (reply: { status: number; body: string }) => {
  const body = JSON.parse(reply.body) as {
    code: number
    details: ReadonlyArray<{ code: number; message: string; inner: string }>
  }
  const { code, inner, message } = body.details[0]
  return { status: reply.status, grpc: body.code, code, message, inner }
}

/** A decimal string as an exact fraction. */
const fraction = (text: string): { n: bigint; d: bigint } => {
  const [whole, frac = ""] = text.split(".")
  return { n: BigInt(whole + frac), d: 10n ** BigInt(frac.length) }
}

const ceilDiv = (n: bigint, d: bigint) => (n + d - 1n) / d
/** Half away from zero, for non-negative values. */
const roundDiv = (n: bigint, d: bigint) => (2n * n + d) / (2n * d)

/** The risk factors and scaling factors as the node serves them. */
const riskOf = (world: World, market: MarketInfo) => {
  const rf = JSON.parse(
    call(nodeOf(world), "/api/v2/market/{marketId}/risk/factors", {}, { marketId: market.id }).body
  ).riskFactor
  const scaling = JSON.parse(marketJson(market, "v0.75")).tradableInstrument.marginCalculator.scalingFactors
  return { long: fraction(rf.long), short: fraction(rf.short), scaling }
}

/** The core's levels, written out from the served factors (no code of the simulator's). */
const expectedLevels = (world: World, market: MarketInfo, volume: bigint, mark: bigint) => {
  const { long, scaling, short } = riskOf(world, market)
  const rf = volume >= 0n ? long : short
  const size = volume < 0n ? -volume : volume
  const exp = market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
  const n = size * mark * rf.n * (exp > 0 ? 10n ** BigInt(exp) : 1n)
  const d = rf.d * (exp < 0 ? 10n ** BigInt(-exp) : 1n)
  const maintenance = ceilDiv(n, d)
  const scaled = (f: number) => (maintenance * BigInt(Math.round(f * 100_000))) / 100_000n
  return {
    maintenanceMargin: String(maintenance),
    searchLevel: String(scaled(scaling.searchLevel)),
    initialMargin: String(scaled(scaling.initialMargin)),
    collateralReleaseLevel: String(scaled(scaling.collateralRelease))
  }
}

const levelsPage = (world: World, query: Query = {}) =>
  decoded(DataNode.ListMarginLevelsResponse, call(nodeOf(world), "/api/v2/margin/levels", query)).marginLevels!

const allLevels = (world: World, query: Query = {}) =>
  walk((after) => {
    const page = levelsPage(world, {
      "pagination.first": 9,
      ...query,
      ...(after === undefined ? {} : { "pagination.after": after })
    })
    return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

const rawLevels = (world: World, query: Query = {}) =>
  JSON.parse(call(nodeOf(world), "/api/v2/margin/levels", { "pagination.first": 1000, ...query }).body).marginLevels
    .edges as ReadonlyArray<{ node: any; cursor: string }>

describe("GET /api/v2/margin/levels", () => {
  for (const [seed, blocks] of [
    [7, 30],
    [12, 45]
  ] as const) {
    it(`agrees with positions, marks, risk factors and margin accounts (seed ${seed}, ${blocks} blocks)`, () => {
      const world = smallWorld({ seed })
      world.advance(blocks)
      const edges = rawLevels(world)
      expect(edges.length).toBeGreaterThan(20)
      const accounts = world.accounts
      let held = 0
      for (const { node } of edges) {
        const party = world.catalog.partyById.get(node.partyId)!
        const market = world.catalog.marketById.get(node.marketId)!
        const position = world.positions.current.get(world.positions.keyOf(party, market))!
        const row = versionAt(
          accounts.marginLevels.byAccount.get(
            `${party.id}/${market.settlementAsset.id}/${market.id}/ACCOUNT_TYPE_MARGIN`
          ),
          world.height
        )!
        const mark = world.exchange.markPrice(market, row.from)
        expect(node).toMatchObject(expectedLevels(world, market, BigInt(position.openVolume), mark))
        expect(node).toMatchObject({
          asset: market.settlementAsset.id,
          timestamp: `${world.chain.blockTime(row.from)}000`,
          orderMargin: "0",
          marginMode: "MARGIN_MODE_CROSS_MARGIN",
          marginFactor: "0"
        })
        // the margin account holds the initial margin, or less when the general account ran dry
        const margin = accounts.byKey.get(row.account.key)!
        const balance = accounts.balance(margin)
        expect(balance <= BigInt(node.initialMargin)).toBe(true)
        if (balance === BigInt(node.initialMargin)) held++
      }
      expect(held / edges.length).toBeGreaterThan(0.9)
      // every margin account of the world has its levels, the network's positions none
      const margins = [...accounts.byKey.values()].filter((a) => a.type === "ACCOUNT_TYPE_MARGIN")
      expect(margins.length).toBe(edges.length)
      expect(edges.some((e) => e.node.partyId === "network")).toBe(false)
    })
  }

  it("is deterministic: the same seed and blocks, however batched, give the same bytes", () => {
    const a = smallWorld({ seed: 9 })
    a.advance(20)
    const b = smallWorld({ seed: 9 })
    for (let i = 0; i < 4; i++) b.advance(5)
    const body = (w: World) => call(nodeOf(w), "/api/v2/margin/levels", { "pagination.first": 1000 }).body
    expect(body(a)).toBe(body(b))
    expect(body(a).length).toBeGreaterThan(10_000)
  })

  const world = smallWorld()
  world.advance(30)

  it("pages by block time then margin account id, newest first or oldest first, with the node's cursor", () => {
    const edges = rawLevels(world)
    const keys = edges.map(({ node }) => {
      const market = world.catalog.marketById.get(node.marketId)!
      const account = world.accounts.byKey.get(
        `${node.partyId}/${market.settlementAsset.id}/${market.id}/ACCOUNT_TYPE_MARGIN`
      )!
      return { t: BigInt(node.timestamp), id: accountId(account) }
    })
    // newest first unless told
    const sorted = [...keys].sort((a, b) => (a.t < b.t ? 1 : a.t > b.t ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    expect(keys).toEqual(sorted)
    expect(new Set(keys.map((k) => k.t)).size).toBeGreaterThan(1)
    const cursor = JSON.parse(cursorJson(edges[0].cursor))
    expect(Object.keys(cursor)).toEqual(["VegaTime", "AccountID"])
    expect(cursor.AccountID).toBe(keys[0].id)
    expect(cursor.VegaTime).toMatch(/^2024-04-01T/)

    const forward = allLevels(world)
    expect(forward).toEqual(levelsPage(world, { "pagination.first": 1000 }).edges.map((e) => e.node))
    expect(forward.length).toBe(edges.length)
    const backward = allLevels(world, { "pagination.newestFirst": false })
    expect(backward).toEqual([...forward].reverse())
  })

  it("filters by party and market, ids in any case", () => {
    const { node } = rawLevels(world)[3]
    const byParty = rawLevels(world, { partyId: node.partyId.toUpperCase() })
    expect(byParty.length).toBeGreaterThan(0)
    expect(byParty.every((e) => e.node.partyId === node.partyId)).toBe(true)
    const byMarket = rawLevels(world, { marketId: node.marketId })
    expect(byMarket.every((e) => e.node.marketId === node.marketId)).toBe(true)
    expect(byMarket.length).toBe(rawLevels(world).filter((e) => e.node.marketId === node.marketId).length)
    const both = rawLevels(world, { partyId: node.partyId, marketId: node.marketId })
    expect(both.map((e) => e.node)).toEqual([node])
    expect(rawLevels(world, { partyId: "ab".repeat(32) })).toEqual([])
  })

  it("answers the node's errors", () => {
    expect(errorOf(call(nodeOf(world), "/api/v2/margin/levels", { partyId: "xyz" }))).toEqual({
      status: 400,
      grpc: 3,
      code: 70001,
      message: "failed to get margin levels",
      inner: "decoding 'xyz': not a valid hex id (or well known exception)"
    })
    const bad = errorOf(
      call(nodeOf(world), "/api/v2/margin/levels", { "pagination.after": Buffer.from("[1]").toString("base64") })
    )
    expect(bad).toMatchObject({ status: 500, grpc: 13 })
    expect(bad.inner).toContain("json: cannot unmarshal array into Go value of type entities.MarginCursor")
    expect(errorOf(call(nodeOf(world), "/api/v2/margin/levels", { "pagination.first": -1 }))).toMatchObject({
      status: 400,
      message: "invalid pagination"
    })
  })

  it("reads the node's height", () => {
    const before = world.height
    const node = rawLevels(world)[0].node
    const party = world.catalog.partyById.get(node.partyId)!
    const market = world.catalog.marketById.get(node.marketId)!
    // a fill of this party moves its levels; the node reading the old height does not see them
    const [first] = block(world, [party.id, marketOrder(market.id, "SIDE_BUY", 1n)])
    expect(first.error).toBeUndefined()
    const old = JSON.parse(
      call(nodeOf(world, { height: before }), "/api/v2/margin/levels", { partyId: party.id, marketId: market.id }).body
    ).marginLevels.edges
    expect(old.map((e: any) => e.node)).toEqual([node])
    const now = rawLevels(world, { partyId: party.id, marketId: market.id })
    expect(now[0].node.timestamp).toBe(`${world.chain.blockTime(world.height)}000`)
  })
})

describe("margin modes", () => {
  const world = smallWorld()
  world.advance(5)
  const [m0, m1] = world.catalog.markets
  const update = (marketId: string, mode: Commands.UpdateMarginMode["mode"]): Commands.Command => ({
    _tag: "updateMarginMode",
    value: {
      marketId,
      mode,
      marginFactor: mode === "MODE_ISOLATED_MARGIN" ? "0.5" : undefined
    } as Commands.UpdateMarginMode
  })
  const alice = freshKey("margin alice")
  const bob = freshKey("margin bob")
  const modes = (query: Query = {}) =>
    decoded(DataNode.ListPartyMarginModesResponse, call(nodeOf(world), "/api/v2/margin-modes", query)).partyMarginModes!

  it("records a successful cross margin update, standalone or in a batch; isolated margin fails", () => {
    expect(modes().edges).toEqual([])
    const results = block(
      world,
      [alice, update(m1.id, "MODE_CROSS_MARGIN")],
      [bob, update(m0.id, "MODE_ISOLATED_MARGIN")],
      [
        bob,
        {
          _tag: "batchMarketInstructions",
          value: {
            cancellations: [],
            amendments: [],
            submissions: [],
            updateMarginMode: [{ marketId: m1.id, mode: "MODE_CROSS_MARGIN" }],
            stopOrdersCancellation: [],
            stopOrdersSubmission: []
          } as unknown as Commands.BatchMarketInstructions
        }
      ],
      [alice, update("cd".repeat(32), "MODE_CROSS_MARGIN")]
    )
    expect(results.map((r) => r.error)).toEqual([
      undefined,
      ISOLATED_MARGIN_NOT_MODELLED,
      undefined,
      "OrderError: Invalid Market ID"
    ])
    const epoch = String(world.chain.epochOf(world.height))
    const nodes = modes().edges.map((e) => e.node)
    expect(JSON.parse(call(nodeOf(world), "/api/v2/margin-modes", {}).body).partyMarginModes.edges[0].node).toEqual({
      marketId: m1.id,
      partyId: [alice, bob].sort()[1],
      marginMode: "MARGIN_MODE_CROSS_MARGIN",
      atEpoch: epoch
    })
    // newest first unless told: market then party, descending
    expect(nodes.map((n) => [n.marketId, n.partyId])).toEqual([
      [m1.id, [alice, bob].sort()[1]],
      [m1.id, [alice, bob].sort()[0]]
    ])
    expect(modes({ "pagination.newestFirst": false }).edges.map((e) => e.node.partyId)).toEqual([alice, bob].sort())
    // a node behind the block has not seen them
    expect(
      JSON.parse(call(nodeOf(world, { height: world.height - 1 }), "/api/v2/margin-modes", {}).body).partyMarginModes
        .edges
    ).toEqual([])
  })

  it("filters, pages by market then party, and answers the node's errors", () => {
    block(world, [alice, update(m0.id, "MODE_CROSS_MARGIN")])
    const all = modes().edges.map((e) => [e.node.marketId, e.node.partyId])
    expect(all).toEqual([...all].sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? 1 : -1)))
    expect(all.length).toBe(3)
    expect(
      modes({ partyId: alice })
        .edges.map((e) => e.node.marketId)
        .sort()
    ).toEqual([m0.id, m1.id].sort())
    expect(modes({ marketId: m0.id.toUpperCase() }).edges.map((e) => e.node.partyId)).toEqual([alice])
    expect(modes({ marketId: "" }).edges).toEqual([])
    const first = modes({ "pagination.first": 1 })
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({ MarketID: all[0][0], PartyID: all[0][1] })
    const rest = modes({ "pagination.after": first.pageInfo.endCursor })
    expect(rest.edges.map((e) => [e.node.marketId, e.node.partyId])).toEqual(all.slice(1))
    expect(modes({ "pagination.last": 1 }).edges.map((e) => [e.node.marketId, e.node.partyId])).toEqual(all.slice(2))
    expect(errorOf(call(nodeOf(world), "/api/v2/margin-modes", { partyId: "nope" }))).toMatchObject({
      status: 400,
      grpc: 3,
      message: "failed to list parties margin modes",
      inner: "decoding 'nope': not a valid hex id (or well known exception)"
    })
  })
})

describe("GET /api/v2/market/{marketId}/risk/factors", () => {
  const world = smallWorld()
  const market = world.catalog.markets[1]
  const get = (marketId: string) => call(nodeOf(world), "/api/v2/market/{marketId}/risk/factors", {}, { marketId })

  it("serves the market's factors as decimal strings, short above long", () => {
    const { riskFactor } = decoded(DataNode.GetRiskFactorsResponse, get(market.id.toUpperCase()))
    expect(riskFactor!.market).toBe(market.id)
    const body = JSON.parse(get(market.id).body).riskFactor
    expect(body).toEqual({
      market: market.id,
      short: expect.stringMatching(/^0\.\d+$/),
      long: expect.stringMatching(/^0\.\d+$/)
    })
    expect(Number(body.short)).toBeGreaterThan(Number(body.long))
  })

  it("answers the node's errors", () => {
    expect(errorOf(get("xyz"))).toMatchObject({ status: 400, grpc: 3, message: "invalid market ID", inner: "" })
    const unknown = "ef".repeat(32)
    expect(errorOf(get(unknown))).toMatchObject({
      status: 404,
      grpc: 5,
      message: "failed to get risk factor",
      inner: `marketID: ${unknown}: no resource corresponding to this id`
    })
  })
})

describe("estimates", () => {
  const world = smallWorld()
  world.advance(3)
  const node = nodeOf(world)
  // a market with negative position decimals and one with positive ones
  const markets = [world.catalog.markets[0], world.catalog.markets[3]]
  const fee = (query: Query) => call(node, "/api/v2/estimate/fee", query)
  const margin = (query: Query) => call(node, "/api/v2/estimate/margin", query)
  const FACTORS = { makerFee: "0.0002", infrastructureFee: "0.0005", liquidityFee: "0.0001" }

  it("estimates a fee from the market's fee factors, rounded half away from zero", () => {
    for (const market of markets) {
      const factors = JSON.parse(marketJson(market, "v0.75")).fees.factors
      expect(factors).toMatchObject(FACTORS)
      const price = 123_457n
      const size = 37n
      const body = decoded(DataNode.EstimateFeeResponse, fee({ marketId: market.id, price: String(price), size }))
      const exp = market.settlementAsset.decimals - market.priceDecimals
      const value = price * 10n ** BigInt(exp) * size
      const p = market.positionDecimals
      for (const name of ["makerFee", "infrastructureFee", "liquidityFee"] as const) {
        const f = fraction(factors[name])
        const n = value * f.n * (p < 0 ? 10n ** BigInt(-p) : 1n)
        const d = f.d * (p > 0 ? 10n ** BigInt(p) : 1n)
        expect(body.fee![name]).toBe(roundDiv(n, d))
      }
    }
    expect(JSON.parse(fee({ marketId: markets[0].id, price: "1", size: 1n }).body).fee.makerFeeReferrerDiscount).toBe(
      ""
    )
  })

  it("rounds fees up on a v0.79 node, which adds the treasury and buy-back fees", () => {
    let differ = 0
    for (const market of world.catalog.markets) {
      for (const size of [1n, 3n, 7n]) {
        const query = { marketId: market.id, price: "3", size }
        const v75 = JSON.parse(fee(query).body).fee
        const v79 = JSON.parse(call(nodeOf(world, { nodeVersion: "v0.79" }), "/api/v2/estimate/fee", query).body).fee
        const exp = market.settlementAsset.decimals - market.priceDecimals
        const p = market.positionDecimals
        const value = 3n * 10n ** BigInt(exp) * size * (p < 0 ? 10n ** BigInt(-p) : 1n)
        const d = p > 0 ? 10n ** BigInt(p) : 1n
        for (const name of ["makerFee", "infrastructureFee", "liquidityFee"] as const) {
          const f = fraction(FACTORS[name])
          expect(v79[name]).toBe(String(ceilDiv(value * f.n, d * f.d)))
          expect(v75[name]).toBe(String(roundDiv(value * f.n, d * f.d)))
          if (v79[name] !== v75[name]) differ++
        }
        expect(Object.keys(v79).slice(-3)).toEqual(["treasuryFee", "buyBackFee", "highVolumeMakerFee"])
        expect([v79.treasuryFee, v79.buyBackFee, v79.highVolumeMakerFee]).toEqual(["0", "0", ""])
        expect(v75.treasuryFee).toBeUndefined()
      }
    }
    expect(differ).toBeGreaterThan(0)
  })

  it("answers the fee estimate's errors in the node's order", () => {
    const id = markets[0].id
    expect(errorOf(fee({ price: "1", size: 1n }))).toMatchObject({ status: 400, message: "empty or missing market ID" })
    expect(errorOf(fee({ marketId: "abc", price: "1" }))).toMatchObject({ status: 400, message: "invalid market ID" })
    expect(errorOf(fee({ marketId: id, size: 1n }))).toMatchObject({ status: 400, grpc: 3, message: "missing price" })
    expect(errorOf(fee({ marketId: "ab".repeat(32), price: "1", size: 1n }))).toMatchObject({
      status: 404,
      message: "failed to estimate fee",
      inner: "no resource corresponding to this id"
    })
    for (const price of ["abc", "0", "1.5"]) {
      expect(errorOf(fee({ marketId: id, price, size: 1n }))).toMatchObject({
        status: 400,
        message: "failed to estimate fee",
        inner: "invalid order price"
      })
    }
    expect(errorOf(fee({ marketId: id, price: "10" }))).toMatchObject({ status: 400, inner: "invalid order size" })
  })

  it("estimates margin levels with the side's risk factor, at the mark or the limit price", () => {
    for (const market of markets) {
      const { long, scaling, short } = riskOf(world, market)
      const mark = world.marketData.recordAt(market, world.height).markPrice
      const exp = market.settlementAsset.decimals - market.priceDecimals
      const p = market.positionDecimals
      const expected = (rf: { n: bigint; d: bigint }, price: bigint, size: bigint) => {
        const n = size * rf.n * price * 10n ** BigInt(exp) * (p < 0 ? 10n ** BigInt(-p) : 1n)
        const d = rf.d * (p > 0 ? 10n ** BigInt(p) : 1n)
        const level = (f: number) => String(roundDiv(n * BigInt(Math.round(f * 10)), d * 10n))
        return {
          maintenanceMargin: String(roundDiv(n, d)),
          searchLevel: level(scaling.searchLevel),
          initialMargin: level(scaling.initialMargin),
          collateralReleaseLevel: level(scaling.collateralRelease),
          partyId: "some party",
          marketId: market.id,
          asset: market.settlementAsset.id,
          timestamp: "0",
          orderMargin: "",
          marginMode: "MARGIN_MODE_CROSS_MARGIN",
          marginFactor: ""
        }
      }
      const ask = (side: string, type: string, size: bigint, price?: string) =>
        JSON.parse(
          margin({ marketId: market.id, partyId: "some party", side, type, size, ...(price ? { price } : {}) }).body
        ).marginLevels
      expect(ask("SIDE_BUY", "TYPE_MARKET", 7n)).toEqual(expected(long, mark, 7n))
      expect(ask("SIDE_SELL", "TYPE_MARKET", 7n)).toEqual(expected(short, mark, 7n))
      expect(ask("SIDE_SELL", "TYPE_LIMIT", 3n, "98765.9")).toEqual(expected(short, 98765n, 3n))
    }
  })

  it("answers the margin estimate's errors in the node's order", () => {
    const id = markets[0].id
    const failing = (query: Query) => errorOf(margin(query))
    expect(failing({ marketId: "xyz", size: 1n })).toMatchObject({
      status: 400,
      grpc: 3,
      message: "failed to estimate margin",
      inner: "invalid order side"
    })
    expect(failing({ side: "SIDE_BUY", size: 1n })).toMatchObject({
      status: 404,
      inner: "no resource corresponding to this id"
    })
    expect(failing({ side: "SIDE_BUY", marketId: "xyz" })).toMatchObject({
      status: 400,
      inner: "not a valid hex id (or well known exception)"
    })
    expect(failing({ side: "SIDE_BUY", marketId: id.toUpperCase(), size: 1n })).toMatchObject({
      status: 500,
      inner: `no market data for market: ${id.toUpperCase()}`
    })
    expect(failing({ side: "SIDE_BUY", marketId: id, type: "TYPE_LIMIT", price: "x", size: 1n })).toMatchObject({
      status: 500,
      inner: "parsing limit price: x: can't convert x to decimal"
    })
    expect(failing({ side: "SIDE_BUY", marketId: id, type: "TYPE_LIMIT", price: "1.2.3", size: 1n })).toMatchObject({
      status: 500,
      inner: "parsing limit price: 1.2.3: can't convert 1.2.3 to decimal: too many .s"
    })
    // a negative price wraps around as the node's 256-bit unsigned integer takes it
    const wrapped = JSON.parse(
      margin({ side: "SIDE_BUY", marketId: id, type: "TYPE_LIMIT", price: "-5", size: 1n }).body
    ).marginLevels
    expect(BigInt(wrapped.maintenanceMargin) > 10n ** 60n).toBe(true)
    expect(failing({ side: "SIDE_BUY", marketId: id, type: "TYPE_LIMIT", price: "0.5", size: 1n })).toMatchObject({
      status: 400,
      inner: "invalid order price"
    })
    expect(failing({ side: "SIDE_BUY", marketId: id, type: "TYPE_MARKET" })).toMatchObject({
      status: 400,
      inner: "invalid order size"
    })
  })
})

describe("/api/v2/stream/margin/levels", () => {
  const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
  /** A REST row written the way streams write it (enums as numbers, defaults left out). */
  const streamed = (rest: unknown): unknown =>
    JSON.parse(
      JSON.stringify(
        Schema.encodeSync(StreamForm.make(Vega.MarginLevels))(Schema.decodeUnknownSync(Vega.MarginLevels)(rest))
      )
    )
  const drain = async (client: SocketClient, ms = 600): Promise<Array<any>> => {
    await sleep(ms)
    const out: Array<any> = []
    while (client.frames.pending.length > 0) out.push(JSON.parse(await client.frames.next()))
    return out
  }
  const rest = async (url: string, path: string): Promise<any> => JSON.parse((await request(url, path)).text)

  it.scopedLive(
    "sends each block's levels, one per message, as REST then lists them; a party wins over the market",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ seed: 5 })
        const client = yield* promise(() => connect(sim.url, "/api/v2/stream/margin/levels"))
        yield* promise(() => sleep(100))
        expect(client.frames.pending).toEqual([])
        yield* sim.advance(2)
        const frames = yield* promise(() => drain(client))
        expect(frames.length).toBeGreaterThan(0)
        expect(frames.every((f) => Object.keys(f.result).join() === "marginLevels")).toBe(true)
        const levels = frames.map((f) => f.result.marginLevels)
        // the last block's levels are what the list serves now, once per margin account
        const lastTime = levels[levels.length - 1].timestamp
        const last = levels.filter((l) => l.timestamp === lastTime)
        expect(new Set(last.map((l) => `${l.partyId}/${l.marketId}`)).size).toBe(last.length)
        for (const l of last.slice(0, 5)) {
          const listed = yield* promise(() =>
            rest(sim.url, `/api/v2/margin/levels?partyId=${l.partyId}&marketId=${l.marketId}`)
          )
          expect(listed.marginLevels.edges.map((e: any) => streamed(e.node))).toEqual([l])
        }

        // with a party, the market filter is lost (`a && b || c` in the node's service): a stream of
        // each of a few parties, naming a market that does not exist, still gets the party's levels
        const parties = sim.world.catalog.parties.slice(1, 9).map((p) => p.id)
        const nowhere = "ab".repeat(32)
        const filtered = yield* promise(() =>
          Promise.all(
            parties.map((p) => connect(sim.url, `/api/v2/stream/margin/levels?partyId=${p}&marketId=${nowhere}`))
          )
        )
        const { marketId } = last[0]
        const byMarket = yield* promise(() => connect(sim.url, `/api/v2/stream/margin/levels?marketId=${marketId}`))
        yield* promise(() => sleep(100))
        yield* sim.advance(6)
        let got = 0
        for (const [i, stream] of filtered.entries()) {
          const mine = (yield* promise(() => drain(stream, i === 0 ? 600 : 0))).map((f) => f.result.marginLevels)
          expect(mine.every((l) => l.partyId === parties[i])).toBe(true)
          got += mine.length
        }
        expect(got).toBeGreaterThan(0)
        const inMarket = (yield* promise(() => drain(byMarket, 0))).map((f) => f.result.marginLevels)
        expect(inMarket.length).toBeGreaterThan(0)
        expect(inMarket.every((l) => l.marketId === marketId)).toBe(true)
      })
  )
})

describe("GET /api/v2/estimate/position", () => {
  const world = smallWorld()
  world.advance(3)
  const node = nodeOf(world)
  const estimate = (query: Query) => call(node, "/api/v2/estimate/position", query)
  /** An exact fraction. */
  type Q = { n: bigint; d: bigint }
  const q = (n: bigint, den = 1n): Q => ({ n, d: den })
  const times = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d)
  const plus = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d)
  const minus = (a: Q, b: Q): Q => plus(a, q(-b.n, b.d))
  const over = (a: Q, b: Q): Q => (b.n < 0n ? q(-a.n * b.d, -a.d * b.n) : q(a.n * b.d, a.d * b.n))
  /** Half away from zero. */
  const rounded = (a: Q): string => {
    const neg = a.n < 0n
    const n = neg ? -a.n : a.n
    const r = (2n * n + a.d) / (2n * a.d)
    return String(neg && r !== 0n ? -r : r)
  }

  for (const index of [0, 3]) {
    it(`estimates a cross-margin position's margins, collateral increase and liquidation price (market ${index})`, () => {
      const market = world.catalog.markets[index]
      const json = JSON.parse(marketJson(market, "v0.75"))
      const linear = fraction(json.linearSlippageFactor)
      const { long, scaling, short } = riskOf(world, market)
      const priceFactor = 10n ** BigInt(market.settlementAsset.decimals - market.priceDecimals)
      const mark = q(world.marketData.recordAt(market, world.height).markPrice * priceFactor)
      const p = market.positionDecimals
      for (const [openVolume, general] of [
        [1234n, 10n ** 22n],
        [-567n, 10n ** 22n],
        [1234n, 1000n]
      ] as const) {
        const balances = { margin: 1_000_000n, general, order: 0n }
        const body = JSON.parse(
          estimate({
            marketId: market.id,
            openVolume,
            averageEntryPrice: "1000",
            marginAccountBalance: String(balances.margin),
            generalAccountBalance: String(balances.general),
            orderMarginAccountBalance: String(balances.order),
            marginMode: "MARGIN_MODE_CROSS_MARGIN"
          }).body
        )
        const volume = p >= 0 ? q(openVolume, 10n ** BigInt(p)) : q(openVolume * 10n ** BigInt(-p))
        const size = volume.n < 0n ? q(-volume.n, volume.d) : volume
        const rf = openVolume > 0n ? long : short
        const slip = times(q(linear.n, linear.d), size)
        const best = times(times(size, mark), q(rf.n, rf.d))
        const worst = plus(times(mark, slip), best)
        const levels = (m: Q) => ({
          maintenanceMargin: rounded(m),
          searchLevel: rounded(times(m, q(BigInt(Math.round(scaling.searchLevel * 10)), 10n))),
          initialMargin: rounded(times(m, q(BigInt(Math.round(scaling.initialMargin * 10)), 10n))),
          collateralReleaseLevel: rounded(times(m, q(BigInt(Math.round(scaling.collateralRelease * 10)), 10n))),
          marginMode: "MARGIN_MODE_CROSS_MARGIN",
          orderMargin: "",
          marginFactor: "",
          partyId: "",
          timestamp: "0"
        })
        expect(body.margin.worstCase).toMatchObject(levels(worst))
        expect(body.margin.bestCase).toMatchObject(levels(best))
        const combined = balances.margin + balances.order
        expect(body.collateralIncreaseEstimate).toEqual({
          worstCase: String(BigInt(body.margin.worstCase.initialMargin) - combined),
          bestCase: String(BigInt(body.margin.bestCase.initialMargin) - combined)
        })
        const collateral = q(balances.margin + balances.general + balances.order)
        const covers = (m: Q) => collateral.n * m.d >= m.n * collateral.d
        const price = (slippage: Q, m: Q) => {
          // below the maintenance margin the position would be closed out at once: the mark
          if (!covers(m)) return rounded(mark)
          const value = over(
            minus(collateral, times(volume, mark)),
            minus(plus(slippage, times(size, q(rf.n, rf.d))), volume)
          )
          return value.n < 0n ? "0" : rounded(value)
        }
        const liquidation = (price: string) => ({
          openVolumeOnly: price,
          includingBuyOrders: price,
          includingSellOrders: price
        })
        expect(body.liquidation).toEqual({
          worstCase: liquidation(price(slip, worst)),
          bestCase: liquidation(price(q(0n), best))
        })
        expect(body.liquidation.bestCase.openVolumeOnly === rounded(mark)).toBe(!covers(best))
      }
    })
  }

  it("estimates an isolated-margin position from its entry price and margin factor", () => {
    const market = world.catalog.markets[0]
    const priceFactor = 10n ** BigInt(market.settlementAsset.decimals - market.priceDecimals)
    const body = JSON.parse(
      estimate({
        marketId: market.id,
        openVolume: -40n,
        averageEntryPrice: "987654",
        marginAccountBalance: "1000",
        generalAccountBalance: "x",
        orderMarginAccountBalance: "10",
        marginMode: "MARGIN_MODE_ISOLATED_MARGIN",
        marginFactor: "0.25"
      }).body
    )
    expect(body.margin.worstCase).toMatchObject({
      searchLevel: "0",
      collateralReleaseLevel: "0",
      orderMargin: "0",
      marginMode: "MARGIN_MODE_ISOLATED_MARGIN",
      marginFactor: "0.25"
    })
    const p = market.positionDecimals
    const notional = q(40n * 987_654n * priceFactor * (p < 0 ? 10n ** BigInt(-p) : 1n), p > 0 ? 10n ** BigInt(p) : 1n)
    const required = times(notional, q(1n, 4n))
    const delta = rounded(minus(required, q(1010n)))
    expect(body.collateralIncreaseEstimate).toEqual({ worstCase: delta, bestCase: delta })
  })

  it("writes figures beyond 256 bits, as the node's decimals do", () => {
    const body = JSON.parse(
      estimate({
        marketId: world.catalog.markets[0].id,
        openVolume: 5n,
        averageEntryPrice: "1",
        marginAccountBalance: "1e90",
        generalAccountBalance: "0",
        orderMarginAccountBalance: "0",
        marginMode: "MARGIN_MODE_CROSS_MARGIN"
      }).body
    )
    expect(body.collateralIncreaseEstimate.worstCase).toMatch(/^-\d{90}$/)
  })

  it("answers the node's errors in its order", () => {
    const id = world.catalog.markets[0].id
    const base = {
      marketId: id,
      openVolume: 1n,
      averageEntryPrice: "1",
      marginAccountBalance: "0",
      generalAccountBalance: "0",
      orderMarginAccountBalance: "0",
      marginMode: "MARGIN_MODE_CROSS_MARGIN"
    }
    expect(JSON.parse(estimate({ ...base, marketId: "" }).body)).toEqual({
      code: 2,
      message: "empty or missing market ID",
      details: []
    })
    expect(errorOf(estimate({ ...base, marginAccountBalance: "" }))).toMatchObject({
      status: 400,
      message: "invalid account balance",
      inner: "can't convert  to decimal"
    })
    expect(errorOf(estimate({ ...base, marketId: "ab".repeat(32) }))).toMatchObject({
      status: 404,
      code: 30002,
      message: "failed to get market for ID"
    })
    expect(errorOf(estimate({ ...base, generalAccountBalance: "1..2" }))).toMatchObject({
      status: 400,
      message: "invalid account balance"
    })
    expect(errorOf(estimate({ ...base, marginMode: "MARGIN_MODE_ISOLATED_MARGIN" }))).toMatchObject({
      status: 400,
      message: "missing margin factor",
      inner: "margin factor are required with isolated margin"
    })
    expect(errorOf(estimate({ ...base, marketId: id.toUpperCase() }))).toMatchObject({
      status: 500,
      code: 30004,
      inner: `no market data for market: ${id.toUpperCase()}`
    })
    expect(errorOf(estimate({ ...base, averageEntryPrice: "abc" }))).toMatchObject({
      status: 500,
      message: "can't parse average entry price: abc",
      inner: "can't convert abc to decimal"
    })
  })
})
