/**
 * `GET /api/v2/stoporders` (ListStopOrders) and `GET /api/v2/stoporder/{orderId}` (GetStopOrder),
 * as the v0.75.8 data node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/stop_orders.go, datanode/entities/stop_orders.go, and the views of
 * sqlstore/migrations/0010_stop_orders.sql and 0022_upgrade_tables_to_hypertables.sql).
 *
 * Each node is a `StopOrderEvent`: the stop order and the order submission it holds. The store
 * never reads `updatedAt` back into the answer, so it is never served; the rejection reason is
 * served only for a rejected stop order.
 *
 * ListStopOrders reads the current state of each stop order (the `stop_orders_current_desc*`
 * views) or, with `liveOnly`, the `stop_orders_live` table (PENDING ones). Filters: statuses,
 * expiry strategies, `dateRange` on the state's block time (start inclusive, end exclusive),
 * parties and markets (split on commas, each 64 hex digits or `network`, else 400 `invalid party
 * id` with inner `one or more market id is invalid` / `one or more party id is invalid`). The
 * pagination is checked first. Ordering: newest first only; the cursor is
 * `{"createdAt","id","vegaTime"}` over created_at, id descending, vega_time (reversed), but the
 * query keeps the view's own order (by parties, else markets, else all: created_at descending,
 * then the party or market, then the id); the live table is ordered by the cursor's columns.
 * `newestFirst=false` answers 500 `oldest first order query is not currently supported`, `last`
 * 400 `'last' pagination is not supported`, as ListOrders does.
 *
 * GetStopOrder: the current state; a missing id 400 `missing orderID parameter`, an id that is
 * not 64 hex digits 400 `invalid orderID parameter`, an unknown one 404 `order not found` with
 * inner `orderID: <id>: no resource corresponding to this id`.
 */
import { Commands, DataNodeApi, Encoder, GatewayError, Ids, Vega, VegaEvents } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import { microsToNanos } from "../goTime.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { World } from "../../World.js"
import type { StopOrderRow } from "../world/stopOrders.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { cachedJson, listInOrder } from "./connection.js"
import { StopOrderCursor, writeCursor } from "./cursors.js"
import { dateRange, inRange } from "./dateRange.js"
import type { NodeView } from "./node.js"
import { currentStates, keyOf, orderListRequest, type OrderKey, placementsOf } from "./orders.js"
import { bool, strings } from "./params.js"
import { badCursor, error, ok } from "./reply.js"

const { ApiErrors, ErrorDetailCode } = GatewayError

const encode = Encoder.stringify(VegaEvents.StopOrderEvent)

const nanos = (micros: number): bigint => BigInt(microsToNanos(micros))

/** A stop order's REST JSON (rows are immutable versions). */
export const stopOrderJson = cachedJson((row: StopOrderRow) =>
  encode({
    submission: row.submission,
    stopOrder: {
      id: row.id,
      ...(row.ocoLinkId === "" ? {} : { ocoLinkId: row.ocoLinkId }),
      ...(row.expiresAt === undefined ? {} : { expiresAt: row.expiresAt }),
      ...(row.expiryStrategy === undefined || row.expiryStrategy === "EXPIRY_STRATEGY_UNSPECIFIED"
        ? {}
        : { expiryStrategy: row.expiryStrategy }),
      triggerDirection: row.direction,
      status: row.status,
      createdAt: nanos(row.createdAt),
      orderId: row.orderId,
      partyId: row.party.id,
      marketId: row.market.id,
      ...(row.status === "STATUS_REJECTED" ? { rejectionReason: row.rejectionReason } : {}),
      sizeOverrideSetting: row.sizeOverrideSetting ?? "SIZE_OVERRIDE_SETTING_UNSPECIFIED",
      ...(row.sizeOverrideValue === undefined || row.sizeOverrideValue === ""
        ? {}
        : { sizeOverrideValue: { percentage: row.sizeOverrideValue } }),
      ...(row.price === undefined
        ? { trailingPercentOffset: BigDecimal.unsafeFromString(row.trailing!) }
        : { price: row.price })
    }
  } as unknown as VegaEvents.StopOrderEvent)
)

