/**
 * `GET /api/v2/accounts` (ListAccounts) and `GET /api/v2/balance/changes` (ListBalanceChanges).
 *
 * As the v0.75.8 node stores accounts (sqlstore/accounts.go, entities/account.go): an account's
 * id is the hex SHA-256 of `asset id + owner + market id + type name`, where a system account's
 * owner is `network` (the core's `*`) and an account without a market has the empty market id
 * (the core's `!`). The id is what accounts are ordered and paged by, and what their cursor holds.
 *
 * v0.75.8's ListAccountsRequest has no `includeDerivedParties` (v0.79 added it, for the AMM
 * sub-accounts of a party): the gateway ignores it as an unknown field, and since the world has
 * no derived parties, a v0.79 node would answer the same either way.
 */
import { createHash } from "node:crypto"
import { Commands, DataNode, DataNodeApi, Encoder, GatewayError } from "@vega-effect/schema"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Account, BalanceRow } from "../world/accounts.js"
import { compareStrings, visibleAt } from "../world/versioned.js"
import type { World } from "../../World.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { AccountCursor, AggregatedBalanceCursor, writeCursor } from "./cursors.js"
import { dateRange, inRange, validate } from "./dateRange.js"
import { decodesAsId, marketAndPartyIds } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str, strings } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError
const ACCOUNT_TYPES = Commands.AccountType.values

const ids = new WeakMap<Account, string>()

/** DeterministicIDFromAccount (sqlstore/accounts.go, v0.75.8). */
export const accountId = (account: Account): string => {
  let id = ids.get(account)
  if (id === undefined) {
    id = createHash("sha256")
      .update(`${account.asset.id}${account.owner}${account.market?.id ?? ""}${account.type}`)
      .digest("hex")
    ids.set(account, id)
  }
  return id
}

/** The same id from an account's parts, as a cursor gives them. */
const idOf = (asset: string, owner: string, market: string, type: string): string =>
  createHash("sha256").update(`${asset}${owner}${market}${type}`).digest("hex")

const sorted = new WeakMap<World, { size: number; accounts: Array<Account> }>()

/** Every account of the world by id (accounts are only ever opened, so a count tells staleness). */
export const accountsById = (world: World): ReadonlyArray<Account> => {
  const { byKey } = world.accounts
  let cached = sorted.get(world)
  if (cached === undefined || cached.size !== byKey.size) {
    const accounts = [...byKey.values()].sort((a, b) => compareStrings(accountId(a), accountId(b)))
    cached = { size: byKey.size, accounts }
    sorted.set(world, cached)
  }
  return cached.accounts
}

/** The balance row visible at a height (none before the account opened, or for an external one). */
export const balanceAt = (account: Account, height: number): BalanceRow | undefined => {
  const versions = account.versions
  for (let i = versions.length - 1; i >= 0; i--) {
    const row = versions[i]
    if (visibleAt(row, height)) return row
    if (row.to <= height) return undefined
  }
  return undefined
}

/** The node's `AccountFilter`, read and checked. */
/** An account type's name by its number (the balance cursor writes the number). */
const typeNames = new Map(Object.entries(ACCOUNT_TYPES).map(([name, n]) => [n, name]))

interface AccountFilter {
  readonly assetId: string | undefined
  readonly partyIds: ReadonlySet<string>
  readonly marketIds: ReadonlySet<string>
  readonly types: ReadonlySet<string>
}

/**
 * ListAccounts and ListBalanceChanges check `filter.marketIds`, then `filter.partyIds`, with
 * `NewVegaIDSlice(...).Ensure()` (both report "invalid party id"). The asset id is not checked
 * there: the store binds it as bytes, and an id that is not hex fails the query (below).
 */
