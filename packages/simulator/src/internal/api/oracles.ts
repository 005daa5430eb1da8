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
 * - Oracle data: the prices the world's oracle publishes for the perpetuals (`world/funding.ts`),
 *   each as the core records a signed submission that matched the market's settlement spec:
 *   the property, `vega-time` metadata (the block's time in seconds: the data has none of its
 *   own) and the block's time as `broadcastAt` (core/datasource/spec/engine.go, v0.75.8). The
 *   world's markets never terminate or settle and time triggers are not recorded as data. The
 *   store orders by time, then signers (each stored as a type byte, 0 for a key, then the key's
 *   text); the cursor is `{"vegaTime":…,"signers":[base64…]}`. A newest-first first page with no
 *   cursor reads only the last day (`vega_time > now() - interval '1 day'`), which the simulator
 *   measures against its own clock, the block time. A spec id filter keeps the data that matched
 *   that spec; one that is not hex fails the query as on the node (400).
 */
import { DataNodeApi, GatewayError, Ids, Vega } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { page, resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Catalog } from "../world/catalog.js"
import type { OraclePrice } from "../world/funding.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, connectionJson } from "./connection.js"
import { isZeroCursor, OracleDataCursor, OracleSpecCursor, readCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import { dataSourceSpecs, oracleSigner, priceProperty, settlementSpecId } from "./marketJson.js"
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

const encodeData = Schema.encodeSync(Vega.OracleData)
const decodeData = Schema.decodeUnknownSync(Vega.OracleData)

/** A signer as the store keeps it: a type byte (0 for a public key), then the key's text. */
const storedSigner = (price: OraclePrice): string => `\u0000${oracleSigner(price.market)}`

/** The core's record of a published price: the submission's property, its `vega-time` and the spec it matched. */
const dataJson = (price: OraclePrice): string =>
  JSON.stringify(
    encodeData(
      decodeData({
        externalData: {
          data: {
            signers: [{ pubKey: { key: oracleSigner(price.market) } }],
            data: [{ name: priceProperty(price.market), value: String(price.index) }],
            matchedSpecIds: [settlementSpecId(price.market)],
            broadcastAt: String(BigInt(price.vt) * 1000n),
            metaData: [{ name: "vega-time", value: String(Math.floor(price.vt / 1_000_000)) }]
          }
        }
      })
    )
  )

interface DataKey {
  readonly vt: number
  readonly signer: string
}

const compareData = (row: OraclePrice, key: DataKey): number =>
  row.vt - key.vt || compareStrings(storedSigner(row), key.signer)

const dataCursor = (row: OraclePrice): string =>
  writeCursor(OracleDataCursor, [row.vt, [Buffer.from(storedSigner(row), "latin1").toString("base64")]])

const DAY_MICROS = 86_400_000_000

const listOracleData = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const specId = str(params, "oracleSpecId")
  const wanted = specId === undefined || specId === "" ? undefined : storedIdKey(specId)
  if (specId !== undefined && specId !== "" && wanted === undefined) {
    return failedQuery(ApiErrors.OracleDataServiceGet, `scany: query multiple result rows: ${notHex(specId)}`)
  }
  let key: DataKey | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(OracleDataCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.OracleDataServiceGet, badCursor(values.error as string))
    if (!isZeroCursor(OracleDataCursor, values)) {
      const signers = values.get("signers")
      const first = Array.isArray(signers) && typeof signers[0] === "string" ? signers[0] : ""
      key = { vt: values.get("vegaTime") as number, signer: Buffer.from(first, "base64").toString("latin1") }
    }
  }
  const height = node.readableHeight
  // a newest-first first page reads the last day only: the store's guard, against the node's clock
  const since =
    request.forward && request.cursor === undefined && request.newestFirst
      ? node.world.chain.blockTime(height) - DAY_MICROS
      : -Infinity
  const rows = node.world.funding
    .oraclePrices(height)
    .filter((p) => p.vt > since && (wanted === undefined || settlementSpecId(p.market) === wanted))
    .sort((a, b) => a.vt - b.vt || compareStrings(storedSigner(a), storedSigner(b)))
  const result = page(arraySource<OraclePrice, DataKey>(rows, compareData, dataCursor), request, key)
  const json = connectionJson(result.rows, dataJson, dataCursor, result.hasNextPage, result.hasPreviousPage)
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
    handle: listOracleData
  }
]