const stopOrderCursor = (row: StopOrderRow): string => writeCursor(StopOrderCursor, [row.createdAt, row.id, row.vt])

const byId = (a: StopOrderRow, b: StopOrderRow): number => compareStrings(a.id, b.id)

/** The order within one `created_at` of each view (`stopOrderView`, sqlstore/stop_orders.go). */
const VIEW_ORDER = {
  live: byId,
  party: (a: StopOrderRow, b: StopOrderRow) =>
    compareStrings(idSortKey(a.party.id), idSortKey(b.party.id)) || byId(a, b),
  market: (a: StopOrderRow, b: StopOrderRow) => compareStrings(a.market.id, b.market.id) || byId(a, b),
  all: byId
} as const

const placementsFor = (world: World, parties: ReadonlySet<string>, markets: ReadonlySet<string>) => {
  const stops = world.stopOrders
  if (parties.size > 0) return placementsOf([...parties].map((id) => stops.byParty.get(id)))
  if (markets.size > 0) {
    return placementsOf([...markets].map((id) => stops.byMarket[world.catalog.marketById.get(id)?.index ?? -1]))
  }
  return stops.placed
}

const listStopOrders = (params: Params, node: NodeView): Reply => {
  const checked = orderListRequest(params)
  if ("status" in checked) return checked
  const { marketIds, partyIds, request } = checked
  const liveOnly = bool(params, "filter.liveOnly") ?? false
  const statuses = new Set(strings(params, "filter.statuses"))
  const strategies = new Set(strings(params, "filter.expiryStrategies"))
  const range = dateRange(params, "filter.dateRange")
  const parties = new Set(partyIds)
  const markets = new Set(marketIds)
  const keep = (row: StopOrderRow): boolean =>
    (!liveOnly || row.status === "STATUS_PENDING") &&
    (parties.size === 0 || parties.has(row.party.id)) &&
    (markets.size === 0 || markets.has(row.market.id)) &&
    (statuses.size === 0 || statuses.has(row.status)) &&
    (strategies.size === 0 ||
      strategies.has((row.expiryStrategy as string | undefined) ?? "EXPIRY_STRATEGY_UNSPECIFIED")) &&
    inRange(range, row.vt)
  const view = liveOnly ? "live" : parties.size > 0 ? "party" : markets.size > 0 ? "market" : "all"
  const placements = placementsFor(node.world, parties, markets)
  const height = node.readableHeight
  const result = listInOrder<StopOrderRow, OrderKey>({
    request,
    cursor: StopOrderCursor,
    keyOf,
    rows: (key) => currentStates(placements, node.world.stopOrders, height, keep, VIEW_ORDER[view], key),
    cursorOf: stopOrderCursor,
    nodeJson: stopOrderJson
  })
  if ("cursorError" in result) {
    return error(GatewayError.internal(ErrorDetailCode.Unmapped, badCursor(result.cursorError)))
  }
  return ok(`{"orders":${result.json}}`)
}

const getStopOrder = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("orderId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingOrderId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidOrderId))
  const row = node.world.stopOrders.at(id.toLowerCase(), node.readableHeight)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(ApiErrors.OrderNotFound, `orderID: ${id}: ${GatewayError.NO_RESOURCE_INNER}`)
    )
  }
  return ok(`{"order":${stopOrderJson(row)}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListStopOrders.method,
    path: DataNodeApi.ListStopOrders.path,
    params: [
      ...paginationParams,
      enumParam("filter.statuses", Vega.StopOrderStatus.values, true),
      enumParam("filter.expiryStrategies", Commands.StopOrderExpiryStrategy.values, true),
      param("filter.dateRange.startTimestamp", "int64"),
      param("filter.dateRange.endTimestamp", "int64"),
      param("filter.partyIds", "string", true),
      param("filter.marketIds", "string", true),
      param("filter.liveOnly", "bool")
    ],
    handle: listStopOrders
  },
  {
    method: DataNodeApi.GetStopOrder.method,
    path: DataNodeApi.GetStopOrder.path,
    params: [],
    handle: getStopOrder
  }
]
