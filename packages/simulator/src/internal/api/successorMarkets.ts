/**
 * `GET /api/v2/successor_markets/{marketId}` (ListSuccessorMarkets), as the v0.75.8 data node
 * answers it (datanode/api/trading_data_v2.go, datanode/sqlstore/markets.go,
 * datanode/entities/successor_markets.go).
 *
 * The store reads the market's lineage (its root and every market descending from it; without
 * `includeFullHistory` only those that joined the lineage at or after the market itself), ordered
 * and paged by the markets' time alone. Each edge is `{"market":…,"proposals":[…]}`, the
 * proposals being the successor proposals naming the market as parent, and its cursor the
 * market's own (`{"vegaTime":…,"id":…}`), of which only the time is read back.
 *
 * When the page ends up empty (after `PageEntities`, so also a page after the last market's
 * cursor), the store answers the requested market alone, with the empty page's page info (no
 * cursors, no pages either side); an unknown market is then 404 `failed to get all markets paged`
 * (`no resource corresponding to this id`). The id must be 64 hex digits (400 `invalid market
 * ID`).
 *
 * The world's catalog has no successor markets: each market's lineage is the market alone, and
 * no proposal names a parent, so `proposals` is always `[]`.
 */
import { DataNodeApi, GatewayError, Ids } from "@vega-effect/schema"
import { base64 } from "../goJson.js"
import { page, resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { MarketInfo } from "../world/catalog.js"
import { arraySource, connectionJson } from "./connection.js"
import { MarketCursor, readCursor, SuccessorMarketCursor, writeCursor } from "./cursors.js"
import { marketJsons } from "./neighbours.js"
import type { NodeView } from "./node.js"
import { pagination } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

/** The market's time in the store's order: the time its rows are written with (as ListMarkets). */
const timeOf = (market: MarketInfo): number => market.proposedMicros

const cursorOf = (market: MarketInfo): string => writeCursor(MarketCursor, [timeOf(market), market.id])

/**
 * The markets of a market's lineage in the store's base order (by time). The catalog has no
 * successions, so each lineage is the market alone, with or without the full history.
 */
const lineage = (market: MarketInfo): ReadonlyArray<MarketInfo> => [market]

const handle = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("marketId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  let key: number | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(SuccessorMarketCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.MarketServiceGetAllPaged, badCursor(values.error as string))
    key = values.get("vegaTime") as number
  }
  const market = node.world.catalog.marketById.get(id.toLowerCase())
  const json = marketJsons[node.nodeVersion]
  const nodeJson = (m: MarketInfo) => `{"market":${json(m)},"proposals":[]}`
  const rows = market === undefined ? [] : lineage(market)
  const result = page(
    arraySource(rows, (m, k: number) => timeOf(m) - k, cursorOf),
    request,
    key
  )
  if (result.rows.length > 0) {
    const connection = connectionJson(result.rows, nodeJson, cursorOf, result.hasNextPage, result.hasPreviousPage)
    return ok(`{"successorMarkets":${connection}}`)
  }
  // nothing on the page: the market asked for, alone, with the empty page's page info
  if (market === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.MarketServiceGetAllPaged,
        GatewayError.NO_RESOURCE_INNER,
        GatewayError.GrpcCode.NotFound
      )
    )
  }
  const edge = `{"node":${nodeJson(market)},"cursor":"${base64(cursorOf(market))}"}`
  const pageInfo = connectionJson([], nodeJson, cursorOf, false, false).replace(/^\{"edges":\[\],/, "")
  return ok(`{"successorMarkets":{"edges":[${edge}],${pageInfo}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListSuccessorMarkets.method,
  path: DataNodeApi.ListSuccessorMarkets.path,
  params: [param("includeFullHistory", "bool"), ...paginationParams],
  handle
}
