import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const PATH = "/api/v2/funding-periods/data-points/{marketId}"
const world = smallWorld({ fundingPeriodSeconds: 200 })
world.advance(450)
const node = nodeOf(world)
const perp = world.catalog.markets.find((m) => m.product === "perpetual")!
const future = world.catalog.markets.find((m) => m.product === "future")!

type Query = Parameters<typeof call>[2]
const points = (query: Query = {}, marketId = perp.id, n = node) =>
  decoded(DataNode.ListFundingPeriodDataPointsResponse, call(n, PATH, query, { marketId })).fundingPeriodDataPoints
const periods = (query: Query = {}) =>
  decoded(
    DataNode.ListFundingPeriodsResponse,
    call(node, "/api/v2/funding-periods/{marketId}", query, { marketId: perp.id })
  ).fundingPeriods.edges.map((e) => e.node)

/** The data points of one period, oldest first (of one source, unless told otherwise). */
const ofPeriod = (seq: bigint, source: string | null = "SOURCE_INTERNAL") =>
  points({
    seq,
    "pagination.first": 5000,
    "pagination.newestFirst": false,
    ...(source === null ? {} : { source })
  }).edges.map((e) => e.node)

/** A market price in the asset's decimals, as the core submits it. */
const inAsset = (price: bigint) => price * 10n ** BigInt(perp.settlementAsset.decimals - perp.priceDecimals)

/** The last mark-to-market (every 10 blocks) that changed the mark price. */
const lastChange = () => {
  let h = Math.floor(world.height / 10) * 10
  while (world.exchange.markPrice(perp, h) === world.exchange.markPrice(perp, h - 10)) h -= 10
  return h
}

