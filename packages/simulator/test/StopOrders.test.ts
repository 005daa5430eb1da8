import { describe, expect, it } from "@effect/vitest"
import { type Commands, DataNode } from "@vega-effect/schema"
import { idGenerator, MAX_STOP_ORDERS_PER_MARKET } from "../src/internal/world/stopOrders.js"
import { block, cancellation, freshKey, orderIdOf, submission } from "./support/apply.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
world.advance(30)

type Query = Parameters<typeof call>[2]

const list = (query: Query = {}) =>
  decoded(DataNode.ListStopOrdersResponse, call(nodeOf(world), "/api/v2/stoporders", query)).orders!
const get = (orderId: string) => call(nodeOf(world), "/api/v2/stoporder/{orderId}", {}, { orderId })
const allOf = (query: Query = {}) =>
  walk((after) => {
    const page = list({
      "pagination.first": 7,
      ...query,
      ...(after === undefined ? {} : { "pagination.after": after })
    })
    return {
      nodes: page.edges.map((e) => e.node.stopOrder!),
      next: page.pageInfo.hasNextPage,
      end: page.pageInfo.endCursor
    }
  })
const errorOf = (reply: { status: number; body: string }) => {
  const body = JSON.parse(reply.body) as {
    code: number
    details: Array<{ code: number; message: string; inner: string }>
  }
  return [reply.status, body.details[0].message, body.details[0].inner]
}

/** A party of the world with a long position in a market, and the market. */
const longPosition = () => {
  for (const row of world.positions.current.values()) {
    if (
      BigInt(row.openVolume) > 1000n &&
      row.party !== world.exchange.makerOf(row.market) &&
      row.party.id !== "network"
    ) {
      return row
    }
  }
  throw new Error("no long position")
}

const setup = (
  marketId: string,
  fields: Partial<Commands.StopOrderSetup>,
  order: Partial<Commands.OrderSubmission> = {}
) =>
  ({
    orderSubmission: (
      submission(marketId, { side: "SIDE_SELL", size: 10n, reduceOnly: true, ...order }) as {
        value: Commands.OrderSubmission
      }
    ).value,
    ...fields
  }) as Commands.StopOrderSetup
const stops = (value: Commands.StopOrdersSubmission): Commands.Command => ({ _tag: "stopOrdersSubmission", value })
const lastPrice = (marketIndex: number) => world.exchange.trades.byMarket[marketIndex]!.at(-1)!.price

/** The submission a command built by `submission` carries. */
const limitOf = (command: Commands.Command): Commands.OrderSubmission =>
  (command as { readonly value: Commands.OrderSubmission }).value

