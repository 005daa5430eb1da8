/**
 * `GET /api/v2/ledgerentry/export` (ExportLedgerEntries), as the v0.75.8 node serves it
 * (datanode/api/trading_data_v2.go ExportLedgerEntries, datanode/api/export.go,
 * sqlstore/ledger.go `Export`, grpc-gateway v2.9.0 runtime/handler.go `ForwardResponseStream`):
 *
 * - Query `partyId` (required: none is "missing party id"; not 64 hex digits, "invalid party id"),
 *   `assetId` (when given, 64 hex digits, else "invalid asset ID") and `dateRange`.
 * - A server stream of `google.api.HttpBody` messages: the store's `COPY … TO STDOUT (FORMAT csv,
 *   HEADER)` of the party's ledger entries (those of an account it owns on either side), ordered
 *   by ledger entry time, cut into chunks of at least 1 MiB at row ends (the export writer sends
 *   its buffer once it holds that much, and the rest at the end). The gateway writes each chunk's
 *   bytes then its `\n` delimiter, so a blank line follows every chunk; the response is
 *   `text/csv` with a `Content-Disposition` naming the file after the party, asset and range.
 * - The asset filters the sending account. The date range bounds the entry time, written in whole
 *   seconds (RFC 3339) as in ListLedgerEntries, but is not cut to 5 days.
 * - Columns: `vega_time` (the block time, as a UTC Postgres session writes a `timestamptz`),
 *   `quantity`, `effect` (the quantity into an account of the party from another owner's, its
 *   negation out of one, 0 between two of its own), `transfer_type`, `asset_id`, then for the
 *   sending and the receiving account its market id (an empty string, which CSV quotes, for an
 *   account of no market), party id (`network` for the network's), type (its name without
 *   `ACCOUNT_TYPE_`, `UNKNOWN` for a type the store's list lacks) and balance after the entry.
 *
 * The node formats the range in its local zone; the simulator takes it to run in UTC.
 */
import { Commands, DataNodeApi, GatewayError, Ids } from "@vega-effect/schema"
import { microsToPostgresText, microsToRfc3339 } from "../goTime.js"
import { param, type StreamRoute } from "../route.js"
import type { Account, LedgerRow } from "../world/accounts.js"
import { dateRange } from "./dateRange.js"
import { type Timed, timedLedger, toSecondMicros } from "./ledger.js"
import { str } from "./params.js"
import type { StreamNode } from "./streams.js"

const { ApiErrors } = GatewayError
const ACCOUNT_TYPES: Readonly<Record<string, number>> = Commands.AccountType.values

/** The export writer's chunk size (`httpBodyChunkSize`, datanode/api/trading_data_v2.go). */
const CHUNK_BYTES = 1024 * 1024

const HEADER =
  "vega_time,quantity,effect,transfer_type,asset_id," +
  "account_from_market_id,account_from_party_id,account_from_account_type,account_from_balance," +
  "account_to_market_id,account_to_party_id,account_to_account_type,account_to_balance\n"

/** The store's CASE over account type numbers: 1 to 29 but 8, by name without the prefix. */
const typeName = (type: string): string => {
  const n = ACCOUNT_TYPES[type]
  return n === undefined || n < 1 || n === 8 || n > 29 ? "UNKNOWN" : type.slice("ACCOUNT_TYPE_".length)
}

const accountColumns = (account: Account, balance: bigint): string =>
  `${account.market === undefined ? '""' : account.market.id},${account.owner},${typeName(account.type)},${balance}`

const effectOf = (row: LedgerRow, party: string): bigint =>
  row.to.owner === party && row.from.owner !== party
    ? row.amount
    : row.from.owner === party && row.to.owner !== party
      ? -row.amount
      : 0n

const csvRow = (entry: Timed, party: string): string => {
  const { row } = entry
  return (
    `${microsToPostgresText(row.vt)},${row.amount},${effectOf(row, party)},${row.type},${row.from.asset.id},` +
    `${accountColumns(row.from, row.fromBalance)},${accountColumns(row.to, row.toBalance)}\n`
  )
}

/** `<sep><time>` of the file name: RFC 3339 in whole seconds, its colons as underscores. */
const nameTime = (sep: string, nanos: bigint | undefined): string =>
  nanos === undefined ? "" : `${sep}${microsToRfc3339(toSecondMicros(nanos)).replaceAll(":", "_")}`

export const route: StreamRoute<StreamNode> = {
  method: "GET",
  path: DataNodeApi.ExportLedgerEntries.path,
  params: [
    param("partyId", "string"),
    param("assetId", "string"),
    param("dateRange.startTimestamp", "int64"),
    param("dateRange.endTimestamp", "int64")
  ],
  open: (params, node, sink) => {
    const partyId = str(params, "partyId") ?? ""
    const assetId = str(params, "assetId")
    const refuse = (api: GatewayError.ApiError) => {
      sink.fail(GatewayError.fromApiError(api))
      return { close: () => {} }
    }
    if (partyId === "") return refuse(ApiErrors.MissingPartyId)
    if (!Ids.isVegaId(partyId)) return refuse(ApiErrors.InvalidPartyId)
    if (assetId !== undefined && !Ids.isVegaId(assetId)) return refuse(ApiErrors.InvalidAssetId)
    const range = dateRange(params)
    sink.sendHeader({
      "Content-Disposition":
        `attachment;filename=ledger_entries_${partyId}${assetId === undefined ? "" : `_${assetId}`}_` +
        `${nameTime("_", range.start)}${nameTime("-", range.end)}.csv`
    })
    const party = partyId.toLowerCase()
    const asset = assetId?.toLowerCase()
    const start = range.start === undefined ? -Infinity : toSecondMicros(range.start)
    const end = range.end === undefined ? Infinity : toSecondMicros(range.end)
    const height = node.readableHeight
    let chunk = HEADER
    for (const entry of timedLedger(node.world)) {
      const { row } = entry
      if (row.height > height || entry.time < start || entry.time >= end) continue
      if (row.from.owner !== party && row.to.owner !== party) continue
      if (asset !== undefined && row.from.asset.id !== asset) continue
      chunk += csvRow(entry, party)
      if (chunk.length >= CHUNK_BYTES) {
        sink.sendBody("text/csv", chunk)
        chunk = ""
      }
    }
    if (chunk !== "") sink.sendBody("text/csv", chunk)
    sink.end()
    return { close: () => {} }
  }
}
