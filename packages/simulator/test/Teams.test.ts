import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld({ scale: { referralSets: 10, refereesPerSet: 6 } })
const node = (options: Parameters<typeof nodeOf>[1] = {}) => nodeOf(world, options)

const teamsPath = "/api/v2/teams"
const refereesPath = "/api/v2/teams/referees/{teamId}"
const historyPath = "/api/v2/teams/referees/history/{referee}"
const statsPath = "/api/v2/teams/stats"
const membersPath = "/api/v2/teams/{teamId}/stats"

type Query = Parameters<typeof call>[2]

const listTeams = (query: Query = {}, options = {}) =>
  decoded(DataNode.ListTeamsResponse, call(node(options), teamsPath, query)).teams
const referees = (teamId: string, query: Query = {}, options = {}) =>
  decoded(DataNode.ListTeamRefereesResponse, call(node(options), refereesPath, query, { teamId })).teamReferees
const history = (referee: string, query: Query = {}, options = {}) =>
  decoded(DataNode.ListTeamRefereeHistoryResponse, call(node(options), historyPath, query, { referee }))
    .teamRefereeHistory
const teamStats = (query: Query = {}, options = {}) =>
  decoded(DataNode.ListTeamsStatisticsResponse, call(node(options), statsPath, query)).statistics
const memberStats = (teamId: string, query: Query = {}, options = {}) =>
  decoded(DataNode.ListTeamMembersStatisticsResponse, call(node(options), membersPath, query, { teamId })).statistics

const detail = (reply: { status: number; body: string }) => ({
  status: reply.status,
  ...JSON.parse(reply.body).details[0]
})

/** Every node of a list, following `after` cursors with pages of `size`. */
const allPages = <N>(fetch: (query: Query) => { edges: ReadonlyArray<{ node: N }>; pageInfo: any }, size = 2) =>
  walk((after) => {
    const page = fetch({ "pagination.first": size, ...(after === undefined ? {} : { "pagination.after": after }) })
    return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
  })

const { teams } = world
const switched = [...teams.byParty.values()].find((h) => h.length > 1)!

describe("teams of the world", () => {
  it("makes a share of the referral sets teams, with members and a few switches", () => {
    expect(teams.teams.length).toBeGreaterThan(2)
    expect(teams.teams.length).toBeLessThan(world.referralSets.sets.length)
    for (const team of teams.teams) {
      const set = world.referralSets.sets.find((s) => s.id === team.id)!
      expect(team.referrer).toBe(set.referrer)
    }
    expect(switched).toBeDefined()
  })

  it("is the same for the same seed, and leaves the referral sets alone", () => {
    const again = smallWorld({ scale: { referralSets: 10, refereesPerSet: 6 } })
    expect(call(nodeOf(again), teamsPath).body).toBe(call(node(), teamsPath).body)
    expect(call(nodeOf(again), statsPath).body).toBe(call(node(), statsPath).body)
    expect(again.referralSets.sets.map((s) => s.id)).toEqual(world.referralSets.sets.map((s) => s.id))
  })
})

