import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const world = smallWorld({ scale: { referralSets: 10, refereesPerSet: 6 } })
const path = "/api/v2/games"
type Query = Parameters<typeof call>[2]

const games = (query: Query = {}, options: Parameters<typeof nodeOf>[1] = {}) =>
  decoded(DataNode.ListGamesResponse, call(nodeOf(world, options), path, query)).games
const raw = (query: Query = {}) => JSON.parse(call(nodeOf(world), path, query).body).games
const keys = (connection: { edges: ReadonlyArray<{ node: { epoch: bigint; id: string } }> }) =>
  connection.edges.map((e) => `${e.node.epoch}/${e.node.id}`)
const detail = (reply: { status: number; body: string }) => ({
  status: reply.status,
  ...JSON.parse(reply.body).details[0]
})

const { teams } = world
const payouts = [...teams.payouts.values()].flat()
const teamGame = teams.games.find((g) => g.scope === "ENTITY_SCOPE_TEAMS")!
const soloGame = teams.games.find((g) => g.scope === "ENTITY_SCOPE_INDIVIDUALS")!

/** Every (epoch, game) with rewards, epoch descending then id ascending, as the node lists them. */
const expected = (keep = (_: (typeof payouts)[number]) => true) =>
  [...new Set(payouts.filter(keep).map((p) => `${p.epoch}/${p.game.id}`))].sort((a, b) => {
    const [ea, ga] = a.split("/")
    const [eb, gb] = b.split("/")
    return Number(eb) - Number(ea) || (ga < gb ? -1 : ga > gb ? 1 : 0)
  })

