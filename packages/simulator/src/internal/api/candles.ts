/**
 * Candles, as the v0.75.8 data node serves them (datanode/api/trading_data_v2.go,
 * sqlstore/candles.go, entities/candle.go; the candles themselves: world/candles.ts):
 *
 * - `GET /api/v2/candle/intervals` (ListCandleIntervals): `marketId` required (10003 when empty,
 *   "invalid market ID" when not 64 hex digits, both InvalidArgument), then one
 *   `{"interval":…,"candleId":"trades_candle_<interval with _>_<marketId as given>"}` per candle
 *   view, for any market id: the store lists its views without looking at the market. The node
 *   writes them in Go's random map order; the simulator shortest first.
 * - `GET /api/v2/candle` (ListCandleData): `candleId`, `fromTimestamp` and `toTimestamp`
 *   (nanoseconds, 0 for none), pagination. Checked in this order: an end before the start
 *   (InvalidArgument, unmapped "invalid candle timestamps range"), the pagination (10028), a
 *   missing candle id (10030); then the store's failures, all 60001 "failed to get candle data"
 *   as Internal errors: a candle id that does not parse, an interval no view has, an interval
 *   Postgres cannot read, an equivalent interval under another name (its view does not exist), a
 *   cursor that does not parse. Rows ordered by `period_start` (cursor `{"periodStart":…}`),
 *   prices written `""` when zero (a gap).
 *
 * Candle ids are parsed as the store parses them: the market is what follows the last `_` (any
 * case), the interval what follows `trades_candle_` with `_` as spaces. An interval is the view's
 * when written the same, or when Postgres reads it as the same length of time (`60 minutes` is
 * `1 hour`): then the store queries a view named after it, which exists only if it differs from
 * the real one by case alone (Postgres folds unquoted names).
 */
import { DataNode, DataNodeApi, Encoder, GatewayError, Ids } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { nanosToMicros } from "../goTime.js"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { type Candle, CANDLE_INTERVALS, type CandleInterval } from "../world/candles.js"
import type { MarketInfo } from "../world/catalog.js"
import { nanosOf } from "../world/eventTime.js"
import { list } from "./connection.js"
import { CandleCursor, readCursor, writeCursor } from "./cursors.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str } from "./params.js"
import { error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

export const VIEW_PREFIX = "trades_candle_"

const viewOf = (interval: string): string => VIEW_PREFIX + interval.replaceAll(" ", "_")

/** A candle id for an interval and a market id (as given). */
export const candleIdOf = (interval: CandleInterval, marketId: string): string => `${viewOf(interval.name)}_${marketId}`

// ---------------------------------------------------------------------------------------------
// Intervals as Postgres reads them
// ---------------------------------------------------------------------------------------------

const UNIT_SECONDS: Record<string, number> = {}
const units = (seconds: number, ...names: Array<string>) => {
  for (const name of names) UNIT_SECONDS[name] = seconds
}
units(0.000001, "microsecond", "microseconds", "us", "usec", "usecs", "useconds")
units(0.001, "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds")
units(1, "second", "seconds", "s", "sec", "secs")
units(60, "minute", "minutes", "m", "min", "mins")
units(3600, "hour", "hours", "h", "hr", "hrs")
units(86_400, "day", "days", "d")
units(604_800, "week", "weeks", "w")
// EXTRACT(epoch …) counts a month as 30 days and a year as 365.25
units(2_592_000, "month", "months", "mon", "mons")
units(31_557_600, "year", "years", "y", "yr", "yrs")

const PART = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]*)/

/**
 * The whole seconds of an interval as `EXTRACT(epoch FROM INTERVAL '…')` gives them, or undefined
 * when Postgres would not read it. Covers the `<number> <unit>` forms (several of them, any case,
 * units abbreviated or not, a bare number being seconds, an optional leading `@`); other forms
 * Postgres reads (`01:00:00`, ISO 8601) are taken as unreadable here.
 */
export const intervalSeconds = (text: string): number | undefined => {
  let rest = text.toLowerCase().replace(/^\s*@/, "")
  if (rest.trim() === "") return undefined
  let total = 0
  while (rest.trim() !== "") {
    const match = PART.exec(rest)
    if (match === null) return undefined
    const unit = match[2] === "" ? 1 : UNIT_SECONDS[match[2]]
    if (unit === undefined) return undefined
    total += Number(match[1]) * unit
    rest = rest.slice(match[0].length)
  }
  return Math.trunc(total)
}

/** Postgres's refusal of an interval it cannot read, as pgx writes the error. */
const intervalSyntax = (interval: string): string =>
  `ERROR: invalid input syntax for type interval: "${interval}" (SQLSTATE 22007)`

const noRelation = (view: string): string => `ERROR: relation "${view.toLowerCase()}" does not exist (SQLSTATE 42P01)`

// ---------------------------------------------------------------------------------------------
// Candle ids
// ---------------------------------------------------------------------------------------------

/** What a candle id names: the market and interval the store reads, or why it cannot. */
export type CandleLookup =
  | {
      readonly _tag: "Found"
      /** The view the store queries, as named in the id. */
      readonly view: string
      /** The interval that view holds, when it exists. */
      readonly interval: CandleInterval | undefined
      /** The market id's bytes as lowercase hex. */
      readonly marketId: string
    }
  /** The id does not parse (`sqlstore/candles.go` `candleDescriptorFromCandleID`). */
  | { readonly _tag: "BadId"; readonly reason: string }
  /** Postgres could not read the interval. */
  | { readonly _tag: "BadInterval"; readonly reason: string }
  | { readonly _tag: "NoView" }

