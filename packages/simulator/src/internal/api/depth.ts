/**
 * `GET /api/v2/market/depth/{marketId}/latest` (GetLatestMarketDepth), as the v0.75.8 data node
 * answers it (datanode/api/trading_data_v2.go, service/market_depth.go, sqlstore/trades.go):
 *
 * - First the market's last trade from the store, at the committed height (`ORDER BY
 *   synthetic_time DESC LIMIT 1`, the id bound as bytes, so any case): an id that is not hex fails
 *   there, InvalidArgument with 40001 "failed to get trades for market".
 * - Then the depth from the in-memory depth service, which takes in order events as they arrive:
 *   the node's own height. Its markets are a Go map keyed by the id as the events write it, so an
 *   unknown id, or one in another case, is an empty depth echoing the id, sequence number 0.
 *   `maxDepth` (absent or 0: every level) keeps the first levels of each side.
 *
 * The body has `lastTrade` `null` when the market has not traded.
 */
import { DataNodeApi, GatewayError, Vega } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { goString } from "../goJson.js"
import { param, type Route } from "../route.js"
import type { DepthLevel } from "../world/marketData.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { int64 } from "./params.js"
import { invalidId, notHex, ok } from "./reply.js"
import { tradeJson } from "./trades.js"

const encodeLevel = Schema.encodeSync(Vega.PriceLevel)

/** A price level as `vega.PriceLevel`. */
export const levelValue = (level: DepthLevel): Vega.PriceLevel => ({
  price: level.price,
  numberOfOrders: BigInt(level.orders),
  volume: level.volume
})

/** A side's levels as the REST gateway writes them: v0.79 adds the AMM volumes (none here). */
export const levelsJson = (levels: ReadonlyArray<DepthLevel>, version: NodeVersion): string =>
  JSON.stringify(
    levels.map((level) => {
      const encoded = encodeLevel(levelValue(level))
      return since(version, "v0.79") ? { ...encoded, ammVolume: "0", ammVolumeEstimated: "0" } : encoded
    })
  )

export const route: Route<NodeView> = {
  method: DataNodeApi.GetLatestMarketDepth.method,
  path: DataNodeApi.GetLatestMarketDepth.path,
  params: [param("maxDepth", "uint64")],
  handle: (params, node) => {
    const { world } = node
    const id = params.path.get("marketId") ?? ""
    if (!decodesAsId(id)) {
      return invalidId(
        GatewayError.ApiErrors.TradeServiceGetByMarket,
        `failed to get trade by market:querying trades: scany: query multiple result rows: ${notHex(id)}`
      )
    }
    const stored = world.catalog.marketById.get(id.toLowerCase())
    const trade = stored === undefined ? undefined : world.marketData.lastTradeAt(stored, node.readableHeight)
    const market = world.catalog.marketById.get(id)
    const maxDepth = Number(int64(params, "maxDepth") ?? 0n)
    const depth =
      market === undefined
        ? { buy: [], sell: [], sequenceNumber: 0n }
        : world.marketData.depthAt(market, node.height, maxDepth)
    const { nodeVersion } = node
    return ok(
      `{"marketId":${goString(id)},"buy":${levelsJson(depth.buy, nodeVersion)},"sell":${levelsJson(depth.sell, nodeVersion)},` +
        `"lastTrade":${trade === undefined ? "null" : tradeJson(nodeVersion)(trade)},"sequenceNumber":"${depth.sequenceNumber}"}`
    )
  }
}
