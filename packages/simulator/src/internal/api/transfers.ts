/**
 * `GET /api/v2/transfer/{transferId}` (GetTransfer), `/api/v2/transfers` (ListTransfers),
 * `/api/v2/transfers/estimate-fee` (EstimateTransferFee) and `/api/v2/transfers/total-fee-discount`
 * (GetTotalTransferFeeDiscount), as the v0.75.8 node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/transfers.go, datanode/entities/transfer.go).
 *
 * - A transfer is its current row (`transfers_current`): its last status, with the block time of
 *   that status as `timestamp` and in the cursor, so a transfer that changes status moves in the
 *   listing. Its fees (one per payment) are in the node's `fees`.
 * - ListTransfers is ordered by (block time, id), newest first unless `newestFirst` is false,
 *   50 a page when the request has no pagination at all. Without `pubkey` it lists every transfer
 *   (`isReward`: only recurring ones paying a global reward account); with `pubkey` the
 *   `direction` picks from, to or either (unspecified fails, and reward transfers only go "from").
 *   `fromEpoch`/`toEpoch` keep transfers whose start or end epoch is on the right side (so never
 *   a one-off transfer); `status`, `fromAccountType`, `toAccountType` match exactly; `scope` and
 *   `gameId` keep only transfers with a dispatch strategy, which the world's transfers have not.
 *   Failures are 500 `failed to get transfer` (400 when an id does not decode) with inner
 *   `pubkey: <pubkey>: ` and the store's error.
 * - GetTransfer: unknown 404 `no resource corresponding to this id`, an id that does not decode
 *   400 `not a valid hex id (or well known exception)` (the store's errors themselves).
 * - GetTotalTransferFeeDiscount: the latest discount the core published for the party and asset;
 *   none: 404 `failed to get current transfer fee discount`.
 * - EstimateTransferFee: the fee of the amount (`banking.EstimateFee`) less the party's discount
 *   (none: 0); an amount that is not an integer or overflows 256 bits is 400
 *   `invalid transfer amount`, an unknown asset 404 `failed to get asset for ID`.
 */
import { Commands, DataNode, DataNodeApi, Decimal, Encoder, GatewayError, VegaEvents } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { AccountType } from "../world/accounts.js"
import {
  discounted,
  theoreticalFee,
  type Transfer,
  TRANSFER_PARAMETERS,
  type TransferFee,
  type TransferVersion
} from "../world/transfers.js"
import { compareStrings, versionAt } from "../world/versioned.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { TransferCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { bool, int64, pagination, str } from "./params.js"
import { badCursor, error, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors, GrpcCode } = GatewayError

const encodeTransfer = Encoder.stringify(VegaEvents.Transfer)
const encodeFees = Encoder.stringify(VegaEvents.TransferFees)
const encodeEstimate = Encoder.stringify(DataNode.EstimateTransferFeeResponse)
const encodeDiscount = Encoder.stringify(DataNode.GetTotalTransferFeeDiscountResponse)

const transferJson = cachedJson((row: TransferVersion) => {
  const t = row.transfer
  const kind = t.kind
  return encodeTransfer({
    id: t.id,
    from: t.from.owner,
    fromAccountType: t.from.type,
    to: t.to.owner,
    toAccountType: t.to.type,
    asset: t.asset.id,
    amount: t.amount,
    reference: t.reference,
    status: row.status,
    timestamp: BigInt(microsToNanos(row.vt)),
    ...(row.reason === undefined ? {} : { reason: row.reason }),
    ...(kind._tag === "OneOff"
      ? { oneOff: { deliverOn: 0n } }
      : {
          recurring: {
            startEpoch: BigInt(kind.startEpoch),
            ...(kind.endEpoch === undefined ? {} : { endEpoch: BigInt(kind.endEpoch) }),
            factor: Option.getOrThrow(Decimal.parse(kind.factor))
          }
        })
  } as unknown as VegaEvents.Transfer)
})

