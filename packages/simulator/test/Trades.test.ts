import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { eventsOf } from "../src/internal/api/busEvents.js"
import type { TradeRow } from "../src/internal/world/trades.js"
import type { World } from "../src/World.js"
import { block, freshKey, orderIdOf, submission } from "./support/apply.js"
import { call, coreOf, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const LIST = "/api/v2/trades"
const LAST = "/api/v2/market/{marketId}/trade/latest"

type Query = Parameters<typeof call>[2]

const world = smallWorld()
world.advance(8)
const node = nodeOf(world)

const list = (query: Query = {}, at: World = world, height?: number) =>
  decoded(DataNode.ListTradesResponse, call(nodeOf(at, height === undefined ? {} : { height }), LIST, query)).trades

const forward = (query: Query = {}, size = 45, at: World = world) =>
  walk((after) => {
    const page = list(
      { ...query, "pagination.first": size, ...(after === undefined ? {} : { "pagination.after": after }) },
      at
    )
    return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

/** Backwards from the end with `before` cursors; the pages put back in display order. */
const backward = (query: Query = {}, size = 45) => {
  const pages: Array<Array<DataNode.ListTradesResponse["trades"]["edges"][number]["node"]>> = []
  walk((before) => {
    const page = list({
      ...query,
      "pagination.last": size,
      ...(before === undefined ? {} : { "pagination.before": before })
    })
    pages.unshift(page.edges.map((e) => e.node))
    return { nodes: [], next: page.pageInfo.hasPreviousPage, end: page.pageInfo.startCursor }
  })
  return pages.flat()
}

const visible = (w: World, height = w.height): Array<TradeRow> =>
  w.exchange.trades.log.filter((t) => t.height <= height)
const newestFirst = (rows: ReadonlyArray<TradeRow>) => [...rows].sort((a, b) => b.syntheticTime - a.syntheticTime)
const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
const body = (reply: { body: string }) => JSON.parse(reply.body)

describe("GET /api/v2/trades", () => {
  it("lists every trade once by synthetic time, over several pages, in both directions and orders", () => {
    const expected = newestFirst(visible(world))
    expect(expected.length).toBeGreaterThan(3 * 45)
    expect(ids(forward())).toEqual(ids(expected))
    expect(ids(backward())).toEqual(ids(expected))
    const oldest = [...expected].reverse()
    expect(ids(forward({ "pagination.newestFirst": false }))).toEqual(ids(oldest))
    expect(ids(backward({ "pagination.newestFirst": false }))).toEqual(ids(oldest))
    expect(list().edges.length).toBe(Math.min(1000, expected.length))
  })

  it("writes the cursor {synthetic_time}: the block time plus the trade event's sequence number", () => {
    const w = smallWorld()
    const core = coreOf(w)
    w.advance(1)
    core.sync()
    const published = core.feed.recent()
    const last = published[published.length - 1]
    const context = { chainId: w.chain.chainId, chain: w.chain, seed: w.seed, nodeVersion: "v0.75" as const }
    const onBus = eventsOf(last, context)
      .filter((e) => e.event.type === "BUS_EVENT_TYPE_TRADE")
      .map((e) => Number(e.event.id.split("-")[1]))
    const trades = w.exchange.trades.log.filter((t) => t.height === w.height)
    expect(trades.length).toBeGreaterThan(0)
    expect(trades.map((t) => t.syntheticTime - t.vt)).toEqual(onBus)
    const edges = list({ "pagination.first": trades.length }, w).edges
    const micros = trades[trades.length - 1].syntheticTime
    const iso = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)
    const fraction = String(micros % 1_000_000)
      .padStart(6, "0")
      .replace(/0+$/, "")
    expect(cursorJson(edges[0].cursor)).toBe(`{"synthetic_time":"${iso}${fraction === "" ? "" : `.${fraction}`}Z"}`)
  })

  it("answers the data node's trade: no assetPrice, zero discounts", () => {
    const reply = call(node, LIST, { "pagination.first": 1 })
    const trade = JSON.parse(reply.body).trades.edges[0].node
    expect(trade.assetPrice).toBe("")
    expect(trade.buyerFee.makerFeeReferrerDiscount).toBe("0")
    expect(reply.body).toContain('"assetPrice":""')
    // a v0.79 node writes three more fee members, zero here
    const v079 = JSON.parse(call(nodeOf(world, { nodeVersion: "v0.79" }), LIST, { "pagination.first": 1 }).body)
    const fee = v079.trades.edges[0].node.sellerFee
    expect(Object.keys(fee).slice(-4)).toEqual([
      "liquidityFeeReferrerDiscount",
      "treasuryFee",
      "buyBackFee",
      "highVolumeMakerFee"
    ])
    expect([fee.treasuryFee, fee.buyBackFee, fee.highVolumeMakerFee]).toEqual(["0", "0", "0"])
    expect({ ...v079.trades.edges[0].node, buyerFee: trade.buyerFee, sellerFee: trade.sellerFee }).toEqual(trade)
  })

  it("filters by market, party (buyer or seller) and order, as bytes", () => {
    const all = visible(world)
    const market = world.catalog.markets[2].id
    expect(ids(forward({ marketIds: [market.toUpperCase()] }))).toEqual(
      ids(newestFirst(all.filter((t) => t.market.id === market)))
    )
    const maker = world.exchange.makerOf(world.catalog.markets[2]).id
    const mine = forward({ partyIds: [maker] })
    expect(ids(mine)).toEqual(ids(newestFirst(all.filter((t) => t.buyer.id === maker || t.seller.id === maker))))
    expect(mine.length).toBeGreaterThan(0)
    const taker = all.find((t) => t.buyer.id !== maker && t.market.id === market)!.buyer.id
    const two = forward({ partyIds: [maker, taker], marketIds: [market] })
    expect(ids(two)).toEqual(
      ids(
        newestFirst(
          all.filter((t) => t.market.id === market && [maker, taker].some((p) => p === t.buyer.id || p === t.seller.id))
        )
      )
    )
    const order = all[5].sellOrder
    expect(ids(forward({ orderIds: [order] }))).toEqual(
      ids(newestFirst(all.filter((t) => t.buyOrder === order || t.sellOrder === order)))
    )
    // the network party is the byte 03 in the store; any even-length hex is a valid filter
    const closeOuts = all.filter((t) => t.buyer.id === "network" || t.seller.id === "network")
    expect(closeOuts.length).toBeGreaterThan(0)
    expect(ids(forward({ partyIds: ["network"] }))).toEqual(ids(newestFirst(closeOuts)))
    expect(ids(forward({ partyIds: ["03"] }))).toEqual(ids(newestFirst(closeOuts)))
    expect(forward({ marketIds: ["abcd"] })).toEqual([])
    // a comma-separated list is not split: it is not hex
    expect(call(node, LIST, { marketIds: [`${market},${market}`] }).status).toBe(400)
  })

  it("filters by synthetic time, start inclusive, end exclusive", () => {
    const all = newestFirst(visible(world))
    const [later, earlier] = [all[10].syntheticTime, all[40].syntheticTime]
    const ranged = forward({
      "dateRange.startTimestamp": BigInt(earlier) * 1000n,
      "dateRange.endTimestamp": BigInt(later) * 1000n
    })
    expect(ids(ranged)).toEqual(ids(all.slice(11, 41)))
  })

  it("answers the node's errors: ids markets first, then parties, then orders; a bad cursor", () => {
    const reply = call(node, LIST, { orderIds: ["o"], partyIds: ["p"], marketIds: ["m"] })
    expect(reply.status).toBe(400)
    expect(reply.body).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":40005,"message":"failed to list trades","inner":"received invalid market ID: decoding 'm': not a valid hex id (or well known exception)"}]}`
    )
    expect(body(call(node, LIST, { orderIds: ["o"], partyIds: ["p"] })).details[0].inner).toBe(
      "received invalid party ID: decoding 'p': not a valid hex id (or well known exception)"
    )
    expect(body(call(node, LIST, { orderIds: ["abc"] })).details[0].inner).toBe(
      "received invalid order ID: decoding 'abc': not a valid hex id (or well known exception)"
    )
    // pagination is checked before the ids
    expect(body(call(node, LIST, { orderIds: ["o"], "pagination.first": -1 })).details[0].code).toBe(10028)
    const cursor = call(node, LIST, { "pagination.after": Buffer.from('{"synthetic_time":5}').toString("base64") })
    expect(cursor.status).toBe(500)
    expect(body(cursor).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 40005,
      message: "failed to list trades",
      inner:
        "failed to get trade by market:parsing cursor: parsing cursor: Time.UnmarshalJSON: input is not a JSON string"
    })
  })

  it("shows a lagging node the trades as they were", () => {
    const fresh = smallWorld()
    fresh.advance(2)
    const height = fresh.height
    const then = list({ "pagination.first": 200 }, fresh)
    fresh.advance(3)
    expect(list({ "pagination.first": 200 }, fresh, height)).toEqual(then)
    expect(list({ "pagination.first": 200 }, fresh)).not.toEqual(then)
  })
})

