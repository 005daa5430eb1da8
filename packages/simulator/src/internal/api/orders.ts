/**
 * `GET /api/v2/orders` (ListOrders), `GET /api/v2/order/{orderId}` (GetOrder) and
 * `GET /api/v2/order/versions/{orderId}` (ListOrderVersions), as the v0.75.8 data node answers
 * them (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/orders.go`, and the order views of
 * `sqlstore/migrations/0001_initial.sql`, which later migrations recreate unchanged).
 *
 * The store keeps one row per order, version and block (the batcher's key), so a view at a height
 * sees an order as the last change of the last block up to that height made it.
 *
 * ListOrders reads the current state of each order (`orders_current_desc*` views: DISTINCT ON the
 * order, its latest row), or with `liveOnly` the `orders_live` table (filled by the
 * `archive_orders` trigger: limit orders ACTIVE or PARKED, neither IOC nor FOK). The filters apply
 * to that state: statuses, types, times in force, `reference` (exact), `dateRange` on the state's
 * block time (start inclusive, end exclusive), parties and markets (split on commas and checked
 * first: 64 hex digits or `network`, any case). `excludeLiquidity` keeps orders without a
 * liquidity provision id, which every order of the simulator is.
 *
 * Ordering: newest first only. The cursor is `{"createdAt","id","vegaTime"}` over the ordering
 * created_at, id descending, vega_time (reversed for newest first), but the query keeps the view's
 * own order, which the view picks by the filters (live, else reference, else parties, else
 * markets): created_at descending, then the party (or the market, or the reference), then the
 * id. With several parties or markets a page can therefore repeat or skip orders of one block, as
 * on the node. `newestFirst=false` answers 500 `oldest first order query is not currently
 * supported` (unmapped detail, no inner), and `last`/`before` 400 `'last' pagination is not
 * supported` (that check comes after).
 *
 * GetOrder: the latest row of the order, or of the given `version` (which must be positive); an
 * unknown id answers 404 `order not found` with inner `orderID: <id>: no resource corresponding to
 * this id`.
 *
 * ListOrderVersions: the latest row of each version (`orders_current_versions`), in the view's
 * order, version descending, whatever the page asks; the cursor predicate (the ListOrders cursor,
 * ascending for `newestFirst=false`) still applies. `last` answers 500 `failed to get order
 * versions`. An unknown order has no versions: an empty page.
 */
