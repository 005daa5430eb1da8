/**
 * The team routes, as the v0.75.8 data node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/teams.go, datanode/entities/teams.go):
 *
 * - `GET /api/v2/teams` (ListTeams): every team by creation time (the cursor's time alone is read
 *   back), each with its current member count (the referrer included). With `teamId` or `partyId`
 *   (the team the party currently belongs to, as referrer or referee) the store reads one team
 *   and the paging is ignored: one edge and no pages either side, or, when nothing matches,
 *   `{"edges":[],"pageInfo":null}`. Both given: the team id wins; both empty: 500.
 * - `GET /api/v2/teams/referees/{teamId}` (ListTeamReferees): the team's current members but its
 *   referrer, by party id.
 * - `GET /api/v2/teams/referees/history/{referee}` (ListTeamRefereeHistory): every team the party
 *   joined (its own team from creation, for a referrer), by join epoch.
 * - `GET /api/v2/teams/stats` (ListTeamsStatistics) and `GET /api/v2/teams/{teamId}/stats`
 *   (ListTeamMembersStatistics): the `teams_stats` rows of the epochs after the current epoch
 *   less `aggregationEpochs` (default 10; the members' route keeps the default for 0), summed per
 *   team or per member. The per-epoch lists have one entry per row (a team's, one per member and
 *   epoch), ordered by epoch then amount; the games are the distinct game ids in byte order. A
 *   v0.75 node fails on any non-empty cursor: the cursors' `ID` field does not name the ordering
 *   column (`team_id`, `party_id`).
 *
 * Ids that do not decode as hex are 400 with the route's error; the members' statistics report
 * theirs as `failed to list team referees`, as the node does.
 */
import { DataNode, DataNodeApi, Decimal, Encoder, GatewayError } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { base64 } from "../goJson.js"
import { type PageRequest, resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Team, TeamMember, TeamStatsRow } from "../world/teams.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, list } from "./connection.js"
import {
  type CursorSpec,
  readCursor,
  TeamCursor,
  TeamMemberStatisticsCursor,
  TeamRefereeCursor,
  TeamRefereeHistoryCursor,
  TeamsStatisticsCursor,
  writeCursor
} from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encodeTeam = Encoder.stringify(DataNode.Team)
const encodeReferee = Encoder.stringify(DataNode.TeamReferee)
const encodeHistory = Encoder.stringify(DataNode.TeamRefereeHistory)
const encodeTeamStats = Encoder.stringify(DataNode.TeamStatistics)
const encodeMemberStats = Encoder.stringify(DataNode.TeamMemberStatistics)

const nanos = (micros: number): bigint => BigInt(micros) * 1000n
const decimal = (s: string) => Option.getOrThrow(Decimal.parse(s))

/** A query parameter that was given, even empty (the request's optional string is then set). */
const given = (params: Params, name: string): string | undefined =>
  params.query.has(name) ? (str(params, name) ?? "") : undefined

/**
 * A cursor that does not parse. The store builds its query (and reads the cursor) before running
 * it, so this comes before any id that fails to encode when the query runs.
 */
const cursorProblem = (request: PageRequest, spec: CursorSpec, api: GatewayError.ApiError): Reply | undefined => {
  if (request.cursor === undefined) return undefined
  const values = readCursor(spec, request.cursor)
  return "error" in values ? internal(api, badCursor(values.error as string)) : undefined
}

/** Select over bind arguments that do not encode: scany's wrapping of the id's decoding error. */
const selectError = (api: GatewayError.ApiError, value: string): Reply =>
  invalidId(api, `scany: query multiple result rows: ${notHex(value)}`)

// --- ListTeams -------------------------------------------------------------------------------

const teamCursor = (team: Team): string => writeCursor(TeamCursor, [team.createdAt, team.id])

const teamJson = (team: Team, totalMembers: number): string =>
  encodeTeam({
    teamId: team.id,
    referrer: team.referrer.id,
    name: team.name,
    ...(team.teamUrl === undefined ? {} : { teamUrl: team.teamUrl }),
    ...(team.avatarUrl === undefined ? {} : { avatarUrl: team.avatarUrl }),
    createdAt: nanos(team.createdAt),
    closed: team.closed,
    createdAtEpoch: BigInt(team.createdAtEpoch),
    allowList: team.allowList,
    totalMembers: BigInt(totalMembers)
  } as unknown as DataNode.Team)

