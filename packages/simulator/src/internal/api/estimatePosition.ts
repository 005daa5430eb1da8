/**
 * `GET /api/v2/estimate/position` (EstimatePosition), as the v0.75.8 node computes it
 * (datanode/api/trading_data_v2.go EstimatePosition and computeMarginRange, core/risk
 * margins_calculation.go and liquidation_calculation.go), for a position of `openVolume` at
 * `averageEntryPrice` (market decimals) with the account balances given (asset units).
 *
 * The REST query cannot carry the request's orders, so there are none: the maintenance margin is
 * the open volume's, `max(0, mark × slippage) + |volume| × mark × risk factor`, with the market's
 * slippage factors for the worst case and none for the best; no auction, and no funding term
 * (the simulator's perpetuals pay none). The levels are the node's `implyMarginLevels` (each
 * rounded half away from zero; in isolated margin search and release 0, the order margin and the
 * margin factor written). The collateral increase is the initial margin less the margin and
 * order margin balances (in cross margin only when positive or when the balances exceed the
 * release level; in isolated margin `|volume × entry| × factor` less them). The liquidation price
 * is `(collateral − volume × mark) / (slippage + |volume| × risk factor − volume)`, not below 0,
 * when the collateral covers the maintenance margin, else the mark; optionally in market decimals.
 * Every division keeps 16 decimal places, rounding half away from zero, as shopspring's does.
 *
 * Checks, in the node's order: an empty `marketId` is a bare error (code 2, no details); balances
 * that do not parse are 400 "invalid account balance" (the general balance only in cross margin);
 * the market is looked up (404 "failed to get market for ID"); isolated margin needs a parsable
 * `marginFactor` (400 "missing margin factor"); the market data is read from the node's cache (500
 * "failed to get market data" for an id in another case); an entry price that does not parse is a
 * 500 "can't parse average entry price: <price>". A margin mode neither cross nor isolated takes
 * only the margin balance as collateral and is otherwise estimated as cross margin.
 */
import { DataNodeApi, Decimal, GatewayError, Vega } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import { enumParam, param, type Params, type Reply, type Route } from "../route.js"
import { isGoDecimalError, parseGoDecimal } from "../goDecimal.js"
import type { MarketInfo } from "../world/catalog.js"
import { type Levels, RiskFactors, ScalingFactors, SlippageFactors } from "../world/margin.js"
import { impliedLevelsJson } from "./margin.js"
import { divRound } from "../world/orders.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { bool, int64, str } from "./params.js"
import { error, ok } from "./reply.js"

const { ApiErrors, GrpcCode, NO_RESOURCE_INNER } = GatewayError

/** A decimal `v / 10^s`, `s ≥ 0`. */
interface D {
  readonly v: bigint
  readonly s: number
}

const d = (v: bigint, s = 0): D => ({ v, s })
const ZERO = d(0n)
const pow10 = (n: number): bigint => 10n ** BigInt(n)
const align = (a: D, b: D): [bigint, bigint, number] => {
  const s = Math.max(a.s, b.s)
  return [a.v * pow10(s - a.s), b.v * pow10(s - b.s), s]
}
const add = (a: D, b: D): D => {
  const [x, y, s] = align(a, b)
  return d(x + y, s)
}
const sub = (a: D, b: D): D => add(a, d(-b.v, b.s))
const mul = (a: D, b: D): D => d(a.v * b.v, a.s + b.s)
const cmp = (a: D, b: D): number => {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}
const abs = (a: D): D => (a.v < 0n ? d(-a.v, a.s) : a)
const maxD = (a: D, b: D): D => (cmp(a, b) > 0 ? a : b)

/** `n / m` rounded half away from zero (`m ≠ 0`). */
const roundDiv = (n: bigint, m: bigint): bigint => (m < 0n ? divRound(-n, -m) : divRound(n, m))

/** shopspring's `Div`: 16 decimal places, half away from zero. */
const div = (a: D, b: D): D => {
  const exponent = 16 + b.s - a.s
  return exponent >= 0 ? d(roundDiv(a.v * pow10(exponent), b.v), 16) : d(roundDiv(a.v, b.v * pow10(-exponent)), 16)
}

/** `Round(0)`, half away from zero, as an integer. */
const round0 = (a: D): bigint => roundDiv(a.v, pow10(a.s))

const fromFactor = (f: { readonly numerator: bigint; readonly denominator: bigint }): D =>
  d(f.numerator, f.denominator.toString().length - 1)

/** The node's `num.DecimalFromString`: the value, or its error text. */
const parse = (text: string): D | { readonly error: string } => {
  const parsed = parseGoDecimal(text)
  if (isGoDecimalError(parsed)) return parsed
  return parsed.exp >= 0 ? d(parsed.value * pow10(parsed.exp)) : d(parsed.value, -parsed.exp)
}

const isError = (x: D | { readonly error: string }): x is { readonly error: string } => "error" in x

