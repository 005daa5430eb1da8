/**
 * Margin and risk, as the v0.75.8 data node serves them (datanode/api/trading_data_v2.go,
 * sqlstore/margin_levels.go, sqlstore/margin_modes.go, sqlstore/risk_factor.go,
 * entities/margin_levels.go, entities/margin_mode.go):
 *
 * - `GET /api/v2/margin/levels` (ListMarginLevels): query `partyId`, `marketId`. The current
 *   levels of each margin account (`current_margin_levels`), those of the accounts of the party
 *   and market named, ordered by `vega_time` then the margin account's id (cursor
 *   `{"VegaTime","AccountID"}`). The pagination is checked first, then the cursor; an id that is
 *   not hex fails the query, InvalidArgument "failed to get margin levels" (70001). A node's
 *   `timestamp` is its block time; `orderMargin` and `marginFactor` are `"0"` in cross margin.
 * - `GET /api/v2/margin-modes` (ListPartyMarginModes): query `marketId`, `partyId`. The
 *   `party_margin_modes` rows, ordered by market id then party id (cursor `{"MarketID","PartyID"}`);
 *   a filter that is not hex fails the query ("failed to list parties margin modes", 10000).
 * - `GET /api/v2/market/{marketId}/risk/factors` (GetRiskFactors): the market's risk factors. An
 *   id that is not 64 hex digits is 400 "invalid market ID"; an unknown one 404 "failed to get
 *   risk factor", inner `marketID: <id>: no resource corresponding to this id`.
 * - `GET /api/v2/estimate/fee` (EstimateFee) and `GET /api/v2/estimate/margin` (EstimateMargin):
 *   see {@link estimateFee} and {@link estimateMargin}; EstimatePosition is `estimatePosition.ts`.
 *
 * The levels and factors come from the world's risk model (`world/margin.ts`).
 */
import { Commands, DataNode, DataNodeApi, Encoder, GatewayError, Ids, Vega } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import { microsToNanos } from "../goTime.js"
import { isGoDecimalError, parseGoDecimal } from "../goDecimal.js"
import { goString } from "../goJson.js"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { World } from "../../World.js"
import type { MarketInfo } from "../world/catalog.js"
import { FeeFactors } from "../world/fees.js"
import {
  ceilDiv,
  type Levels,
  type MarginLevelRow,
  type MarginModeRow,
  RiskFactors,
  ScalingFactors
} from "../world/margin.js"
import { divRound } from "../world/orders.js"
import { compareStrings, idSortKey, versionAt } from "../world/versioned.js"
import { accountId } from "./accounts.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { MarginCursor, PartyMarginModeCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { int64, pagination, str } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors, GrpcCode, NO_RESOURCE_INNER } = GatewayError

/** What the store binds an id filter to: the id's bytes as lowercase hex, or why it cannot. */
const boundId = (value: string | undefined): { readonly key: string | undefined } | { readonly invalid: string } => {
  if (value === undefined) return { key: undefined }
  const key = storedIdKey(value)
  return key === undefined ? { invalid: notHex(value) } : { key }
}

// ---------------------------------------------------------------------------------------------
// Margin levels
// ---------------------------------------------------------------------------------------------

const encodeLevels = Encoder.stringify(Vega.MarginLevels)

const ZERO = BigDecimal.fromBigInt(0n)

/** A row as `vega.MarginLevels` (`MarginLevels.ToProto`). */
export const marginLevelsValue = (row: MarginLevelRow): Vega.MarginLevels =>
  ({
    maintenanceMargin: row.levels.maintenance,
    searchLevel: row.levels.search,
    initialMargin: row.levels.initial,
    collateralReleaseLevel: row.levels.release,
    partyId: row.party.id,
    marketId: row.market.id,
    asset: row.market.settlementAsset.id,
    timestamp: BigInt(microsToNanos(row.vt)),
    orderMargin: Option.some(0n),
    marginMode: "MARGIN_MODE_CROSS_MARGIN",
    marginFactor: Option.some(ZERO)
  }) as unknown as Vega.MarginLevels

export const marginLevelsJson = cachedJson((row: MarginLevelRow) => encodeLevels(marginLevelsValue(row)))

/** Isolated margin's members of an estimate's levels: the order margin and the margin factor. */
export interface Isolated {
  readonly orderMargin: bigint
  /** The factor as the node's decimal prints it. */
  readonly marginFactor: string
}

/**
 * An estimate's `vega.MarginLevels` (`implyMarginLevels`), written out: an estimate's values are
 * decimals with no bound (a request's figures can make them exceed 256 bits), and the party and
 * market are echoed unchecked.
 */
