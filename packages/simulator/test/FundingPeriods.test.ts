import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const PATH = "/api/v2/funding-periods/{marketId}"
const world = smallWorld({ fundingPeriodSeconds: 5 })
world.advance(3)
const node = nodeOf(world)
const perp = world.catalog.markets.find((m) => m.product === "perpetual")!
const future = world.catalog.markets.find((m) => m.product === "future")!

type Query = Parameters<typeof call>[2]
const periods = (query: Query = {}, marketId = perp.id, n = node) =>
  decoded(DataNode.ListFundingPeriodsResponse, call(n, PATH, query, { marketId })).fundingPeriods

describe("GET /api/v2/funding-periods/{marketId}", () => {
  it("lists a perpetual's periods newest first, the one in progress as its market data has it", () => {
    const page = periods({ "pagination.first": 1000 })
    const seqs = page.edges.map((e) => Number(e.node.seq))
    expect(seqs.length).toBeGreaterThan(50)
    expect(seqs).toEqual(seqs.map((_, i) => seqs.length - i))
    const current = page.edges[0].node
    const data = JSON.parse(call(node, "/api/v2/market/data/{marketId}/latest", {}, { marketId: perp.id }).body)
      .marketData.productData.perpetualData
    expect(String(current.seq)).toBe(data.seqNum)
    expect(String(current.start)).toBe(data.startTime)
    expect(current.end).toBeUndefined()
    expect(current.fundingPayment).toBeUndefined()
    const ended = page.edges[1].node
    expect(ended.end).toBe(current.start)
    expect(ended.fundingPayment).toBe(ended.internalTwap! - ended.externalTwap!)
    // the period in progress starts with TWAPs of the points carried over: the ended one's last
    const carried = (source: string) =>
      decoded(
        DataNode.ListFundingPeriodDataPointsResponse,
        call(
          node,
          "/api/v2/funding-periods/data-points/{marketId}",
          { seq: current.seq, source, "pagination.first": 1000, "pagination.newestFirst": false },
          { marketId: perp.id }
        )
      ).fundingPeriodDataPoints.edges[0].node
    expect(current.internalTwap).toBe(carried("SOURCE_INTERNAL").price)
    expect(current.externalTwap).toBe(carried("SOURCE_EXTERNAL").price)
    const raw = JSON.parse(call(node, PATH, { "pagination.first": 2 }, { marketId: perp.id }).body)
    expect(Object.keys(raw.fundingPeriods.edges[1].node)).toEqual([
      "marketId",
      "seq",
      "start",
      "end",
      "fundingPayment",
      "fundingRate",
      "internalTwap",
      "externalTwap"
    ])
    // the first, from the opening to block 1, ended before the oracle's first price: no payment
    const first = page.edges[page.edges.length - 1].node
    expect(first.seq).toBe(1n)
    expect(first.start).toBe(BigInt(perp.openMicros) * 1000n)
    expect([first.fundingPayment, first.fundingRate, first.externalTwap]).toEqual([undefined, undefined, undefined])
    expect(first.internalTwap).toBeDefined()
  })

  it("pages both ways with cursors", () => {
    const all = periods({ "pagination.first": 1000 }).edges.map((e) => e.node.seq)
    const forward = walk((after) => {
      const page = periods({ "pagination.first": 7, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: page.edges.map((e) => e.node.seq), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(forward).toEqual(all)
    const first = periods({ "pagination.first": 1 })
    expect(Object.keys(JSON.parse(cursorJson(first.edges[0].cursor)))).toEqual([
      "startTime",
      "marketID",
      "fundingPeriodSeq"
    ])
    const before = periods({
      "pagination.last": 3,
      "pagination.before": periods({ "pagination.first": 5 }).pageInfo.endCursor
    })
    expect(before.edges.map((e) => e.node.seq)).toEqual(all.slice(1, 4))
    const ascending = periods({ "pagination.first": 3, "pagination.newestFirst": false })
    expect(ascending.edges.map((e) => e.node.seq)).toEqual([1n, 2n, 3n])
  })

  it("filters the start times by the date range", () => {
    const all = periods({ "pagination.first": 1000 }).edges.map((e) => e.node)
    const from = all[10].start
    const to = all[3].start
    const ranged = periods({ "dateRange.startTimestamp": from, "dateRange.endTimestamp": to }).edges
    expect(ranged.map((e) => e.node.seq)).toEqual(all.slice(4, 11).map((n) => n.seq))
  })

  it("has no periods for a future or an unknown market, and reads as of the node's height", () => {
    expect(periods({}, future.id).edges).toEqual([])
    expect(periods({}, "ab".repeat(32)).edges).toEqual([])
    expect(periods({}, perp.id.toUpperCase()).edges.length).toBeGreaterThan(0)
    const lagging = periods({ "pagination.first": 1000 }, perp.id, nodeOf(world, { height: 2 })).edges.length
    expect(lagging).toBeLessThanOrEqual(periods({ "pagination.first": 1000 }).edges.length)
  })

  it("rejects a market id that is not 64 hex digits", () => {
    const reply = call(node, PATH, {}, { marketId: "abc" })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0].message).toBe("invalid market ID")
  })
})
