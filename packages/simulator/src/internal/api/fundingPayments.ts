/**
 * `GET /api/v2/funding-payments` (ListFundingPayments), as the v0.75.8 data node answers it
 * (`datanode/api/trading_data_v2.go`, `datanode/sqlstore/funding_payments.go`,
 * `datanode/entities/funding_payment.go`), from the payments of the world's perpetuals
 * (`world/funding.ts`).
 *
 * `partyId` is required and must be 64 hex digits (400 `invalid party id`); a `marketId`, when
 * given, too (400 `invalid market ID`). Rows are ordered by time, market, period and party
 * (newest first by default), each at the block that settled its period.
 *
 * Paging: only the first page (`first`/`last`, either order) can be read. The cursor
 * (`{"vegaTime":…,"marketID":…,"partyID":…}`) has no field for the ordering's
 * `funding_period_seq` column, so the store cannot build the predicate of any cursor but the
 * empty one: 500 `building cursor predicate: no field matching column name funding_period_seq`
 * (not in the node's error table: code 10000).
 */
import { DataNodeApi, Encoder, GatewayError, Ids, DataNode } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { FundingPaymentRow } from "../world/funding.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { FundingPaymentCursor, isZeroCursor, readCursor, writeCursor } from "./cursors.js"
import type { NodeView } from "./node.js"
import { since } from "./nodeVersion.js"
import { pagination, str } from "./params.js"
import { badCursor, error, invalidPagination, ok } from "./reply.js"

const { ApiErrors, ErrorDetailCode } = GatewayError

const encode = Encoder.stringify(DataNode.FundingPayment)

const rowJson = (row: FundingPaymentRow): string =>
  encode({
    partyId: row.party.id,
    marketId: row.market.id,
    fundingPeriodSeq: BigInt(row.seq),
    timestamp: BigInt(row.vt) * 1000n,
    amount: row.amount
  } as unknown as DataNode.FundingPayment)

/** v0.76+ nodes add what loss socialisation withheld: the world socialises no loss. */
const laterRowJson = (row: FundingPaymentRow): string => `${rowJson(row).slice(0, -1)},"lossAmount":"0"}`

/** The store's order: `vega_time, market_id, funding_period_seq, party_id`. */
const compare = (a: FundingPaymentRow, b: FundingPaymentRow): number =>
  a.vt - b.vt || compareStrings(a.market.id, b.market.id) || a.seq - b.seq || compareStrings(a.party.key, b.party.key)

const cursorOf = (row: FundingPaymentRow): string =>
  writeCursor(FundingPaymentCursor, [row.vt, row.market.id, row.party.id])

const handle = (params: Params, node: NodeView): Reply => {
  const partyId = str(params, "partyId") ?? ""
  if (!Ids.isVegaId(partyId)) return error(GatewayError.fromApiError(ApiErrors.InvalidPartyId))
  const marketId = str(params, "marketId")
  if (marketId !== undefined && !Ids.isVegaId(marketId)) {
    return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  }
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  if (request.cursor !== undefined) {
    const values = readCursor(FundingPaymentCursor, request.cursor)
    if ("error" in values) return error(GatewayError.internal(ErrorDetailCode.Unmapped, badCursor(values.error)))
    if (!isZeroCursor(FundingPaymentCursor, values)) {
      return error(
        GatewayError.internal(
          ErrorDetailCode.Unmapped,
          "building cursor predicate: no field matching column name funding_period_seq"
        )
      )
    }
  }
  const party = partyId.toLowerCase()
  const market = marketId?.toLowerCase()
  const height = node.readableHeight
  const rows = node.world.funding.payments
    .filter((r) => r.height <= height && r.party.id === party && (market === undefined || r.market.id === market))
    .sort(compare)
  const result = list<FundingPaymentRow, FundingPaymentRow | undefined>({
    request: { ...request, cursor: undefined },
    cursor: FundingPaymentCursor,
    keyOf: () => undefined,
    source: arraySource(rows, (row, key) => (key === undefined ? 0 : compare(row, key)), cursorOf),
    nodeJson: since(node.nodeVersion, "v0.79") ? laterRowJson : rowJson
  })
  if ("cursorError" in result) {
    return error(GatewayError.internal(ErrorDetailCode.Unmapped, badCursor(result.cursorError)))
  }
  return ok(`{"fundingPayments":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListFundingPayments.method,
  path: DataNodeApi.ListFundingPayments.path,
  params: [param("partyId", "string"), param("marketId", "string"), ...paginationParams],
  handle
}
