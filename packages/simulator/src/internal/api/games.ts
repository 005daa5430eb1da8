/**
 * `GET /api/v2/games` (ListGames), as the v0.75.8 data node answers it
 * (datanode/api/trading_data_v2.go, datanode/sqlstore/games.go, datanode/entities/game.go, the
 * `game_stats` views of migration 0092 and the rankings of 0090).
 *
 * A game is a (game id, epoch) with rewards. Without `epochFrom` and `epochTo` the store reads
 * each game's latest epoch only; with them at most 30 epochs (`epochFrom` alone: it and the next
 * 29; `epochTo` alone: it and the 29 before, in uint64 arithmetic; both more than 30 apart: the
 * last 30), filtering on the epochs only when both ends are above 0. The filters (`gameId`,
 * `entityScope`, `teamId` unless the scope is individuals, `partyId`) pick the games; each game
 * then carries all its rewards. The games are picked by `epoch_id, game_id DESC` (reversed when
 * newest first, the default) with the cursor's `EpochID` and `GameID`, then always listed epoch
 * descending and id ascending before the page is cut, so oldest-first pages come back re-sorted;
 * backward paging is 500.
 *
 * Each game lists its teams (ranked by their members' running totals in quantum, then by id),
 * each with its paid members (ranked within the team, then by id), or, with no team, its
 * individuals; `participants` counts the rewards, `volume` is always `0`.
 *
 * Simplified: a team member's reward is listed under the team it was in when paid. The node's
 * `game_stats` view joins the party's memberships as of its last refresh instead: every team it
 * ever joined at v0.75.8 (migration 0092), its current team from migration 0105 on; a party that
 * switched teams after a payout can then sit in a team with no ranking, which the store reports
 * as an error. The games' rewards are not rows of `GET /api/v2/rewards`.
 */
