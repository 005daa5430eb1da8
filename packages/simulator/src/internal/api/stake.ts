/**
 * `GET /api/v2/parties/{partyId}/stake` (GetStake).
 */
import { DataNodeApi, Encoder, GatewayError, StakeLinking } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, type Params, type Reply, type Route } from "../route.js"
import {
  compareStakeToKey,
  MILLI_VEGA,
  StakeStatus,
  StakeType,
  type StakeKey,
  type StakeRow,
  txHashOf
} from "../world/stake.js"
import { visibleAt } from "../world/versioned.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { StakeCursor, writeCursor } from "./cursors.js"
import { normalizeId } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const TYPES = ["TYPE_UNSPECIFIED", "TYPE_LINK", "TYPE_UNLINK"] as const
const STATUSES = ["STATUS_UNSPECIFIED", "STATUS_PENDING", "STATUS_ACCEPTED", "STATUS_REJECTED"] as const

const encode = Encoder.stringify(StakeLinking.StakeLinking)

export const stakeValue = (row: StakeRow): StakeLinking.StakeLinking =>
  ({
    id: row.id,
    type: TYPES[row.type],
    ts: BigInt(row.ethTime),
    party: row.party.id,
    amount: BigInt(row.amountMilli) * MILLI_VEGA,
    status: STATUSES[row.status],
    finalizedAt: BigInt(row.finalizedAt) * 1000n,
    txHash: txHashOf(row),
    blockHeight: BigInt(row.ethBlock),
    blockTime: BigInt(row.ethTime),
    logIndex: BigInt(row.logIndex),
    ethereumAddress: row.address
  }) as StakeLinking.StakeLinking

export const stakeJson = cachedJson((row: StakeRow) => encode(stakeValue(row)))

export const stakeCursor = (row: StakeRow): string => writeCursor(StakeCursor, [row.vt, row.id])

const handle = (params: Params, node: NodeView): Reply => {
  const raw = params.path.get("partyId") ?? ""
  if (raw === "") return error(GatewayError.fromApiError(GatewayError.ApiErrors.MissingPartyId))
  const partyId = normalizeId(raw)
  if (partyId === undefined) return error(GatewayError.fromApiError(GatewayError.ApiErrors.InvalidPartyId))
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)

  const height = node.readableHeight
  const rows = (node.world.stakeLinkings.byParty.get(partyId) ?? []).filter((row) => visibleAt(row, height))
  let available = 0n
  for (const row of rows) {
    if (row.status === StakeStatus.ACCEPTED)
      available += (row.type === StakeType.LINK ? 1n : -1n) * BigInt(row.amountMilli)
  }
  if (available < 0n) {
    return internal(
      GatewayError.ApiErrors.StakeLinking,
      "unlinked amount is greater than linked amount, potential missed events"
    )
  }
  const result = list<StakeRow, StakeKey>({
    request,
    cursor: StakeCursor,
    keyOf: (v) => ({ vt: v.get("vegaTime") as number, id: (v.get("id") as string).toLowerCase() }),
    source: arraySource(rows, compareStakeToKey, stakeCursor),
    nodeJson: stakeJson
  })
  if ("cursorError" in result) return internal(GatewayError.ApiErrors.StakeLinking, badCursor(result.cursorError))
  return ok(`{"currentStakeAvailable":"${available * MILLI_VEGA}","stakeLinkings":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.GetStake.method,
  path: DataNodeApi.GetStake.path,
  params: paginationParams,
  handle
}