const readFilter = (params: Params): AccountFilter | Reply => {
  const ids = marketAndPartyIds(params)
  if ("status" in ids) return ids
  const { marketIds, partyIds } = ids
  const asset = str(params, "filter.assetId")
  return {
    assetId: asset === undefined || asset === "" ? undefined : asset,
    partyIds: new Set(partyIds),
    marketIds: new Set(marketIds),
    types: new Set(strings(params, "filter.accountTypes"))
  }
}

const matches = (filter: AccountFilter, account: Account): boolean =>
  (filter.assetId === undefined || account.asset.id === filter.assetId.toLowerCase()) &&
  (filter.partyIds.size === 0 || filter.partyIds.has(account.owner)) &&
  (filter.marketIds.size === 0 || filter.marketIds.has(account.market?.id ?? "")) &&
  (filter.types.size === 0 || filter.types.has(account.type))

const filterParams = [
  param("filter.assetId", "string"),
  param("filter.partyIds", "string", true),
  param("filter.marketIds", "string", true),
  enumParam("filter.accountTypes", ACCOUNT_TYPES, true)
]

// ---------------------------------------------------------------------------------------------
// ListAccounts
// ---------------------------------------------------------------------------------------------

const encodeBalance = Encoder.stringify(DataNode.AccountBalance)

/** entities/account_balance.go: owner, balance, asset, market id ("" for none) and type. */
export const balanceValue = (row: BalanceRow): DataNode.AccountBalance =>
  ({
    owner: row.account.owner,
    balance: row.balance,
    asset: row.account.asset.id,
    marketId: row.account.market?.id ?? "",
    type: row.account.type
  }) as DataNode.AccountBalance

const balanceJson = cachedJson((row: BalanceRow) => encodeBalance(balanceValue(row)))

const accountCursor = (row: BalanceRow): string => writeCursor(AccountCursor, [accountId(row.account)])

/**
 * ListAccounts (trading_data_v2.go, sqlstore/accounts.go QueryBalances, v0.75.8): the current
 * balance of every account that has one (an account joins the list with its first balance, so
 * external accounts never do), ordered by account id.
 */
const listAccounts = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const filter = readFilter(params)
  if ("status" in filter) return filter
  if (filter.assetId !== undefined && !decodesAsId(filter.assetId)) {
    // the asset id is bound as bytes: one that does not decode fails the query (an invalid-id
    // error, so InvalidArgument); pgx's own wording around it is not in the sources we read
    return invalidId(ApiErrors.AccountServiceListAccounts, `querying account balances: ${notHex(filter.assetId)}`)
  }
  const height = node.readableHeight
  const rows: Array<BalanceRow> = []
  for (const account of accountsById(node.world)) {
    if (!matches(filter, account)) continue
    const row = balanceAt(account, height)
    if (row !== undefined) rows.push(row)
  }
  const result = list<BalanceRow, string>({
    request,
    cursor: AccountCursor,
    keyOf: (v) => (v.get("account_id") as string).toLowerCase(),
    source: arraySource(rows, (row, key) => compareStrings(accountId(row.account), key), accountCursor),
    nodeJson: balanceJson
  })
  if ("cursorError" in result) return internal(ApiErrors.AccountServiceListAccounts, badCursor(result.cursorError))
  return ok(`{"accounts":${result.json}}`)
}

// ---------------------------------------------------------------------------------------------
// ListBalanceChanges
// ---------------------------------------------------------------------------------------------

const encodeAggregated = Encoder.stringify(DataNode.AggregatedBalance)

/** entities/aggregated_balance.go: grouped by asset, party, market and type, i.e. one account. */
const aggregatedJson = cachedJson((row: BalanceRow) =>
  encodeAggregated({
    timestamp: BigInt(microsToNanos(row.vt)),
    balance: row.balance,
    partyId: row.account.owner,
    assetId: row.account.asset.id,
    marketId: row.account.market?.id ?? "",
    accountType: row.account.type
  } as unknown as DataNode.AggregatedBalance)
)

