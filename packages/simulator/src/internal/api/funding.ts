/**
 * `GET /api/v2/funding-periods/{marketId}` (ListFundingPeriods), as the v0.75.8 data node answers
 * it (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/funding_period.go`,
 * `datanode/entities/funding_period.go`), from the world's funding periods (`world/funding.ts`).
 *
 * The market id must be 64 hex digits (400 `invalid market ID`); a future or an unknown market
 * has no periods (an empty page). `dateRange` bounds the periods' start times (start inclusive,
 * end exclusive, not validated). Rows are ordered by start time, market and sequence number
 * (newest first by default); the cursor is `{"startTime":…,"marketID":…,"fundingPeriodSeq":…}`.
 * The period in progress has no `end`, `fundingPayment` or `fundingRate`.
 */
import { DataNodeApi, Decimal, Encoder, GatewayError, Ids, VegaEvents } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { fundingPeriods, type FundingPeriodRow } from "../world/funding.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { FundingPeriodCursor, writeCursor } from "./cursors.js"
import { dateRange, inRange } from "./dateRange.js"
import type { NodeView } from "./node.js"
import { pagination } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encode = Encoder.stringify(VegaEvents.FundingPeriod)
const zero = Option.getOrThrow(Decimal.parse("0"))

const periodJson = (row: FundingPeriodRow): string =>
  encode({
    marketId: row.market.id,
    seq: BigInt(row.seq),
    start: BigInt(row.start) * 1000n,
    ...(row.end === undefined ? {} : { end: BigInt(row.end) * 1000n, fundingPayment: 0n, fundingRate: zero }),
    internalTwap: row.twap,
    externalTwap: row.twap
  } as unknown as VegaEvents.FundingPeriod)

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
  const now = world.chain.blockTime(node.readableHeight)
  const rows =
    market === undefined
      ? []
      : fundingPeriods(world.chain, (m, h) => world.exchange.markPrice(m, h), market, now).filter((row) =>
          inRange(range, row.start)
        )
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

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListFundingPeriods.method,
    path: DataNodeApi.ListFundingPeriods.path,
    params: [param("dateRange.startTimestamp", "int64"), param("dateRange.endTimestamp", "int64"), ...paginationParams],
    handle: handlePeriods
  }
]
