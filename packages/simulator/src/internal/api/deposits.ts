/**
 * `GET /api/v2/deposits`, `/api/v2/deposit/{id}`, `/api/v2/withdrawals`, `/api/v2/withdrawal/{id}`
 * (datanode/api/trading_data_v2.go, sqlstore/deposits.go, sqlstore/withdrawals.go,
 * entities/deposit.go, entities/withdrawal.go, v0.75.8): lists ordered by block time then id,
 * filtered by party (64 hex or `network`, else "invalid party id") and by date range on the block
 * time; a single one by id (64 hex, else an id error; unknown: not found).
 *
 * The world holds each deposit and withdrawal as it ends, so each is served in its final state:
 * a deposit FINALIZED, credited when it was created; a withdrawal FINALIZED, withdrawn on
 * Ethereum in the block that made it. The Ethereum side of a withdrawal is derived, not modelled:
 * its `ref` is what the core's banking engine gives (the number of withdrawals before it plus the
 * block time in unix seconds, core/banking/engine.go), its Ethereum transaction hash is the
 * world's, and its receiver address is taken from the party's id (the first 20 bytes of the
 * SHA-256 of `receiver/` and the id), so the same party always withdraws to the same address.
 */
import { createHash } from "node:crypto"
import { DataNodeApi, Encoder, GatewayError, Ids, Vega } from "@vega-effect/schema"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { CashRow } from "../world/accounts.js"
import { compareStrings } from "../world/versioned.js"
import type { World } from "../../World.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { type CursorSpec, DepositCursor, WithdrawalCursor, writeCursor } from "./cursors.js"
import { dateRange, inRange } from "./dateRange.js"
import { normalizeId } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encodeDeposit = Encoder.stringify(Vega.Deposit)
const encodeWithdrawal = Encoder.stringify(Vega.Withdrawal)

const depositJson = cachedJson((row: CashRow) =>
  encodeDeposit({
    id: row.id,
    status: "STATUS_FINALIZED",
    partyId: row.party.id,
    asset: row.asset.id,
    amount: row.amount,
    txHash: row.txHash,
    creditedTimestamp: BigInt(microsToNanos(row.vt)),
    createdTimestamp: BigInt(microsToNanos(row.vt))
  } as unknown as Vega.Deposit)
)

/** The Ethereum address a party withdraws to (derived from its id, see above). */
export const receiverAddress = (partyId: string): string =>
  `0x${createHash("sha256").update(`receiver/${partyId}`).digest("hex").slice(0, 40)}`

const withdrawalRefs = new WeakMap<CashRow, bigint>()

/** A withdrawal's `ref` (see above): the withdrawals before it plus its block's unix seconds. */
export const withdrawalRef = (world: World, row: CashRow): bigint => {
  let ref = withdrawalRefs.get(row)
  if (ref === undefined) {
    const count = world.accounts.withdrawals.indexOf(row)
    ref = BigInt(count) + BigInt(Math.floor(row.vt / 1_000_000))
    withdrawalRefs.set(row, ref)
  }
  return ref
}

const withdrawalJsonOf = (world: World) =>
  cachedJson((row: CashRow) => {
    const ref = withdrawalRef(world, row)
    return encodeWithdrawal({
      id: row.id,
      partyId: row.party.id,
      amount: row.amount,
      asset: row.asset.id,
      status: "STATUS_FINALIZED",
      ref,
      txHash: row.txHash,
      createdTimestamp: BigInt(microsToNanos(row.vt)),
      withdrawnTimestamp: BigInt(microsToNanos(row.vt)),
      ext: { erc20: { receiverAddress: receiverAddress(row.party.id) } }
    } as unknown as Vega.Withdrawal)
  })

const withdrawalJsons = new WeakMap<World, (row: CashRow) => string>()
const withdrawalJson = (world: World): ((row: CashRow) => string) => {
  let json = withdrawalJsons.get(world)
  if (json === undefined) withdrawalJsons.set(world, (json = withdrawalJsonOf(world)))
  return json
}

interface CashKey {
  readonly vt: number
  readonly id: string
}

const compareCash = (row: CashRow, key: CashKey): number => row.vt - key.vt || compareStrings(row.id, key.id)

const sortedRows = new WeakMap<ReadonlyArray<CashRow>, Array<CashRow>>()

