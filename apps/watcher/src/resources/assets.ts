/**
 * The node's assets as diffs need them: symbol and decimals by asset id, to say amounts in the
 * asset's own units (see `DiffContext.asset`).
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import { Pagination } from "@vega-effect/schema"
import type * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { AssetInfo } from "../Resource.js"

/** Every asset the node lists, by id (lowercase hex, as the node writes ids). */
export const loadAssets = (
  client: DataNodeClient.Service
): Effect.Effect<ReadonlyMap<string, AssetInfo>, DataNodeError.DataNodeError> =>
  client
    .assets({}, { pageSize: Pagination.MAX_PAGE_SIZE })
    .pipe(
      Stream.runFold(new Map<string, AssetInfo>(), (assets, { node }) =>
        assets.set(node.id, { symbol: node.details.symbol, decimals: node.details.decimals })
      )
    )
