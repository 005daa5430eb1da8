/**
 * `GET /api/v2/ledgerentry/history` (ListLedgerEntries), as the v0.75.8 node answers it
 * (datanode/api/trading_data_v2.go, sqlstore/ledger.go, sqlstore/ledgerentry_filter.go,
 * entities/ledgerentry.go, entities/aggregated_ledgerentries.go):
 *
 * - Each entry is stored at its own "ledger entry time": its block time plus its index among the
 *   block's entries, in microseconds (the store writes a block's entries in one flush). That time
 *   is the entry's `timestamp`, its order (ascending) and its whole cursor.
 * - The filter must name exactly one party, in the from or the to account filter (or a transfer
 *   id); none, or more than one on either side, is "invalid filter".
 * - The from and to filters are ANDed when `closeOnAccountFilters` is set, ORed otherwise. A
 *   filter's asset always tests the sending account (the store writes `account_from.asset_id`
 *   for both), its party counts only when it is the one party, and ids are decoded as bytes (hex
 *   in any case, or `network`), so an id that is not hex fails the query.
 * - The date range is cut to at most 5 days: none means the last 5 days before now, a start
 *   alone or a longer range ends 5 days after the start, an end alone starts 5 days before it.
 *   Its bounds are written with second precision (RFC 3339) before they are compared.
 */
import { Commands, DataNode, DataNodeApi, Encoder, GatewayError, Vega } from "@vega-effect/schema"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Account, LedgerRow } from "../world/accounts.js"
import type { World } from "../../World.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { LedgerEntryCursor, writeCursor } from "./cursors.js"
import { dateRange } from "./dateRange.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { bool, pagination, str, strings } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError
const TRANSFER_TYPES = Vega.TransferType.values
const ACCOUNT_TYPES = Commands.AccountType.values

const FIVE_DAYS_NANOS = 5n * 86_400n * 1_000_000_000n
const SECOND_NANOS = 1_000_000_000n

/** The ledger in the store's order, with each entry's ledger time. */
export interface Timed {
  readonly row: LedgerRow
  /** Block time plus the entry's index in its block, unix microseconds. */
  readonly time: number
}

interface TimedLedger {
  readonly entries: Array<Timed>
  /** The height and in-block index of the last entry timed. */
  height: number
  index: number
}

const indexes = new WeakMap<World, TimedLedger>()

/**
 * The world's ledger as timed entries, extended as the ledger grows. The ledger is in block
 * order, so entry times increase along it, unless a block holds more entries than microseconds
 * are left before the next block: the entries are kept sorted by (time, seq) either way.
 */
export const timedLedger = (world: World): ReadonlyArray<Timed> => {
  const ledger = world.accounts.ledger
  let timed = indexes.get(world)
  if (timed === undefined) indexes.set(world, (timed = { entries: [], height: -1, index: -1 }))
  const { entries } = timed
  let sorted = true
  for (let seq = entries.length; seq < ledger.length; seq++) {
    const row = ledger[seq]
    timed.index = row.height === timed.height ? timed.index + 1 : 0
    timed.height = row.height
    const entry = { row, time: row.vt + timed.index }
    if (entries.length > 0 && entries[entries.length - 1].time >= entry.time) sorted = false
    entries.push(entry)
  }
  if (!sorted) entries.sort((a, b) => a.time - b.time || a.row.seq - b.row.seq)
  return entries
}

/** A side's `AccountFilter` of the ledger filter. */
interface SideFilter {
  readonly assetId: string | undefined
  readonly partyIds: ReadonlyArray<string>
  readonly marketIds: ReadonlyArray<string>
  readonly types: ReadonlySet<string>
}

const side = (params: Params, prefix: string): SideFilter => {
  const asset = str(params, `${prefix}.assetId`)
  return {
    assetId: asset === undefined || asset === "" ? undefined : asset,
    partyIds: strings(params, `${prefix}.partyIds`),
    marketIds: strings(params, `${prefix}.marketIds`),
    types: new Set(strings(params, `${prefix}.accountTypes`))
  }
}

const isEmpty = (f: SideFilter): boolean =>
  f.assetId === undefined && f.partyIds.length !== 1 && f.marketIds.length === 0 && f.types.size === 0

/** The ids bound as bytes, in the store's order: asset, the one party, markets. */
const badId = (f: SideFilter, which: "fromAccount" | "toAccount"): string | undefined => {
  const wrap = (what: string, id: string) =>
    `invalid filters: invalid ${which} filters: invalid ${what} id: ${notHex(id)}`
  if (f.assetId !== undefined && !decodesAsId(f.assetId)) return wrap("asset", f.assetId)
  if (f.partyIds.length === 1 && !decodesAsId(f.partyIds[0])) return wrap("party", f.partyIds[0])
  for (const market of f.marketIds) if (!decodesAsId(market)) return wrap("market", market)
  return undefined
}

/** The bytes an id is stored as, compared as lowercase hex (`network` stays itself). */
const lower = (id: string): string => (id === "network" ? id : id.toLowerCase())

const sideMatches = (f: SideFilter, from: Account, account: Account): boolean =>
  (f.assetId === undefined || from.asset.id === lower(f.assetId)) &&
  (f.partyIds.length !== 1 || account.owner === lower(f.partyIds[0])) &&
  (f.marketIds.length === 0 || f.marketIds.some((m) => lower(m) === (account.market?.id ?? ""))) &&
  (f.types.size === 0 || f.types.has(account.type))

const encodeEntry = Encoder.stringify(DataNode.AggregatedLedgerEntry)