describe("GET /api/v2/games", () => {
  it("lists each game's latest epoch without an epoch span", () => {
    const latest = teams.games.map((g) => Math.max(...payouts.filter((p) => p.game === g).map((p) => p.epoch)))
    const listed = games().edges.map((e) => e.node)
    expect(listed.map((g) => g.id).sort()).toEqual(teams.games.map((g) => g.id).sort())
    for (const g of listed) expect(Number(g.epoch)).toBe(latest[teams.games.findIndex((x) => x.id === g.id)])
  })

  it("lists at most 30 epochs from epochFrom, newest first, forward pages continuing", () => {
    const all = keys(games({ epochFrom: 1n }))
    expect(all).toEqual(expected())
    const first = games({ epochFrom: 1n, "pagination.first": 2 })
    expect(keys(first)).toEqual(all.slice(0, 2))
    expect(JSON.parse(cursorJson(first.edges[0].cursor))).toEqual({
      EpochID: Number(first.edges[0].node.epoch),
      GameID: first.edges[0].node.id
    })
    const second = games({ epochFrom: 1n, "pagination.first": 2, "pagination.after": first.pageInfo.endCursor })
    expect(keys(second)).toEqual(all.slice(2, 4))
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const span = keys(games({ epochFrom: 3n, epochTo: 4n }))
    expect(span).toEqual(expected((p) => p.epoch >= 3 && p.epoch <= 4))
    expect(keys(games({ epochFrom: 2n, epochTo: 100n }))).toEqual(expected((p) => p.epoch >= 71))
  })

  it("re-sorts oldest-first pages newest first, and refuses backward pages", () => {
    const page = keys(games({ epochFrom: 1n, "pagination.first": 3, "pagination.newestFirst": false }))
    const oldest = expected()
      .slice()
      .sort((a, b) => Number(a.split("/")[0]) - Number(b.split("/")[0]) || (a < b ? 1 : -1))
      .slice(0, 4)
    // the oldest four picked, listed newest first, the last one cut
    expect(page).toEqual(expected((p) => oldest.includes(`${p.epoch}/${p.game.id}`)).slice(0, 3))
    expect(detail(call(nodeOf(world), path, { "pagination.last": 2 }))).toMatchObject({
      status: 500,
      code: 10000,
      message: "failed to list games",
      inner: "backward pagination is not currently supported"
    })
  })

  it("filters games by id, scope, team and party, each game keeping all its rewards", () => {
    expect(keys(games({ epochFrom: 1n, gameId: teamGame.id.toUpperCase() }))).toEqual(
      expected((p) => p.game === teamGame)
    )
    const solo = games({ epochFrom: 1n, entityScope: "ENTITY_SCOPE_INDIVIDUALS" }).edges.map((e) => e.node)
    expect(solo.every((g) => g.id === soloGame.id && g.individual !== undefined && g.team === undefined)).toBe(true)
    const team = payouts.find((p) => p.team !== undefined)!.team!
    const ofTeam = games({ epochFrom: 1n, teamId: team.id })
    expect(keys(ofTeam)).toEqual(expected((p) => p.team === team))
    // the individual scope ignores the team
    expect(keys(games({ epochFrom: 1n, teamId: team.id, entityScope: "ENTITY_SCOPE_INDIVIDUALS" }))).toEqual(
      expected((p) => p.game === soloGame)
    )
    const party = payouts[0].party
    const ofParty = games({ epochFrom: 1n, partyId: party.id })
    expect(keys(ofParty)).toEqual(expected((p) => p.party === party))
    const game = ofParty.edges[0].node
    const count = payouts.filter((p) => p.game.id === game.id && p.epoch === Number(game.epoch)).length
    expect(game.participants).toBe(BigInt(count))
    expect(games({ entityScope: "ENTITY_SCOPE_UNSPECIFIED" }).edges).toEqual([])
  })

  it("ranks teams and members by their running totals in quantum", () => {
    const game = raw({ epochFrom: 1n, gameId: teamGame.id }).edges[0].node
    const entities = game.team.team
    const totals = entities.map((t: any) => BigInt(t.totalRewardsEarnedQuantum))
    expect(totals).toEqual([...totals].sort((a: bigint, b: bigint) => (a < b ? 1 : a > b ? -1 : 0)))
    expect(entities[0].rank).toBe("1")
    for (const t of entities) {
      const members = t.team.membersParticipating
      expect(BigInt(t.rewardEarned)).toBe(members.reduce((s: bigint, m: any) => s + BigInt(m.rewardEarned), 0n))
      expect(members.map((m: any) => Number(m.rank))).toEqual(
        members.map((m: any) => Number(m.rank)).sort((a: number, b: number) => a - b)
      )
      expect(t.volume).toBe("0")
      expect(t.rewardMetric).toBe(teamGame.metric)
    }
    expect(game.rewardAssetId).toBe(teamGame.asset.id)
  })

  it("agrees with the teams' statistics: a member's game rewards and games played", () => {
    const team = payouts.find((p) => p.team !== undefined)!.team!
    const stats = JSON.parse(
      call(nodeOf(world), "/api/v2/teams/{teamId}/stats", { aggregationEpochs: 100n }, { teamId: team.id }).body
    ).statistics.edges.map((e: any) => e.node)
    for (const member of stats) {
      const own = payouts.filter((p) => p.team === team && p.party.id === member.partyId)
      expect(member.totalQuantumRewards).toBe(String(own.reduce((s, p) => s + p.quantumAmount, 0n)))
      expect(member.gamesPlayed).toEqual([...new Set(own.map((p) => p.game.id))].sort())
      // each of those games lists the member under the team in ListGames
      for (const p of own.slice(0, 2)) {
        const game = raw({ gameId: p.game.id, epochFrom: BigInt(p.epoch), epochTo: BigInt(p.epoch) }).edges[0].node
        const entity = game.team.team.find((t: any) => t.team.teamId === team.id)
        const listed = entity.team.membersParticipating.find((m: any) => m.individual === member.partyId)
        expect(listed.rewardEarnedQuantum).toBe(String(p.quantumAmount))
      }
    }
  })

  it("reads the games of the node's height, and rejects bad ids and uint64 spans", () => {
    const lastEpoch = Math.max(...payouts.map((p) => p.epoch))
    const lagging = games({ epochFrom: 1n }, { height: world.chain.epochLastBlock(lastEpoch) - 1 })
    expect(lagging.edges.every((e) => e.node.epoch < BigInt(lastEpoch))).toBe(true)
    expect(detail(call(nodeOf(world), path, { gameId: "xyz" }))).toMatchObject({
      status: 400,
      message: "failed to list games",
      inner: "scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
    })
    const bad = Buffer.from("[").toString("base64")
    expect(detail(call(nodeOf(world), path, { gameId: "xyz", "pagination.after": bad })).status).toBe(500)
    const oddCursor = Buffer.from('{"EpochID":3,"GameID":"abc"}').toString("base64")
    expect(detail(call(nodeOf(world), path, { "pagination.after": oddCursor }))).toMatchObject({
      status: 400,
      inner: "scany: query multiple result rows: decoding 'abc': not a valid hex id (or well known exception)"
    })
    expect(detail(call(nodeOf(world), path, { epochTo: 5n }))).toMatchObject({
      status: 500,
      message: "failed to list games"
    })
  })
})