describe("stop orders through transactions", () => {
  it("pends an OCO pair named by the transaction's id generator, triggers one half and stops the other", () => {
    const { market, party } = longPosition()
    const last = lastPrice(market.index)
    const [{ result, tx }] = block(world, [
      party.id,
      stops({
        fallsBelow: setup(market.id, { price: String(last - 1_000_000n) }),
        risesAbove: setup(market.id, {
          price: String(last * 2n),
          expiresAt: 4n * 10n ** 18n,
          expiryStrategy: "EXPIRY_STRATEGY_CANCELS"
        })
      })
    ])
    expect(result.status).toBe(true)
    const next = idGenerator(orderIdOf(tx))
    const [falls, rises] = [next(), next()]
    expect(falls).toBe(orderIdOf(tx))
    const pair = [falls, rises].map((id) => world.stopOrders.current(id)!)
    expect(pair.map((r) => [r.status, r.ocoLinkId, r.direction])).toEqual([
      ["STATUS_PENDING", rises, "TRIGGER_DIRECTION_FALLS_BELOW"],
      ["STATUS_PENDING", falls, "TRIGGER_DIRECTION_RISES_ABOVE"]
    ])
    const served = decoded(DataNode.GetStopOrderResponse, get(rises)).order!
    expect(served.stopOrder).toMatchObject({
      id: rises,
      ocoLinkId: falls,
      status: "STATUS_PENDING",
      orderId: "",
      price: last * 2n
    })
    expect(served.submission?.reduceOnly).toBe(true)
    expect(JSON.parse(get(rises).body).order.stopOrder.updatedAt).toBeUndefined()
    // a cancellation of one half cancels both
    block(world, [party.id, { _tag: "stopOrdersCancellation", value: { marketId: market.id, stopOrderId: falls } }])
    expect([falls, rises].map((id) => world.stopOrders.current(id)!.status)).toEqual([
      "STATUS_CANCELLED",
      "STATUS_CANCELLED"
    ])
    // a price the last trade already crossed triggers on submission: its order goes to the book
    const [{ tx: tx2 }] = block(world, [
      party.id,
      stops({
        fallsBelow: setup(market.id, { price: String(lastPrice(market.index) * 2n) }),
        risesAbove: setup(market.id, { price: "1" })
      })
    ])
    const ids = idGenerator(orderIdOf(tx2))
    const [a, b, orderId] = [ids(), ids(), ids()]
    expect(world.stopOrders.current(a)).toMatchObject({ status: "STATUS_TRIGGERED", orderId })
    expect(world.stopOrders.current(b)!.status).toBe("STATUS_STOPPED")
    expect(world.exchange.orders.current(orderId)).toMatchObject({ side: "SIDE_SELL", reduceOnly: true, size: 10n })
  })

  it("rejects as the core does, with the reason served, and the transaction still succeeds", () => {
    const { market, party } = longPosition()
    const stranger = freshKey("stop stranger")
    const price = String(lastPrice(market.index) - 1_000_000n)
    const results = block(
      world,
      [stranger, stops({ fallsBelow: setup(market.id, { price }) })],
      [party.id, stops({ fallsBelow: setup(market.id, { price }, { side: "SIDE_BUY" }) })],
      [
        party.id,
        stops({ fallsBelow: setup(market.id, { price, expiresAt: 1n, expiryStrategy: "EXPIRY_STRATEGY_CANCELS" }) })
      ]
    )
    expect(results.map((r) => r.result.status)).toEqual([true, true, true])
    expect(results.map((r) => world.stopOrders.current(orderIdOf(r.tx))?.rejectionReason)).toEqual([
      "REJECTION_REASON_STOP_ORDER_NOT_ALLOWED_WITHOUT_A_POSITION",
      "REJECTION_REASON_STOP_ORDER_NOT_CLOSING_THE_POSITION",
      "REJECTION_REASON_EXPIRY_IN_THE_PAST"
    ])
    const served = decoded(DataNode.GetStopOrderResponse, get(orderIdOf(results[0].tx))).order!.stopOrder!
    expect([served.status, served.rejectionReason]).toEqual([
      "STATUS_REJECTED",
      "REJECTION_REASON_STOP_ORDER_NOT_ALLOWED_WITHOUT_A_POSITION"
    ])
    // the network parameter's maximum of pending stop orders per party and market
    const many = block(
      world,
      ...Array.from(
        { length: MAX_STOP_ORDERS_PER_MARKET + 1 },
        () => [party.id, stops({ fallsBelow: setup(market.id, { price }) })] as const
      )
    )
    const statuses = many.map((r) => world.stopOrders.current(orderIdOf(r.tx))!)
    expect(statuses.at(-1)!.rejectionReason).toBe("REJECTION_REASON_MAX_STOP_ORDERS_PER_PARTY_REACHED")
    expect(statuses.filter((r) => r.status === "STATUS_PENDING").length).toBeLessThanOrEqual(MAX_STOP_ORDERS_PER_MARKET)
    // cancelling a market's stop orders works, though the core's engine answers an error for it
    block(world, [party.id, { _tag: "stopOrdersCancellation", value: { marketId: market.id } }])
    expect(statuses.map((r) => world.stopOrders.current(r.id)!.status).filter((s) => s === "STATUS_PENDING")).toEqual(
      []
    )
  })

  it("runs a batch: cancellations, amendments, submissions, then stop orders, failures by property", () => {
    const { market, party } = longPosition()
    const limit = submission(market.id, {
      type: "TYPE_LIMIT",
      price: "1",
      size: 1n,
      side: "SIDE_BUY",
      timeInForce: "TIME_IN_FORCE_GTC"
    })
    const [{ tx: placedTx }] = block(world, [party.id, limit])
    const placed = orderIdOf(placedTx)
    const unknown = "ab".repeat(32)
    const batch: Commands.BatchMarketInstructions = {
      updateMarginMode: [],
      cancellations: [(cancellation(market.id, unknown) as { value: Commands.OrderCancellation }).value],
      amendments: [
        {
          orderId: placed,
          marketId: market.id,
          sizeDelta: 1n,
          timeInForce: "TIME_IN_FORCE_UNSPECIFIED",
          peggedOffset: "",
          peggedReference: "PEGGED_REFERENCE_UNSPECIFIED"
        },
        {
          orderId: placed,
          marketId: market.id,
          sizeDelta: 1n,
          timeInForce: "TIME_IN_FORCE_UNSPECIFIED",
          peggedOffset: "",
          peggedReference: "PEGGED_REFERENCE_UNSPECIFIED"
        }
      ],
      submissions: [limitOf(limit), { ...limitOf(limit), price: "" }],
      stopOrdersCancellation: [],
      stopOrdersSubmission: [{ fallsBelow: setup(market.id, { price: String(lastPrice(market.index) - 1_000_000n) }) }]
    }
    const [{ error, result, tx }] = block(world, [party.id, { _tag: "batchMarketInstructions", value: batch }])
    expect(result.status).toBe(false)
    expect(error).toBe(
      "0 (OrderError: Not Found), 2 (order already amended in batch), 4 (order_submission.price (is required when the order is of type LIMIT))"
    )
    expect(world.exchange.orders.current(placed)!.size).toBe(2n)
    const ids = idGenerator(orderIdOf(tx))
    const [first, second] = [ids(), ids()]
    expect(world.exchange.orders.current(first)!.status).toBe("STATUS_ACTIVE")
    // the core's arithmetic: the stop order takes the id at the last submission's index
    expect(world.stopOrders.current(second)!.status).toBe("STATUS_PENDING")
  })
})