export const lookupCandle = (candleId: string): CandleLookup => {
  const at = candleId.lastIndexOf("_")
  if (at === -1) return { _tag: "BadId", reason: `invalid candle id:${candleId}` }
  const market = candleId.slice(at + 1)
  const view = candleId.slice(0, at)
  const split = view.split(VIEW_PREFIX)
  if (split.length !== 2) {
    return { _tag: "BadId", reason: `parsing candle id, view name has unexpected format:${candleId}` }
  }
  if (!Ids.isVegaId(market)) return { _tag: "BadId", reason: `not a valid market id: ${market}` }
  const interval = split[1].replaceAll("_", " ")
  const exact = CANDLE_INTERVALS.find((i) => i.name === interval)
  if (exact === undefined) {
    const seconds = intervalSeconds(interval)
    if (seconds === undefined) {
      return { _tag: "BadInterval", reason: `checking if view exists for interval:${intervalSyntax(interval)}` }
    }
    if (!CANDLE_INTERVALS.some((i) => i.micros !== undefined && i.micros / 1_000_000 === seconds)) {
      return { _tag: "NoView" }
    }
  }
  const lower = view.toLowerCase()
  return {
    _tag: "Found",
    view,
    interval: CANDLE_INTERVALS.find((i) => viewOf(i.name) === lower),
    marketId: market.toLowerCase()
  }
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const price = (value: bigint): Option.Option<bigint> => (value > 0n ? Option.some(value) : Option.none())

/** A candle as `datanode.api.v2.Candle`: a price of zero (a gap) is written `""`. */
export const candleValue = (candle: Candle): DataNode.Candle =>
  ({
    start: nanosOf(candle.start),
    lastUpdate: nanosOf(candle.lastUpdate),
    high: price(candle.high),
    low: price(candle.low),
    open: price(candle.open),
    close: price(candle.close),
    volume: candle.volume,
    notional: candle.notional
  }) as DataNode.Candle

const encodeCandle = Encoder.stringify(DataNode.Candle)

export const candleJson = (candle: Candle): string => encodeCandle(candleValue(candle))

const intervals: Route<NodeView> = {
  method: DataNodeApi.ListCandleIntervals.method,
  path: DataNodeApi.ListCandleIntervals.path,
  params: [param("marketId", "string")],
  handle: (params) => {
    const marketId = str(params, "marketId") ?? ""
    if (marketId === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
    if (!Ids.isVegaId(marketId)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
    const rows = CANDLE_INTERVALS.map((interval) =>
      JSON.stringify({ interval: interval.name, candleId: candleIdOf(interval, marketId) })
    )
    return ok(`{"intervalToCandleId":[${rows.join(",")}]}`)
  }
}

const candleData = (params: Params, node: NodeView): Reply => {
  const from = int64(params, "fromTimestamp") || undefined
  const to = int64(params, "toTimestamp") || undefined
  if (from !== undefined && to !== undefined && to < from) {
    return error(GatewayError.fromApiError(ApiErrors.InvalidCandleTimestampsRange))
  }
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const candleId = str(params, "candleId") ?? ""
  if (candleId === "") return error(GatewayError.fromApiError(ApiErrors.MissingCandleId))
  const fail = (inner: string): Reply => internal(ApiErrors.CandleServiceGetCandleData, inner)
  const found = lookupCandle(candleId)
  switch (found._tag) {
    case "BadId":
      return fail(`getting candle data for time span: ${found.reason}`)
    case "BadInterval":
      return fail(`getting candles for time span:candle exists:${found.reason}`)
    case "NoView":
      return fail(`no candle exists for candle id:${candleId}`)
  }
  if (found.interval === undefined) {
    // the store's first query of the view: the date range when a bound is missing, else the page
    if (from === undefined || to === undefined) {
      return fail(
        `gap fill query failure: querying candles date range: scany: query one result row: ${noRelation(found.view)}`
      )
    }
    if (request.cursor !== undefined) {
      const cursor = readCursor(CandleCursor, request.cursor)
      if ("error" in cursor) return fail(`parsing cursor: parsing cursor: ${cursor.error as string}`)
    }
    return fail(`querying candles: scany: query multiple result rows: ${noRelation(found.view)}`)
  }
  const { world } = node
  const market: MarketInfo | undefined = world.catalog.marketById.get(found.marketId)
  const range = {
    ...(from === undefined ? {} : { from: nanosToMicros(from) }),
    ...(to === undefined ? {} : { to: nanosToMicros(to) })
  }
  const series =
    market === undefined
      ? { size: 0, at: () => undefined as never }
      : world.candles.series(market, found.interval, range, node.readableHeight)
  const result = list({
    request,
    cursor: CandleCursor,
    keyOf: (v) => v.get("periodStart") as number,
    source: {
      size: series.size,
      at: series.at,
      include: () => true,
      compare: (candle: Candle, key: number) => candle.start - key,
      cursorOf: (candle: Candle) => writeCursor(CandleCursor, [candle.start])
    },
    nodeJson: candleJson
  })
  if ("cursorError" in result) return fail(`parsing cursor: parsing cursor: ${result.cursorError}`)
  return ok(`{"candles":${result.json}}`)
}

const candles: Route<NodeView> = {
  method: DataNodeApi.ListCandleData.method,
  path: DataNodeApi.ListCandleData.path,
  params: [
    param("candleId", "string"),
    param("fromTimestamp", "int64"),
    param("toTimestamp", "int64"),
    ...paginationParams
  ],
  handle: candleData
}

export const routes: ReadonlyArray<Route<NodeView>> = [intervals, candles]