const feeJson = cachedJson((fee: TransferFee & { readonly transfer: Transfer }) =>
  encodeFees({
    transferId: fee.transfer.id,
    amount: fee.amount,
    epoch: BigInt(fee.epoch),
    discountApplied: fee.discountApplied
  } as unknown as VegaEvents.TransferFees)
)

const feeRows = new WeakMap<TransferFee, TransferFee & { readonly transfer: Transfer }>()
const feesAt = (transfer: Transfer, height: number): string => {
  let out = ""
  for (const fee of transfer.fees) {
    if (fee.height > height) break
    let row = feeRows.get(fee)
    if (row === undefined) feeRows.set(fee, (row = { ...fee, transfer }))
    out += `${out === "" ? "" : ","}${feeJson(row)}`
  }
  return out
}

/** The node's `TransferNode`: the transfer, then its fees (`[]` when none, as the gateway writes it). */
const nodeJson = (row: TransferVersion, height: number): string =>
  `{"transfer":${transferJson(row)},"fees":[${feesAt(row.transfer, height)}]}`

interface TransferKey {
  readonly vt: number
  readonly id: string
}

const compareRow = (row: TransferVersion, key: TransferKey): number =>
  row.vt - key.vt || compareStrings(row.transfer.id, key.id)

const transferServiceError = (inner: string, invalid: boolean): Reply =>
  error(
    GatewayError.fromApiError(
      ApiErrors.TransferServiceGet,
      inner,
      invalid ? GrpcCode.InvalidArgument : GrpcCode.Internal
    )
  )

const ACCOUNT_TYPE_VALUES = Commands.AccountType.values

type Direction = "from" | "to" | "either"

/** Where the store's query fails on an id it cannot encode: the id, in the order bound. */
const undecodable = (...ids: ReadonlyArray<string | undefined>): string | undefined =>
  ids.find((id) => id !== undefined && storedIdKey(id) === undefined)

/** The filters of a listing, as the store's WHERE clause applies them. */
const keeper = (
  params: Params,
  party: string | undefined,
  direction: Direction | undefined,
  isReward: boolean
): ((row: TransferVersion) => boolean) => {
  const gameId = str(params, "gameId")
  const status = str(params, "status")
  const scope = str(params, "scope")
  const fromEpoch = int64(params, "fromEpoch")
  const toEpoch = int64(params, "toEpoch")
  const fromType = str(params, "fromAccountType") as AccountType | undefined
  const toType = str(params, "toAccountType") as AccountType | undefined
  const ownerKey = (owner: string) => storedIdKey(owner)
  return (row: TransferVersion): boolean => {
    const t = row.transfer
    const kind = t.kind
    if (party !== undefined) {
      const from = ownerKey(t.from.owner) === party
      const to = ownerKey(t.to.owner) === party
      if (direction === "from" ? !from : direction === "to" ? !to : !(from || to)) return false
    }
    // reward transfers: recurring ones paying a global reward account (none has a dispatch strategy)
    if (isReward && !(kind._tag === "Recurring" && t.to.type === "ACCOUNT_TYPE_GLOBAL_REWARD")) return false
    if (scope !== undefined || gameId !== undefined) return false
    if (status !== undefined && row.status !== status) return false
    const start = kind._tag === "Recurring" ? BigInt(kind.startEpoch) : undefined
    const end = kind._tag === "Recurring" && kind.endEpoch !== undefined ? BigInt(kind.endEpoch) : undefined
    if (fromEpoch !== undefined && !((start ?? -1n) >= fromEpoch || (end ?? -1n) >= fromEpoch)) return false
    if (toEpoch !== undefined && !((start !== undefined && start <= toEpoch) || (end !== undefined && end <= toEpoch)))
      return false
    if (fromType !== undefined && t.from.type !== fromType) return false
    if (toType !== undefined && t.to.type !== toType) return false
    return true
  }
}