describe("GET /api/v2/teams", () => {
  it("lists teams by creation time, newest first by default, with the current member count", () => {
    const nodes = listTeams().edges.map((e) => e.node)
    expect(nodes.length).toBe(teams.teams.length)
    const times = nodes.map((n) => n.createdAt)
    expect(times).toEqual([...times].sort((a, b) => (a > b ? -1 : 1)))
    const oldest = listTeams({ "pagination.newestFirst": false }).edges.map((e) => e.node.teamId)
    expect(oldest).toEqual(nodes.map((n) => n.teamId).reverse())
    for (const n of nodes) {
      const members = teams.currentMembers(world.height).filter((m) => m.team.id === n.teamId)
      expect(n.totalMembers).toBe(BigInt(members.length))
      // the referrer is a member, counted
      expect(members.some((m) => m.party.id === n.referrer)).toBe(true)
    }
  })

  it("pages forwards and backwards with the cursor of its time and id", () => {
    const all = listTeams().edges.map((e) => e.node.teamId)
    expect(allPages((q) => listTeams(q)).map((n) => n.teamId)).toEqual(all)
    const first = listTeams({ "pagination.first": 2 })
    expect(Object.keys(JSON.parse(cursorJson(first.edges[0].cursor)))).toEqual(["CreatedAt", "ID"])
    const last = listTeams({ "pagination.last": 2 })
    expect(last.edges.map((e) => e.node.teamId)).toEqual(all.slice(-2))
    const before = listTeams({ "pagination.last": 2, "pagination.before": last.pageInfo.startCursor })
    expect(before.edges.map((e) => e.node.teamId)).toEqual(all.slice(-4, -2))
    expect(before.pageInfo.hasNextPage).toBe(true)
  })

  it("reads one team by id or by a member, ignoring the paging", () => {
    const team = teams.teams[0]
    const byId = listTeams({ teamId: team.id.toUpperCase(), "pagination.first": 6000 })
    expect(byId.edges.map((e) => e.node.teamId)).toEqual([team.id])
    expect(byId.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false })
    expect(byId.pageInfo.startCursor).toBe(byId.edges[0].cursor)
    expect(listTeams({ partyId: team.referrer.id }).edges[0].node.teamId).toBe(team.id)
    // a party that switched is found in its latest team
    const current = switched[switched.length - 1]
    expect(listTeams({ partyId: current.party.id }).edges[0].node.teamId).toBe(current.team.id)
    // the team id wins over the party
    expect(listTeams({ teamId: team.id, partyId: current.party.id }).edges[0].node.teamId).toBe(team.id)
  })

  it("answers no team with a null page info, and errors for bad ids", () => {
    expect(call(node(), teamsPath, { teamId: "cd".repeat(32) }).body).toBe('{"teams":{"edges":[],"pageInfo":null}}')
    expect(call(node(), teamsPath, { partyId: "cd".repeat(32) }).body).toBe('{"teams":{"edges":[],"pageInfo":null}}')
    expect(detail(call(node(), teamsPath, { teamId: "xyz" }))).toEqual({
      status: 400,
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10000,
      message: "failed to list teams",
      inner: "scany: query one result row: decoding 'xyz': not a valid hex id (or well known exception)"
    })
    expect(detail(call(node(), teamsPath, { teamId: "", partyId: "" }))).toMatchObject({
      status: 500,
      message: "failed to list teams",
      inner: "either teamID or partyID must be provided"
    })
    expect(detail(call(node(), teamsPath, { "pagination.first": 6000 })).code).toBe(10028)
  })

  it("shows a lagging node the teams and members of its height", () => {
    const later = [...teams.teams].sort((a, b) => b.from - a.from)[0]
    const lagging = listTeams({}, { height: later.from - 1 }).edges.map((e) => e.node.teamId)
    expect(lagging).not.toContain(later.id)
    expect(call(nodeOf(world, { height: later.from - 1 }), teamsPath, { teamId: later.id }).body).toContain(
      '"pageInfo":null'
    )
    const join = teams.members.find((m) => m.party !== m.team.referrer)!
    const before = listTeams({ teamId: join.team.id }, { height: join.from - 1 }).edges[0]?.node.totalMembers ?? 0n
    const after = listTeams({ teamId: join.team.id }, { height: join.from }).edges[0].node.totalMembers
    expect(after).toBe(before + 1n)
  })
})

describe("GET /api/v2/teams/referees/{teamId}", () => {
  const team = teams.teams.find((t) => teams.currentMembers(world.height).filter((m) => m.team === t).length > 3)!

  it("lists the current members but the referrer, by party id", () => {
    const nodes = referees(team.id, { "pagination.newestFirst": false }).edges.map((e) => e.node)
    const expected = teams
      .currentMembers(world.height)
      .filter((m) => m.team === team && m.party !== team.referrer)
      .map((m) => m.party.id)
      .sort()
    expect(nodes.map((n) => n.referee)).toEqual(expected)
    expect(nodes.every((n) => n.teamId === team.id)).toBe(true)
    expect(referees(team.id).edges.map((e) => e.node.referee)).toEqual([...expected].reverse())
  })

  it("pages with the party cursor", () => {
    const all = referees(team.id).edges.map((e) => e.node.referee)
    expect(allPages((q) => referees(team.id, q)).map((n) => n.referee)).toEqual(all)
    const cursor = referees(team.id, { "pagination.first": 1 }).edges[0].cursor
    expect(JSON.parse(cursorJson(cursor))).toEqual({ PartyID: all[0] })
  })

  it("lists a switched referee in its new team only", () => {
    const current = switched[switched.length - 1]
    const old = switched[switched.length - 2]
    expect(referees(current.team.id).edges.map((e) => e.node.referee)).toContain(current.party.id)
    expect(referees(old.team.id).edges.map((e) => e.node.referee)).not.toContain(current.party.id)
  })

  it("answers an unknown team with no referees and a bad id with 400", () => {
    expect(referees("cd".repeat(32)).edges).toEqual([])
    expect(detail(call(node(), refereesPath, {}, { teamId: "xyz" }))).toMatchObject({
      status: 400,
      message: "failed to list team referees",
      inner: "scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
    })
  })
})

