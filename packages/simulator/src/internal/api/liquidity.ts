/**
 * `GET /api/v2/liquidity/all-provisions` (ListAllLiquidityProvisions), and the deprecated
 * `GET /api/v2/liquidity/provisions` (ListLiquidityProvisions), which reads the same store the
 * same way (`datanode/api/trading_data_v2.go`, v0.75.8) but writes each row as a plain
 * `LiquidityProvision` (a pending amendment as itself, without the version it replaces).
 */
import { DataNodeApi, Decimal, Encoder, GatewayError, Ids, LiquidityProvision } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { compareLp, compareLpToKey, isLiveAt, type LpKey, type LpRow } from "../world/liquidity.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { LiquidityProvisionCursor, writeCursor } from "./cursors.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { bool, pagination, str } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const STATUSES = [
  "STATUS_UNSPECIFIED",
  "STATUS_ACTIVE",
  "STATUS_STOPPED",
  "STATUS_CANCELLED",
  "STATUS_REJECTED",
  "STATUS_UNDEPLOYED",
  "STATUS_PENDING"
] as const

const encode = Encoder.stringify(LiquidityProvision.LiquidityProvision)

export const provisionValue = (row: LpRow): LiquidityProvision.LiquidityProvision =>
  ({
    id: row.id,
    partyId: row.party.id,
    createdAt: BigInt(row.createdAt) * 1000n,
    updatedAt: BigInt(row.vt) * 1000n,
    marketId: row.market.id,
    commitmentAmount: row.commitment,
    fee: Option.getOrThrow(Decimal.parse(row.fee)),
    sells: [],
    buys: [],
    version: BigInt(row.version),
    status: STATUSES[row.status],
    reference: row.reference
  }) as unknown as LiquidityProvision.LiquidityProvision

export const provisionJson = cachedJson((row: LpRow) => encode(provisionValue(row)))

export const provisionCursor = (row: LpRow): string => writeCursor(LiquidityProvisionCursor, [row.vt, row.id])

const { ApiErrors } = GatewayError

type NodeJsonOf = (node: NodeView, height: number) => (row: LpRow) => string

const handleWith =
  (nodeJsonOf: NodeJsonOf) =>
  (params: Params, node: NodeView): Reply => {
    const request = resolve(pagination(params))
    if ("error" in request) return invalidPagination(request.error)
    // an empty filter counts as absent
    const marketId = str(params, "marketId") || undefined
    const partyId = str(params, "partyId") || undefined
    const reference = str(params, "reference") || undefined
    const live = bool(params, "live") ?? false
    for (const id of [partyId, marketId]) {
      if (id !== undefined && !decodesAsId(id)) return invalidId(ApiErrors.LiquidityProvision, notHex(id))
    }
    if (marketId === undefined && partyId === undefined && node.quirks) {
      return internal(
        ApiErrors.LiquidityProvision,
        `partyID: , marketID: , reference: ${reference ?? ""}: market or party filters are required`
      )
    }
    const { liquidityProvisions } = node.world
    const height = node.readableHeight
    const market = marketId?.toLowerCase()
    const party =
      partyId === undefined ? undefined : partyId === Ids.NETWORK_PARTY ? Ids.NETWORK_PARTY : partyId.toLowerCase()
    const candidates =
      market !== undefined
        ? (liquidityProvisions.byMarket.get(market) ?? [])
        : party !== undefined
          ? (liquidityProvisions.byParty.get(party) ?? [])
          : liquidityProvisions.history
    const rows = candidates.filter(
      (row) =>
        (live ? isLiveAt(row, height) : row.from <= height) &&
        (market === undefined || row.market.id === market) &&
        (party === undefined || row.party.id === party) &&
        (reference === undefined || row.reference === reference)
    )
    if (candidates !== liquidityProvisions.history) rows.sort(compareLp)
    const nodeJson = nodeJsonOf(node, height)
    const result = list<LpRow, LpKey>({
      request,
      cursor: LiquidityProvisionCursor,
      keyOf: (v) => ({ vt: v.get("vegaTime") as number, id: (v.get("id") as string).toLowerCase() }),
      source: arraySource(rows, compareLpToKey, provisionCursor),
      nodeJson
    })
    if ("cursorError" in result) return internal(ApiErrors.LiquidityProvision, badCursor(result.cursorError))
    return ok(`{"liquidityProvisions":${result.json}}`)
  }

/** A current provision with the amendment pending, if any. */
const pairJson: NodeJsonOf = (node, height) => (row) => {
  const { current, pending } = node.world.liquidityProvisions.pair(row, height)
  return pending === undefined
    ? `{"current":${provisionJson(current)}}`
    : `{"current":${provisionJson(current)},"pending":${provisionJson(pending)}}`
}

const listParams = [
  param("marketId", "string"),
  param("partyId", "string"),
  param("reference", "string"),
  param("live", "bool"),
  ...paginationParams
]

export const route: Route<NodeView> = {
  method: DataNodeApi.ListLiquidityProvisions.method,
  path: DataNodeApi.ListLiquidityProvisions.path,
  params: listParams,
  handle: handleWith(pairJson)
}

export const deprecatedRoute: Route<NodeView> = {
  method: DataNodeApi.ListLiquidityProvisionsDeprecated.method,
  path: DataNodeApi.ListLiquidityProvisionsDeprecated.path,
  params: listParams,
  handle: handleWith(() => provisionJson)
}