export const impliedLevelsJson = (
  levels: Levels,
  partyId: string,
  market: MarketInfo,
  isolated: Isolated | undefined
): string =>
  `{"maintenanceMargin":"${levels.maintenance}","searchLevel":"${isolated === undefined ? levels.search : 0n}",` +
  `"initialMargin":"${levels.initial}","collateralReleaseLevel":"${isolated === undefined ? levels.release : 0n}",` +
  `"partyId":${goString(partyId)},"marketId":${goString(market.id)},"asset":${goString(market.settlementAsset.id)},` +
  `"timestamp":"0","orderMargin":"${isolated?.orderMargin ?? ""}",` +
  `"marginMode":"${isolated === undefined ? "MARGIN_MODE_CROSS_MARGIN" : "MARGIN_MODE_ISOLATED_MARGIN"}",` +
  `"marginFactor":${goString(isolated?.marginFactor ?? "")}}`

const marginCursor = (row: MarginLevelRow): string => writeCursor(MarginCursor, [row.vt, accountId(row.account)])

interface MarginKey {
  readonly vt: number
  readonly accountId: string
}

const compareMargins = (a: MarginLevelRow, b: MarginLevelRow): number =>
  a.vt - b.vt || compareStrings(accountId(a.account), accountId(b.account))

/** The current levels of every margin account at a height, in the table's order. */
export const currentMarginLevels = (
  world: World,
  height: number,
  keep: (row: MarginLevelRow) => boolean = () => true
): Array<MarginLevelRow> => {
  const rows: Array<MarginLevelRow> = []
  for (const versions of world.accounts.marginLevels.byAccount.values()) {
    const row = versionAt(versions, height)
    if (row !== undefined && keep(row)) rows.push(row)
  }
  return rows.sort(compareMargins)
}

const listMarginLevels = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  // the store binds each id that is not empty as bytes, in any case
  const party = boundId(str(params, "partyId") || undefined)
  const market = boundId(str(params, "marketId") || undefined)
  const keep = (row: MarginLevelRow) =>
    "key" in party &&
    "key" in market &&
    (party.key === undefined || idSortKey(row.party.id) === party.key) &&
    (market.key === undefined || row.market.id === market.key)
  const rows = currentMarginLevels(node.world, node.readableHeight, keep)
  const result = list<MarginLevelRow, MarginKey>({
    request,
    cursor: MarginCursor,
    keyOf: (v) => ({ vt: v.get("VegaTime") as number, accountId: (v.get("AccountID") as string).toLowerCase() }),
    source: arraySource<MarginLevelRow, MarginKey>(
      rows,
      (row, key) => row.vt - key.vt || compareStrings(accountId(row.account), key.accountId),
      marginCursor
    ),
    nodeJson: marginLevelsJson
  })
  if ("cursorError" in result) {
    return internal(ApiErrors.RiskServiceGetMarginLevelsById, badCursor(result.cursorError))
  }
  // an id that does not decode fails when the query runs (pgx's wording around it is not reproduced)
  for (const id of [party, market]) {
    if ("invalid" in id) return invalidId(ApiErrors.RiskServiceGetMarginLevelsById, id.invalid)
  }
  return ok(`{"marginLevels":${result.json}}`)
}

// ---------------------------------------------------------------------------------------------
// Margin modes
// ---------------------------------------------------------------------------------------------

const encodeMode = Encoder.stringify(DataNode.PartyMarginMode)

const marginModeJson = cachedJson((row: MarginModeRow) =>
  encodeMode({
    marketId: row.market.id,
    partyId: row.party.id,
    marginMode: row.mode,
    atEpoch: BigInt(row.atEpoch)
  } as unknown as DataNode.PartyMarginMode)
)

const modeCursor = (row: MarginModeRow): string => writeCursor(PartyMarginModeCursor, [row.market.id, row.party.id])

interface ModeKey {
  readonly marketId: string
  readonly partyKey: string
}

const compareModeToKey = (row: MarginModeRow, key: ModeKey): number =>
  compareStrings(row.market.id, key.marketId) || compareStrings(idSortKey(row.party.id), key.partyKey)