describe("GET /api/v2/stoporders", () => {
  it("lists each stop order once in its current state, newest first then by id, with node cursors", () => {
    const all = allOf()
    expect(all.length).toBe(world.stopOrders.placed.length)
    expect(all.length).toBeGreaterThan(5)
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length)
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]]
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id < b.id)).toBe(true)
    }
    for (const s of all) expect(s.status).toBe(world.stopOrders.current(s.id)!.status)
    const first = list({ "pagination.first": 2 })
    expect(cursorJson(first.edges[0].cursor)).toMatch(
      /^\{"createdAt":"[^"]+","id":"[0-9a-f]{64}","vegaTime":"[^"]+"\}$/
    )
    expect(first.pageInfo.hasNextPage).toBe(true)
    const after = list({ "pagination.first": 2, "pagination.after": first.pageInfo.endCursor })
    expect(after.edges.map((e) => e.node.stopOrder!.id)).toEqual(all.slice(2, 4).map((s) => s.id))
    expect(after.pageInfo.hasPreviousPage).toBe(true)
    // the world's own stop orders are triggered, expired or pending: their orders are on the exchange
    for (const s of all.filter((s) => s.orderId !== "")) expect(world.exchange.orders.current(s.orderId)).toBeDefined()
  })

  it("filters by status, expiry strategy, live only, party, market and date range", () => {
    const all = allOf()
    const pending = allOf({ "filter.statuses": ["STATUS_PENDING"] })
    expect(pending.map((s) => s.id)).toEqual(all.filter((s) => s.status === "STATUS_PENDING").map((s) => s.id))
    expect(
      allOf({ "filter.liveOnly": true })
        .map((s) => s.id)
        .sort()
    ).toEqual(pending.map((s) => s.id).sort())
    const cancels = allOf({ "filter.expiryStrategies": ["EXPIRY_STRATEGY_CANCELS"] })
    expect(cancels.length).toBe(all.filter((s) => s.expiryStrategy === "EXPIRY_STRATEGY_CANCELS").length)
    const party = all[0].partyId
    expect(allOf({ "filter.partyIds": [party.toUpperCase()] }).map((s) => s.id)).toEqual(
      all.filter((s) => s.partyId === party).map((s) => s.id)
    )
    const market = all[0].marketId
    expect(allOf({ "filter.marketIds": [market] }).every((s) => s.marketId === market)).toBe(true)
    const rows = world.stopOrders.placed.map((r) => world.stopOrders.current(r.id)!)
    const start = BigInt(rows[Math.floor(rows.length / 2)].vt) * 1000n
    expect(allOf({ "filter.dateRange.startTimestamp": start }).length).toBe(
      rows.filter((r) => BigInt(r.vt) * 1000n >= start).length
    )
  })

  it("answers the node's errors", () => {
    const path = "/api/v2/stoporders"
    expect(errorOf(call(nodeOf(world), path, { "filter.partyIds": ["nope"] }))).toEqual([
      400,
      "invalid party id",
      "one or more party id is invalid"
    ])
    expect(errorOf(call(nodeOf(world), path, { "filter.marketIds": ["nope"] }))[2]).toBe(
      "one or more market id is invalid"
    )
    expect(errorOf(call(nodeOf(world), path, { "pagination.newestFirst": false }))).toEqual([
      500,
      "oldest first order query is not currently supported",
      ""
    ])
    expect(errorOf(call(nodeOf(world), path, { "pagination.last": 2 }))).toEqual([
      400,
      "'last' pagination is not supported",
      "'last' pagination is not supported"
    ])
    expect(errorOf(call(nodeOf(world), path, { "pagination.first": 0 }))[1]).toBe("invalid pagination")
  })
})

describe("GET /api/v2/stoporder/{orderId}", () => {
  it("serves one stop order, or the node's errors", () => {
    const row = world.stopOrders.placed[0]
    const served = decoded(DataNode.GetStopOrderResponse, get(row.id.toUpperCase())).order!.stopOrder!
    expect([served.id, served.partyId, served.marketId]).toEqual([row.id, row.party.id, row.market.id])
    expect(errorOf(get("zz"))).toEqual([400, "invalid orderID parameter", ""])
    expect(errorOf(get(""))[1]).toBe("missing orderID parameter")
    const unknown = "cd".repeat(32)
    expect(errorOf(get(unknown))).toEqual([
      404,
      "order not found",
      `orderID: ${unknown}: no resource corresponding to this id`
    ])
    // a lagging node does not see a stop order placed after its height
    const late = world.stopOrders.placed.at(-1)!
    const lagging = nodeOf(world, { height: late.from - 1 })
    expect(call(lagging, "/api/v2/stoporder/{orderId}", {}, { orderId: late.id }).status).toBe(404)
  })
})