/** A value as shopspring's `String()` writes it (no trailing zeros). */
const toBigDecimal = (a: D): BigDecimal.BigDecimal => BigDecimal.normalize(BigDecimal.make(a.v, a.s))

interface Position {
  /** Open volume over the position factor. */
  readonly volume: D
  readonly mark: D
}

/** The open volume's maintenance margin (computeMaintenanceMargin without orders or funding). */
const maintenanceOf = ({ mark, volume }: Position, linear: D, quadratic: D): D => {
  if (volume.v === 0n) return ZERO
  const rf = fromFactor(volume.v > 0n ? RiskFactors.long : RiskFactors.short)
  const slippage = add(mul(linear, abs(volume)), mul(quadratic, mul(volume, volume)))
  const cap = mul(mark, slippage)
  return add(maxD(ZERO, cap), mul(mul(abs(volume), mark), rf))
}

/** calculateLiquidationPrice for the open volume alone; undefined where it is not defined. */
const liquidationOf = ({ mark, volume }: Position, collateral: D, linear: D, quadratic: D): D | undefined => {
  if (volume.v === 0n) return ZERO
  const rf = fromFactor(volume.v > 0n ? RiskFactors.long : RiskFactors.short)
  const slippage = add(mul(linear, abs(volume)), mul(quadratic, mul(volume, volume)))
  const denominator = sub(add(slippage, mul(abs(volume), rf)), volume)
  if (denominator.v === 0n) return undefined
  const price = div(sub(collateral, mul(volume, mark)), denominator)
  return price.v < 0n ? ZERO : price
}

const scaled = (m: D, factor: bigint): bigint => round0(div(mul(m, d(factor)), d(100_000n)))

const fail = (api: GatewayError.ApiError, inner: string, code: GatewayError.GrpcCode = api.grpcCode): Reply =>
  error(GatewayError.fromApiError(api, inner, code))

/** A request that passed the node's checks. */
interface Request {
  readonly market: MarketInfo
  readonly marginBalance: D
  readonly orderBalance: D
  /** What the liquidation price is computed from (before any isolated-margin adjustment). */
  readonly collateral: D
  readonly isolated: boolean
  readonly marginFactor: D
  /** The average entry price in asset units. */
  readonly entry: D
  readonly openVolume: bigint
  readonly priceFactor: D
  readonly mark: D
}

const readRequest = (params: Params, node: NodeView): Request | Reply => {
  const { world } = node
  const marketId = str(params, "marketId") ?? ""
  // returned without formatE: gRPC's Unknown, the bare text
  if (marketId === "") return error(GatewayError.gatewayError(GrpcCode.Unknown, "empty or missing market ID"))
  const balance = (name: string) => parse(str(params, name) ?? "")
  const marginBalance = balance("marginAccountBalance")
  if (isError(marginBalance)) return fail(ApiErrors.PositionsInvalidAccountBalance, marginBalance.error)
  const orderBalance = balance("orderMarginAccountBalance")
  if (isError(orderBalance)) return fail(ApiErrors.PositionsInvalidAccountBalance, orderBalance.error)
  const key = storedIdKey(marketId)
  if (key === undefined) {
    return fail(
      ApiErrors.MarketServiceGetById,
      "not a valid hex id (or well known exception)",
      GrpcCode.InvalidArgument
    )
  }
  const market = world.catalog.marketById.get(key)
  if (market === undefined) return fail(ApiErrors.MarketServiceGetById, NO_RESOURCE_INNER)
  const mode = params.query.get("marginMode")
  let collateral = marginBalance
  if (mode === "MARGIN_MODE_CROSS_MARGIN") {
    const general = balance("generalAccountBalance")
    if (isError(general)) return fail(ApiErrors.PositionsInvalidAccountBalance, general.error)
    collateral = add(add(collateral, general), orderBalance)
  }
  const isolated = mode === "MARGIN_MODE_ISOLATED_MARGIN"
  let marginFactor = ZERO
  if (isolated) {
    const text = str(params, "marginFactor")
    if (text === undefined) {
      return fail(ApiErrors.MissingMarginFactor, "margin factor are required with isolated margin")
    }
    const parsed = parse(text)
    if (isError(parsed)) return fail(ApiErrors.MissingMarginFactor, parsed.error)
    marginFactor = parsed
  }
  // the market data cache is keyed by the id's text
  if (market.id !== marketId || node.height < world.marketData.firstHeight) {
    return fail(ApiErrors.MarketServiceGetMarketData, `no market data for market: ${marketId}`)
  }
  const exponent = market.settlementAsset.decimals - market.priceDecimals
  const priceFactor = d(exponent > 0 ? pow10(exponent) : 1n)
  const mark = mul(d(world.marketData.recordAt(market, node.height).markPrice), priceFactor)
  const entryText = str(params, "averageEntryPrice") ?? ""
  const entry = parse(entryText)
  if (isError(entry)) {
    const api = { message: `can't parse average entry price: ${entryText}`, code: 10000, grpcCode: GrpcCode.Internal }
    return error(GatewayError.fromApiError(api, entry.error))
  }
  const openVolume = int64(params, "openVolume") ?? 0n
  return {
    market,
    marginBalance,
    orderBalance,
    collateral,
    isolated,
    marginFactor,
    entry: mul(entry, priceFactor),
    openVolume,
    priceFactor,
    mark
  }
}