const listTransfers = (params: Params, node: NodeView): Reply => {
  const input = pagination(params)
  const request = resolve(input)
  if ("error" in request) return invalidPagination(request.error)
  // with no pagination at all, the node pages transfers by 50
  const noPagination = Object.keys(input).length === 0
  const page = noPagination ? { ...request, limit: 50 } : request
  const pubkey = str(params, "pubkey")
  const isReward = bool(params, "isReward") ?? false
  const directionName = str(params, "direction") ?? "TRANSFER_DIRECTION_UNSPECIFIED"
  let direction: Direction | undefined
  let context: string
  if (pubkey !== undefined) {
    if (isReward && directionName !== "TRANSFER_DIRECTION_TRANSFER_FROM") {
      return transferServiceError(
        `pubkey: ${pubkey}: invalid transfer direction for reward transfers: ${directionName}`,
        false
      )
    }
    switch (directionName) {
      case "TRANSFER_DIRECTION_TRANSFER_FROM":
        direction = "from"
        context = isReward ? "could not get recurring transfers: " : "could not get transfers from party: "
        break
      case "TRANSFER_DIRECTION_TRANSFER_TO":
        direction = "to"
        context = "could not get transfers to party: "
        break
      case "TRANSFER_DIRECTION_TRANSFER_TO_OR_FROM":
        direction = "either"
        context = "could not get transfers to or from party: "
        break
      default:
        return transferServiceError(`pubkey: ${pubkey}: unknown transfer direction: ${directionName}`, false)
    }
  } else context = isReward ? "could not get recurring transfers: " : ""
  const prefix = `pubkey: ${pubkey ?? ""}: ${context}`
  const gameId = str(params, "gameId")
  // the store binds the party first, then the filters' values
  const bad = undecodable(pubkey, gameId)
  if (bad !== undefined) {
    return transferServiceError(
      `${prefix}could not get transfers: scany: query multiple result rows: ${notHex(bad)}`,
      true
    )
  }
  const party = pubkey === undefined ? undefined : storedIdKey(pubkey)
  const keep = keeper(params, party, direction, isReward)
  const height = node.readableHeight
  const rows: Array<TransferVersion> = []
  for (const transfer of node.world.transfers.all) {
    const row = versionAt(transfer.versions, height)
    if (row !== undefined && keep(row)) rows.push(row)
  }
  rows.sort((a, b) => a.vt - b.vt || compareStrings(a.transfer.id, b.transfer.id))
  const result = list<TransferVersion, TransferKey>({
    request: page,
    cursor: TransferCursor,
    keyOf: (v) => ({ vt: v.get("vegaTime") as number, id: (v.get("id") as string).toLowerCase() }),
    source: arraySource(rows, compareRow, (row) => writeCursor(TransferCursor, [row.vt, row.transfer.id])),
    nodeJson: (row) => nodeJson(row, height)
  })
  if ("cursorError" in result) return transferServiceError(`${prefix}${badCursor(result.cursorError)}`, false)
  return ok(`{"transfers":${result.json}}`)
}

const getTransfer = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("transferId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingTransferId))
  const key = storedIdKey(id)
  if (key === undefined) return error(GatewayError.fromApiError(ApiErrors.InvalidHexId))
  const transfer = node.world.transfers.byId.get(key)
  const row = transfer === undefined ? undefined : versionAt(transfer.versions, node.readableHeight)
  if (row === undefined) return error(GatewayError.fromApiError(ApiErrors.ResourceNotFound))
  return ok(`{"transferNode":${nodeJson(row, node.readableHeight)}}`)
}

/** The discount the node has for a party and asset (ids as the store compares them). */
const discountOf = (node: NodeView, party: string, asset: string) =>
  node.world.transfers.discountAt(party, asset, node.readableHeight)

/** The stored key of a party id (the `network` party is written as such). */
const partyKey = (id: string): string | undefined => {
  const key = storedIdKey(id)
  return key === "03" ? "network" : key
}

const totalDiscount = (params: Params, node: NodeView): Reply => {
  const partyId = str(params, "partyId") ?? ""
  const assetId = str(params, "assetId") ?? ""
  const party = partyKey(partyId)
  const asset = storedIdKey(assetId)
  if (party === undefined || asset === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.TransferServiceGetFeeDiscount,
        "not a valid hex id (or well known exception)",
        GrpcCode.InvalidArgument
      )
    )
  }
  const row = discountOf(node, party, asset)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.TransferServiceGetFeeDiscount,
        GatewayError.NO_RESOURCE_INNER,
        GrpcCode.NotFound
      )
    )
  }
  return ok(encodeDiscount({ totalDiscount: row.amount } as unknown as DataNode.GetTotalTransferFeeDiscountResponse))
}

