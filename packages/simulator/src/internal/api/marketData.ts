/**
 * Market data, as the v0.75.8 data node serves it (datanode/api/trading_data_v2.go,
 * service/market_data.go, sqlstore/market_data.go, entities/marketdata.go):
 *
 * - `GET /api/v2/markets/data` (ListLatestMarketData) and `GET /api/v2/market/data/{marketId}/latest`
 *   (GetLatestMarketData) answer from the service's in-memory cache, filled as each market data
 *   event arrives, before the block is committed: they read the node's own height, not the
 *   committed one. The cache is a Go map keyed by the id as the event writes it (lowercase hex),
 *   so an id in another case, unknown or not an id at all is "no market data for market: <id>",
 *   a 500 (30004, the cause is neither an invalid id nor a missing resource to formatE). The list
 *   is the map's values in Go's random iteration order; the simulator lists the markets in their
 *   catalog order.
 * - `GET /api/v2/market/data/{marketId}` (GetMarketDataHistoryByID) reads the `market_data` table
 *   at the committed height: rows ordered by `synthetic_time` (cursor `{"synthetic_time":…}`),
 *   `vega_time` between `startTimestamp` and `endTimestamp` (nanoseconds, both inclusive, each
 *   optional, truncated to microseconds as Postgres keeps times). With neither, the store replaces
 *   the pagination with "first 1, newest first": only the latest row, whatever was asked (a bad
 *   pagination is still refused first). Every error is reported as 30006: a bad pagination as an
 *   Internal error ("<reason>: invalid pagination", pkg/errors' wrapping hides the invalid-argument
 *   type from formatE), an end before the start likewise, a cursor that does not parse after them,
 *   and an id that is not hex, last, as InvalidArgument (the hex decoding error survives the
 *   wrapping). An unknown market, or one of another case, reads its rows as stored (ids are
 *   bytes).
 *
 * A market has a row at every block since the exchange opened (the first height the world
 * serves). What is modelled and what is a fixed value: see {@link marketDataValue}.
 */
