import { describe, expect, it } from "@effect/vitest"
import { Commands, DataNode } from "@vega-effect/schema"
import { microsToRfc3339 } from "../src/internal/goTime.js"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import type { Depth, DepthLevel } from "../src/internal/world/marketData.js"
import type { OrderRow } from "../src/internal/world/orderTable.js"
import { visibleAt } from "../src/internal/world/versioned.js"
import { World } from "../src/World.js"
import { call, cursorJson, decoded, nodeOf, walk } from "./harness.js"

/** A small world: a few markets, few parties, two epochs of history. */
const tiny = (seed: number, positionTrades = 20) =>
  new World({
    seed,
    scale: { parties: 30, markets: 3, positions: 90, liquidityProvisions: 6, stakeLinkings: 20, epochs: 2 },
    activity: { positionTrades },
    blocksPerEpoch: 20
  })

/** The live book's levels, as plain values. */
const liveLevels = (world: World, market: MarketInfo) => {
  const book = world.exchange.books[market.index]
  const levels = (side: typeof book.bids) =>
    side.map((l) => ({
      price: l.price,
      orders: l.orders.length,
      volume: l.orders.reduce((sum, o) => sum + o.remaining, 0n)
    }))
  return { buy: levels(book.bids), sell: levels(book.asks) }
}

/** The market's limit orders that can rest (neither IOC nor FOK), every version. */
const limitVersions = (world: World, market: MarketInfo): Array<OrderRow> =>
  world.exchange.orders.log.filter(
    (row) =>
      row.market === market &&
      row.type === "TYPE_LIMIT" &&
      row.timeInForce !== "TIME_IN_FORCE_IOC" &&
      row.timeInForce !== "TIME_IN_FORCE_FOK"
  )

/** The levels made by summing, straight from the order versions, the orders resting at a height. */
const levelsFromOrders = (versions: ReadonlyArray<OrderRow>, height: number) => {
  const resting = versions.filter((row) => visibleAt(row, height) && row.status === "STATUS_ACTIVE")
  const side = (which: "SIDE_BUY" | "SIDE_SELL") => {
    const byPrice = new Map<bigint, { orders: number; volume: bigint }>()
    for (const row of resting.filter((r) => r.side === which)) {
      const level = byPrice.get(row.price) ?? { orders: 0, volume: 0n }
      byPrice.set(row.price, { orders: level.orders + 1, volume: level.volume + row.remaining })
    }
    return [...byPrice.entries()]
      .sort(([a], [b]) => (a === b ? 0 : a > b === (which === "SIDE_BUY") ? -1 : 1))
      .map(([price, l]) => ({ price, ...l }))
  }
  return { buy: side("SIDE_BUY"), sell: side("SIDE_SELL") }
}

const levelsOf = (depth: Depth) => ({ buy: depth.buy, sell: depth.sell })

