/**
 * `GET /api/v2/positions` (ListAllPositions).
 */
import { DataNodeApi, Encoder, GatewayError, Position } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { comparePositions, comparePositionToKey, type PositionKey, type PositionRow } from "../world/positions.js"
import { idSortKey, visibleAt } from "../world/versioned.js"
import { arraySource, cachedJsonByVersion, list } from "./connection.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { PositionCursor, writeCursor } from "./cursors.js"
import { marketAndPartyIds } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination } from "./params.js"
import { badCursor, internal, invalidPagination, ok } from "./reply.js"

const STATUS_NAMES = [
  "POSITION_STATUS_UNSPECIFIED",
  "POSITION_STATUS_ORDERS_CLOSED",
  "POSITION_STATUS_CLOSED_OUT",
  "",
  "POSITION_STATUS_DISTRESSED"
] as const

const encode = Encoder.stringify(Position.Position)

/** Fees and funding (v0.79): the simulator's fills charge no fees and perpetuals pay no funding. */
const feesAndFunding = {
  takerFeesPaid: 0n,
  makerFeesReceived: 0n,
  feesPaid: 0n,
  takerFeesPaidSince: 0n,
  makerFeesReceivedSince: 0n,
  feesPaidSince: 0n,
  fundingPaymentAmount: 0n,
  fundingPaymentAmountSince: 0n
}

export const positionValue = (row: PositionRow, version: NodeVersion = "v0.75"): Position.Position =>
  ({
    marketId: row.market.id,
    partyId: row.party.id,
    openVolume: BigInt(row.openVolume),
    realisedPnl: BigInt(row.realisedPnl),
    unrealisedPnl: BigInt(row.unrealisedPnl),
    averageEntryPrice: BigInt(row.averageEntryPrice),
    updatedAt: BigInt(row.vt) * 1000n,
    lossSocialisationAmount: BigInt(row.lossSocialisation),
    positionStatus: STATUS_NAMES[row.status],
    ...(since(version, "v0.79") ? feesAndFunding : {})
  }) as Position.Position

export const positionJson = cachedJsonByVersion((row: PositionRow, version) => encode(positionValue(row, version)))

export const positionCursor = (row: PositionRow): string =>
  writeCursor(PositionCursor, [row.vt, row.party.id, row.market.id])

const handle = (params: Params, node: NodeView): Reply => {
  const { catalog, positions } = node.world
  const ids = marketAndPartyIds(params)
  if ("status" in ids) return ids
  const { marketIds, partyIds } = ids
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)

  const height = node.readableHeight
  let source
  if (partyIds.length > 0 || marketIds.length > 0) {
    const markets = new Set(marketIds)
    const rows: Array<PositionRow> = []
    const lists =
      partyIds.length > 0
        ? [...new Set(partyIds)].map((id) => positions.byParty[catalog.partyById.get(id)?.index ?? -1])
        : [...markets].map((id) => positions.byMarket[catalog.marketById.get(id)?.index ?? -1])
    for (const versions of lists) {
      for (const row of versions ?? []) {
        if (visibleAt(row, height) && (markets.size === 0 || markets.has(row.market.id))) rows.push(row)
      }
    }
    // each party's and market's versions are appended in base order, so one list is sorted already
    if (lists.length > 1) rows.sort(comparePositions)
    source = arraySource<PositionRow, PositionKey>(rows, comparePositionToKey, positionCursor)
  } else {
    const log = positions.log
    source = {
      size: log.length,
      at: (i: number) => log[i],
      include: (row: PositionRow) => visibleAt(row, height),
      compare: comparePositionToKey,
      cursorOf: positionCursor
    }
  }
  const result = list<PositionRow, PositionKey>({
    request,
    cursor: PositionCursor,
    keyOf: (v) => ({
      vt: v.get("vega_time") as number,
      partyKey: idSortKey((v.get("party_id") as string).toLowerCase()),
      marketId: (v.get("market_id") as string).toLowerCase()
    }),
    source,
    nodeJson: positionJson(node.nodeVersion)
  })
  if ("cursorError" in result) return internal(GatewayError.ApiErrors.PositionsForParty, badCursor(result.cursorError))
  return ok(`{"positions":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListPositions.method,
  path: DataNodeApi.ListPositions.path,
  params: [param("filter.partyIds", "string", true), param("filter.marketIds", "string", true), ...paginationParams],
  handle
}
