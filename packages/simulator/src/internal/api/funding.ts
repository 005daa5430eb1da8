/**
 * `GET /api/v2/funding-periods/{marketId}` (ListFundingPeriods), as the v0.75.8 data node answers
 * it (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/funding_period.go`,
 * `datanode/entities/funding_period.go`), from the world's funding periods (`world/funding.ts`).
 *
 * The market id must be 64 hex digits (400 `invalid market ID`); a future or an unknown market
 * has no periods (an empty page). `dateRange` bounds the periods' start times (start inclusive,
 * end exclusive, not validated). Rows are ordered by start time, market and sequence number
 * (newest first by default); the cursor is `{"startTime":…,"marketID":…,"fundingPeriodSeq":…}`.
 * The period in progress has no `end`, `fundingPayment` or `fundingRate`, and its TWAPs as of its
 * start; a period that ended without prices of both series has no payment or rate either.
 *
 * `GET /api/v2/funding-periods/data-points/{marketId}` (ListFundingPeriodDataPoints) answers the
 * world's data points (`world/funding.ts`) with the same market id checks. `dateRange` bounds
 * their timestamps (start inclusive, end exclusive), `source` and `seq` keep one source and one
 * period (any value given filters, `SOURCE_UNSPECIFIED` included, as the store compares the
 * stored type). Rows are ordered by timestamp, market, sequence number and source (newest first by
 * default); the cursor is `{"timestamp":…,"marketID":…,"fundingPeriodSeq":…,"dataPointType":…}`,
 * the source as its enum number (`datanode/entities/funding_period.go`, v0.75.8). A cursor that
 * does not read is a 500 `failed to get funding period data points`.
 */
import { DataNodeApi, Encoder, GatewayError, Ids, VegaEvents } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { FundingDataPointRow, FundingPeriodRow } from "../world/funding.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { FundingPeriodCursor, FundingPeriodDataPointCursor, writeCursor } from "./cursors.js"
import { dateRange, inRange, toMicros } from "./dateRange.js"
import type { NodeView } from "./node.js"
import { int64, pagination } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encode = Encoder.stringify(VegaEvents.FundingPeriod)

/** A period as the store holds it: as it started, or as it ended (payment and rate only when priced). */
const periodJson = (row: FundingPeriodRow): string => {
  const ended = row.ended
  const twaps = ended ?? row
  return encode({
    marketId: row.market.id,
    seq: BigInt(row.seq),
    start: BigInt(row.start) * 1000n,
    ...(ended === undefined ? {} : { end: BigInt(ended.end) * 1000n }),
    ...(ended?.payment === undefined ? {} : { fundingPayment: ended.payment, fundingRate: ended.rate }),
    ...(twaps.internalTwap === undefined ? {} : { internalTwap: twaps.internalTwap }),
    ...(twaps.externalTwap === undefined ? {} : { externalTwap: twaps.externalTwap })
  } as unknown as VegaEvents.FundingPeriod)
}

interface PeriodKey {
  readonly start: number
  readonly market: string
  readonly seq: number
}

const compareToKey = (row: FundingPeriodRow, key: PeriodKey): number =>
  row.start - key.start || compareStrings(row.market.id, key.market) || row.seq - key.seq

const cursorOf = (row: FundingPeriodRow): string =>
  writeCursor(FundingPeriodCursor, [row.start, row.market.id, row.seq])