describe("market depth at a height", () => {
  it("is the live book at the world's height, and its best prices are the book's", () => {
    for (const seed of [1, 2, 3]) {
      const world = tiny(seed)
      world.advance(15)
      for (const market of world.catalog.markets) {
        const depth = world.marketData.depthAt(market, world.height)
        expect(levelsOf(depth)).toEqual(liveLevels(world, market))
        const record = world.marketData.recordAt(market, world.height)
        const book = world.exchange.books[market.index]
        expect(record.bestBidPrice).toBe(book.bids[0]?.price ?? 0n)
        expect(record.bestOfferPrice).toBe(book.asks[0]?.price ?? 0n)
        expect(record.bestBidVolume).toBe(book.bids[0]?.orders.reduce((s, o) => s + o.remaining, 0n) ?? 0n)
        expect(record.bestOfferVolume).toBe(book.asks[0]?.orders.reduce((s, o) => s + o.remaining, 0n) ?? 0n)
        expect(record.midPrice).toBe((record.bestBidPrice + record.bestOfferPrice) / 2n)
        expect(record.bestBidPrice).toBeGreaterThan(0n)
        expect(record.bestOfferPrice).toBeGreaterThan(record.bestBidPrice)
      }
    }
  })

  it("sums the orders resting at each price, at every height, from the order table", () => {
    const world = tiny(4, 40)
    world.advance(150)
    for (const market of world.catalog.markets) {
      const versions = limitVersions(world, market)
      for (let h = world.marketData.firstHeight; h <= world.height; h++) {
        expect(levelsOf(world.marketData.depthAt(market, h))).toEqual(levelsFromOrders(versions, h))
      }
    }
  })

  it("shows a lagging height the book it had, however the world moves on", () => {
    const world = tiny(5)
    world.advance(3)
    const then = world.height
    const market = world.catalog.markets[0]
    const before = liveLevels(world, market)
    const sequence = world.marketData.depthAt(market, then).sequenceNumber
    world.advance(30)
    const lagging = world.marketData.depthAt(market, then)
    expect(levelsOf(lagging)).toEqual(before)
    expect(lagging.sequenceNumber).toBe(sequence)
    expect(levelsOf(world.marketData.depthAt(market, world.height))).not.toEqual(before)
    expect(world.marketData.depthAt(market, world.height).sequenceNumber).toBeGreaterThan(sequence)
  })

  it("keeps only the first levels with maxDepth", () => {
    const world = tiny(6)
    const market = world.catalog.markets[2]
    const all = world.marketData.depthAt(market, world.height)
    const two = world.marketData.depthAt(market, world.height, 2)
    expect(two.buy).toEqual(all.buy.slice(0, 2))
    expect(two.sell).toEqual(all.sell.slice(0, 2))
    expect(all.buy.length).toBeGreaterThan(2)
  })
})

/** Applies an update's levels (the last state of each price wins; an empty level goes). */
const apply = (levels: ReadonlyArray<DepthLevel>, update: ReadonlyArray<DepthLevel>, buy: boolean) => {
  const byPrice = new Map(levels.map((l) => [l.price, l]))
  for (const level of update) {
    if (level.orders === 0) byPrice.delete(level.price)
    else byPrice.set(level.price, level)
  }
  return [...byPrice.values()].sort((a, b) => (a.price === b.price ? 0 : a.price > b.price === buy ? -1 : 1))
}

describe("market depth updates", () => {
  it("take the depth of one block to the next, chained by sequence numbers", () => {
    for (const seed of [7, 8]) {
      const world = tiny(seed, 30)
      world.advance(60)
      for (const market of world.catalog.markets) {
        let previous: bigint | undefined
        let updates = 0
        for (let h = world.marketData.firstHeight + 1; h <= world.height; h++) {
          const before = world.marketData.depthAt(market, h - 1)
          const after = world.marketData.depthAt(market, h)
          const update = world.marketData.depthUpdateAt(market, h)
          if (update === undefined) {
            expect(levelsOf(after)).toEqual(levelsOf(before))
            continue
          }
          updates++
          expect(apply(before.buy, update.buy, true)).toEqual(after.buy)
          expect(apply(before.sell, update.sell, false)).toEqual(after.sell)
          expect(update.sequenceNumber).toBe(after.sequenceNumber)
          if (previous !== undefined) expect(update.previousSequenceNumber).toBe(previous)
          expect(update.sequenceNumber).toBeGreaterThan(update.previousSequenceNumber)
          previous = update.sequenceNumber
        }
        expect(updates).toBeGreaterThan(10)
      }
    }
  })
})

/** Checks every block's update against the depths before and after it, and the levels against the orders. */
const checkUpdates = (world: World, market: MarketInfo, from: number) => {
  const versions = limitVersions(world, market)
  let previous: bigint | undefined
  for (let h = from; h <= world.height; h++) {
    const before = world.marketData.depthAt(market, h - 1)
    const after = world.marketData.depthAt(market, h)
    expect(levelsOf(after)).toEqual(levelsFromOrders(versions, h))
    const update = world.marketData.depthUpdateAt(market, h)
    if (update === undefined) continue
    expect(apply(before.buy, update.buy, true)).toEqual(after.buy)
    expect(apply(before.sell, update.sell, false)).toEqual(after.sell)
    if (previous !== undefined) expect(update.previousSequenceNumber).toBe(previous)
    previous = update.sequenceNumber
  }
}