/** The rows by (block time, id), re-sorted when rows were added (rows are only ever appended). */
const byTime = (rows: ReadonlyArray<CashRow>): ReadonlyArray<CashRow> => {
  let sorted = sortedRows.get(rows)
  if (sorted === undefined || sorted.length !== rows.length) {
    sorted = [...rows].sort((a, b) => compareCash(a, b))
    sortedRows.set(rows, sorted)
  }
  return sorted
}

interface Kind {
  readonly rows: (world: World) => ReadonlyArray<CashRow>
  readonly connection: string
  readonly cursor: CursorSpec
  readonly serviceError: GatewayError.ApiError
  readonly json: (world: World) => (row: CashRow) => string
}

const deposits: Kind = {
  rows: (world) => world.accounts.deposits,
  connection: "deposits",
  cursor: DepositCursor,
  serviceError: ApiErrors.DepositServiceGet,
  json: () => depositJson
}

const withdrawals: Kind = {
  rows: (world) => world.accounts.withdrawals,
  connection: "withdrawals",
  cursor: WithdrawalCursor,
  serviceError: ApiErrors.WithdrawalServiceGet,
  json: withdrawalJson
}

const partyError = (): Reply => error(GatewayError.fromApiError(ApiErrors.InvalidPartyId))

/** ListDeposits checks the pagination, then the party; ListWithdrawals the party first. */
const listOf =
  (kind: Kind, partyFirst: boolean) =>
  (params: Params, node: NodeView): Reply => {
    const partyId = str(params, "partyId") ?? ""
    const party = partyId === "" ? undefined : normalizeId(partyId)
    if (partyFirst && partyId !== "" && party === undefined) return partyError()
    const request = resolve(pagination(params))
    if ("error" in request) return invalidPagination(request.error)
    if (partyId !== "" && party === undefined) return partyError()
    const range = dateRange(params)
    const height = node.readableHeight
    const rows = byTime(kind.rows(node.world)).filter(
      (row) => row.height <= height && (party === undefined || row.party.id === party) && inRange(range, row.vt)
    )
    const result = list<CashRow, CashKey>({
      request,
      cursor: kind.cursor,
      keyOf: (v) => ({ vt: v.get("vegaTime") as number, id: (v.get("id") as string).toLowerCase() }),
      source: arraySource(rows, compareCash, (row) => writeCursor(kind.cursor, [row.vt, row.id])),
      nodeJson: kind.json(node.world)
    })
    if ("cursorError" in result) return internal(kind.serviceError, badCursor(result.cursorError))
    return ok(`{"${kind.connection}":${result.json}}`)
  }

const getOf =
  (kind: Kind, name: "deposit" | "withdrawal", missing: GatewayError.ApiError, invalid: GatewayError.ApiError) =>
  (params: Params, node: NodeView): Reply => {
    const id = params.path.get("id") ?? ""
    if (id === "") return error(GatewayError.fromApiError(missing))
    if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(invalid))
    const wanted = id.toLowerCase()
    const height = node.readableHeight
    const row = kind.rows(node.world).find((r) => r.id === wanted && r.height <= height)
    if (row === undefined) {
      return error(
        GatewayError.fromApiError(kind.serviceError, GatewayError.NO_RESOURCE_INNER, GatewayError.GrpcCode.NotFound)
      )
    }
    return ok(`{"${name}":${kind.json(node.world)(row)}}`)
  }

const listParams = [
  param("partyId", "string"),
  ...paginationParams,
  param("dateRange.startTimestamp", "int64"),
  param("dateRange.endTimestamp", "int64")
]

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListDeposits.method,
    path: DataNodeApi.ListDeposits.path,
    params: listParams,
    handle: listOf(deposits, false)
  },
  {
    method: DataNodeApi.GetDeposit.method,
    path: DataNodeApi.GetDeposit.path,
    params: [],
    handle: getOf(deposits, "deposit", ApiErrors.MissingDepositId, ApiErrors.NotAValidVegaId)
  },
  {
    method: DataNodeApi.ListWithdrawals.method,
    path: DataNodeApi.ListWithdrawals.path,
    params: listParams,
    handle: listOf(withdrawals, true)
  },
  {
    method: DataNodeApi.GetWithdrawal.method,
    path: DataNodeApi.GetWithdrawal.path,
    params: [],
    handle: getOf(withdrawals, "withdrawal", ApiErrors.MissingWithdrawalId, ApiErrors.InvalidWithdrawalId)
  }
]