const aggregatedCursor = (row: BalanceRow): string =>
  writeCursor(AggregatedBalanceCursor, [
    row.vt,
    null,
    row.account.owner,
    row.account.asset.id,
    row.account.market?.id ?? "",
    ACCOUNT_TYPES[row.account.type]
  ])

interface BalanceKey {
  readonly vt: number
  readonly accountId: string
}

const compareRowTime = (a: BalanceRow, b: BalanceRow): number =>
  a.vt - b.vt || compareStrings(accountId(a.account), accountId(b.account))

/**
 * ListBalanceChanges (trading_data_v2.go, sqlstore/balances.go Query, v0.75.8): every balance an
 * account had (one per block it changed in), ordered by block time then account id. A date range
 * is required unless a cursor is given. The node's cursor holds no account id (`AccountID` is
 * always null), so its cursor predicate `vega_time > t OR (vega_time = t AND account_id >= NULL)`
 * skips every row at the cursor's time: with quirks on, that is what we serve. Without quirks the
 * account id is worked out from the cursor's party, asset, market and type, and paging is exact.
 */
const listBalanceChanges = (params: Params, node: NodeView): Reply => {
  const filter = readFilter(params)
  if ("status" in filter) return filter
  const range = dateRange(params)
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const now = BigInt(microsToNanos(node.world.chain.blockTime(node.height)))
  const invalid = validate(range, request.cursor === undefined, now)
  if (invalid !== undefined) return error(GatewayError.fromApiError(ApiErrors.DateRangeValidationFailed, invalid))
  if (filter.assetId !== undefined && !decodesAsId(filter.assetId)) {
    return invalidId(ApiErrors.AccountServiceGetBalances, `querying balances: ${notHex(filter.assetId)}`)
  }
  const height = node.readableHeight
  const rows: Array<BalanceRow> = []
  for (const account of node.world.accounts.byKey.values()) {
    if (!matches(filter, account)) continue
    for (const row of account.versions) {
      if (row.from <= height && inRange(range, row.vt)) rows.push(row)
    }
  }
  rows.sort(compareRowTime)
  const descending = request.forward === request.newestFirst
  const compare = node.quirks
    ? // the cursor's own time counts as before it, whichever way the rows are read
      (row: BalanceRow, key: BalanceKey) => (row.vt !== key.vt ? row.vt - key.vt : descending ? 1 : -1)
    : (row: BalanceRow, key: BalanceKey) => row.vt - key.vt || compareStrings(accountId(row.account), key.accountId)
  const result = list<BalanceRow, BalanceKey>({
    request,
    cursor: AggregatedBalanceCursor,
    keyOf: (v) => {
      const type = typeNames.get(v.get("Type") as number) ?? ""
      const market = (v.get("MarketID") as string).toLowerCase()
      return {
        vt: v.get("vega_time") as number,
        accountId: idOf(
          (v.get("AssetID") as string).toLowerCase(),
          normalizeOwner(v.get("PartyID") as string),
          market,
          type
        )
      }
    },
    source: arraySource(rows, compare, aggregatedCursor),
    nodeJson: aggregatedJson
  })
  if ("cursorError" in result) return internal(ApiErrors.AccountServiceGetBalances, badCursor(result.cursorError))
  return ok(`{"balances":${result.json}}`)
}

const normalizeOwner = (owner: string): string => (owner === "network" ? owner : owner.toLowerCase())

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListAccounts.method,
    path: DataNodeApi.ListAccounts.path,
    params: [...filterParams, ...paginationParams],
    handle: listAccounts
  },
  {
    method: DataNodeApi.ListBalanceChanges.method,
    path: DataNodeApi.ListBalanceChanges.path,
    params: [
      ...filterParams,
      ...paginationParams,
      param("dateRange.startTimestamp", "int64"),
      param("dateRange.endTimestamp", "int64")
    ],
    handle: listBalanceChanges
  }
]