describe("a user's orders in the depth", () => {
  it("rest, move level when amended, shrink in place and leave when cancelled", () => {
    const world = tiny(11)
    const market = world.catalog.markets[0]
    const party = world.catalog.parties[5]
    const start = world.height + 1
    world.advance(1)
    const best = world.exchange.books[market.index].bids[0].price
    const submit = (price: bigint, size: bigint, id: string) =>
      world.exchange.submit(
        party,
        () => party,
        market,
        Commands.orderSubmission({
          marketId: market.id,
          price: String(price),
          size,
          side: "SIDE_BUY",
          timeInForce: "TIME_IN_FORCE_GTC",
          type: "TYPE_LIMIT"
        }),
        id,
        world.height
      )
    const low = best - world.exchange.step(market) * 20n
    expect(submit(low, 300n, "aa".repeat(32))).toBeUndefined()
    expect(submit(low, 200n, "bb".repeat(32))).toBeUndefined()
    const placed = world.marketData.depthUpdateAt(market, world.height)!
    expect(placed.buy.filter((l) => l.price === low)).toEqual([
      { price: low, orders: 2, volume: 500n },
      { price: low, orders: 2, volume: 500n }
    ])
    world.advance(1)
    const markets = new Map([[market.id, market]])
    const amend = (fields: Partial<Commands.OrderAmendment>) =>
      world.exchange.amend(
        party.id,
        markets,
        Commands.orderAmendment({ marketId: market.id, orderId: "aa".repeat(32), ...fields }),
        world.height
      )
    // a smaller size keeps its place; a new price moves it to another level
    expect(amend({ sizeDelta: -100n })).toBeUndefined()
    expect(amend({ price: String(low - world.exchange.step(market)) })).toBeUndefined()
    const moved = world.marketData.depthUpdateAt(market, world.height)!
    expect(moved.buy.filter((l) => l.price <= low)).toEqual([
      { price: low, orders: 1, volume: 200n },
      { price: low, orders: 1, volume: 200n },
      { price: low - world.exchange.step(market), orders: 1, volume: 200n }
    ])
    world.advance(1)
    const cancel = Commands.orderCancellation({ marketId: market.id, orderId: "bb".repeat(32) })
    expect(world.exchange.cancel(party.id, markets, cancel, world.height)).toBeUndefined()
    const cancelled = world.marketData.depthUpdateAt(market, world.height)!
    expect(cancelled.buy.filter((l) => l.price === low)).toEqual([{ price: low, orders: 0, volume: 0n }])
    world.advance(12)
    checkUpdates(world, market, start)
  })
})

