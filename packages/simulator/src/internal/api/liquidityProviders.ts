/**
 * `GET /api/v2/liquidity/providers` (ListLiquidityProviders), as the v0.75.8 data node answers it
 * (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/liquidity_provision.go` `ListProviders`,
 * `datanode/entities/liquidity_provider.go`).
 *
 * The store reads the fee shares of each market's current market data (the committed height's),
 * each joined with the party's live liquidity provisions in that market (so a party with two live
 * provisions there is listed twice), and the SLA entries of the same market data, matched by
 * party. Rows are ordered by market id, party id, then the fee share's place in the market data's
 * list (reversed when newest first, the default). A market or a party filter is needed (neither:
 * 400 `malformed request`); the party is compared as bytes, so in any case.
 *
 * Each edge's cursor names only the party (`{"marketId":"","partyId":…,"ordinality":0}`). Any
 * cursor but an empty one makes the store's query fail: its predicate names `market_id` and
 * `party_id` unqualified in a join of two tables that both have them, so Postgres refuses the
 * ambiguous reference (500). Only the first page can be read.
 */
import { DataNodeApi, GatewayError } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { MarketInfo } from "../world/catalog.js"
import { isLiveAt } from "../world/liquidity.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { LiquidityProviderCursor, readCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import { providerObjects } from "./marketData.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

interface ProviderRow {
  readonly market: MarketInfo
  readonly party: string
  /** 1-based place of the fee share in the market data's list. */
  readonly ordinality: number
  readonly json: string
}

const compare = (a: ProviderRow, b: ProviderRow): number =>
  compareStrings(a.market.id, b.market.id) || compareStrings(a.party, b.party) || a.ordinality - b.ordinality

const cursorOf = (row: ProviderRow): string => writeCursor(LiquidityProviderCursor, ["", row.party, 0])

const handle = (params: Params, node: NodeView): Reply => {
  const marketId = str(params, "marketId")
  const partyId = str(params, "partyId")
  if (marketId === undefined && partyId === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.MalformedRequest, "marketId or partyId or both must be provided"))
  }
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const api = ApiErrors.LiquidityProvisionServiceGetProviders
  const wrap = (inner: string) => `marketID: ${marketId ?? ""}: ${inner}`
  const party = partyId === undefined ? undefined : storedIdKey(partyId)
  if (partyId !== undefined && party === undefined) return invalidId(api, wrap(notHex(partyId)))
  const market = marketId === undefined ? undefined : storedIdKey(marketId)
  if (marketId !== undefined && market === undefined) return invalidId(api, wrap(notHex(marketId)))
  if (request.cursor !== undefined) {
    const values = readCursor(LiquidityProviderCursor, request.cursor)
    if ("error" in values) return internal(api, wrap(badCursor(values.error as string)))
    const empty = values.get("marketId") === "" && values.get("partyId") === "" && values.get("ordinality") === 0
    if (!empty) return internal(api, wrap('ERROR: column reference "market_id" is ambiguous (SQLSTATE 42702)'))
  }
  const { world } = node
  const height = node.readableHeight
  const rows: Array<ProviderRow> = []
  if (height >= world.marketData.firstHeight) {
    for (const m of world.catalog.markets) {
      if (market !== undefined && m.id !== market) continue
      const record = world.marketData.recordAt(m, height)
      const { feeShares, slas } = providerObjects(record)
      const slaOf = new Map(slas.map((s) => [(s as { party: string }).party, s]))
      const live = (world.liquidityProvisions.byMarket.get(m.id) ?? []).filter((row) => isLiveAt(row, height))
      feeShares.forEach((share, i) => {
        const id = (share as { party: string }).party
        if (party !== undefined && id !== party) return
        const json = JSON.stringify({ partyId: id, marketId: m.id, feeShare: share, sla: slaOf.get(id) ?? null })
        for (const row of live) {
          if (row.party.id === id) rows.push({ market: m, party: id, ordinality: i + 1, json })
        }
      })
    }
  }
  rows.sort(compare)
  const result = list<ProviderRow, ProviderRow | undefined>({
    request: { ...request, cursor: undefined },
    cursor: LiquidityProviderCursor,
    keyOf: () => undefined,
    source: arraySource(rows, (row, key) => (key === undefined ? 0 : compare(row, key)), cursorOf),
    nodeJson: (row) => row.json
  })
  if ("cursorError" in result) return internal(api, wrap(badCursor(result.cursorError)))
  return ok(`{"liquidityProviders":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListLiquidityProviders.method,
  path: DataNodeApi.ListLiquidityProviders.path,
  params: [param("marketId", "string"), param("partyId", "string"), ...paginationParams],
  handle
}