describe("GET /api/v2/teams/referees/history/{referee}", () => {
  it("lists every team the party joined, by join epoch", () => {
    const nodes = history(switched[0].party.id, { "pagination.newestFirst": false }).edges.map((e) => e.node)
    expect(nodes.map((n) => n.teamId)).toEqual(switched.map((m) => m.team.id))
    const epochs = nodes.map((n) => n.joinedAtEpoch)
    expect(epochs).toEqual([...epochs].sort((a, b) => (a < b ? -1 : 1)))
    expect(new Set(epochs).size).toBe(epochs.length)
    // the last one is the team the party is listed in
    const latest = history(switched[0].party.id).edges[0].node
    expect(listTeams({ partyId: switched[0].party.id }).edges[0].node.teamId).toBe(latest.teamId)
    const cursor = JSON.parse(cursorJson(history(switched[0].party.id).edges[0].cursor))
    expect(cursor).toEqual({ JoinedAtEpoch: Number(latest.joinedAtEpoch) })
  })

  it("pages, lists a referrer's own team from its creation, and filters by height", () => {
    const all = history(switched[0].party.id).edges.map((e) => e.node.teamId)
    expect(allPages((q) => history(switched[0].party.id, q), 1).map((n) => n.teamId)).toEqual(all)
    const team = teams.teams[0]
    expect(history(team.referrer.id).edges.map((e) => e.node)).toEqual([
      { teamId: team.id, joinedAt: BigInt(team.createdAt) * 1000n, joinedAtEpoch: BigInt(team.createdAtEpoch) }
    ])
    const last = switched[switched.length - 1]
    expect(history(last.party.id, {}, { height: last.from - 1 }).edges.length).toBe(switched.length - 1)
    expect(detail(call(node(), historyPath, {}, { referee: "xyz" }))).toMatchObject({
      status: 400,
      message: "failed to list team referee history"
    })
  })
})