const UINT256 = 1n << 256n

/** `num.UintFromString(s, 10)`: big.Int's base-10 text; a negative value wraps, more than 256 bits overflows. */
const uintFromString = (s: string): bigint | undefined => {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined
  let value = BigInt(s)
  if (value < 0n) {
    if (-value >= UINT256) return undefined
    value = (UINT256 + value) % UINT256
  }
  return value >= UINT256 ? undefined : value
}

const estimateFee = (params: Params, node: NodeView): Reply => {
  const amount = uintFromString(str(params, "amount") ?? "")
  if (amount === undefined) return error(GatewayError.fromApiError(ApiErrors.InvalidTransferAmount))
  const height = node.readableHeight
  const parameter = (key: string) => node.world.networkParameters.at(key, height)?.value ?? "0"
  const assetId = str(params, "assetId") ?? ""
  const assetKey = storedIdKey(assetId)
  if (assetKey === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.AssetServiceGetById,
        "not a valid hex id (or well known exception)",
        GrpcCode.InvalidArgument
      )
    )
  }
  const asset = node.world.catalog.assets.find((a) => a.id === assetKey)
  if (asset === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.AssetServiceGetById, GatewayError.NO_RESOURCE_INNER))
  }
  const from = str(params, "fromAccount") ?? ""
  const to = str(params, "toAccount") ?? ""
  const fromType = str(params, "fromAccountType") ?? "ACCOUNT_TYPE_UNSPECIFIED"
  // no fee from one's own vested rewards to oneself (core/banking/fee_estimate.go, v0.75.8)
  const fee =
    fromType === "ACCOUNT_TYPE_VESTED_REWARDS" && from === to
      ? 0n
      : theoreticalFee(
          asset.quantum,
          parameter(TRANSFER_PARAMETERS.maxQuantumAmount),
          parameter(TRANSFER_PARAMETERS.feeFactor),
          amount
        )
  // a party without a discount, or an id that does not decode, has none
  const party = partyKey(from)
  const accumulated = party === undefined ? 0n : (discountOf(node, party, asset.id)?.amount ?? 0n)
  const result = discounted(accumulated, fee)
  return ok(
    encodeEstimate({ fee: result.fee, discount: result.discount } as unknown as DataNode.EstimateTransferFeeResponse)
  )
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.GetTransfer.method,
    path: DataNodeApi.GetTransfer.path,
    params: [],
    handle: getTransfer
  },
  {
    method: DataNodeApi.ListTransfers.method,
    path: DataNodeApi.ListTransfers.path,
    params: [
      param("pubkey", "string"),
      enumParam("direction", DataNode.TransferDirection.values),
      ...paginationParams,
      param("isReward", "bool"),
      param("fromEpoch", "uint64"),
      param("toEpoch", "uint64"),
      enumParam("status", VegaEvents.TransferStatus.values),
      enumParam("scope", DataNode.ListTransfersRequestScope.values),
      param("gameId", "string"),
      enumParam("fromAccountType", ACCOUNT_TYPE_VALUES),
      enumParam("toAccountType", ACCOUNT_TYPE_VALUES)
    ],
    handle: listTransfers
  },
  {
    method: DataNodeApi.EstimateTransferFee.method,
    path: DataNodeApi.EstimateTransferFee.path,
    params: [
      param("fromAccount", "string"),
      enumParam("fromAccountType", ACCOUNT_TYPE_VALUES),
      param("toAccount", "string"),
      param("amount", "string"),
      param("assetId", "string")
    ],
    handle: estimateFee
  },
  {
    method: DataNodeApi.GetTotalTransferFeeDiscount.method,
    path: DataNodeApi.GetTotalTransferFeeDiscount.path,
    params: [param("partyId", "string"), param("assetId", "string")],
    handle: totalDiscount
  }
]
