/** Games: the latest epoch of each, a span of epochs over pages, the filters, and the errors. */
import type { Recorder } from "./exchanges.js"

export const games = async (r: Recorder) => {
  const path = "/api/v2/games"
  await r.query(path)
  let after: string | undefined
  for (let i = 0; i < 3; i++) {
    const page = await r.query(path, {
      epochFrom: "1",
      "pagination.first": "2",
      ...(after === undefined ? {} : { "pagination.after": after })
    })
    const info = page?.games?.pageInfo
    if (info?.hasNextPage !== true) break
    after = info.endCursor
  }
  const all = await r.query(path, { epochFrom: "1", epochTo: "20" })
  const team = all?.games?.edges?.find((e: any) => e.node.team !== undefined)?.node
  const solo = all?.games?.edges?.find((e: any) => e.node.individual !== undefined)?.node
  if (team !== undefined) {
    await r.query(path, { gameId: team.id, epochFrom: "1" })
    await r.query(path, { teamId: team.team.team[0].team.teamId, entityScope: "ENTITY_SCOPE_TEAMS" })
  }
  if (solo !== undefined) await r.query(path, { partyId: solo.individual.individual[0].individual, epochFrom: "1" })
  await r.query(path, { entityScope: "ENTITY_SCOPE_INDIVIDUALS", "pagination.newestFirst": "false" })
  await r.query(path, { "pagination.last": "2" })
  await r.query(path, { gameId: "xyz" })
}