const memberCounts = (node: NodeView): Map<Team, number> => {
  const counts = new Map<Team, number>()
  for (const m of node.world.teams.currentMembers(node.readableHeight))
    counts.set(m.team, (counts.get(m.team) ?? 0) + 1)
  return counts
}

const listTeams = (params: Params, node: NodeView): Reply => {
  const teamId = given(params, "teamId")
  const partyId = given(params, "partyId")
  const { teams } = node.world
  const height = node.readableHeight
  if (teamId !== undefined || partyId !== undefined) {
    // one team, read with `GetTeam`; the paging parameters are not read at all
    let team: Team | undefined
    if (teamId !== undefined && teamId !== "") {
      const key = storedIdKey(teamId)
      if (key === undefined) return invalidId(ApiErrors.ListTeams, `scany: query one result row: ${notHex(teamId)}`)
      const found = teams.byId.get(key)
      team = found !== undefined && found.from <= height ? found : undefined
    } else if (partyId !== undefined && partyId !== "") {
      const key = storedIdKey(partyId)
      if (key === undefined) return invalidId(ApiErrors.ListTeams, `scany: query one result row: ${notHex(partyId)}`)
      team = teams.currentOf(key, height)?.team
    } else {
      return internal(ApiErrors.ListTeams, "either teamID or partyID must be provided")
    }
    if (team === undefined) return ok(`{"teams":{"edges":[],"pageInfo":null}}`)
    const cursor = base64(teamCursor(team))
    const edge = `{"node":${teamJson(team, memberCounts(node).get(team) ?? 0)},"cursor":"${cursor}"}`
    const pageInfo = `{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"${cursor}","endCursor":"${cursor}"}`
    return ok(`{"teams":{"edges":[${edge}],"pageInfo":${pageInfo}}}`)
  }
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const counts = memberCounts(node)
  const result = list<Team, number>({
    request,
    cursor: TeamCursor,
    keyOf: (v) => v.get("CreatedAt") as number,
    source: arraySource(teams.teamsAt(height), (team, key) => team.createdAt - key, teamCursor),
    nodeJson: (team) => teamJson(team, counts.get(team) ?? 0)
  })
  if ("cursorError" in result) return internal(ApiErrors.ListTeams, badCursor(result.cursorError))
  return ok(`{"teams":${result.json}}`)
}

// --- ListTeamReferees, ListTeamRefereeHistory --------------------------------------------------

const refereeCursor = (m: TeamMember): string => writeCursor(TeamRefereeCursor, [m.party.id])

const refereeJson = cachedJson((m: TeamMember) =>
  encodeReferee({
    teamId: m.team.id,
    referee: m.party.id,
    joinedAt: nanos(m.joinedAt),
    joinedAtEpoch: BigInt(m.joinedAtEpoch)
  } as unknown as DataNode.TeamReferee)
)

const listReferees = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const teamId = params.path.get("teamId") ?? ""
  if (teamId === "") return internal(ApiErrors.ListTeamReferees, "teamID must be provided")
  const unreadable = cursorProblem(request, TeamRefereeCursor, ApiErrors.ListTeamReferees)
  if (unreadable !== undefined) return unreadable
  const key = storedIdKey(teamId)
  if (key === undefined) return selectError(ApiErrors.ListTeamReferees, teamId)
  const rows = node.world.teams
    .currentMembers(node.readableHeight)
    .filter((m) => m.team.id === key && m.party !== m.team.referrer)
  const result = list<TeamMember, string>({
    request,
    cursor: TeamRefereeCursor,
    keyOf: (v) => storedIdKey(v.get("PartyID") as string) ?? "",
    source: arraySource(rows, (m, k: string) => compareStrings(m.party.id, k), refereeCursor),
    nodeJson: refereeJson
  })
  if ("cursorError" in result) return internal(ApiErrors.ListTeamReferees, badCursor(result.cursorError))
  return ok(`{"teamReferees":${result.json}}`)
}

const historyCursor = (m: TeamMember): string => writeCursor(TeamRefereeHistoryCursor, [m.joinedAtEpoch])

const historyJson = cachedJson((m: TeamMember) =>
  encodeHistory({
    teamId: m.team.id,
    joinedAt: nanos(m.joinedAt),
    joinedAtEpoch: BigInt(m.joinedAtEpoch)
  } as unknown as DataNode.TeamRefereeHistory)
)