const listMarginModes = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  // both filters are optional: present (even empty) they are bound as bytes
  const market = boundId(str(params, "marketId"))
  const party = boundId(str(params, "partyId"))
  const height = node.readableHeight
  const rows: Array<MarginModeRow> = []
  if ("key" in market && "key" in party) {
    for (const versions of node.world.accounts.marginModes.byKey.values()) {
      const row = versionAt(versions, height)
      if (row === undefined) continue
      if (market.key !== undefined && row.market.id !== market.key) continue
      if (party.key !== undefined && idSortKey(row.party.id) !== party.key) continue
      rows.push(row)
    }
  }
  rows.sort(
    (a, b) => compareStrings(a.market.id, b.market.id) || compareStrings(idSortKey(a.party.id), idSortKey(b.party.id))
  )
  const result = list<MarginModeRow, ModeKey>({
    request,
    cursor: PartyMarginModeCursor,
    keyOf: (v) => ({
      marketId: (v.get("MarketID") as string).toLowerCase(),
      partyKey: storedIdKey(v.get("PartyID") as string) ?? ""
    }),
    source: arraySource<MarginModeRow, ModeKey>(rows, compareModeToKey, modeCursor),
    nodeJson: marginModeJson
  })
  if ("cursorError" in result) return internal(ApiErrors.ListPartyMarginModes, badCursor(result.cursorError))
  for (const id of [market, party]) {
    if ("invalid" in id) return invalidId(ApiErrors.ListPartyMarginModes, id.invalid)
  }
  return ok(`{"partyMarginModes":${result.json}}`)
}

// ---------------------------------------------------------------------------------------------
// Risk factors
// ---------------------------------------------------------------------------------------------

/** The risk factors' JSON for a market (`vega.RiskFactor`: market, short, long). */
const riskFactorJson = (market: MarketInfo): string =>
  `{"market":${goString(market.id)},"short":${goString(RiskFactors.short.text)},"long":${goString(RiskFactors.long.text)}}`

const getRiskFactors = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("marketId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
  const market = node.world.catalog.marketById.get(id.toLowerCase())
  if (market === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.RiskFactorServiceGet, `marketID: ${id}: ${NO_RESOURCE_INNER}`))
  }
  return ok(`{"riskFactor":${riskFactorJson(market)}}`)
}

// ---------------------------------------------------------------------------------------------
// Estimates
// ---------------------------------------------------------------------------------------------

/** `num.Uint` arithmetic wraps at 2^256. */
const UINT256 = 1n << 256n

/** 10^(asset decimals − price decimals): a market price to asset units (`getMarketPriceFactor`). */
const priceFactor = (market: MarketInfo): bigint => {
  const exponent = market.settlementAsset.decimals - market.priceDecimals
  return exponent > 0 ? 10n ** BigInt(exponent) : 1n
}

/** `x / 10^positionDecimals` as a fraction's denominator and numerator factor. */
const positionFactor = (market: MarketInfo): { readonly mul: bigint; readonly div: bigint } =>
  market.positionDecimals >= 0
    ? { mul: 1n, div: 10n ** BigInt(market.positionDecimals) }
    : { mul: 10n ** BigInt(-market.positionDecimals), div: 1n }

type Estimate = { readonly ok: string } | { readonly fail: GatewayError.ErrorBody }

/** An error of the estimate, with the code formatE gives its cause. */
const failure = (api: GatewayError.ApiError, inner: string, code: GatewayError.GrpcCode): Estimate => ({
  fail: GatewayError.fromApiError(api, inner, code)
})

const INVALID_PRICE = "invalid order price"
const INVALID_SIZE = "invalid order size"
const INVALID_SIDE = "invalid order side"
const INVALID_ID_INNER = "not a valid hex id (or well known exception)"

/**
 * The market a store lookup by id finds (the id bound as bytes, so in any case): the market, or
 * the failure (an id that does not decode is an invalid-argument error, an unknown one not found).
 */
const lookUp = (world: World, id: string, api: GatewayError.ApiError): MarketInfo | Estimate => {
  const key = storedIdKey(id)
  if (key === undefined) return failure(api, INVALID_ID_INNER, GrpcCode.InvalidArgument)
  const market = world.catalog.marketById.get(key)
  return market ?? failure(api, NO_RESOURCE_INNER, GrpcCode.NotFound)
}

const encodeFee = Encoder.stringify(Vega.Fee)

/**
 * EstimateFee: `marketId` empty is 400 "empty or missing market ID", not 64 hex digits 400
 * "invalid market ID", `price` empty 400 "missing price"; then "failed to estimate fee" (10039)
 * for an unknown market (404), a price that is not a positive integer or a size of 0 (400). The
 * fees are the data node's own arithmetic, not the core's: the price in asset units times the
 * size over 10^positionDecimals, times each fee factor, rounded half away from zero (the core
 * rounds fees up, `world/fees.ts`). No discounts: those members are written empty.
 *
 * A v0.79 node (commit a50750cc of vegaprotocol/vega, the same function) rounds each fee up and
 * adds the treasury and buy-back fees (their factors are 0) and an empty high-volume maker fee.
 * Its `party` parameter, which applies the party's referral and volume discounts, is not served.
 */
