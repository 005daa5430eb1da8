/**
 * `GET /api/v2/trades` (ListTrades) and `GET /api/v2/market/{marketId}/trade/latest`
 * (GetLastTrade), as the v0.75.8 data node answers them (`datanode/api/trading_data_v2.go`,
 * `datanode/sqlstore/trades.go`, `datanode/entities/trade.go`).
 *
 * ListTrades: the trades up to the node's readable height, ordered by synthetic time (block time
 * plus the trade event's sequence number), newest first by default, in either direction; the
 * cursor is `{"synthetic_time":…}`. Filters, all ANDed: `marketIds`, `partyIds` (buyer or
 * seller), `orderIds` (buy or sell order), each compared as the bytes the store keeps (any case;
 * not split on commas), and `dateRange` on the synthetic time (start inclusive, end exclusive).
 * The handler checks nothing itself: the store turns the ids into bytes, markets, then parties,
 * then orders, and the first that is not hex (nor a well-known id) answers 400 `failed to list
 * trades` with inner `received invalid <market|party|order> ID: decoding '<id>': not a valid hex
 * id (or well known exception)`. A cursor that is not the cursor's JSON answers 500 with inner
 * `failed to get trade by market:parsing cursor: parsing cursor: …` (no space after the colon).
 *
 * GetLastTrade: the market's trade of the latest synthetic time, `{"trade":null}` when it has none
 * (an unknown market included); an empty id answers `empty or missing market ID`, one that is not
 * 64 hex digits `invalid market ID`.
 *
 * A v0.79 node answers the same, with its trade form (see `tradingValues.ts`).
 */
import { DataNodeApi, GatewayError, Ids, Vega } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { resolve, type Source } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { TradeRow } from "../world/trades.js"
import { cachedJsonByVersion, list } from "./connection.js"
import { TradeCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { dateRange, inRange } from "./dateRange.js"
import { pagination, strings } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"
import { tradeJsonAs, tradeValue } from "./tradingValues.js"

const { ApiErrors } = GatewayError

const encode = Schema.encodeSync(Vega.Trade)

/** A trade's REST JSON, per node release. */
export const tradeJson = cachedJsonByVersion((row: TradeRow, version) =>
  JSON.stringify(tradeJsonAs(encode(tradeValue(row)) as unknown as Record<string, unknown>, version))
)

export const tradeCursor = (row: TradeRow): string => writeCursor(TradeCursor, [row.syntheticTime])

/** The id a stored key names: the network party is kept as the byte 03. */
const partyIdOf = (key: string): string => (key === "03" ? Ids.NETWORK_PARTY : key)

const compareToKey = (row: TradeRow, syntheticTime: number): number => row.syntheticTime - syntheticTime

/** Several lists of trades as one, in synthetic-time order, each trade once. */
const merged = (lists: ReadonlyArray<ReadonlyArray<TradeRow> | undefined>): ReadonlyArray<TradeRow> => {
  const present = lists.filter((rows): rows is ReadonlyArray<TradeRow> => rows !== undefined)
  if (present.length === 1) return present[0]
  return [...new Set(present.flat())].sort((a, b) => a.syntheticTime - b.syntheticTime || a.seq - b.seq)
}

/** The stored keys of a filter's ids, or the first id that does not decode. */
const keysOf = (values: ReadonlyArray<string>): { readonly keys: Set<string> } | { readonly invalid: string } => {
  const keys = new Set<string>()
  for (const value of values) {
    const key = storedIdKey(value)
    if (key === undefined) return { invalid: value }
    keys.add(key)
  }
  return { keys }
}

const listTrades = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const filters: Array<Set<string>> = []
  for (const [name, what] of [
    ["marketIds", "market"],
    ["partyIds", "party"],
    ["orderIds", "order"]
  ] as const) {
    const parsed = keysOf(strings(params, name))
    if ("invalid" in parsed) {
      return invalidId(ApiErrors.TradeServiceList, `received invalid ${what} ID: ${notHex(parsed.invalid)}`)
    }
    filters.push(parsed.keys)
  }
  const [markets, parties, orders] = filters
  const range = dateRange(params)
  const height = node.readableHeight
  const { catalog, exchange } = node.world
  const trades = exchange.trades
  const rows =
    markets.size > 0
      ? merged([...markets].map((key) => trades.byMarket[catalog.marketById.get(key)?.index ?? -1]))
      : parties.size > 0
        ? merged([...parties].map((key) => trades.byParty.get(partyIdOf(key))))
        : trades.log
  const partyKey = (id: string) => (id === Ids.NETWORK_PARTY ? "03" : id)
  const source: Source<TradeRow, number> = {
    size: rows.length,
    at: (i) => rows[i],
    include: (row) =>
      row.height <= height &&
      (markets.size === 0 || markets.has(row.market.id)) &&
      (parties.size === 0 || parties.has(partyKey(row.buyer.id)) || parties.has(partyKey(row.seller.id))) &&
      (orders.size === 0 || orders.has(row.buyOrder) || orders.has(row.sellOrder)) &&
      inRange(range, row.syntheticTime),
    compare: compareToKey,
    cursorOf: tradeCursor
  }
  const result = list<TradeRow, number>({
    request,
    cursor: TradeCursor,
    keyOf: (v) => v.get("synthetic_time") as number,
    source,
    nodeJson: tradeJson(node.nodeVersion)
  })
  if ("cursorError" in result) {
    return internal(ApiErrors.TradeServiceList, `failed to get trade by market:${badCursor(result.cursorError)}`)
  }
  return ok(`{"trades":${result.json}}`)
}

const lastTrade = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("marketId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  const market = node.world.catalog.marketById.get(id.toLowerCase())
  const rows = market === undefined ? [] : (node.world.exchange.trades.byMarket[market.index] ?? [])
  const height = node.readableHeight
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i].height <= height) return ok(`{"trade":${tradeJson(node.nodeVersion)(rows[i])}}`)
  }
  return ok(`{"trade":null}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListTrades.method,
    path: DataNodeApi.ListTrades.path,
    params: [
      param("marketIds", "string", true),
      param("orderIds", "string", true),
      param("partyIds", "string", true),
      ...paginationParams,
      param("dateRange.startTimestamp", "int64"),
      param("dateRange.endTimestamp", "int64")
    ],
    handle: listTrades
  },
  {
    method: DataNodeApi.GetLastTrade.method,
    path: DataNodeApi.GetLastTrade.path,
    params: [],
    handle: lastTrade
  }
]