const listHistory = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const referee = params.path.get("referee") ?? ""
  if (referee === "") return internal(ApiErrors.ListTeamRefereeHistory, "referee must be provided")
  const unreadable = cursorProblem(request, TeamRefereeHistoryCursor, ApiErrors.ListTeamRefereeHistory)
  if (unreadable !== undefined) return unreadable
  const key = storedIdKey(referee)
  if (key === undefined) return selectError(ApiErrors.ListTeamRefereeHistory, referee)
  const height = node.readableHeight
  const rows = (node.world.teams.byParty.get(key) ?? []).filter((m) => m.from <= height)
  const result = list<TeamMember, number>({
    request,
    cursor: TeamRefereeHistoryCursor,
    keyOf: (v) => v.get("JoinedAtEpoch") as number,
    source: arraySource(rows, (m, k: number) => m.joinedAtEpoch - k, historyCursor),
    nodeJson: historyJson
  })
  if ("cursorError" in result) return internal(ApiErrors.ListTeamRefereeHistory, badCursor(result.cursorError))
  return ok(`{"teamRefereeHistory":${result.json}}`)
}

// --- ListTeamsStatistics, ListTeamMembersStatistics ------------------------------------------

/** Sums of `teams_stats` rows (one team's, or one member's in one team). */
interface Aggregate {
  /** Team id or party id. */
  readonly id: string
  readonly rows: Array<TeamStatsRow>
}

/** The rows of the aggregation window at the node's height: `at_epoch > MAX(epochs.id) - n`. */
const windowRows = (node: NodeView, epochs: bigint, keep: (row: TeamStatsRow) => boolean): Array<TeamStatsRow> => {
  const height = node.readableHeight
  const after = BigInt(node.world.chain.epochOf(height)) - epochs
  const rows: Array<TeamStatsRow> = []
  for (const [epoch, epochRows] of node.world.teams.byEpoch) {
    if (BigInt(epoch) <= after) continue
    for (const row of epochRows) if (row.from <= height && keep(row)) rows.push(row)
  }
  return rows
}

const group = (rows: ReadonlyArray<TeamStatsRow>, idOf: (row: TeamStatsRow) => string): Array<Aggregate> => {
  const byId = new Map<string, Array<TeamStatsRow>>()
  for (const row of rows) {
    const id = idOf(row)
    const list = byId.get(id)
    if (list === undefined) byId.set(id, [row])
    else list.push(row)
  }
  return [...byId].map(([id, rows]) => ({ id, rows })).sort((a, b) => compareStrings(a.id, b.id))
}

const compareBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)

/** The figures both statistics share, in the node's JSON shape. */
const figures = (agg: Aggregate) => {
  const rewards = agg.rows
    .map((r) => ({ epoch: r.epoch, total: r.quantumReward }))
    .sort((a, b) => a.epoch - b.epoch || compareBig(a.total, b.total))
  const volumes = agg.rows
    .map((r) => ({ epoch: r.epoch, total: r.quantumVolume }))
    .sort((a, b) => a.epoch - b.epoch || compareBig(a.total, b.total))
  const games = [...new Set(agg.rows.flatMap((r) => r.games))].sort(compareStrings)
  return {
    totalQuantumVolume: volumes.reduce((s, v) => s + v.total, 0n),
    totalQuantumRewards: decimal(String(rewards.reduce((s, r) => s + r.total, 0n))),
    quantumRewards: rewards.map((r) => ({
      epoch: BigInt(r.epoch),
      totalQuantumRewards: decimal(String(r.total))
    })),
    totalGamesPlayed: BigInt(games.length),
    gamesPlayed: games,
    quantumVolumes: volumes.map((v) => ({ epoch: BigInt(v.epoch), totalQuantumVolumes: v.total }))
  }
}

/**
 * The statistics' cursor problems, found while the query is built: one that does not parse, or,
 * on a v0.75 node, any cursor that is not the empty struct (its field does not name the ordering
 * column).
 */
const statsCursorProblem = (
  node: NodeView,
  request: PageRequest,
  spec: CursorSpec,
  column: string,
  api: GatewayError.ApiError
): Reply | undefined => {
  if (request.cursor === undefined) return undefined
  const values = readCursor(spec, request.cursor)
  if ("error" in values) return internal(api, badCursor(values.error as string))
  if (node.quirks && values.get("ID") !== "") {
    return internal(api, `building cursor predicate: no field matching column name ${column}`)
  }
  return undefined
}