/** entities/aggregated_ledgerentries.go ToProto: ids left out when empty, no transfer id. */
const entryJson = cachedJson((entry: Timed) => {
  const { row } = entry
  return encodeEntry({
    timestamp: BigInt(microsToNanos(entry.time)),
    quantity: row.amount,
    transferType: row.type,
    assetId: row.from.asset.id,
    fromAccountType: row.from.type,
    toAccountType: row.to.type,
    fromAccountPartyId: row.from.owner,
    toAccountPartyId: row.to.owner,
    ...(row.from.market === undefined ? {} : { fromAccountMarketId: row.from.market.id }),
    ...(row.to.market === undefined ? {} : { toAccountMarketId: row.to.market.id }),
    fromAccountBalance: row.fromBalance,
    toAccountBalance: row.toBalance,
    transferId: ""
  } as unknown as DataNode.AggregatedLedgerEntry)
})

const entryCursor = (entry: Timed): string => writeCursor(LedgerEntryCursor, [entry.time])

/** `Ledger.validateDateRange`: the window, in unix nanoseconds, before it is cut to seconds. */
const window = (start: bigint | undefined, end: bigint | undefined, now: bigint): [bigint, bigint | undefined] => {
  if (start === undefined) return end === undefined ? [now - FIVE_DAYS_NANOS, undefined] : [end - FIVE_DAYS_NANOS, end]
  if (end === undefined || end - start > FIVE_DAYS_NANOS) return [start, start + FIVE_DAYS_NANOS]
  return [start, end]
}

/** `time.Format(time.RFC3339)`: whole seconds, cut toward the past; in microseconds. */
export const toSecondMicros = (nanos: bigint): number => {
  const q = nanos / SECOND_NANOS
  return Number(nanos < 0n && q * SECOND_NANOS !== nanos ? q - 1n : q) * 1_000_000
}

const handle = (params: Params, node: NodeView): Reply => {
  const range = dateRange(params)
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)

  const from = side(params, "filter.fromAccountFilter")
  const to = side(params, "filter.toAccountFilter")
  const transferId = str(params, "filter.transferId") ?? ""
  if (
    from.partyIds.length > 1 ||
    to.partyIds.length > 1 ||
    ((from.partyIds[0] ?? "") === "" && (to.partyIds[0] ?? "") === "" && transferId === "")
  ) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.InvalidFilter,
        "invalid filters: filtering ledger entries should be limited to a single party"
      )
    )
  }
  const bad = badId(from, "fromAccount") ?? badId(to, "toAccount")
  if (bad !== undefined) return invalidId(ApiErrors.LedgerServiceGet, bad)
  // the transfer id is bound as bytes too (the wording of pgx's failure around it is not settled
  // by the sources: we report it as the other ids are)
  if (transferId !== "" && !decodesAsId(transferId)) return invalidId(ApiErrors.LedgerServiceGet, notHex(transferId))

  const types = new Set(strings(params, "filter.transferTypes"))
  const close = bool(params, "filter.closeOnAccountFilters") ?? false
  const fromEmpty = isEmpty(from)
  const toEmpty = isEmpty(to)
  const accountsMatch = (row: LedgerRow): boolean => {
    if (fromEmpty && toEmpty) return true
    if (fromEmpty) return sideMatches(to, row.from, row.to)
    if (toEmpty) return sideMatches(from, row.from, row.from)
    const a = sideMatches(from, row.from, row.from)
    const b = sideMatches(to, row.from, row.to)
    return close ? a && b : a || b
  }

  // `time.Now()` of the node: the time of the block it has reached
  const now = BigInt(microsToNanos(node.world.chain.blockTime(node.height)))
  const [start, end] = window(range.start, range.end, now)
  const startMicros = toSecondMicros(start)
  const endMicros = end === undefined ? Infinity : toSecondMicros(end)
  const height = node.readableHeight
  const rows = timedLedger(node.world).filter(
    (e) =>
      e.row.height <= height &&
      e.time >= startMicros &&
      e.time < endMicros &&
      // no entry of the simulated ledger belongs to a transfer
      transferId === "" &&
      (types.size === 0 || types.has(e.row.type)) &&
      accountsMatch(e.row)
  )
  const result = list<Timed, number>({
    request,
    cursor: LedgerEntryCursor,
    keyOf: (v) => v.get("vega_time") as number,
    source: arraySource(rows, (e, key) => e.time - key, entryCursor),
    nodeJson: entryJson
  })
  if ("cursorError" in result) return internal(ApiErrors.LedgerServiceGet, badCursor(result.cursorError))
  return ok(`{"ledgerEntries":${result.json}}`)
}

const sideParams = (prefix: string) => [
  param(`${prefix}.assetId`, "string"),
  param(`${prefix}.partyIds`, "string", true),
  param(`${prefix}.marketIds`, "string", true),
  enumParam(`${prefix}.accountTypes`, ACCOUNT_TYPES, true)
]

export const route: Route<NodeView> = {
  method: DataNodeApi.ListLedgerEntries.method,
  path: DataNodeApi.ListLedgerEntries.path,
  params: [
    param("filter.closeOnAccountFilters", "bool"),
    ...sideParams("filter.fromAccountFilter"),
    ...sideParams("filter.toAccountFilter"),
    enumParam("filter.transferTypes", TRANSFER_TYPES, true),
    param("filter.transferId", "string"),
    ...paginationParams,
    param("dateRange.startTimestamp", "int64"),
    param("dateRange.endTimestamp", "int64")
  ],
  handle
}
