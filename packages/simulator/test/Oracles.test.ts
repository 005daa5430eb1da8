import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { compareStrings } from "../src/internal/world/versioned.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]

const specs = (query: Query = {}) =>
  decoded(DataNode.ListOracleSpecsResponse, call(node, "/api/v2/oracle/specs", query)).oracleSpecs
const specIds = (connection: ReturnType<typeof specs>) =>
  connection.edges.map((e) => e.node.externalDataSourceSpec!.spec!.id as string)
const getSpec = (oracleSpecId: string) => call(node, "/api/v2/oracle/spec/{oracleSpecId}", {}, { oracleSpecId })

/** Every data source spec the markets' JSON declares, by id. */
const declared = new Map<string, unknown>()
for (const market of world.catalog.markets) {
  const product = JSON.parse(call(node, "/api/v2/market/{marketId}", {}, { marketId: market.id }).body).market
    .tradableInstrument.instrument[market.product]
  for (const [key, value] of Object.entries(product)) {
    if (key.startsWith("dataSourceSpecFor")) declared.set((value as { id: string }).id, value)
  }
}
const sortedIds = [...declared.keys()].sort(compareStrings)

describe("ListOracleSpecs", () => {
  it("lists the markets' data source specs as their JSON declares them, by id", () => {
    expect(declared.size).toBe(2 * world.catalog.markets.length)
    const up = specs({ "pagination.newestFirst": false, "pagination.first": 1000 })
    expect(specIds(up)).toEqual(sortedIds)
    const raw = JSON.parse(call(node, "/api/v2/oracle/specs", { "pagination.first": 1000 }).body).oracleSpecs
    for (const edge of raw.edges) {
      const spec = edge.node.externalDataSourceSpec.spec
      expect(spec).toEqual(declared.get(spec.id))
    }
    expect(specIds(specs({ "pagination.first": 1000 }))).toEqual([...sortedIds].reverse())
  })

  it("pages with a {vegaTime, id} cursor", () => {
    const first = specs({ "pagination.first": 3, "pagination.newestFirst": false })
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({
      vegaTime: expect.stringMatching(/Z$/),
      id: sortedIds[0]
    })
    const all = walk((after) => {
      const page = specs({
        "pagination.first": 3,
        "pagination.newestFirst": false,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return { nodes: specIds(page), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(all).toEqual(sortedIds)
    const bad = call(node, "/api/v2/oracle/specs", {
      "pagination.after": Buffer.from('{"id":"xyz"}').toString("base64")
    })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).details[0].message).toBe("failed retrieve data for oracle specs")
  })
})

describe("GetOracleSpec", () => {
  it("answers one spec by id (any case), refuses bad ids and does not know others", () => {
    const id = sortedIds[1]
    const one = decoded(DataNode.GetOracleSpecResponse, getSpec(id.toUpperCase()))
    expect(one.oracleSpec?.externalDataSourceSpec?.spec?.id).toBe(id)
    expect(JSON.parse(getSpec(id).body).oracleSpec.externalDataSourceSpec.spec).toEqual(declared.get(id))
    expect(getSpec("xyz").status).toBe(400)
    const unknown = getSpec("cd".repeat(32))
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).details[0]).toMatchObject({
      code: 190001,
      inner: `OracleSpecId: ${"cd".repeat(32)}: no resource corresponding to this id`
    })
  })
})

describe("ListOracleData", () => {
  const data = (query: Query = {}) =>
    decoded(DataNode.ListOracleDataResponse, call(node, "/api/v2/oracle/data", query)).oracleData
  const perps = world.catalog.markets.filter((m) => m.product === "perpetual")

  it("lists the prices the oracle published for the perpetuals, each matching the market's settlement spec", () => {
    const all = data({ "pagination.first": 1000 }).edges.map((e) => e.node.externalData!.data!)
    // every 10 blocks from block 1, for each perpetual
    expect(all.length).toBe(perps.length * Math.ceil(world.height / 10))
    for (const market of perps) {
      const spec = JSON.parse(call(node, "/api/v2/market/{marketId}", {}, { marketId: market.id }).body).market
        .tradableInstrument.instrument.perpetual.dataSourceSpecForSettlementData
      const own = all.filter((d) => d.matchedSpecIds[0] === spec.id)
      expect(own.length).toBe(Math.ceil(world.height / 10))
      const points = decoded(
        DataNode.ListFundingPeriodDataPointsResponse,
        call(
          node,
          "/api/v2/funding-periods/data-points/{marketId}",
          { source: "SOURCE_EXTERNAL", "pagination.first": 1000 },
          { marketId: market.id }
        )
      ).fundingPeriodDataPoints.edges.map((e) => e.node)
      const scale = 10n ** BigInt(market.settlementAsset.decimals - market.priceDecimals)
      for (const d of own) {
        expect(d.signers).toEqual([{ pubKey: { key: spec.data.external.oracle.signers[0].pubKey.key } }])
        expect(d.data.map((p) => p.name)).toEqual([spec.data.external.oracle.filters[0].key.name])
        const seconds = BigInt(d.metaData.find((p) => p.name === "vega-time")!.value)
        expect(seconds).toBe(d.broadcastAt / 1_000_000_000n)
        // the funding's external point is that price in asset decimals, at the data's vega-time
        const point = points.find((p) => p.timestamp === seconds * 1_000_000_000n)!
        expect(point.price).toBe(BigInt(d.data[0].value) * scale)
      }
    }
  })

  it("pages newest first by time then signer, filters by spec, and fails a spec id that is not hex", () => {
    const all = data({ "pagination.first": 1000 }).edges.map((e) => e.node.externalData!.data!)
    const times = all.map((d) => d.broadcastAt)
    expect(times).toEqual([...times].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)))
    const keys = all.map((d) => `${d.broadcastAt}/${d.signers[0].pubKey!.key}`)
    const forward = walk((after) => {
      const page = data({ "pagination.first": 7, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.edges.map(
          (e) => `${e.node.externalData!.data!.broadcastAt}/${e.node.externalData!.data!.signers[0].pubKey!.key}`
        ),
        next: page.pageInfo.hasNextPage,
        end: page.pageInfo.endCursor
      }
    })
    expect(forward).toEqual(keys)
    const first = data({ "pagination.first": 1 })
    expect(Object.keys(JSON.parse(cursorJson(first.edges[0].cursor)))).toEqual(["vegaTime", "signers"])
    const oldest = data({ "pagination.first": 3, "pagination.newestFirst": false }).edges.map(
      (e) => `${e.node.externalData!.data!.broadcastAt}/${e.node.externalData!.data!.signers[0].pubKey!.key}`
    )
    expect(oldest).toEqual(keys.slice(-3).reverse())
    const spec = all[0].matchedSpecIds[0]
    const filtered = data({ oracleSpecId: spec, "pagination.first": 1000 }).edges
    expect(filtered.length).toBe(all.filter((d) => d.matchedSpecIds[0] === spec).length)
    const future = world.catalog.markets.find((m) => m.product === "future")!
    const futureSpec = JSON.parse(call(node, "/api/v2/market/{marketId}", {}, { marketId: future.id }).body).market
      .tradableInstrument.instrument.future.dataSourceSpecForSettlementData.id
    expect(data({ oracleSpecId: futureSpec }).edges).toEqual([])
    expect(call(node, "/api/v2/oracle/data", { oracleSpecId: "xyz" }).status).toBe(400)
    expect(call(node, "/api/v2/oracle/data", { "pagination.first": 0 }).status).toBe(400)
  })
})
