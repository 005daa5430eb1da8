/**
 * Time-weighted notional positions: the network party's (it holds a position in every market) in
 * a game with a notional requirement, at the latest epoch and at an earlier one, then a row that
 * is not there, a missing id and an id that is not hex.
 */
import type { Recorder } from "./exchanges.js"

export const timeWeightedNotionalPosition = async (r: Recorder) => {
  const template = "/api/v2/time-weighted-notional-position"
  const games = (await r.query("/api/v2/games", { epochFrom: "1" }))?.games?.edges ?? []
  const gameIds = [...new Set<string>(games.map((e: any) => e.node.id))]
  const assets = (await r.query("/api/v2/assets"))?.assets?.edges ?? []
  let found: any
  for (const gameId of gameIds) {
    for (const edge of assets) {
      const answer = await r.query(template, { partyId: "network", assetId: edge.node.id, gameId })
      found = answer?.timeWeightedNotionalPosition
      if (found !== undefined) break
    }
    if (found !== undefined) break
  }
  if (found === undefined) throw new Error("no time-weighted notional position in the world")
  const { assetId, gameId, atEpoch } = found
  if (Number(atEpoch) > 1) {
    await r.query(template, { partyId: "network", assetId, gameId, atEpoch: String(Number(atEpoch) - 1) })
  }
  await r.query(template, { partyId: "network", assetId, gameId, atEpoch: String(Number(atEpoch) + 5) })
  await r.query(template, { partyId: "network", assetId })
  await r.query(template, { partyId: "xyz", assetId, gameId })
}