export const estimateFee = (world: World, params: Params, version: NodeVersion): Estimate => {
  const id = str(params, "marketId") ?? ""
  if (id === "") return { fail: GatewayError.fromApiError(ApiErrors.EmptyMissingMarketId) }
  if (!Ids.isVegaId(id)) return { fail: GatewayError.fromApiError(ApiErrors.InvalidMarketId) }
  const priceText = str(params, "price") ?? ""
  if (priceText === "") return { fail: GatewayError.fromApiError(ApiErrors.MissingPrice) }
  const market = lookUp(world, id, ApiErrors.EstimateFee)
  if ("ok" in market || "fail" in market) return market
  // big.Int's SetString in base 10, then 256 bits (a negative wraps around, as uint256 takes it)
  if (!/^[+-]?[0-9]+$/.test(priceText)) return failure(ApiErrors.EstimateFee, INVALID_PRICE, GrpcCode.InvalidArgument)
  const parsed = BigInt(priceText)
  if ((parsed < 0n ? -parsed : parsed) >= UINT256) {
    return failure(ApiErrors.EstimateFee, INVALID_PRICE, GrpcCode.InvalidArgument)
  }
  const price = ((parsed % UINT256) + UINT256) % UINT256
  if (price === 0n) return failure(ApiErrors.EstimateFee, INVALID_PRICE, GrpcCode.InvalidArgument)
  const size = int64(params, "size") ?? 0n
  if (size === 0n) return failure(ApiErrors.EstimateFee, INVALID_SIZE, GrpcCode.InvalidArgument)
  const value = (((price * priceFactor(market)) % UINT256) * size) % UINT256
  const { div, mul } = positionFactor(market)
  const later = since(version, "v0.79")
  const fee = (numerator: bigint) =>
    later ? ceilDiv(value * mul * numerator, div * 10_000n) : divRound(value * mul * numerator, div * 10_000n)
  const json = encodeFee({
    makerFee: fee(FeeFactors.makerFee.numerator),
    infrastructureFee: fee(FeeFactors.infrastructureFee.numerator),
    liquidityFee: fee(FeeFactors.liquidityFee.numerator),
    makerFeeVolumeDiscount: Option.none(),
    infrastructureFeeVolumeDiscount: Option.none(),
    liquidityFeeVolumeDiscount: Option.none(),
    makerFeeReferrerDiscount: Option.none(),
    infrastructureFeeReferrerDiscount: Option.none(),
    liquidityFeeReferrerDiscount: Option.none()
  } as unknown as Vega.Fee)
  // v0.79's members follow the others (`vega.Fee` fields 10 to 12)
  const fees = later ? `${json.slice(0, -1)},"treasuryFee":"0","buyBackFee":"0","highVolumeMakerFee":""}` : json
  return { ok: `{"fee":${fees}}` }
}

/** shopspring's `Div` keeps 16 decimal places, rounding half away from zero. */
const DIVISION_PLACES = 16n

/** The levels of an unrounded maintenance margin `m / 10^16`, each rounded half away from zero. */
const impliedLevels = (m: bigint): Levels => {
  const one = 10n ** DIVISION_PLACES
  const scaledLevel = (factor: bigint) => divRound(m * factor, one * 100_000n)
  return {
    maintenance: divRound(m, one),
    search: scaledLevel(ScalingFactors.searchLevel.scaled),
    initial: scaledLevel(ScalingFactors.initialMargin.scaled),
    release: scaledLevel(ScalingFactors.collateralRelease.scaled)
  }
}

/**
 * EstimateMargin, in the node's order of checks: `side` unspecified (or absent) is 400 "failed to
 * estimate margin" (10040), inner "invalid order side"; the market is looked up (not checked
 * first: an id that is not hex is 400, an unknown or empty one 404), then its market data in the
 * node's cache (keyed by the id's text: another case is a 500 "no market data for market: <id>");
 * the price is the mark price, or for a limit order the `price` given (which must parse as a
 * decimal, else a 500 with the parser's text), cut to an integer (a negative one wraps around in
 * 256 bits, as the node's unsigned integer takes it), that must not be zero (400 "invalid order
 * price");
 * then a size of 0 is 400 "invalid order size".
 *
 * The maintenance margin is `size × risk factor (long for a buy, short for a sell) × price in
 * asset units / 10^positionDecimals`, the other levels its products with the scaling factors, each
 * rounded half away from zero (the node's own formula, without the orders, slippage and rounding
 * up of the core's). The size goes through a float64 first, as the node converts it. Party and
 * market are echoed as given, with timestamp 0 and empty order margin and margin factor.
 */
