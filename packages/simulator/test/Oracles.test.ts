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
  it("has no data (no market settles) and fails a spec id that is not hex", () => {
    const data = decoded(
      DataNode.ListOracleDataResponse,
      call(node, "/api/v2/oracle/data", { oracleSpecId: sortedIds[0] })
    )
    expect(data.oracleData.edges).toEqual([])
    expect(call(node, "/api/v2/oracle/data").body).toBe(
      '{"oracleData":{"edges":[],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"","endCursor":""}}}'
    )
    expect(call(node, "/api/v2/oracle/data", { oracleSpecId: "xyz" }).status).toBe(400)
    expect(call(node, "/api/v2/oracle/data", { "pagination.first": 0 }).status).toBe(400)
  })
})
