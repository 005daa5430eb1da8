/**
 * `GET /api/v2/oracle/specs` (ListOracleSpecs), `GET /api/v2/oracle/spec/{oracleSpecId}`
 * (GetOracleSpec) and `GET /api/v2/oracle/data` (ListOracleData), as the v0.75.8 data node
 * answers them (datanode/api/trading_data_v2.go, datanode/sqlstore/oracle_spec.go and
 * oracle_data.go, datanode/entities/data_source_spec.go and data.go).
 *
 * - The specs are the data sources the markets declare (see `dataSourceSpecs` in marketJson.ts),
 *   each written as `{"externalDataSourceSpec":{"spec":…}}`, its time the market's proposal.
 *   The store orders them by `id` then `vega_time`, ascending; the cursor is
 *   `{"vegaTime":…,"id":…}`, and an id in it that is not hex fails the query (400).
 * - GetOracleSpec: 400 `invalid oracle spec ID` unless 64 hex digits; 404 `failed retrieve data
 *   for oracle spec` with inner `OracleSpecId: <id>: no resource corresponding to this id` when
 *   unknown.
 * - Oracle data: the world's markets never terminate or settle and the simulator does not model
 *   the funding schedule's time triggers as data, so there is none: every page is empty. A spec id
 *   filter that is not hex fails the query as on the node (400).
 */
import { DataNodeApi, GatewayError, Ids, Vega } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { page, resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Catalog } from "../world/catalog.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, connectionJson } from "./connection.js"
import { OracleDataCursor, OracleSpecCursor, readCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import { dataSourceSpecs } from "./marketJson.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors, GrpcCode } = GatewayError

const encodeSpec = Schema.encodeSync(Vega.OracleSpec)
// the specs are built in their JSON form, as the market's JSON embeds them
const decodeSpec = Schema.decodeUnknownSync(Vega.OracleSpec)

interface SpecRow {
  readonly id: string
  /** The time the spec was stored: its market's proposal (µs). */
  readonly vt: number
  readonly spec: ReturnType<typeof dataSourceSpecs>[number]
}

const specCache = new WeakMap<Catalog, ReadonlyArray<SpecRow>>()

/** Every market's data source specs, in the store's order (id, then time). */
const specRows = (catalog: Catalog): ReadonlyArray<SpecRow> => {
  let rows = specCache.get(catalog)
  if (rows === undefined) {
    rows = catalog.markets
      .flatMap((market) => dataSourceSpecs(market).map((spec) => ({ id: spec.id, vt: market.proposedMicros, spec })))
      .sort((a, b) => compareStrings(a.id, b.id) || a.vt - b.vt)
    specCache.set(catalog, rows)
  }
  return rows
}

const specJson = cachedJson((row: SpecRow) =>
  JSON.stringify(encodeSpec(decodeSpec({ externalDataSourceSpec: { spec: row.spec } })))
)

const specCursor = (row: SpecRow): string => writeCursor(OracleSpecCursor, [row.vt, row.id])

/** Go's zero time, as a cursor without `vegaTime` reads. */
const ZERO_TIME = -62135596800000000

const failedQuery = (api: GatewayError.ApiError, inner: string): Reply =>
  error(GatewayError.fromApiError(api, inner, GrpcCode.InvalidArgument))

const listOracleSpecs = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  let key: { readonly id: string; readonly vt: number } | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(OracleSpecCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.OracleSpecServiceGetAll, badCursor(values.error as string))
    const id = values.get("id") as string
    const vt = values.get("vegaTime") as number
    // the zero struct adds no predicate; otherwise the cursor's id is bound as bytes
    if (id !== "" || vt !== ZERO_TIME) {
      const bytes = storedIdKey(id)
      if (bytes === undefined) {
        return failedQuery(
          ApiErrors.OracleSpecServiceGetAll,
          `querying oracle specs: scany: query multiple result rows: ${notHex(id)}`
        )
      }
      key = { id: bytes, vt }
    }
  }
  const source = arraySource<SpecRow, { readonly id: string; readonly vt: number }>(
    specRows(node.world.catalog),
    (row, k) => compareStrings(row.id, k.id) || row.vt - k.vt,
    specCursor
  )
  const result = page(source, request, key)
  const json = connectionJson(result.rows, specJson, specCursor, result.hasNextPage, result.hasPreviousPage)
  return ok(`{"oracleSpecs":${json}}`)
}

const getOracleSpec = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("oracleSpecId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingOracleSpecId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidOracleSpecId))
  const wanted = id.toLowerCase()
  const row = specRows(node.world.catalog).find((r) => r.id === wanted)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.OracleSpecServiceGet,
        `OracleSpecId: ${id}: ${GatewayError.NO_RESOURCE_INNER}`
      )
    )
  }
  return ok(`{"oracleSpec":${specJson(row)}}`)
}

const listOracleData = (params: Params): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const specId = str(params, "oracleSpecId")
  if (specId !== undefined && specId !== "" && storedIdKey(specId) === undefined) {
    return failedQuery(ApiErrors.OracleDataServiceGet, `scany: query multiple result rows: ${notHex(specId)}`)
  }
  if (request.cursor !== undefined) {
    const values = readCursor(OracleDataCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.OracleDataServiceGet, badCursor(values.error as string))
  }
  // no oracle data in this world: every page is empty
  const json = connectionJson<never>([], String, String, false, false)
  return ok(`{"oracleData":${json}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListOracleSpecs.method,
    path: DataNodeApi.ListOracleSpecs.path,
    params: [...paginationParams],
    handle: listOracleSpecs
  },
  {
    method: DataNodeApi.GetOracleSpec.method,
    path: DataNodeApi.GetOracleSpec.path,
    params: [],
    handle: getOracleSpec
  },
  {
    method: DataNodeApi.ListOracleData.method,
    path: DataNodeApi.ListOracleData.path,
    params: [param("oracleSpecId", "string"), ...paginationParams],
    handle: (params) => listOracleData(params)
  }
]