export const estimateMargin = (world: World, params: Params, height: number): Estimate => {
  const side = params.query.get("side")
  if (side !== "SIDE_BUY" && side !== "SIDE_SELL") {
    return failure(ApiErrors.EstimateMargin, INVALID_SIDE, GrpcCode.InvalidArgument)
  }
  const id = str(params, "marketId") ?? ""
  const market = lookUp(world, id, ApiErrors.EstimateMargin)
  if ("ok" in market || "fail" in market) return market
  if (id !== market.id || height < world.marketData.firstHeight) {
    return failure(ApiErrors.EstimateMargin, `no market data for market: ${id}`, GrpcCode.Internal)
  }
  let price: bigint
  if (params.query.get("type") === "TYPE_LIMIT") {
    const text = str(params, "price") ?? ""
    const parsed = parseGoDecimal(text)
    if (isGoDecimalError(parsed)) {
      return failure(ApiErrors.EstimateMargin, `parsing limit price: ${text}: ${parsed.error}`, GrpcCode.Internal)
    }
    // `num.UintFromDecimal`: the integer part (toward zero) in 256 bits, a negative one wrapping
    const truncated =
      parsed.exp >= 0 ? parsed.value * 10n ** BigInt(parsed.exp) : parsed.value / 10n ** BigInt(-parsed.exp)
    price = ((truncated % UINT256) + UINT256) % UINT256
  } else {
    price = world.marketData.recordAt(market, height).markPrice
  }
  if (price === 0n) return failure(ApiErrors.EstimateMargin, INVALID_PRICE, GrpcCode.InvalidArgument)
  const size = int64(params, "size") ?? 0n
  if (size === 0n) return failure(ApiErrors.EstimateMargin, INVALID_SIZE, GrpcCode.InvalidArgument)
  // `num.DecimalFromFloat(float64(size))`: the float's shortest decimal form
  const floatSize = BigInt(String(Number(size)))
  const rf = side === "SIDE_BUY" ? RiskFactors.long : RiskFactors.short
  const assetPrice = (price * priceFactor(market)) % UINT256
  const { div, mul } = positionFactor(market)
  // size × factor × price, then divided by 10^positionDecimals to 16 places
  const product = floatSize * rf.numerator * assetPrice * mul
  const maintenance = divRound(product * 10n ** DIVISION_PLACES, rf.denominator * div)
  const levels = impliedLevels(maintenance)
  const partyId = str(params, "partyId") ?? ""
  return { ok: `{"marginLevels":${impliedLevelsJson(levels, partyId, market, undefined)}}` }
}

const reply = (estimate: Estimate): Reply => ("ok" in estimate ? ok(estimate.ok) : error(estimate.fail))

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListMarginLevels.method,
    path: DataNodeApi.ListMarginLevels.path,
    params: [param("partyId", "string"), param("marketId", "string"), ...paginationParams],
    handle: listMarginLevels
  },
  {
    method: DataNodeApi.ListPartyMarginModes.method,
    path: DataNodeApi.ListPartyMarginModes.path,
    params: [param("marketId", "string"), param("partyId", "string"), ...paginationParams],
    handle: listMarginModes
  },
  {
    method: DataNodeApi.GetRiskFactors.method,
    path: DataNodeApi.GetRiskFactors.path,
    params: [],
    handle: getRiskFactors
  },
  {
    method: DataNodeApi.EstimateFee.method,
    path: DataNodeApi.EstimateFee.path,
    params: [param("marketId", "string"), param("price", "string"), param("size", "uint64")],
    handle: (params, node) => reply(estimateFee(node.world, params, node.nodeVersion))
  },
  {
    method: DataNodeApi.EstimateMargin.method,
    path: DataNodeApi.EstimateMargin.path,
    params: [
      param("marketId", "string"),
      param("partyId", "string"),
      enumParam("side", Commands.Side.values),
      enumParam("type", Commands.OrderType.values),
      param("size", "uint64"),
      param("price", "string")
    ],
    handle: (params, node) => reply(estimateMargin(node.world, params, node.height))
  }
]
