/**
 * `GET /api/v2/liquidity/paidfees` (ListPaidLiquidityFees), as the v0.75.8 data node answers it
 * (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/paid_liquidity_fee_stats.go`,
 * `datanode/entities/paid_liquidity_fee_stats.go`), from the world's paid liquidity fees
 * (`world/feesStats.ts`).
 *
 * The store joins each row with the elements of its per-party list (a row with an empty list is
 * never found), keeps the elements of the `partyIds` given (the row's list then holds only those;
 * its total stays), and orders by market id, asset id, then epoch descending. Without `epochSeq`,
 * unless both a market and an asset are given, only the table's last epoch is read. The stored
 * list has no quantum amounts (`quantumAmount` `""`).
 *
 * Paging: only the first page (`first`/`last`, either order) can be read. The cursor names its
 * epoch `Epoch` while the ordering's column is `epoch_seq`, so the store cannot build the
 * predicate of any cursor but an empty one: 500 `building cursor predicate: no field matching
 * column name epoch_seq`.
 */
import { DataNodeApi, Encoder, GatewayError, VegaEvents } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { PaidLiquidityFees } from "../world/feesStats.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { PaidLiquidityFeesStatsCursor, readCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str, strings } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encode = Encoder.stringify(VegaEvents.PaidLiquidityFeesStats)

const rowJson = (row: PaidLiquidityFees, parties: ReadonlySet<string> | undefined): string =>
  encode({
    market: row.market.id,
    asset: row.market.settlementAsset.id,
    epochSeq: BigInt(row.epoch),
    totalFeesPaid: row.total,
    feesPaidPerParty: row.perParty
      .filter(([party]) => parties === undefined || parties.has(party))
      .map(([party, amount]) => ({ party, amount, quantumAmount: Option.none() }))
  } as unknown as VegaEvents.PaidLiquidityFeesStats)

const cursorOf = (row: PaidLiquidityFees): string =>
  writeCursor(PaidLiquidityFeesStatsCursor, [row.epoch, row.market.id, row.market.settlementAsset.id])

/** Base order: market id, asset id, epoch descending. */
const compare = (a: PaidLiquidityFees, b: PaidLiquidityFees): number =>
  compareStrings(a.market.id, b.market.id) ||
  compareStrings(a.market.settlementAsset.id, b.market.settlementAsset.id) ||
  b.epoch - a.epoch

const handle = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const marketId = str(params, "marketId")
  const assetId = str(params, "assetId")
  const epochSeq = int64(params, "epochSeq")
  const partyIds = strings(params, "partyIds")
  const market = marketId === undefined ? undefined : storedIdKey(marketId)
  if (marketId !== undefined && market === undefined) {
    return invalidId(ApiErrors.ListPaidLiquidityFees, notHex(marketId))
  }
  const asset = assetId === undefined ? undefined : storedIdKey(assetId)
  if (assetId !== undefined && asset === undefined) return invalidId(ApiErrors.ListPaidLiquidityFees, notHex(assetId))
  if (request.cursor !== undefined) {
    const values = readCursor(PaidLiquidityFeesStatsCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.ListPaidLiquidityFees, badCursor(values.error as string))
    const empty = values.get("Epoch") === 0 && values.get("MarketID") === "" && values.get("AssetID") === ""
    if (!empty) {
      return internal(
        ApiErrors.ListPaidLiquidityFees,
        "building cursor predicate: no field matching column name epoch_seq"
      )
    }
  }
  const { catalog, feesStats } = node.world
  const latest = feesStats.latestEpoch(node.readableHeight)
  const markets = catalog.markets.filter(
    (m) => (market === undefined || m.id === market) && (asset === undefined || m.settlementAsset.id === asset)
  )
  const parties = partyIds.length === 0 ? undefined : new Set(partyIds)
  const kept = (row: PaidLiquidityFees | undefined): row is PaidLiquidityFees =>
    row !== undefined && (parties === undefined || row.perParty.some(([party]) => parties.has(party)))
  let epochs: Array<number> = []
  if (epochSeq !== undefined) {
    if (epochSeq >= 1n && epochSeq <= BigInt(latest)) epochs = [Number(epochSeq)]
  } else if (market !== undefined && asset !== undefined) {
    epochs = Array.from({ length: latest }, (_, i) => i + 1)
  } else {
    // the table's last epoch, whichever market it is of
    for (let epoch = latest; epoch >= 1 && epochs.length === 0; epoch--) {
      if (catalog.markets.some((m) => feesStats.paidLiquidity(m, epoch) !== undefined)) epochs = [epoch]
    }
  }
  const rows = markets
    .flatMap((m) => epochs.map((epoch) => feesStats.paidLiquidity(m, epoch)))
    .filter(kept)
    .sort(compare)
  const result = list<PaidLiquidityFees, PaidLiquidityFees | undefined>({
    request: { ...request, cursor: undefined },
    cursor: PaidLiquidityFeesStatsCursor,
    keyOf: () => undefined,
    source: arraySource(rows, (row, key) => (key === undefined ? 0 : compare(row, key)), cursorOf),
    nodeJson: (row) => rowJson(row, parties)
  })
  if ("cursorError" in result) return internal(ApiErrors.ListPaidLiquidityFees, badCursor(result.cursorError))
  return ok(`{"paidLiquidityFees":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListPaidLiquidityFees.method,
  path: DataNodeApi.ListPaidLiquidityFees.path,
  params: [
    param("marketId", "string"),
    param("assetId", "string"),
    param("epochSeq", "uint64"),
    param("partyIds", "string", true),
    ...paginationParams
  ],
  handle
}
