/**
 * `GET /api/v2/stream/margin/levels` (ObserveMarginLevels), as the v0.75.8 node serves it
 * (datanode/api/trading_data_v2.go ObserveMarginLevels, datanode/api/observe.go,
 * datanode/service/risk.go ObserveMarginLevels):
 *
 * - Query `partyId`, `marketId`, neither checked. No snapshot: each block's margin levels, one
 *   per margin account in its final state in the block, in the order of each account's last
 *   change (the store's batcher flushes them so), each in a message of its own
 *   (`{"result":{"marginLevels":{…}}}`); a block with none sends nothing.
 * - The service's filter is `(no market or the market matches) && no party || the party
 *   matches` (Go's `&&` binds first): with a party, its levels in every market are sent, whatever
 *   the market. Ids compare as text, exactly.
 *
 * Levels are the REST rows (`margin.ts`) in stream form.
 */
import { DataNodeApi, DataNode, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { param, type StreamRoute } from "../route.js"
import type { MarginLevelRow } from "../world/margin.js"
import { marginLevelsValue } from "./margin.js"
import { str } from "./params.js"
import { followWatched } from "./observers.js"
import type { StreamNode } from "./streams.js"

const encodeFrame = Schema.encodeSync(StreamForm.frame(StreamForm.make(DataNode.ObserveMarginLevelsResponse)))

const marginLevelsRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveMarginLevels.path,
  params: [param("partyId", "string"), param("marketId", "string")],
  open: (params, node, sink) => {
    const partyId = str(params, "partyId") ?? ""
    const marketId = str(params, "marketId") ?? ""
    const matches = (row: MarginLevelRow): boolean =>
      ((marketId === "" || marketId === row.market.id) && partyId === "") || partyId === row.party.id
    return followWatched(node, "margins", sink, pollInterval, (block) => {
      for (const row of block.changes?.margins.values() ?? []) {
        if (matches(row)) sink.send(JSON.stringify(encodeFrame({ result: { marginLevels: marginLevelsValue(row) } })))
      }
    })
  }
})

/** The margin levels stream, polling a lagging node's height every `pollInterval` ms. */
export const makeMarginStreamRoutes = (pollInterval: number): ReadonlyArray<StreamRoute<StreamNode>> => [
  marginLevelsRoute(pollInterval)
]