/** Pages aggregates by id (a correct node's paging). */
const pageAggregates = (
  request: PageRequest,
  spec: CursorSpec,
  api: GatewayError.ApiError,
  aggregates: ReadonlyArray<Aggregate>,
  nodeJson: (agg: Aggregate) => string
): Reply => {
  const cursorOf = (agg: Aggregate) => writeCursor(spec, [agg.id])
  const result = list<Aggregate, string>({
    request,
    cursor: spec,
    keyOf: (v) => storedIdKey(v.get("ID") as string) ?? "",
    source: arraySource(aggregates, (agg, k: string) => compareStrings(agg.id, k), cursorOf),
    nodeJson
  })
  if ("cursorError" in result) return internal(api, badCursor(result.cursorError))
  return ok(`{"statistics":${result.json}}`)
}

const DEFAULT_AGGREGATION_EPOCHS = 10n

const listTeamsStatistics = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const problem = statsCursorProblem(node, request, TeamsStatisticsCursor, "team_id", ApiErrors.ListTeamStatistics)
  if (problem !== undefined) return problem
  const teamId = given(params, "teamId")
  let team: string | undefined
  if (teamId !== undefined) {
    team = storedIdKey(teamId)
    if (team === undefined) return selectError(ApiErrors.ListTeamStatistics, teamId)
  }
  const epochs = int64(params, "aggregationEpochs") ?? DEFAULT_AGGREGATION_EPOCHS
  const rows = windowRows(node, epochs, (row) => team === undefined || row.team.id === team)
  const aggregates = group(rows, (row) => row.team.id)
  return pageAggregates(request, TeamsStatisticsCursor, ApiErrors.ListTeamStatistics, aggregates, (agg) =>
    encodeTeamStats({ teamId: agg.id, ...figures(agg) } as unknown as DataNode.TeamStatistics)
  )
}

const listMembersStatistics = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const problem = statsCursorProblem(node, request, TeamMemberStatisticsCursor, "party_id", ApiErrors.ListTeamReferees)
  if (problem !== undefined) return problem
  const teamId = params.path.get("teamId") ?? ""
  const team = storedIdKey(teamId)
  if (team === undefined) return selectError(ApiErrors.ListTeamReferees, teamId)
  const partyId = given(params, "partyId")
  let party: string | undefined
  if (partyId !== undefined) {
    party = storedIdKey(partyId)
    if (party === undefined) return selectError(ApiErrors.ListTeamReferees, partyId)
  }
  const asked = int64(params, "aggregationEpochs")
  const epochs = asked !== undefined && asked > 0n ? asked : DEFAULT_AGGREGATION_EPOCHS
  const rows = windowRows(
    node,
    epochs,
    (row) => row.team.id === team && (party === undefined || row.party.id === party)
  )
  const aggregates = group(rows, (row) => row.party.id)
  return pageAggregates(request, TeamMemberStatisticsCursor, ApiErrors.ListTeamReferees, aggregates, (agg) =>
    encodeMemberStats({ partyId: agg.id, ...figures(agg) } as unknown as DataNode.TeamMemberStatistics)
  )
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListTeams.method,
    path: DataNodeApi.ListTeams.path,
    params: [param("teamId", "string"), param("partyId", "string"), ...paginationParams],
    handle: listTeams
  },
  {
    method: DataNodeApi.ListTeamReferees.method,
    path: DataNodeApi.ListTeamReferees.path,
    params: [...paginationParams],
    handle: listReferees
  },
  {
    method: DataNodeApi.ListTeamRefereeHistory.method,
    path: DataNodeApi.ListTeamRefereeHistory.path,
    params: [...paginationParams],
    handle: listHistory
  },
  {
    method: DataNodeApi.ListTeamsStatistics.method,
    path: DataNodeApi.ListTeamsStatistics.path,
    params: [param("teamId", "string"), param("aggregationEpochs", "uint64"), ...paginationParams],
    handle: listTeamsStatistics
  },
  {
    method: DataNodeApi.ListTeamMembersStatistics.method,
    path: DataNodeApi.ListTeamMembersStatistics.path,
    params: [param("partyId", "string"), param("aggregationEpochs", "uint64"), ...paginationParams],
    handle: listMembersStatistics
  }
]