describe("GET /api/v2/market/{marketId}/trade/latest", () => {
  const last = (marketId: string, at: World = world, height?: number) =>
    call(nodeOf(at, height === undefined ? {} : { height }), LAST, {}, { marketId })

  it("answers the market's latest trade, as of the node's height", () => {
    for (const market of world.catalog.markets) {
      const trades = newestFirst(visible(world).filter((t) => t.market.id === market.id))
      const answer = decoded(DataNode.GetLastTradeResponse, last(market.id.toUpperCase()))
      expect(answer.trade?.id).toBe(trades[0]?.id)
      const lagging = newestFirst(visible(world, world.height - 2).filter((t) => t.market.id === market.id))
      expect(decoded(DataNode.GetLastTradeResponse, last(market.id, world, world.height - 2)).trade?.id).toBe(
        lagging[0]?.id
      )
    }
  })

  it("answers no trade for an unknown market, and the node's id errors", () => {
    expect(last("ab".repeat(32)).body).toBe('{"trade":null}')
    const invalid = last("xyz")
    expect(invalid.status).toBe(400)
    expect(body(invalid).details[0]).toMatchObject({ code: 10000, message: "invalid market ID", inner: "" })
    const empty = last("")
    expect(empty.status).toBe(400)
    expect(body(empty).details[0]).toMatchObject({ code: 10003, message: "empty or missing market ID" })
  })
})