/** `implyMarginLevels`' amounts for the estimate, each rounded half away from zero. */
const impliedLevels = (maintenance: D): Levels => ({
  maintenance: round0(maintenance),
  search: scaled(maintenance, ScalingFactors.searchLevel.scaled),
  initial: scaled(maintenance, ScalingFactors.initialMargin.scaled),
  release: scaled(maintenance, ScalingFactors.collateralRelease.scaled)
})

/** The collateral increases (worst, best) and what the position margin needs in isolated margin. */
const increases = (request: Request, worst: Levels, best: Levels, pf: D) => {
  const { marginBalance, orderBalance } = request
  const combined = add(marginBalance, orderBalance)
  if (request.isolated) {
    const required = div(mul(abs(mul(request.entry, d(request.openVolume))), request.marginFactor), pf)
    const delta = sub(required, combined)
    return { worst: delta, best: delta, position: sub(required, marginBalance) }
  }
  const delta = (levels: Levels) => {
    const difference = sub(d(levels.initial), combined)
    return difference.v > 0n || cmp(combined, d(levels.release)) > 0 ? difference : ZERO
  }
  return { worst: delta(worst), best: delta(best), position: ZERO }
}

const NOT_DEFINED = GatewayError.gatewayError(GrpcCode.Unknown, "liquidation price not defined")

const estimatePosition = (params: Params, node: NodeView): Reply => {
  const request = readRequest(params, node)
  if ("status" in request) return request
  const { market, mark, priceFactor } = request
  const positionFactor =
    market.positionDecimals >= 0 ? d(pow10(market.positionDecimals)) : d(1n, -market.positionDecimals)
  const position: Position = { volume: div(d(request.openVolume), positionFactor), mark }
  const linear = fromFactor(SlippageFactors.linear)
  const quadratic = fromFactor(SlippageFactors.quadratic)
  const worst = maintenanceOf(position, linear, quadratic)
  const best = maintenanceOf(position, ZERO, ZERO)
  const worstLevels = impliedLevels(worst)
  const bestLevels = impliedLevels(best)
  const increase = increases(request, worstLevels, bestLevels, positionFactor)
  const collateral =
    request.isolated && bool(params, "includeRequiredPositionMarginInAvailableCollateral") === true
      ? add(request.collateral, increase.position)
      : request.collateral
  // the mark unless the collateral covers the maintenance margin
  const worstPrice = cmp(collateral, worst) >= 0 ? liquidationOf(position, collateral, linear, quadratic) : mark
  const bestPrice = cmp(collateral, best) >= 0 ? liquidationOf(position, collateral, ZERO, ZERO) : mark
  if (worstPrice === undefined || bestPrice === undefined) return error(NOT_DEFINED)
  const inMarket = bool(params, "scaleLiquidationPriceToMarketDecimals") === true
  const liquidation = (price: D) => {
    const value = round0(inMarket ? div(price, priceFactor) : price)
    return `{"openVolumeOnly":"${value}","includingBuyOrders":"${value}","includingSellOrders":"${value}"}`
  }
  // written out: the figures have no bound (see `impliedLevelsJson`)
  const isolated = request.isolated
    ? { orderMargin: 0n, marginFactor: Decimal.format(toBigDecimal(request.marginFactor)) }
    : undefined
  const levelsJson = (levels: Levels) => impliedLevelsJson(levels, "", market, isolated)
  return ok(
    `{"margin":{"worstCase":${levelsJson(worstLevels)},"bestCase":${levelsJson(bestLevels)}},` +
      `"collateralIncreaseEstimate":{"worstCase":"${round0(increase.worst)}","bestCase":"${round0(increase.best)}"},` +
      `"liquidation":{"worstCase":${liquidation(worstPrice)},"bestCase":${liquidation(bestPrice)}}}`
  )
}

export const route: Route<NodeView> = {
  method: DataNodeApi.EstimatePosition.method,
  path: DataNodeApi.EstimatePosition.path,
  params: [
    param("marketId", "string"),
    param("openVolume", "int64"),
    param("averageEntryPrice", "string"),
    param("marginAccountBalance", "string"),
    param("generalAccountBalance", "string"),
    param("orderMarginAccountBalance", "string"),
    enumParam("marginMode", Vega.MarginMode.values),
    param("marginFactor", "string"),
    param("includeRequiredPositionMarginInAvailableCollateral", "bool"),
    param("scaleLiquidationPriceToMarketDecimals", "bool")
  ],
  handle: estimatePosition
}