import { Commands, DataNodeApi, Encoder, GatewayError, Ids, Vega } from "@vega-effect/schema"
import { atOrBeyond, isDescending, type PageRequest, resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { World } from "../../World.js"
import type { OrderRow, OrderTable } from "../world/orderTable.js"
import { compareStrings, idSortKey, lowerBound } from "../world/versioned.js"
import { cachedJson, listInOrder } from "./connection.js"
import { type CursorValues, OrderCursor, writeCursor } from "./cursors.js"
import { marketAndPartyIds } from "./ids.js"
import type { NodeView } from "./node.js"
import { dateRange, inRange } from "./dateRange.js"
import { bool, int, pagination, str, strings } from "./params.js"
import { badCursor, error, invalidPagination, ok } from "./reply.js"
import { orderValue } from "./tradingValues.js"

const { ApiErrors, ErrorDetailCode } = GatewayError

const encode = Encoder.stringify(Vega.Order)

/** An order's REST JSON (rows are immutable versions). */
export const orderJson = cachedJson((row: OrderRow) => encode(orderValue(row)))

export const orderCursor = (row: OrderRow): string => writeCursor(OrderCursor, [row.createdAt, row.id, row.vt])

/** A decoded order (or stop order) cursor. */
export interface OrderKey {
  readonly createdAt: number
  readonly id: string
  readonly vt: number
}

export const keyOf = (v: CursorValues): OrderKey => ({
  createdAt: v.get("createdAt") as number,
  id: (v.get("id") as string).toLowerCase(),
  vt: v.get("vegaTime") as number
})

/** What the order views sort and page by: an order's, or a stop order's, state. */
export interface PlacedRow {
  readonly createdAt: number
  readonly id: string
  readonly vt: number
  readonly seq: number
}

/** The store's `ordersOrdering` (created_at, id descending, vega_time) of a row against a key. */
const compareToKey = (row: PlacedRow, key: OrderKey): number =>
  row.createdAt - key.createdAt || compareStrings(key.id, row.id) || row.vt - key.vt

/** Whether an order state is in `orders_live` (the `archive_orders` trigger's condition). */
const inLiveTable = (row: OrderRow): boolean =>
  (row.status === "STATUS_ACTIVE" || (row.status as string) === "STATUS_PARKED") &&
  row.type === "TYPE_LIMIT" &&
  row.timeInForce !== "TIME_IN_FORCE_IOC" &&
  row.timeInForce !== "TIME_IN_FORCE_FOK"

const byId = (a: OrderRow, b: OrderRow): number => compareStrings(a.id, b.id)

/** The order within one `created_at` of each view (`currentView`, sqlstore/orders.go). */
const VIEW_ORDER = {
  live: byId,
  reference: byId,
  party: (a: OrderRow, b: OrderRow) => compareStrings(idSortKey(a.party.id), idSortKey(b.party.id)) || byId(a, b),
  market: (a: OrderRow, b: OrderRow) => compareStrings(a.market.id, b.market.id) || byId(a, b),
  all: byId
} as const

/**
 * The current states of the placed orders, newest first in the view's order: `placements` are the
 * orders' first rows in the order placed (so by creation time), `keep` the query's filters. With
 * a key, only states at or beyond it (the cursor predicate of a newest-first page).
 */
export function* currentStates<Row extends PlacedRow>(
  placements: ReadonlyArray<Row>,
  table: { readonly at: (id: string, height: number) => Row | undefined },
  height: number,
  keep: (row: Row) => boolean,
  within: (a: Row, b: Row) => number,
  key: OrderKey | undefined
): Generator<Row> {
  let end =
    key === undefined
      ? placements.length
      : lowerBound(placements, key.createdAt, (row, createdAt: number) => (row.createdAt <= createdAt ? -1 : 1))
  while (end > 0) {
    const createdAt = placements[end - 1].createdAt
    let start = end - 1
    while (start > 0 && placements[start - 1].createdAt === createdAt) start--
    const group: Array<Row> = []
    for (let i = start; i < end; i++) {
      const row = table.at(placements[i].id, height)
      if (row === undefined || !keep(row)) continue
      if (key !== undefined && !atOrBeyond(compareToKey(row, key), true)) continue
      group.push(row)
    }
    group.sort(within)
    yield* group
    end = start
  }
}

/** The placements of the given parties' (or markets') orders, in the order placed. */
export const placementsOf = <Row extends PlacedRow>(
  lists: ReadonlyArray<ReadonlyArray<Row> | undefined>
): ReadonlyArray<Row> => {
  const present = lists.filter((list): list is ReadonlyArray<Row> => list !== undefined)
  if (present.length === 1) return present[0]
  return present.flat().sort((a, b) => a.seq - b.seq)
}

/** The placements of the orders of some parties, else of some markets, else of all, in the order placed. */
const placementsFor = (
  world: World,
  parties: ReadonlySet<string>,
  markets: ReadonlySet<string>
): ReadonlyArray<OrderRow> => {
  const table = world.exchange.orders
  if (parties.size > 0) return placementsOf([...parties].map((id) => table.byParty.get(id)))
  if (markets.size > 0) {
    return placementsOf([...markets].map((id) => table.byMarket[world.catalog.marketById.get(id)?.index ?? -1]))
  }
  return table.placed
}

/**
 * The orders in `orders_live` at `height` of the given parties and markets (lowercase ids or
 * `network`; none: all), newest first then by id: ListOrders with `liveOnly` and no limit, which
 * the orders stream sends as its snapshot.
 */
export const liveOrders = (
  world: World,
  height: number,
  parties: ReadonlySet<string>,
  markets: ReadonlySet<string>
): Array<OrderRow> => {
  const keep = (row: OrderRow): boolean =>
    inLiveTable(row) &&
    (parties.size === 0 || parties.has(row.party.id)) &&
    (markets.size === 0 || markets.has(row.market.id))
  const placements = placementsFor(world, parties, markets)
  return [...currentStates(placements, world.exchange.orders, height, keep, VIEW_ORDER.live, undefined)]
}

const OLDEST_FIRST = "oldest first order query is not currently supported"

/**
 * What the order lists (orders, stop orders) check first, in the node's order: the pagination,
 * the market and party ids, then that the page is newest first and forward (the stores page no
 * other way). The page and the ids, or the refusal.
 */
export const orderListRequest = (
  params: Params
): { readonly request: PageRequest; readonly marketIds: Array<string>; readonly partyIds: Array<string> } | Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const ids = marketAndPartyIds(params)
  if ("status" in ids) return ids
  if (!request.newestFirst) return error(GatewayError.internal(ErrorDetailCode.Unmapped, OLDEST_FIRST))
  if (!request.forward) {
    const api = ApiErrors.LastPaginationNotSupported
    return error(GatewayError.fromApiError(api, api.message))
  }
  return { request, ...ids }
}