const handlePeriods = (params: Params, node: NodeView): Reply => {
  const marketId = params.path.get("marketId") ?? ""
  if (marketId === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
  if (!Ids.isVegaId(marketId)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const range = dateRange(params)
  const { world } = node
  const market = world.catalog.marketById.get(marketId.toLowerCase())
  const rows =
    market === undefined
      ? []
      : world.funding.periods(market, node.readableHeight).filter((row) => inRange(range, row.start))
  const result = list<FundingPeriodRow, PeriodKey>({
    request,
    cursor: FundingPeriodCursor,
    keyOf: (v) => ({
      start: v.get("startTime") as number,
      market: (v.get("marketID") as string).toLowerCase(),
      seq: v.get("fundingPeriodSeq") as number
    }),
    source: arraySource(rows, compareToKey, cursorOf),
    nodeJson: periodJson
  })
  if ("cursorError" in result) return internal(ApiErrors.ListFundingPeriod, badCursor(result.cursorError))
  return ok(`{"fundingPeriods":${result.json}}`)
}

const encodePoint = Encoder.stringify(VegaEvents.FundingPeriodDataPoint)

const SOURCES = VegaEvents.FundingPeriodDataPointSource.values

const pointJson = (row: FundingDataPointRow): string =>
  encodePoint({
    marketId: row.market.id,
    seq: BigInt(row.seq),
    dataPointType: row.source,
    price: row.price,
    timestamp: BigInt(row.timestamp) * 1000n,
    twap: row.twap
  } as unknown as VegaEvents.FundingPeriodDataPoint)

interface PointKey {
  readonly timestamp: number
  readonly market: string
  readonly seq: number
  readonly source: number
}

const comparePointToKey = (row: FundingDataPointRow, key: PointKey): number =>
  row.timestamp - key.timestamp ||
  compareStrings(row.market.id, key.market) ||
  row.seq - key.seq ||
  SOURCES[row.source] - key.source

const pointCursorOf = (row: FundingDataPointRow): string =>
  writeCursor(FundingPeriodDataPointCursor, [row.timestamp, row.market.id, row.seq, SOURCES[row.source]])

const handleDataPoints = (params: Params, node: NodeView): Reply => {
  const marketId = params.path.get("marketId") ?? ""
  if (marketId === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
  if (!Ids.isVegaId(marketId)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const range = dateRange(params)
  const source = params.query.get("source")
  const seq = int64(params, "seq")
  const { world } = node
  const market = world.catalog.marketById.get(marketId.toLowerCase())
  const wanted =
    seq === undefined ? undefined : Number(seq > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : seq)
  const start = range.start === undefined ? undefined : toMicros(range.start)
  const end = range.end === undefined ? undefined : toMicros(range.end)
  const rows =
    market === undefined
      ? []
      : world.funding
          .dataPoints(market, node.readableHeight)
          .filter(
            (r) =>
              (source === undefined || r.source === source) &&
              (wanted === undefined || r.seq === wanted) &&
              (start === undefined || r.timestamp >= start) &&
              (end === undefined || r.timestamp < end)
          )
  const result = list<FundingDataPointRow, PointKey>({
    request,
    cursor: FundingPeriodDataPointCursor,
    keyOf: (v) => ({
      timestamp: v.get("timestamp") as number,
      market: (v.get("marketID") as string).toLowerCase(),
      seq: v.get("fundingPeriodSeq") as number,
      source: v.get("dataPointType") as number
    }),
    source: arraySource(rows, comparePointToKey, pointCursorOf),
    nodeJson: pointJson
  })
  if ("cursorError" in result) return internal(ApiErrors.ListFundingPeriodDataPoints, badCursor(result.cursorError))
  return ok(`{"fundingPeriodDataPoints":${result.json}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListFundingPeriods.method,
    path: DataNodeApi.ListFundingPeriods.path,
    params: [param("dateRange.startTimestamp", "int64"), param("dateRange.endTimestamp", "int64"), ...paginationParams],
    handle: handlePeriods
  },
  {
    method: DataNodeApi.ListFundingPeriodDataPoints.method,
    path: DataNodeApi.ListFundingPeriodDataPoints.path,
    params: [
      param("dateRange.startTimestamp", "int64"),
      param("dateRange.endTimestamp", "int64"),
      enumParam("source", VegaEvents.FundingPeriodDataPointSource.values),
      param("seq", "uint64"),
      ...paginationParams
    ],
    handle: handleDataPoints
  }
]
