/**
 * `GET /api/v2/network/parameters` (ListNetworkParameters) and `GET /api/v2/network/parameters/{key}`
 * (GetNetworkParameter), as the v0.75.8 data node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/network_parameters.go, datanode/entities/network_parameter.go).
 *
 * ListNetworkParameters reads the current value of every key, ordered by key ascending (byte
 * order: the captured testnet answer lists `…AutomatedPurchaseConfig…` before `…asset…`). The
 * store always pages oldest first: `newestFirst` is ignored. The cursor is the key itself, not a
 * JSON struct (`NetworkParameterCursor.Parse` takes the decoded text as it is), so any text is a
 * valid cursor; only the pagination's own checks fail (400 `invalid pagination`).
 *
 * GetNetworkParameter: the parameter, or for an unknown key 404 `failed to get network parameters`
 * with inner `no resource corresponding to this id` (the store's no-rows error, which the API maps
 * to NotFound). Keys are matched exactly (case matters).
 */
import { DataNodeApi, Encoder, GatewayError, Vega } from "@vega-effect/schema"
import { rfc3339ToMicros } from "../goTime.js"
import { page, resolve } from "../paging.js"
import { paginationParams, type Params, type Reply, type Route } from "../route.js"
import { compareKeys, type NetworkParameterRow } from "../world/networkParameters.js"
import { arraySource, cachedJson, connectionJson } from "./connection.js"
import type { NodeView } from "./node.js"
import { since } from "./nodeVersion.js"
import { pagination } from "./params.js"
import { error, invalidPagination, ok } from "./reply.js"

const { ApiErrors, GrpcCode } = GatewayError

const encode = Encoder.stringify(Vega.NetworkParameter)

export const networkParameterJson = cachedJson((row: NetworkParameterRow) => encode({ key: row.key, value: row.value }))

const cursorOf = (row: NetworkParameterRow): string => row.key

/** The parameters a view at `height` sees, by key. */
export const parametersAt = (node: NodeView): ReadonlyArray<NetworkParameterRow> => {
  const { networkParameters } = node.world
  const rows: Array<NetworkParameterRow> = []
  for (const key of networkParameters.keys) {
    const row = networkParameters.at(key, node.readableHeight)
    if (row !== undefined) rows.push(row)
  }
  return rows
}

const listNetworkParameters = (params: Params, node: NodeView): Reply => {
  const resolved = resolve(pagination(params))
  if ("error" in resolved) return invalidPagination(resolved.error)
  // ordered by key, so the store pages oldest first whatever the request says
  const request = { ...resolved, newestFirst: false }
  const source = arraySource<NetworkParameterRow, string>(
    parametersAt(node),
    (row, key) => compareKeys(row.key, key),
    cursorOf
  )
  const result = page(source, request, request.cursor)
  const json = connectionJson(result.rows, networkParameterJson, cursorOf, result.hasNextPage, result.hasPreviousPage)
  return ok(`{"networkParameters":${json}}`)
}

const getNetworkParameter = (params: Params, node: NodeView): Reply => {
  const key = params.path.get("key") ?? ""
  const row = node.world.networkParameters.at(key, node.readableHeight)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(ApiErrors.GetNetworkParameters, GatewayError.NO_RESOURCE_INNER, GrpcCode.NotFound)
    )
  }
  return ok(`{"networkParameter":${networkParameterJson(row)}}`)
}

/**
 * GetNetworkLimits (`GET /api/v2/network/limits`): the limits the core derives from
 * `limits.markets.proposeEnabledFrom`, `limits.assets.proposeEnabledFrom`,
 * `limits.markets.proposeSpotEnabled` and `limits.markets.proposePerpetualEnabled` once genesis
 * is loaded (core/limits/engine.go, v0.75.8): proposing is enabled when the "from" time is empty
 * or has passed (the time reported as unix ns, 0 when empty); spot and perpetual markets also
 * need their flag at 1. A v0.79 node adds `canUseAmm`.
 */
const getNetworkLimits = (_params: Params, node: NodeView): Reply => {
  const height = node.readableHeight
  const value = (key: string) => node.world.networkParameters.at(key, height)?.value ?? ""
  const now = node.world.chain.blockTime(height)
  const from = (key: string) => {
    const text = value(key)
    return text === "" ? undefined : rfc3339ToMicros(text)
  }
  const marketsFrom = from("limits.markets.proposeEnabledFrom")
  const assetsFrom = from("limits.assets.proposeEnabledFrom")
  const markets = marketsFrom === undefined || marketsFrom <= now
  const assets = assetsFrom === undefined || assetsFrom <= now
  const limits = {
    canProposeMarket: markets,
    canProposeAsset: assets,
    proposeMarketEnabled: markets,
    proposeAssetEnabled: assets,
    genesisLoaded: true,
    proposeMarketEnabledFrom: BigInt(marketsFrom ?? 0) * 1000n,
    proposeAssetEnabledFrom: BigInt(assetsFrom ?? 0) * 1000n,
    canProposeSpotMarket: markets && value("limits.markets.proposeSpotEnabled") === "1",
    canProposePerpetualMarket: markets && value("limits.markets.proposePerpetualEnabled") === "1"
  }
  const json = encodeLimits(limits as unknown as Vega.NetworkLimits)
  // v0.79 adds `canUseAmm` (from `limits.markets.ammPoolEnabled`) as the last field
  const amm = since(node.nodeVersion, "v0.79")
    ? `${json.slice(0, -1)},"canUseAmm":${value("limits.markets.ammPoolEnabled") === "1"}}`
    : json
  return ok(`{"limits":${amm}}`)
}

const encodeLimits = Encoder.stringify(Vega.NetworkLimits)

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListNetworkParameters.method,
    path: DataNodeApi.ListNetworkParameters.path,
    params: [...paginationParams],
    handle: listNetworkParameters
  },
  {
    method: DataNodeApi.GetNetworkParameter.method,
    path: DataNodeApi.GetNetworkParameter.path,
    params: [],
    handle: getNetworkParameter
  },
  {
    method: DataNodeApi.GetNetworkLimits.method,
    path: DataNodeApi.GetNetworkLimits.path,
    params: [],
    handle: getNetworkLimits
  }
]