const listOrders = (params: Params, node: NodeView): Reply => {
  const checked = orderListRequest(params)
  if ("status" in checked) return checked
  const { marketIds, partyIds, request } = checked

  const table = node.world.exchange.orders
  const liveOnly = bool(params, "filter.liveOnly") ?? false
  const reference = str(params, "filter.reference")
  const statuses = new Set(strings(params, "filter.statuses"))
  const types = new Set(strings(params, "filter.types"))
  const timesInForce = new Set(strings(params, "filter.timeInForces"))
  const range = dateRange(params, "filter.dateRange")
  const parties = new Set(partyIds)
  const markets = new Set(marketIds)
  const keep = (row: OrderRow): boolean =>
    (!liveOnly || inLiveTable(row)) &&
    (parties.size === 0 || parties.has(row.party.id)) &&
    (markets.size === 0 || markets.has(row.market.id)) &&
    (reference === undefined || row.reference === reference) &&
    (statuses.size === 0 || statuses.has(row.status)) &&
    (types.size === 0 || types.has(row.type)) &&
    (timesInForce.size === 0 || timesInForce.has(row.timeInForce)) &&
    inRange(range, row.vt)
  const view = liveOnly
    ? "live"
    : reference !== undefined
      ? "reference"
      : parties.size > 0
        ? "party"
        : markets.size > 0
          ? "market"
          : "all"
  const placements = placementsFor(node.world, parties, markets)
  const height = node.readableHeight
  const result = listInOrder<OrderRow, OrderKey>({
    request,
    cursor: OrderCursor,
    keyOf,
    rows: (key) => currentStates(placements, table, height, keep, VIEW_ORDER[view], key),
    cursorOf: orderCursor,
    nodeJson: orderJson
  })
  if ("cursorError" in result) {
    return error(GatewayError.internal(ErrorDetailCode.Unmapped, badCursor(result.cursorError)))
  }
  return ok(`{"orders":${result.json}}`)
}

/** The order id of a path, or the node's answer to a missing or invalid one. */
const orderIdOf = (params: Params): string | Reply => {
  const id = params.path.get("orderId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingOrderId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidOrderId))
  return id
}

/** The latest row of each version of an order a view at `height` sees, version descending. */
const versionsAt = (table: OrderTable, id: string, height: number): Array<OrderRow> => {
  const latest = new Map<number, OrderRow>()
  for (const row of table.byId.get(id) ?? []) if (row.from <= height) latest.set(row.version, row)
  return [...latest.values()].sort((a, b) => b.version - a.version)
}

const getOrder = (params: Params, node: NodeView): Reply => {
  const id = orderIdOf(params)
  if (typeof id !== "string") return id
  const version = int(params, "version")
  if (version !== undefined && version <= 0) return error(GatewayError.fromApiError(ApiErrors.NegativeOrderVersion))
  const { orders } = node.world.exchange
  const height = node.readableHeight
  const lower = id.toLowerCase()
  const row =
    version === undefined
      ? orders.at(lower, height)
      : versionsAt(orders, lower, height).find((candidate) => candidate.version === version)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(ApiErrors.OrderNotFound, `orderID: ${id}: ${GatewayError.NO_RESOURCE_INNER}`)
    )
  }
  return ok(`{"order":${orderJson(row)}}`)
}

const listOrderVersions = (params: Params, node: NodeView): Reply => {
  const id = orderIdOf(params)
  if (typeof id !== "string") return id
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const failed = (inner: string): Reply =>
    error(GatewayError.fromApiError(ApiErrors.OrderServiceGetVersions, `orderID: ${id}: ${inner}`))
  if (!request.forward) return failed(ApiErrors.LastPaginationNotSupported.message)
  const versions = versionsAt(node.world.exchange.orders, id.toLowerCase(), node.readableHeight)
  const descending = isDescending(request)
  const result = listInOrder<OrderRow, OrderKey>({
    request,
    cursor: OrderCursor,
    keyOf,
    rows: (key) =>
      key === undefined ? versions : versions.filter((row) => atOrBeyond(compareToKey(row, key), descending)),
    cursorOf: orderCursor,
    nodeJson: orderJson
  })
  if ("cursorError" in result) return failed(badCursor(result.cursorError))
  return ok(`{"orders":${result.json}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListOrders.method,
    path: DataNodeApi.ListOrders.path,
    params: [
      ...paginationParams,
      enumParam("filter.statuses", Vega.OrderStatus.values, true),
      enumParam("filter.types", Commands.OrderType.values, true),
      enumParam("filter.timeInForces", Commands.TimeInForce.values, true),
      param("filter.excludeLiquidity", "bool"),
      param("filter.partyIds", "string", true),
      param("filter.marketIds", "string", true),
      param("filter.reference", "string"),
      param("filter.dateRange.startTimestamp", "int64"),
      param("filter.dateRange.endTimestamp", "int64"),
      param("filter.liveOnly", "bool")
    ],
    handle: listOrders
  },
  {
    method: DataNodeApi.GetOrder.method,
    path: DataNodeApi.GetOrder.path,
    params: [param("version", "int32")],
    handle: getOrder
  },
  {
    method: DataNodeApi.ListOrderVersions.method,
    path: DataNodeApi.ListOrderVersions.path,
    params: paginationParams,
    handle: listOrderVersions
  }
]
