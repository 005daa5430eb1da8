/**
 * `GET /api/v2/rewards/summaries` (ListRewardSummaries): totals per party and asset, unpaged
 * (pagination is accepted and ignored).
 */
import { Encoder, GatewayError, RewardSummary } from "@vega-effect/schema"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { Rewards } from "../world/rewards.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { str } from "./params.js"
import { invalidId, notHex, ok } from "./reply.js"

const encode = Encoder.stringify(RewardSummary.RewardSummary)

const { ApiErrors } = GatewayError

const handle = (params: Params, node: NodeView): Reply => {
  const partyId = str(params, "partyId") || undefined
  const assetId = str(params, "assetId") || undefined
  for (const id of [partyId, assetId]) {
    if (id !== undefined && !decodesAsId(id)) {
      return invalidId(ApiErrors.RewardsSummary, `querying rewards: scany: query multiple result rows: ${notHex(id)}`)
    }
  }
  const party = partyId === undefined || partyId === "network" ? partyId : partyId.toLowerCase()
  const asset = assetId?.toLowerCase()
  const height = node.height
  const summaries: Array<{ readonly party: string; readonly asset: string; readonly amount: bigint }> = []
  const totals = node.world.rewards.totals
  const parties = party === undefined ? [...totals.keys()] : totals.has(party) ? [party] : []
  for (const p of parties) {
    for (const [a, history] of totals.get(p)!) {
      if (asset !== undefined && a !== asset) continue
      const amount = Rewards.at(history, height)
      if (amount !== undefined) summaries.push({ party: p, asset: a, amount })
    }
  }
  // v0.75 has no ORDER BY here; later nodes order by party, which is what we do
  summaries.sort((x, y) => compareStrings(idSortKey(x.party), idSortKey(y.party)) || compareStrings(x.asset, y.asset))
  const body = summaries
    .map((s) => encode({ assetId: s.asset, partyId: s.party, amount: s.amount } as RewardSummary.RewardSummary))
    .join(",")
  return ok(`{"summaries":[${body}]}`)
}

export const route: Route<NodeView> = {
  method: "GET",
  path: "/api/v2/rewards/summaries",
  params: [param("partyId", "string"), param("assetId", "string"), ...paginationParams],
  handle
}