import { DataNodeApi, Decimal, GatewayError, Vega } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { World } from "../../World.js"
import { divide } from "../goDecimal.js"
import { nanosToMicros } from "../goTime.js"
import { resolve, type PageRequest } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { MarketInfo } from "../world/catalog.js"
import { nanosOf } from "../world/eventTime.js"
import type { FundingState } from "../world/funding.js"
import type { MarketDataRecord } from "../world/marketData.js"
import { list } from "./connection.js"
import { MarketDataCursor, readCursor, writeCursor } from "./cursors.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { int64, pagination } from "./params.js"
import { badCursor, error, internal, invalidId, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const decimal = (text: string): BigDecimal.BigDecimal => Option.getOrThrow(Decimal.parse(text))

const zero = BigDecimal.fromBigInt(0n)
const one = BigDecimal.fromBigInt(1n)

/** Each provider's part of the supplied stake (see {@link marketDataValue}). */
const feeShares = (record: MarketDataRecord) =>
  record.providers.map((p) => ({
    party: p.party.id,
    equityLikeShare: divide(p.commitment, record.suppliedStake),
    averageEntryValuation: BigDecimal.fromBigInt(record.suppliedStake),
    averageScore: zero,
    virtualStake: BigDecimal.fromBigInt(p.commitment)
  }))

/** Providers that place no orders: no time on the book, a full fee penalty. */
const slas = (record: MarketDataRecord) =>
  record.providers.map((p) => ({
    party: p.party.id,
    currentEpochFractionOfTimeOnBook: zero,
    lastEpochFractionOfTimeOnBook: Option.some(zero),
    lastEpochFeePenalty: Option.some(one),
    lastEpochBondPenalty: Option.some(zero),
    hysteresisPeriodFeePenalties: [one],
    requiredLiquidity: Option.some(BigDecimal.fromBigInt(p.commitment)),
    notionalVolumeBuys: Option.some(zero),
    notionalVolumeSells: Option.some(zero)
  }))

/**
 * A perpetual's funding period in progress (`world/funding.ts`): payment, rate and both TWAPs as
 * of the block's time, in asset decimals as the core writes them, the index price the oracle's
 * last; the composite price is the mark price, in market decimals.
 */
const perpetualData = (record: MarketDataRecord, funding: FundingState) => ({
  fundingPayment: funding.payment,
  fundingRate: funding.rate,
  internalTwap: funding.internalTwap,
  externalTwap: funding.externalTwap,
  seqNum: BigInt(funding.seq),
  startTime: nanosOf(funding.start),
  internalCompositePrice: record.markPrice,
  nextInternalCompositePriceCalc: nanosOf(record.nextMarkToMarket),
  internalCompositePriceType: "COMPOSITE_PRICE_TYPE_LAST_TRADE",
  underlyingIndexPrice: funding.indexPrice
})

/**
 * A record as `vega.MarketData`. Modelled (see world/marketData.ts): the mark price, the best
 * bid and offer with their volumes and the mid price (static ones equal, there being no pegged
 * orders), open interest, last traded price, supplied stake (the ACTIVE provisions' commitments)
 * and target stake (mark × open interest in asset units × the markets' scaling factor 0.05), the
 * price monitoring bounds (one per trigger of the markets' settings, around the mark price), the
 * next mark-to-market (the block where the mark price is next drawn) and network close-out (every
 * disposal time step from the market's opening), and a perpetual's funding period in progress.
 *
 * Fixed plausible values, consistent with the rest: continuous trading in an active market (no
 * auction: auction times, indicative price and volume zero, no triggers), the market value proxy
 * equal to the supplied stake, market growth 0, the mark price type the markets are configured
 * with (last trade) and no mark price state. Each provider's fee share is its part of the supplied
 * stake, valued at the supplied stake, with a score of 0 and its commitment as virtual stake; as
 * the providers place no orders their SLA shows no time on the book (a full fee penalty, no bond
 * penalty, required liquidity their commitment).
 */
export const marketDataValue = (record: MarketDataRecord): Vega.MarketData => {
  const { market, markPrice, suppliedStake } = record
  const nextMarkToMarket = nanosOf(record.nextMarkToMarket)
  return {
    markPrice,
    bestBidPrice: record.bestBidPrice,
    bestBidVolume: record.bestBidVolume,
    bestOfferPrice: record.bestOfferPrice,
    bestOfferVolume: record.bestOfferVolume,
    bestStaticBidPrice: record.bestBidPrice,
    bestStaticBidVolume: record.bestBidVolume,
    bestStaticOfferPrice: record.bestOfferPrice,
    bestStaticOfferVolume: record.bestOfferVolume,
    midPrice: record.midPrice,
    staticMidPrice: record.midPrice,
    market: market.id,
    timestamp: nanosOf(record.vt),
    openInterest: record.openInterest,
    auctionEnd: 0n,
    auctionStart: 0n,
    indicativePrice: 0n,
    indicativeVolume: 0n,
    marketTradingMode: "TRADING_MODE_CONTINUOUS",
    trigger: "AUCTION_TRIGGER_UNSPECIFIED",
    extensionTrigger: "AUCTION_TRIGGER_UNSPECIFIED",
    targetStake: record.targetStake,
    suppliedStake,
    priceMonitoringBounds: record.bounds.map((bound) => ({
      minValidPrice: bound.min,
      maxValidPrice: bound.max,
      trigger: {
        horizon: bound.trigger.horizon,
        probability: decimal(bound.trigger.probability),
        auctionExtension: bound.trigger.auctionExtension
      },
      referencePrice: bound.reference
    })),
    marketValueProxy: suppliedStake,
    liquidityProviderFeeShare: feeShares(record),
    marketState: "STATE_ACTIVE",
    nextMarkToMarket,
    lastTradedPrice: record.lastTradedPrice,
    marketGrowth: zero,
    ...(record.funding === undefined ? {} : { productData: { perpetualData: perpetualData(record, record.funding) } }),
    liquidityProviderSla: slas(record),
    nextNetworkCloseout: nanosOf(record.nextNetworkCloseout),
    markPriceType: "COMPOSITE_PRICE_TYPE_LAST_TRADE"
  } as unknown as Vega.MarketData
}

const encodeMarketData = Schema.encodeSync(Vega.MarketData)

/**
 * An encoded market data (REST or stream form) as a node of `version` writes it: v0.79 adds
 * `active` to each bound (the last member), and every bound the simulator writes is in force.
 */
export const withBoundsOf = <A extends { readonly priceMonitoringBounds?: ReadonlyArray<object> }>(
  encoded: A,
  version: NodeVersion
): A =>
  since(version, "v0.79") && encoded.priceMonitoringBounds !== undefined
    ? { ...encoded, priceMonitoringBounds: encoded.priceMonitoringBounds.map((b) => ({ ...b, active: true })) }
    : encoded

/** A market's data as the REST gateway writes it. */
export const marketDataJson = (record: MarketDataRecord, version: NodeVersion): string =>
  JSON.stringify(withBoundsOf(encodeMarketData(marketDataValue(record)), version))

/**
 * A record's providers as its JSON writes them: each fee share and SLA object, in the record's
 * order (the node's `current_market_data` lists, read back by ListLiquidityProviders).
 */
export const providerObjects = (
  record: MarketDataRecord
): { readonly feeShares: ReadonlyArray<object>; readonly slas: ReadonlyArray<object> } => {
  const encoded = encodeMarketData(marketDataValue(record))
  return { feeShares: encoded.liquidityProviderFeeShare, slas: encoded.liquidityProviderSla }
}

/** The markets' data in the service's cache of a node at `height` (none before the exchange opened). */
export const latestRecords = (world: World, height: number): Array<MarketDataRecord> =>
  height < world.marketData.firstHeight
    ? []
    : world.catalog.markets.map((market) => world.marketData.recordAt(market, height))

const listLatest: Route<NodeView> = {
  method: DataNodeApi.ListLatestMarketData.method,
  path: DataNodeApi.ListLatestMarketData.path,
  params: [],
  handle: (_, node) => {
    const rows = latestRecords(node.world, node.height).map((r) => marketDataJson(r, node.nodeVersion))
    return ok(`{"marketsData":[${rows.join(",")}]}`)
  }
}

const getLatest: Route<NodeView> = {
  method: DataNodeApi.GetLatestMarketData.method,
  path: DataNodeApi.GetLatestMarketData.path,
  params: [],
  handle: (params, node) => {
    const { world } = node
    const id = params.path.get("marketId") ?? ""
    // the cache's key is the id exactly as the events write it
    const market = world.catalog.marketById.get(id)
    if (market === undefined || market.id !== id || node.height < world.marketData.firstHeight) {
      return error(GatewayError.fromApiError(ApiErrors.MarketServiceGetMarketData, `no market data for market: ${id}`))
    }
    const record = world.marketData.recordAt(market, node.height)
    return ok(`{"marketData":${marketDataJson(record, node.nodeVersion)}}`)
  }
}

/** A row of the history: which market and block, and its cursor time. */
interface HistoryRow {
  readonly market: MarketInfo
  readonly height: number
  readonly synthetic: number
}

/** The first height in [lo, hi] whose block time is at least `micros` (hi + 1 when none). */
const firstBlockAtOrAfter = (world: World, lo: number, hi: number, micros: number): number => {
  let a = lo
  let b = hi + 1
  while (a < b) {
    const mid = (a + b) >>> 1
    if (world.chain.blockTime(mid) < micros) a = mid + 1
    else b = mid
  }
  return a
}

const HISTORY_ERROR = "could not retrieve historic market data"

/** The only row "first 1, newest first" reads: what the store asks for when given no time range. */
const LATEST_ONLY: PageRequest = { forward: true, limit: 1, cursor: undefined, newestFirst: true }

const history = (params: Params, node: NodeView): Reply => {
  const fail = (inner: string): Reply => internal(ApiErrors.MarketServiceGetMarketDataHistory, inner)
  const resolved = resolve(pagination(params))
  if ("error" in resolved) return fail(`${resolved.error}: invalid pagination`)
  const start = int64(params, "startTimestamp")
  const end = int64(params, "endTimestamp")
  if (start !== undefined && end !== undefined && end < start) {
    return fail(`${HISTORY_ERROR}: invalid date range, end date must be after start date`)
  }
  const request = start === undefined && end === undefined ? LATEST_ONLY : resolved
  const id = params.path.get("marketId") ?? ""
  if (!decodesAsId(id)) {
    if (request.cursor !== undefined) {
      const cursor = readCursor(MarketDataCursor, request.cursor)
      if ("error" in cursor) return fail(`${HISTORY_ERROR}: ${badCursor(cursor.error as string)}`)
    }
    return invalidId(
      ApiErrors.MarketServiceGetMarketDataHistory,
      `${HISTORY_ERROR}: scany: query multiple result rows: ${notHex(id)}`
    )
  }
  const { world } = node
  const market = world.catalog.marketById.get(id.toLowerCase())
  const top = node.readableHeight
  let lo = world.marketData.firstHeight
  let hi = market === undefined ? lo - 1 : top
  if (start !== undefined) lo = firstBlockAtOrAfter(world, lo, hi, nanosToMicros(start))
  if (end !== undefined) hi = firstBlockAtOrAfter(world, lo, hi, nanosToMicros(end) + 1) - 1
  const count = Math.max(0, hi - lo + 1)
  const cursorOf = (row: HistoryRow) => writeCursor(MarketDataCursor, [row.synthetic])
  const result = list<HistoryRow, number>({
    request,
    cursor: MarketDataCursor,
    keyOf: (v) => v.get("synthetic_time") as number,
    source: {
      size: count,
      at: (i) => ({ market: market!, height: lo + i, synthetic: world.marketData.syntheticTime(market!, lo + i) }),
      include: () => true,
      compare: (row, key) => row.synthetic - key,
      cursorOf
    },
    nodeJson: (row) => marketDataJson(world.marketData.recordAt(row.market, row.height), node.nodeVersion)
  })
  if ("cursorError" in result) return fail(`${HISTORY_ERROR}: ${badCursor(result.cursorError)}`)
  return ok(`{"marketData":${result.json}}`)
}

const historyRoute: Route<NodeView> = {
  method: DataNodeApi.GetMarketDataHistoryByID.method,
  path: DataNodeApi.GetMarketDataHistoryByID.path,
  params: [param("startTimestamp", "int64"), param("endTimestamp", "int64"), ...paginationParams],
  handle: history
}

export const routes: ReadonlyArray<Route<NodeView>> = [listLatest, getLatest, historyRoute]