describe("market data at a height", () => {
  it("has the open interest the positions had, the last trade's price and the mark price", () => {
    const world = tiny(9)
    const heights: Array<number> = []
    const interest = new Map<string, bigint>()
    for (let i = 0; i < 12; i++) {
      world.advance(3)
      heights.push(world.height)
      for (const market of world.catalog.markets) {
        let sum = 0n
        for (const row of world.positions.byMarket[market.index] ?? []) {
          if (visibleAt(row, world.height) && BigInt(row.openVolume) > 0n) sum += BigInt(row.openVolume)
        }
        interest.set(`${market.index} ${world.height}`, sum)
      }
    }
    world.advance(5)
    world.prune(world.height)
    for (const h of heights) {
      for (const market of world.catalog.markets) {
        const record = world.marketData.recordAt(market, h)
        expect(record.openInterest).toBe(interest.get(`${market.index} ${h}`))
        expect(record.markPrice).toBe(world.exchange.markPrice(market, h))
        const trades = (world.exchange.trades.byMarket[market.index] ?? []).filter((t) => t.height <= h)
        expect(record.lastTradedPrice).toBe(trades[trades.length - 1]?.price ?? 0n)
        expect(record.vt).toBe(world.chain.blockTime(h))
      }
    }
  })

  it("supplies the stake of the market's active provisions and keeps the bounds around the mark", () => {
    const world = tiny(10)
    world.advance(5)
    for (const market of world.catalog.markets) {
      const record = world.marketData.recordAt(market, world.height)
      expect(record.suppliedStake).toBe(record.providers.reduce((s, p) => s + p.commitment, 0n))
      for (const bound of record.bounds) {
        expect(bound.min).toBeLessThan(record.markPrice)
        expect(bound.max).toBeGreaterThan(record.markPrice)
      }
      expect(record.nextMarkToMarket).toBeGreaterThan(record.vt)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// The routes
// ---------------------------------------------------------------------------------------------

const LATEST = "/api/v2/market/data/{marketId}/latest"
const HISTORY = "/api/v2/market/data/{marketId}"
const DEPTH = "/api/v2/market/depth/{marketId}/latest"

describe("GET /api/v2/markets/data and /api/v2/market/data/{marketId}/latest", () => {
  const world = tiny(12)
  world.advance(8)
  const node = nodeOf(world)

  it("answer every market's data at the node's height, the best prices the book's", () => {
    const all = decoded(DataNode.ListLatestMarketDataResponse, call(node, "/api/v2/markets/data")).marketsData
    expect(all.map((md) => md.market)).toEqual(world.catalog.markets.map((m) => m.id))
    for (const [i, market] of world.catalog.markets.entries()) {
      const one = decoded(DataNode.GetLatestMarketDataResponse, call(node, LATEST, {}, { marketId: market.id }))
      expect(one.marketData).toEqual(all[i])
      const book = world.exchange.books[market.index]
      expect(all[i].bestBidPrice).toBe(book.bids[0].price)
      expect(all[i].bestOfferPrice).toBe(book.asks[0].price)
      expect(all[i].bestStaticBidPrice).toBe(book.bids[0].price)
      expect(all[i].markPrice).toBe(world.exchange.markPrice(market, world.height))
      expect(all[i].timestamp).toBe(BigInt(world.chain.blockTime(world.height)) * 1000n)
      expect(all[i].marketTradingMode).toBe("TRADING_MODE_CONTINUOUS")
      expect(all[i].marketState).toBe("STATE_ACTIVE")
      expect(all[i].productData !== undefined).toBe(market.product === "perpetual")
    }
    const raw = JSON.parse(call(node, "/api/v2/markets/data").body).marketsData[0]
    expect(raw.markPriceState).toBeNull()
    expect(raw.marketTradingMode).toBe("TRADING_MODE_CONTINUOUS")
  })

  it("write the bounds as a v0.79 node does, with active", () => {
    const v79 = nodeOf(world, { nodeVersion: "v0.79" })
    const bounds = JSON.parse(call(v79, "/api/v2/markets/data").body).marketsData[0].priceMonitoringBounds
    expect(bounds.map((b: { active: boolean }) => b.active)).toEqual([true, true])
    expect(JSON.parse(call(node, "/api/v2/markets/data").body).marketsData[0].priceMonitoringBounds[0].active).toBe(
      undefined
    )
  })

  it("show a lagging node the data at its own height", () => {
    const fresh = tiny(13)
    const then = fresh.height
    fresh.advance(1)
    const before = call(nodeOf(fresh), "/api/v2/markets/data").body
    fresh.advance(12)
    expect(call(nodeOf(fresh, { height: then + 1 }), "/api/v2/markets/data").body).toBe(before)
    expect(call(nodeOf(fresh), "/api/v2/markets/data").body).not.toBe(before)
  })

  it("find a market only by its id as written, and answer the node's 500 otherwise", () => {
    const id = world.catalog.markets[0].id.toUpperCase()
    const reply = call(node, LATEST, {}, { marketId: id })
    expect(reply.status).toBe(500)
    expect(reply.body).toBe(
      `{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":30004,"message":"failed to get market data","inner":"no market data for market: ${id}"}]}`
    )
    expect(call(node, LATEST, {}, { marketId: "nope" }).status).toBe(500)
  })
})

describe("GET /api/v2/market/data/{marketId} (history)", () => {
  const world = tiny(14)
  world.advance(25)
  const node = nodeOf(world)
  const market = world.catalog.markets[1]
  const history = (query: Parameters<typeof call>[2] = {}, n = node, marketId = market.id) =>
    decoded(DataNode.GetMarketDataHistoryByIDResponse, call(n, HISTORY, query, { marketId }))

  it("without a time range, is the latest row only, whatever the pagination", () => {
    for (const query of [{}, { "pagination.first": 10 }, { "pagination.last": 3, "pagination.newestFirst": false }]) {
      const page = history(query).marketData
      expect(page.edges.length).toBe(1)
      expect(page.edges[0].node.timestamp).toBe(BigInt(world.chain.blockTime(world.height)) * 1000n)
      expect(page.pageInfo?.hasNextPage).toBe(true)
    }
  })

  it("pages through a row per block since the exchange opened, newest first, cursors by synthetic time", () => {
    const rows = walk((after) => {
      const page = history({
        startTimestamp: 0n,
        "pagination.first": 7,
        ...(after === undefined ? {} : { "pagination.after": after })
      }).marketData
      return { nodes: page.edges.map((e) => e.node), next: page.pageInfo!.hasNextPage, end: page.pageInfo!.endCursor }
    })
    const heights = []
    for (let h = world.height; h >= world.marketData.firstHeight; h--) heights.push(h)
    expect(rows.map((r) => r.timestamp)).toEqual(heights.map((h) => BigInt(world.chain.blockTime(h)) * 1000n))
    for (const [i, row] of rows.entries()) {
      const depth = world.marketData.depthAt(market, heights[i])
      expect(row.bestBidPrice).toBe(depth.buy[0].price)
      expect(row.bestOfferVolume).toBe(depth.sell[0].volume)
    }
    const edge = history({ startTimestamp: 0n, "pagination.first": 1 }).marketData.edges[0]
    const time = world.chain.blockTime(world.height) + 3 + market.index
    expect(cursorJson(edge.cursor)).toBe(`{"synthetic_time":"${microsToRfc3339(time)}"}`)
    const oldest = history({ startTimestamp: 0n, "pagination.first": 3, "pagination.newestFirst": false }).marketData
    expect(oldest.edges.map((e) => e.node.timestamp)).toEqual(
      heights
        .slice(-3)
        .reverse()
        .map((h) => BigInt(world.chain.blockTime(h)) * 1000n)
    )
  })

  it("keeps the rows whose block time is within [start, end], both inclusive", () => {
    const h = world.marketData.firstHeight + 5
    const at = (height: number) => BigInt(world.chain.blockTime(height)) * 1000n
    const page = history({ startTimestamp: at(h), endTimestamp: at(h + 3) }).marketData
    expect(page.edges.map((e) => e.node.timestamp)).toEqual([at(h + 3), at(h + 2), at(h + 1), at(h)])
    expect(history({ startTimestamp: at(h) + 1000n, endTimestamp: at(h + 3) - 1000n }).marketData.edges.length).toBe(2)
    // bounds go to Postgres in microseconds, truncated: a nanosecond past a block time still keeps it
    expect(history({ startTimestamp: at(h) + 1n, endTimestamp: at(h + 3) - 1n }).marketData.edges.length).toBe(3)
    expect(history({ endTimestamp: at(h) }).marketData.edges.length).toBe(6)
  })

  it("reads a lagging node's committed height", () => {
    const lagging = nodeOf(world, { height: world.height - 4 })
    const page = history({ startTimestamp: 0n, "pagination.first": 1 }, lagging).marketData
    expect(page.edges[0].node.timestamp).toBe(BigInt(world.chain.blockTime(world.height - 4)) * 1000n)
  })

  it("answers the node's errors, in the node's order", () => {
    const body = (query: Parameters<typeof call>[2], marketId = market.id) => {
      const reply = call(node, HISTORY, query, { marketId })
      return [reply.status, JSON.parse(reply.body).details[0]]
    }
    const detail = (inner: string) => ({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 30006,
      message: "failed to get market data history",
      inner
    })
    expect(body({ "pagination.first": 0, startTimestamp: 5n, endTimestamp: 1n }, "xyz")).toEqual([
      500,
      detail("pagination limit must be in range 0-5000: invalid pagination")
    ])
    expect(body({ startTimestamp: 5n, endTimestamp: 1n }, "xyz")).toEqual([
      500,
      detail("could not retrieve historic market data: invalid date range, end date must be after start date")
    ])
    const bad = Buffer.from("xyz").toString("base64")
    expect(body({ startTimestamp: 0n, "pagination.first": 1, "pagination.after": bad }, "xyz")).toEqual([
      500,
      detail(
        "could not retrieve historic market data: parsing cursor: parsing cursor: invalid character 'x' looking for beginning of value"
      )
    ])
    expect(body({ startTimestamp: 0n }, "xyz")).toEqual([
      400,
      detail(
        "could not retrieve historic market data: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
      )
    ])
    // with no range the pagination is replaced, so a bad cursor is never read
    expect(call(node, HISTORY, { "pagination.after": bad }, { marketId: market.id }).status).toBe(200)
    expect(history({ startTimestamp: 0n }, node, "ab".repeat(32)).marketData.edges).toEqual([])
    expect(history({}, node, market.id.toUpperCase()).marketData.edges.length).toBe(1)
  })
})

describe("GET /api/v2/market/depth/{marketId}/latest", () => {
  const world = tiny(15)
  world.advance(6)
  const node = nodeOf(world)
  const market = world.catalog.markets[0]
  const depth = (query: Parameters<typeof call>[2] = {}, marketId = market.id, n = node) =>
    decoded(DataNode.GetLatestMarketDepthResponse, call(n, DEPTH, query, { marketId }))

  it("is the book's levels, the last trade and the sequence number", () => {
    const reply = depth()
    const live = liveLevels(world, market)
    expect(reply.buy.map((l) => ({ price: l.price, orders: Number(l.numberOfOrders), volume: l.volume }))).toEqual(
      live.buy
    )
    expect(reply.sell.map((l) => ({ price: l.price, orders: Number(l.numberOfOrders), volume: l.volume }))).toEqual(
      live.sell
    )
    const trades = world.exchange.trades.byMarket[market.index]!
    expect(reply.lastTrade?.id).toBe(trades[trades.length - 1].id)
    expect(reply.sequenceNumber).toBe(world.marketData.depthAt(market, world.height).sequenceNumber)
    const two = depth({ maxDepth: 2n })
    expect(two.buy).toEqual(reply.buy.slice(0, 2))
    expect(two.sell).toEqual(reply.sell.slice(0, 2))
  })

  it("shows a lagging node its older book", () => {
    const fresh = tiny(16)
    const then = fresh.height
    const marketId = fresh.catalog.markets[0].id
    const before = call(nodeOf(fresh), DEPTH, {}, { marketId }).body
    fresh.advance(15)
    expect(call(nodeOf(fresh, { height: then }), DEPTH, {}, { marketId }).body).toBe(before)
    expect(call(nodeOf(fresh), DEPTH, {}, { marketId }).body).not.toBe(before)
  })

  it("is empty for a market the service does not know by that id, and refuses what is not hex", () => {
    const upper = market.id.toUpperCase()
    const reply = call(node, DEPTH, {}, { marketId: upper })
    expect(reply.status).toBe(200)
    const body = JSON.parse(reply.body)
    expect([body.marketId, body.buy, body.sell, body.sequenceNumber]).toEqual([upper, [], [], "0"])
    // the store reads ids as bytes: it finds the last trade
    expect(body.lastTrade).not.toBeNull()
    const unknown = JSON.parse(call(node, DEPTH, {}, { marketId: "ab".repeat(32) }).body)
    expect(unknown.lastTrade).toBeNull()
    const bad = call(node, DEPTH, {}, { marketId: "xyz" })
    expect(bad.status).toBe(400)
    expect(bad.body).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":40001,"message":"failed to get trades for market","inner":"failed to get trade by market:querying trades: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"}]}`
    )
  })

  it("writes v0.79's AMM volumes", () => {
    const level = JSON.parse(call(nodeOf(world, { nodeVersion: "v0.79" }), DEPTH, {}, { marketId: market.id }).body)
      .buy[0]
    expect(Object.keys(level)).toEqual(["price", "numberOfOrders", "volume", "ammVolume", "ammVolumeEstimated"])
  })
})