describe("GET /api/v2/funding-periods/data-points/{marketId}", () => {
  it("records the mark price at each change, the period's last point carried into the next", () => {
    const [current, ended, before] = periods({ "pagination.first": 3 })
    const rows = ofPeriod(ended.seq)
    expect(rows.length).toBeGreaterThan(10)
    // the first is the previous period's last point, carried over with its own time and price
    const previous = ofPeriod(before.seq)
    const last = previous[previous.length - 1]
    expect(rows[0].timestamp).toBe(last.timestamp)
    expect(rows[0].timestamp < ended.start).toBe(true)
    expect(rows[0].price).toBe(last.price)
    expect(rows[0].twap).toBe(rows[0].price)
    for (const row of rows.slice(1)) {
      expect(row.timestamp >= ended.start && row.timestamp < ended.end!).toBe(true)
      expect(row.timestamp % 1_000_000_000n).toBe(0n)
      expect(row.dataPointType).toBe("SOURCE_INTERNAL")
      expect(row.seq).toBe(ended.seq)
    }
    // a point is recorded only when the price changes
    for (let i = 1; i < rows.length; i++) expect(rows[i].price).not.toBe(rows[i - 1].price)
    // each TWAP is the time-weighted average of the prices since the period's start
    let sum = 0n
    for (let i = 1; i < rows.length; i++) {
      const from = i === 1 ? ended.start : rows[i - 1].timestamp
      sum += rows[i - 1].price * ((rows[i].timestamp - from) / 1_000_000_000n)
      const expected =
        rows[i].timestamp === ended.start ? rows[i].price : sum / ((rows[i].timestamp - ended.start) / 1_000_000_000n)
      expect(rows[i].twap).toBe(expected)
    }
    // the period in progress starts with the ended one's last point
    const now = ofPeriod(current.seq)
    expect(now[0].price).toBe(rows[rows.length - 1].price)
    expect(now[0].seq).toBe(current.seq)
    const raw = JSON.parse(call(node, PATH, { "pagination.first": 1 }, { marketId: perp.id }).body)
    expect(Object.keys(raw.fundingPeriodDataPoints.edges[0].node)).toEqual([
      "marketId",
      "seq",
      "dataPointType",
      "price",
      "timestamp",
      "twap"
    ])
  })

  it("has the latest mark price as its newest point", () => {
    const newest = points({ "pagination.first": 1, source: "SOURCE_INTERNAL" }).edges[0].node
    const data = JSON.parse(
      call(node, "/api/v2/market/data/{marketId}/latest", {}, { marketId: perp.id }).body
    ).marketData
    expect(newest.price).toBe(inAsset(BigInt(data.markPrice)))
    const mtm = lastChange()
    expect(newest.timestamp).toBe(BigInt(Math.floor(world.chain.blockTime(mtm) / 1_000_000)) * 1_000_000_000n)
  })

  it("pages both ways with cursors, newest first by default", () => {
    const seq = periods({ "pagination.first": 2 })[1].seq
    const all = ofPeriod(seq, null)
      .map((n) => `${n.timestamp}/${n.seq}`)
      .reverse()
    const forward = walk((after) => {
      const page = points({
        seq,
        "pagination.first": 400,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return {
        nodes: page.edges.map((e) => `${e.node.timestamp}/${e.node.seq}`),
        next: page.pageInfo.hasNextPage,
        end: page.pageInfo.endCursor
      }
    })
    expect(forward).toEqual(all)
    const first = points({ seq, "pagination.first": 5 })
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({
      timestamp: expect.any(String),
      marketID: perp.id,
      fundingPeriodSeq: Number(seq),
      dataPointType: first.edges[0].node.dataPointType === "SOURCE_EXTERNAL" ? 1 : 2
    })
    const before = points({ seq, "pagination.last": 3, "pagination.before": first.pageInfo.endCursor })
    expect(before.edges.map((e) => `${e.node.timestamp}/${e.node.seq}`)).toEqual(all.slice(1, 4))
    expect(before.pageInfo.hasPreviousPage).toBe(true)
    // the carried point and the one it copies share a timestamp: the sequence number orders them
    const last = points({ seq: seq - 1n, "pagination.first": 1 })
    const boundary = points({
      "pagination.first": 1,
      "pagination.newestFirst": false,
      "pagination.after": last.pageInfo.endCursor
    })
    expect(boundary.edges.map((e) => [e.node.timestamp, e.node.seq, e.node.dataPointType])).toEqual([
      [last.edges[0].node.timestamp, seq, last.edges[0].node.dataPointType]
    ])
  })

  it("filters by date range, source and period", () => {
    const seq = periods({ "pagination.first": 2 })[1].seq
    const rows = ofPeriod(seq, null)
    const from = rows[3].timestamp
    const to = rows[8].timestamp
    const ranged = points({
      "dateRange.startTimestamp": from,
      "dateRange.endTimestamp": to,
      "pagination.newestFirst": false
    })
    expect(ranged.edges.map((e) => e.node.timestamp)).toEqual(rows.slice(3, 8).map((r) => r.timestamp))
    const external = points({ source: "SOURCE_EXTERNAL", seq, "pagination.first": 5000 }).edges
    expect(external.length).toBeGreaterThan(5)
    expect(external.every((e) => e.node.dataPointType === "SOURCE_EXTERNAL")).toBe(true)
    expect(points({ source: "SOURCE_UNSPECIFIED" }).edges).toEqual([])
    expect(points({ source: "SOURCE_INTERNAL", seq, "pagination.first": 5000 }).edges.length).toBe(
      rows.length - external.length
    )
    expect(points({ seq: 10n ** 12n }).edges).toEqual([])
  })

  it("has none for a future or an unknown market, and reads as of the node's height", () => {
    expect(points({}, future.id).edges).toEqual([])
    expect(points({}, "ab".repeat(32)).edges).toEqual([])
    expect(points({}, perp.id.toUpperCase()).edges.length).toBeGreaterThan(0)
    const internal = { source: "SOURCE_INTERNAL", "pagination.first": 1 }
    const newest = (n = node) => points(internal, perp.id, n).edges[0].node
    const lagging = nodeOf(world, { height: lastChange() - 1 })
    expect(newest(lagging).timestamp < newest().timestamp).toBe(true)
    expect(newest(lagging)).toEqual(
      points({ ...internal, "pagination.after": points(internal).pageInfo.endCursor }).edges[0].node
    )
  })

  it("rejects a bad market id and a cursor that does not read", () => {
    const reply = call(node, PATH, {}, { marketId: "abc" })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).details[0].message).toBe("invalid market ID")
    const bad = call(node, PATH, { "pagination.after": Buffer.from("{").toString("base64") }, { marketId: perp.id })
    expect(bad.status).toBe(500)
    expect(JSON.parse(bad.body).details[0]).toMatchObject({
      message: "failed to get funding period data points",
      inner: "parsing cursor: parsing cursor: unexpected end of JSON input"
    })
  })
})