import { Commands, DataNode, DataNodeApi, Decimal, Encoder, GatewayError } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { pageInOrder, resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Game, GamePayout, Team } from "../world/teams.js"
import { compareStrings } from "../world/versioned.js"
import { connectionJson } from "./connection.js"
import { GameCursor, readCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encodeGame = Encoder.stringify(DataNode.Game)
const ZERO = Option.getOrThrow(Decimal.parse("0"))

const U64 = 1n << 64n
const wrap = (n: bigint): bigint => ((n % U64) + U64) % U64
const MAX_INT64 = (1n << 63n) - 1n

/** `parseEpochs`: the epoch span the store reads, in uint64 arithmetic. */
const epochSpan = (from: bigint | undefined, to: bigint | undefined): readonly [bigint, bigint] => {
  if (from !== undefined && to === undefined) return [from, wrap(from + 29n)]
  if (from === undefined && to !== undefined) return [wrap(to - 29n), to]
  if (from !== undefined && to !== undefined) return wrap(to - from) > 30n ? [wrap(to - 29n), to] : [from, to]
  return [0n, 0n]
}

interface GameKey {
  readonly epoch: number
  readonly game: string
}

interface GameRow {
  readonly game: Game
  readonly epoch: number
  readonly payouts: ReadonlyArray<GamePayout>
}

const gameCursor = (row: GameRow): string => writeCursor(GameCursor, [row.epoch, row.game.id])

/** SQL `RANK()` over values descending: ties share a rank, the next rank skips. */
const ranks = <T>(items: ReadonlyArray<T>, value: (t: T) => bigint): Map<T, number> => {
  const sorted = [...items].sort((a, b) => (value(b) > value(a) ? 1 : value(b) < value(a) ? -1 : 0))
  const out = new Map<T, number>()
  sorted.forEach((item, i) => {
    const prev = sorted[i - 1]
    out.set(item, prev !== undefined && value(prev) === value(item) ? out.get(prev)! : i + 1)
  })
  return out
}

const individualOf = (p: GamePayout, rank: number) => ({
  individual: p.party.id,
  rank: BigInt(rank),
  volume: ZERO,
  rewardMetric: p.game.metric,
  rewardEarned: p.amount,
  totalRewardsEarned: p.totalRewards,
  rewardEarnedQuantum: p.quantumAmount,
  totalRewardsEarnedQuantum: p.totalRewardsQuantum
})

const byRankThenId = (a: { rank: bigint; id: string }, b: { rank: bigint; id: string }) =>
  a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : compareStrings(a.id, b.id)

const gameJson = (row: GameRow): string => {
  const teamPayouts = row.payouts.filter((p) => p.team !== undefined)
  const loners = row.payouts.filter((p) => p.team === undefined)
  let entities: object
  if (teamPayouts.length > 0) {
    const byTeam = new Map<Team, Array<GamePayout>>()
    for (const p of teamPayouts) byTeam.set(p.team!, [...(byTeam.get(p.team!) ?? []), p])
    const teams = [...byTeam.keys()]
    const teamTotal = (t: Team) => byTeam.get(t)!.reduce((s, p) => s + p.totalRewardsQuantum, 0n)
    const teamRanks = ranks(teams, teamTotal)
    const teamEntities = teams.map((team) => {
      const paid = byTeam.get(team)!
      const memberRanks = ranks(paid, (p) => p.totalRewardsQuantum)
      const members = paid
        .map((p) => ({ rank: BigInt(memberRanks.get(p)!), id: p.party.id, p }))
        .sort(byRankThenId)
        .map((m) => individualOf(m.p, Number(m.rank)))
      const sum = (f: (p: GamePayout) => bigint) => paid.reduce((s, p) => s + f(p), 0n)
      return {
        rank: BigInt(teamRanks.get(team)!),
        id: team.id,
        entity: {
          team: { teamId: team.id, membersParticipating: members },
          rank: BigInt(teamRanks.get(team)!),
          volume: ZERO,
          rewardMetric: paid[0].game.metric,
          rewardEarned: sum((p) => p.amount),
          totalRewardsEarned: sum((p) => p.totalRewards),
          rewardEarnedQuantum: sum((p) => p.quantumAmount),
          totalRewardsEarnedQuantum: sum((p) => p.totalRewardsQuantum)
        }
      }
    })
    entities = { team: { team: teamEntities.sort(byRankThenId).map((t) => t.entity) } }
  } else {
    const lonerRanks = ranks(loners, (p) => p.totalRewardsQuantum)
    const individuals = loners
      .map((p) => ({ rank: BigInt(lonerRanks.get(p)!), id: p.party.id, p }))
      .sort(byRankThenId)
      .map((m) => individualOf(m.p, Number(m.rank)))
    entities = { individual: { individual: individuals } }
  }
  return encodeGame({
    id: row.game.id,
    epoch: BigInt(row.epoch),
    participants: BigInt(row.payouts.length),
    ...entities,
    rewardAssetId: row.game.asset.id
  } as unknown as DataNode.Game)
}

const handle = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  if (!request.forward) return internal(ApiErrors.ListGames, "backward pagination is not currently supported")
  // the store reads the cursor while building its query, before binding (encoding) the filters
  let cursorKey: GameKey | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(GameCursor, request.cursor)
    if ("error" in values) return internal(ApiErrors.ListGames, badCursor(values.error as string))
    const epoch = values.get("EpochID") as number
    const id = values.get("GameID") as string
    // an empty cursor struct adds no predicate
    if (epoch !== 0 || id !== "") cursorKey = { epoch, game: storedIdKey(id) ?? id }
  }

  const gameId = str(params, "gameId")
  const teamId = str(params, "teamId")
  const partyId = str(params, "partyId")
  const scope = params.query.get("entityScope") as string | undefined
  const [from, to] = epochSpan(int64(params, "epochFrom"), int64(params, "epochTo"))
  const current = from === 0n && to === 0n
  const byEpoch = from > 0n && to > 0n
  // a span end past int64 does not bind to the bigint column: pgx's range error (inferred text)
  if (byEpoch && (from > MAX_INT64 || to > MAX_INT64)) {
    const big = from > MAX_INT64 ? from : to
    return internal(
      ApiErrors.ListGames,
      `scany: query multiple result rows: ${big} is greater than maximum value for Int8`
    )
  }
  const keyOf = (value: string | undefined) => (value === undefined ? undefined : storedIdKey(value))
  const game = keyOf(gameId)
  const team = keyOf(teamId)
  const party = keyOf(partyId)
  for (const [given, key] of [
    [gameId, game],
    [teamId, team],
    [partyId, party]
  ] as const) {
    if (given !== undefined && key === undefined) {
      return invalidId(ApiErrors.ListGames, `scany: query multiple result rows: ${notHex(given)}`)
    }
  }
  // the cursor's game id binds last
  if (cursorKey !== undefined && cursorKey.game !== "" && storedIdKey(cursorKey.game) === undefined) {
    return invalidId(ApiErrors.ListGames, `scany: query multiple result rows: ${notHex(cursorKey.game)}`)
  }
  // the rewards of every game and epoch visible at the node's height
  const height = node.readableHeight
  const all: Array<GamePayout> = []
  for (const payouts of node.world.teams.payouts.values()) for (const p of payouts) if (p.from <= height) all.push(p)
  const latest = new Map<string, number>()
  for (const p of all) latest.set(p.game.id, Math.max(latest.get(p.game.id) ?? 0, p.epoch))
  const table = current ? all.filter((p) => latest.get(p.game.id) === p.epoch) : all

  // the games the filters pick, in the paging query's order
  const picked = new Map<string, GameKey>()
  for (const p of table) {
    if (byEpoch && (BigInt(p.epoch) < from || BigInt(p.epoch) > to)) continue
    if (game !== undefined && p.game.id !== game) continue
    if (scope !== undefined && p.game.scope !== scope) continue
    if (team !== undefined && (scope === undefined || scope === "ENTITY_SCOPE_TEAMS") && p.team?.id !== team) continue
    if (party !== undefined && p.party.id !== party) continue
    picked.set(`${p.epoch}/${p.game.id}`, { epoch: p.epoch, game: p.game.id })
  }
  // base order epoch_id ASC, game_id DESC; newest first reverses it
  const descending = request.newestFirst
  const compare = (a: GameKey, b: GameKey) => {
    const c = a.epoch - b.epoch || -compareStrings(a.game, b.game)
    return descending ? -c : c
  }
  let keys = [...picked.values()].sort(compare)
  if (cursorKey !== undefined) keys = keys.filter((k) => compare(k, cursorKey) >= 0)
  const hasCursor = request.cursor !== undefined
  keys = keys.slice(0, request.limit + (hasCursor ? 2 : 1))

  // every reward of the picked games, listed epoch descending then id ascending
  const wanted = new Map(keys.map((k) => [`${k.epoch}/${k.game}`, [] as Array<GamePayout>]))
  for (const p of table) wanted.get(`${p.epoch}/${p.game.id}`)?.push(p)
  const games = keys
    .map((k): GameRow => {
      const payouts = wanted.get(`${k.epoch}/${k.game}`)!
      return { game: payouts[0].game, epoch: k.epoch, payouts }
    })
    .sort((a, b) => b.epoch - a.epoch || compareStrings(a.game.id, b.game.id))
  const result = pageInOrder(games, request, hasCursor, gameCursor)
  const json = connectionJson(result.rows, gameJson, gameCursor, result.hasNextPage, result.hasPreviousPage)
  return ok(`{"games":${json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListGames.method,
  path: DataNodeApi.ListGames.path,
  params: [
    param("gameId", "string"),
    param("epochFrom", "uint64"),
    param("epochTo", "uint64"),
    enumParam("entityScope", Commands.EntityScope.values),
    param("teamId", "string"),
    param("partyId", "string"),
    ...paginationParams
  ],
  handle
}
