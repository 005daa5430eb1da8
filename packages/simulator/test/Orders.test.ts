import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import type { OrderRow } from "../src/internal/world/orderTable.js"
import type { World } from "../src/World.js"
import { amendment, block, cancellation, freshKey, orderIdOf, submission } from "./support/apply.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const LIST = "/api/v2/orders"
const GET = "/api/v2/order/{orderId}"
const VERSIONS = "/api/v2/order/versions/{orderId}"

type Query = Parameters<typeof call>[2]

const world = smallWorld()
world.advance(12)
const node = nodeOf(world)

const list = (query: Query = {}, at: World = world, height?: number) =>
  decoded(DataNode.ListOrdersResponse, call(nodeOf(at, height === undefined ? {} : { height }), LIST, query)).orders

/** Every order once, following `after` cursors in pages of `size`. */
const all = (query: Query = {}, size = 97, at: World = world) =>
  walk((after) => {
    const page = list(
      { ...query, "pagination.first": size, ...(after === undefined ? {} : { "pagination.after": after }) },
      at
    )
    return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

/** Each order's state as a view at `height` sees it: its latest row up to that height. */
const statesAt = (w: World, height = w.height): Array<OrderRow> => {
  const out: Array<OrderRow> = []
  for (const versions of w.exchange.orders.byId.values()) {
    const seen = versions.filter((row) => row.from <= height)
    if (seen.length > 0) out.push(seen[seen.length - 1])
  }
  return out
}

/** Newest first: created_at descending, then the id ascending. */
const newestFirst = (rows: ReadonlyArray<OrderRow>) =>
  [...rows].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const body = (reply: { body: string }) => JSON.parse(reply.body)

describe("GET /api/v2/orders", () => {
  it("lists each order once in its latest state, newest first then by id, over several pages", () => {
    const listed = all()
    const expected = newestFirst(statesAt(world))
    expect(listed.length).toBe(expected.length)
    expect(listed.map((o) => [o.id, o.status, o.remaining, o.version])).toEqual(
      expected.map((row) => [row.id, row.status, row.remaining, BigInt(row.version)])
    )
    // several pages were walked, and the pages agree with one page of everything
    expect(expected.length).toBeGreaterThan(3 * 97)
    expect(list({ "pagination.first": 5000 }).edges.map((e) => e.node.id)).toEqual(listed.map((o) => o.id))
  })

  it("writes the node's cursor, {createdAt, id, vegaTime}", () => {
    const edge = list({ "pagination.first": 1 }).edges[0]
    const row = world.exchange.orders.current(edge.node.id)!
    const time = /"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z"/.source
    expect(cursorJson(edge.cursor)).toMatch(
      new RegExp(`^\\{"createdAt":${time},"id":"${row.id}","vegaTime":${time}\\}$`)
    )
    const next = list({ "pagination.first": 2, "pagination.after": edge.cursor })
    expect(next.pageInfo.hasPreviousPage).toBe(true)
    expect(next.edges.map((e) => e.node.id)).toEqual(
      list({ "pagination.first": 3 })
        .edges.slice(1)
        .map((e) => e.node.id)
    )
  })

  it("pages forward only and newest first only, with the node's errors", () => {
    const oldest = call(node, LIST, { "pagination.newestFirst": false })
    expect(oldest.status).toBe(500)
    expect(oldest.body).toBe(
      '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"oldest first order query is not currently supported","inner":""}]}'
    )
    const last = call(node, LIST, { "pagination.last": 2 })
    expect(last.status).toBe(400)
    expect(last.body).toBe(
      `{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"'last' pagination is not supported","inner":"'last' pagination is not supported"}]}`
    )
    // oldest first is refused before `last`
    expect(call(node, LIST, { "pagination.last": 2, "pagination.newestFirst": false }).status).toBe(500)
    const bad = call(node, LIST, { "pagination.first": 1, "pagination.after": Buffer.from("xyz").toString("base64") })
    expect(bad.status).toBe(500)
    expect(body(bad).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10000,
      message: "parsing cursor: parsing cursor: invalid character 'x' looking for beginning of value",
      inner: ""
    })
    expect(body(call(node, LIST, { "pagination.first": 0 })).details[0].code).toBe(10028)
  })

  it("checks market ids, then party ids, after the pagination", () => {
    const reply = call(node, LIST, { "filter.partyIds": ["nope"], "filter.marketIds": ["bad"] })
    expect(reply.status).toBe(400)
    expect(reply.body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":"one or more market id is invalid"}]}'
    )
    expect(body(call(node, LIST, { "filter.partyIds": [`${world.catalog.parties[2].id},`] })).details[0].inner).toBe(
      "one or more party id is invalid"
    )
    expect(body(call(node, LIST, { "pagination.first": 0, "filter.partyIds": ["nope"] })).details[0].code).toBe(10028)
  })

  it("filters by party and market, in any case and comma-separated, on the current state", () => {
    const party = world.exchange.makerOf(world.catalog.markets[2]).id
    const byParty = all({ "filter.partyIds": [party.toUpperCase()] })
    expect(byParty.map((o) => o.id)).toEqual(
      newestFirst(statesAt(world).filter((row) => row.party.id === party)).map((row) => row.id)
    )
    const [m1, m2] = [world.catalog.markets[1].id, world.catalog.markets[4].id]
    const two = list({ "filter.marketIds": [`${m1},${m2}`], "pagination.first": 5000 }).edges.map((e) => e.node)
    expect(new Set(two.map((o) => o.marketId))).toEqual(new Set([m1, m2]))
    expect(two.length).toBe(statesAt(world).filter((row) => row.market.id === m1 || row.market.id === m2).length)
    const network = all({ "filter.partyIds": ["network"] })
    expect(network.every((o) => o.partyId === "network" && o.type === "TYPE_NETWORK")).toBe(true)
    const both = all({ "filter.partyIds": [party], "filter.marketIds": [m1] })
    expect(both).toEqual([])
  })

  it("orders several parties' (or markets') orders as the view does: by party within a creation time", () => {
    const makers = [world.catalog.markets[0], world.catalog.markets[3]].map((m) => world.exchange.makerOf(m).id)
    const full = list({ "filter.partyIds": makers, "pagination.first": 5000 }).edges.map((e) => e.node)
    expect(full.length).toBe(statesAt(world).filter((row) => makers.includes(row.party.id)).length)
    for (let i = 1; i < full.length; i++) {
      const [a, b] = [full[i - 1], full[i]]
      if (a.createdAt !== b.createdAt) expect(a.createdAt > b.createdAt).toBe(true)
      else expect(a.partyId < b.partyId || (a.partyId === b.partyId && a.id < b.id)).toBe(true)
    }
    // the cursor still orders by creation time and id alone: walking small pages repeats and
    // skips orders of one block, exactly as the SQL's predicate and limit over the view would
    const size = 7
    const expected: Array<string> = []
    let cursor: (typeof full)[number] | undefined
    for (;;) {
      const after =
        cursor === undefined
          ? full
          : full.filter(
              (o) => o.createdAt < cursor!.createdAt || (o.createdAt === cursor!.createdAt && o.id >= cursor!.id)
            )
      const read = after.slice(0, size + (cursor === undefined ? 1 : 2))
      const page =
        cursor === undefined
          ? read.slice(0, size)
          : read.length >= size + 1 || read[0]?.id === cursor.id
            ? read.slice(1, size + 1)
            : read
      expected.push(...page.map((o) => o.id))
      const more = cursor === undefined ? read.length === size + 1 : read.length === size + 2
      if (!more) break
      cursor = page[page.length - 1]
    }
    const walked = all({ "filter.partyIds": makers }, size).map((o) => o.id)
    expect(walked).toEqual(expected)
    expect(new Set(walked).size === walked.length && walked.length === full.length).toBe(false)

    const markets = [world.catalog.markets[0].id, world.catalog.markets[3].id]
    const byMarket = list({ "filter.marketIds": markets, "pagination.first": 5000 }).edges.map((e) => e.node)
    const oldest = byMarket.filter((o) => o.createdAt === byMarket[byMarket.length - 1].createdAt)
    expect(new Set(oldest.map((o) => o.marketId)).size).toBe(2)
    expect(oldest.map((o) => `${o.marketId} ${o.id}`)).toEqual(oldest.map((o) => `${o.marketId} ${o.id}`).sort())
  })

  it("filters by status, type, time in force, date range and live state", () => {
    const states = statesAt(world)
    const filled = all({ "filter.statuses": ["STATUS_FILLED", "STATUS_PARTIALLY_FILLED"] })
    expect(filled.length).toBe(
      states.filter((r) => r.status === "STATUS_FILLED" || r.status === "STATUS_PARTIALLY_FILLED").length
    )
    expect(filled.length).toBeGreaterThan(0)
    const market = all({ "filter.types": ["TYPE_MARKET"], "filter.timeInForces": ["TIME_IN_FORCE_IOC"] })
    expect(market.length).toBe(states.filter((r) => r.type === "TYPE_MARKET").length)
    expect(all({ "filter.types": ["TYPE_LIMIT"], "filter.timeInForces": ["TIME_IN_FORCE_IOC"] })).toEqual([])

    const live = all({ "filter.liveOnly": true })
    const resting = world.exchange.books.reduce((n, book) => n + book.byId.size, 0)
    expect(live.length).toBe(resting)
    expect(live.every((o) => o.status === "STATUS_ACTIVE" && o.type === "TYPE_LIMIT")).toBe(true)
    expect(all({ "filter.liveOnly": true, "filter.statuses": ["STATUS_CANCELLED"] })).toEqual([])

    // the range is on the state's block time, start inclusive, end exclusive, in nanoseconds
    const h = world.height - 3
    const from = world.chain.blockTime(h)
    const until = world.chain.blockTime(h + 2)
    const ranged = all({
      "filter.dateRange.startTimestamp": BigInt(from) * 1000n,
      "filter.dateRange.endTimestamp": BigInt(until) * 1000n
    })
    expect(ranged.length).toBe(states.filter((r) => r.vt >= from && r.vt < until).length)
    expect(ranged.length).toBeGreaterThan(0)
    // below a microsecond the bound rounds down
    expect(all({ "filter.dateRange.startTimestamp": BigInt(from) * 1000n + 999n }).length).toBe(
      states.filter((r) => r.vt >= from).length
    )
    expect(all({ "filter.excludeLiquidity": true }).length).toBe(states.length)
  })

  it("shows a lagging node the orders as they were", () => {
    const fresh = smallWorld()
    fresh.advance(3)
    const height = fresh.height
    const then = list({ "pagination.first": 300 }, fresh)
    fresh.advance(4)
    expect(list({ "pagination.first": 300 }, fresh, height)).toEqual(then)
    expect(list({ "pagination.first": 300 }, fresh)).not.toEqual(then)
  })
})

describe("orders submitted, amended and cancelled by a user", () => {
  const w = smallWorld()
  w.advance(2)
  const market = w.catalog.markets[1]
  const party = freshKey("orders test")
  const bids = w.exchange.books[market.index].bids
  const price = bids[bids.length - 1].price - 3n * w.exchange.step(market)
  const expiresAt = BigInt(w.chain.blockTime(w.height + 50)) * 1000n + 789n
  const [placed] = block(w, [
    party,
    submission(market.id, {
      type: "TYPE_LIMIT",
      price: String(price),
      size: 7n,
      timeInForce: "TIME_IN_FORCE_GTT",
      expiresAt,
      reference: "mine"
    })
  ])
  const id = orderIdOf(placed.tx)
  const placedAt = w.height
  block(w, [party, amendment(market.id, id, { price: String(price - w.exchange.step(market)) })])
  block(w, [party, amendment(market.id, id, { sizeDelta: 2n })])
  const amendedAt = w.height
  block(w, [party, cancellation(market.id, id)])
  const at = (height = w.height) => nodeOf(w, { height })
  const get = (query: Query = {}, height?: number) => call(at(height), GET, query, { orderId: id })

  it("GetOrder answers the latest state, or a version", () => {
    expect(placed.error).toBeUndefined()
    const order = decoded(DataNode.GetOrderResponse, get()).order!
    expect([order.status, order.version, order.size, order.reference]).toEqual(["STATUS_CANCELLED", 3n, 9n, "mine"])
    // the node stores times in microseconds
    expect(order.expiresAt).toBe(expiresAt - 789n)
    const first = decoded(DataNode.GetOrderResponse, get({ version: 1 })).order!
    expect([first.status, first.price, first.size, first.version]).toEqual(["STATUS_ACTIVE", price, 7n, 1n])
    const second = decoded(DataNode.GetOrderResponse, get({ version: 2 })).order!
    expect(second.price).toBe(price - w.exchange.step(market))
    // a lagging node sees the order as it was
    expect(decoded(DataNode.GetOrderResponse, get({}, placedAt)).order).toEqual(first)
    expect(decoded(DataNode.GetOrderResponse, call(at(), GET, {}, { orderId: id.toUpperCase() })).order).toEqual(order)
  })

  it("GetOrder's errors", () => {
    const missing = get({ version: 4 })
    expect(missing.status).toBe(404)
    expect(missing.body).toBe(
      `{"code":5,"message":"NotFound error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":20006,"message":"order not found","inner":"orderID: ${id}: no resource corresponding to this id"}]}`
    )
    expect(get({}, placedAt - 1).status).toBe(404)
    expect(body(get({ version: 0 })).details[0]).toMatchObject({ code: 10000, message: "negative order version" })
    const invalid = call(at(), GET, {}, { orderId: "abc" })
    expect([invalid.status, body(invalid).details[0].message]).toEqual([400, "invalid orderID parameter"])
    const empty = call(at(), GET, {}, { orderId: "" })
    expect([empty.status, body(empty).details[0].code, body(empty).details[0].message]).toEqual([
      400,
      10012,
      "missing orderID parameter"
    ])
  })

  it("ListOrders finds it by reference, and live only while it rests", () => {
    const mine = decoded(DataNode.ListOrdersResponse, call(at(), LIST, { "filter.reference": "mine" })).orders.edges
    expect(mine.map((e) => [e.node.id, e.node.status])).toEqual([[id, "STATUS_CANCELLED"]])
    const live = (height: number) =>
      decoded(
        DataNode.ListOrdersResponse,
        call(at(height), LIST, { "filter.liveOnly": true, "filter.partyIds": [party] })
      ).orders.edges.map((e) => e.node.version)
    expect(live(amendedAt)).toEqual([3n])
    expect(live(w.height)).toEqual([])
  })

  it("ListOrderVersions pages its versions, newest version first, whatever the order asked", () => {
    const page = (query: Query) =>
      decoded(DataNode.ListOrderVersionsResponse, call(at(), VERSIONS, query, { orderId: id })).orders
    const versions = walk((after) => {
      const p = page({ "pagination.first": 1, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: p.edges.map((e) => e.node), next: p.pageInfo.hasNextPage, end: p.pageInfo.endCursor }
    })
    expect(versions.map((o) => [o.version, o.status])).toEqual([
      [3n, "STATUS_CANCELLED"],
      [2n, "STATUS_ACTIVE"],
      [1n, "STATUS_ACTIVE"]
    ])
    // oldest first keeps the view's order; its cursor predicate then finds nothing after it
    const oldest = page({ "pagination.first": 1, "pagination.newestFirst": false })
    expect(oldest.edges.map((e) => e.node.version)).toEqual([3n])
    const next = page({
      "pagination.first": 1,
      "pagination.newestFirst": false,
      "pagination.after": oldest.pageInfo.endCursor
    })
    expect(next.edges).toEqual([])
    expect([next.pageInfo.hasNextPage, next.pageInfo.hasPreviousPage]).toEqual([false, true])
    const lagging = decoded(
      DataNode.ListOrderVersionsResponse,
      call(at(placedAt), VERSIONS, {}, { orderId: id })
    ).orders
    expect(lagging.edges.map((e) => e.node.version)).toEqual([1n])
  })

  it("ListOrderVersions' errors and an unknown order", () => {
    const last = call(at(), VERSIONS, { "pagination.last": 1 }, { orderId: id })
    expect(last.status).toBe(500)
    expect(body(last).details[0]).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 20005,
      message: "failed to get order versions",
      inner: `orderID: ${id}: 'last' pagination is not supported`
    })
    const cursor = call(at(), VERSIONS, { "pagination.after": Buffer.from("[]").toString("base64") }, { orderId: id })
    expect(body(cursor).details[0].inner).toBe(
      `orderID: ${id}: parsing cursor: parsing cursor: json: cannot unmarshal array into Go value of type entities.OrderCursor`
    )
    expect(body(call(at(), VERSIONS, {}, { orderId: "xyz" })).details[0].message).toBe("invalid orderID parameter")
    const unknown = decoded(DataNode.ListOrderVersionsResponse, call(at(), VERSIONS, {}, { orderId: "ab".repeat(32) }))
    expect(unknown.orders.edges).toEqual([])
  })
})