describe("GET /api/v2/teams/stats and /api/v2/teams/{teamId}/stats", () => {
  const current = world.epoch
  const rowsOf = (epochs: number, keep = (_: any) => true) =>
    [...teams.byEpoch.values()].flat().filter((r) => r.epoch > current - epochs && keep(r))

  it("sums the last 10 epochs per team by default, a list entry per row", () => {
    const stats = teamStats({ "pagination.newestFirst": false }).edges.map((e) => e.node)
    const ids = [...new Set(rowsOf(10).map((r) => r.team.id))].sort()
    expect(stats.map((s) => s.teamId)).toEqual(ids)
    for (const s of stats) {
      const rows = rowsOf(10, (r) => r.team.id === s.teamId)
      expect(s.totalQuantumVolume).toBe(rows.reduce((t, r) => t + r.quantumVolume, 0n))
      expect(s.quantumRewards.length).toBe(rows.length)
      expect(s.quantumVolumes.length).toBe(rows.length)
      const epochs = s.quantumVolumes.map((v) => v.epoch)
      expect(epochs).toEqual([...epochs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      expect(s.gamesPlayed).toEqual([...new Set(rows.flatMap((r) => r.games))].sort())
      expect(s.totalGamesPlayed).toBe(BigInt(s.gamesPlayed.length))
    }
  })

  it("matches the members' statistics, and takes the window asked", () => {
    const team = teamStats().edges[0].node
    const members = memberStats(team.teamId).edges.map((e) => e.node)
    expect(members.reduce((t, m) => t + m.totalQuantumVolume, 0n)).toBe(team.totalQuantumVolume)
    const body = (q: Query) => call(node(), membersPath, q, { teamId: team.teamId }).body
    const raw = JSON.parse(call(node(), statsPath, { teamId: team.teamId }).body).statistics.edges[0].node
    const rewards = rowsOf(10, (r) => r.team.id === team.teamId).reduce((t, r) => t + r.quantumReward, 0n)
    expect(raw.totalQuantumRewards).toBe(String(rewards))
    const memberRewards = JSON.parse(body({})).statistics.edges.map((e: any) => BigInt(e.node.totalQuantumRewards))
    expect(memberRewards.reduce((t: bigint, r: bigint) => t + r, 0n)).toBe(rewards)
    expect(body({ aggregationEpochs: 0n })).toBe(body({}))
    const narrow = teamStats({ teamId: team.teamId, aggregationEpochs: 2n }).edges.map((e) => e.node)
    expect(narrow.map((s) => s.teamId)).toEqual([team.teamId])
    expect(narrow[0].quantumVolumes.every((v) => v.epoch > BigInt(current - 2))).toBe(true)
    // the teams' window 0 is empty; the members' is the default
    expect(teamStats({ aggregationEpochs: 0n }).edges).toEqual([])
    const party = members[0].partyId
    expect(memberStats(team.teamId, { partyId: party }).edges.map((e) => e.node.partyId)).toEqual([party])
  })

  it("keeps a switched member's rows under each team it was in", () => {
    const [old, now] = [switched[0], switched[1]]
    const wide = { aggregationEpochs: 100n }
    const inOld = memberStats(old.team.id, { partyId: old.party.id, ...wide }).edges
    const inNew = memberStats(now.team.id, { partyId: now.party.id, ...wide }).edges
    expect(inOld.length + inNew.length).toBeGreaterThan(0)
    for (const e of inOld)
      expect(e.node.quantumVolumes.every((v) => v.epoch < BigInt(now.joinedAtEpoch + 1))).toBe(true)
  })

  it("pages on a correct node; any cursor fails on a v0.75 node", () => {
    const all = teamStats().edges.map((e) => e.node.teamId)
    expect(allPages((q) => teamStats(q), 1).map((n) => n.teamId)).toEqual(all)
    const cursor = teamStats({ "pagination.first": 1 }).edges[0].cursor
    expect(JSON.parse(cursorJson(cursor))).toEqual({ ID: all[0] })
    expect(detail(call(node({ quirks: true }), statsPath, { "pagination.after": cursor }))).toMatchObject({
      status: 500,
      message: "failed to list team statistics",
      inner: "building cursor predicate: no field matching column name team_id"
    })
    const team = all[0]
    const mCursor = memberStats(team, { "pagination.first": 1 }).edges[0].cursor
    expect(
      detail(call(node({ quirks: true }), membersPath, { "pagination.after": mCursor }, { teamId: team }))
    ).toMatchObject({
      status: 500,
      message: "failed to list team referees",
      inner: "building cursor predicate: no field matching column name party_id"
    })
    // the first page is the same on both
    expect(call(node({ quirks: true }), statsPath, { "pagination.first": 1 }).body).toBe(
      call(node(), statsPath, { "pagination.first": 1 }).body
    )
  })

  it("reports a bad cursor before a bad id, as the store reads it first", () => {
    const bad = Buffer.from("{").toString("base64")
    expect(detail(call(node(), statsPath, { teamId: "xyz", "pagination.after": bad }))).toMatchObject({
      status: 500,
      inner: "parsing cursor: parsing cursor: unexpected end of JSON input"
    })
    expect(detail(call(node(), refereesPath, { "pagination.after": bad }, { teamId: "xyz" })).status).toBe(500)
    expect(detail(call(node(), historyPath, { "pagination.after": bad }, { referee: "xyz" })).status).toBe(500)
  })

  it("rejects bad ids", () => {
    expect(detail(call(node(), statsPath, { teamId: "xyz" }))).toMatchObject({
      status: 400,
      message: "failed to list team statistics"
    })
    expect(detail(call(node(), membersPath, {}, { teamId: "xyz" }))).toMatchObject({
      status: 400,
      message: "failed to list team referees"
    })
  })

  it("adds the statistics of each epoch at its last block", () => {
    const w = smallWorld({ scale: { referralSets: 10, refereesPerSet: 6 } })
    const before = w.teams.byEpoch.size
    const epoch = w.epoch
    while (w.epoch === epoch) w.advance(1)
    expect(w.teams.byEpoch.size).toBe(before + 1)
    const last = w.chain.epochLastBlock(epoch)
    const epochsAt = (height: number) =>
      decoded(
        DataNode.ListTeamsStatisticsResponse,
        call(nodeOf(w, { height }), statsPath, { aggregationEpochs: 1n })
      ).statistics.edges.flatMap((e) => e.node.quantumVolumes.map((v) => v.epoch))
    expect(epochsAt(last).every((e) => e === BigInt(epoch))).toBe(true)
    expect(epochsAt(last).length).toBeGreaterThan(0)
    expect(epochsAt(last - 1)).toEqual([])
  })
})