describe("a user's order and its trades", () => {
  it("appear in the lists once the block that includes the order is readable", () => {
    const w = smallWorld()
    w.advance(2)
    const market = w.catalog.markets[3]
    const party = freshKey("trades test")
    const asks = w.exchange.books[market.index].asks
    const size = asks[0].orders.reduce((n, o) => n + o.remaining, 0n) + 10n
    const [placed] = block(w, [party, submission(market.id, { side: "SIDE_BUY", size, reference: "sweep" })])
    expect(placed.error).toBeUndefined()
    const id = orderIdOf(placed.tx)

    const order = decoded(
      DataNode.GetOrderResponse,
      call(nodeOf(w), "/api/v2/order/{orderId}", {}, { orderId: id })
    ).order!
    expect([order.status, order.type, order.partyId, order.reference]).toEqual([
      "STATUS_FILLED",
      "TYPE_MARKET",
      party,
      "sweep"
    ])
    const trades = list({ orderIds: [id] }, w).edges.map((e) => e.node)
    expect(trades.length).toBeGreaterThan(1)
    expect(trades.every((t) => t.buyOrder === id && t.buyer === party && t.aggressor === "SIDE_BUY")).toBe(true)
    expect(trades.reduce((n, t) => n + t.size, 0n)).toBe(size)
    // newest first: the deeper level last traded comes first
    expect(trades[0].price > trades[trades.length - 1].price).toBe(true)
    expect(ids(list({ partyIds: [party] }, w).edges.map((e) => e.node))).toEqual(ids(trades))
    expect(decoded(DataNode.GetLastTradeResponse, call(nodeOf(w), LAST, {}, { marketId: market.id })).trade?.id).toBe(
      trades[0].id
    )
    // a node still at the block before sees none of it
    expect(list({ orderIds: [id] }, w, w.height - 1).edges).toEqual([])
  })
})
