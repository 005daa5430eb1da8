/**
 * Teams: referral sets created as teams (`isTeam`), their members as they join and switch, and the
 * per-epoch statistics the node keeps for each member (`teams_stats`).
 *
 * A share of the world's referral sets are teams; a team's id is its set's id and its referrer the
 * set's. The referrer is a member from the team's creation (datanode/sqlstore/teams.go, v0.75.8:
 * `AddTeam` writes the referrer as the first member). Each referee of the set joins at a block of
 * its own after the creation; a referee of several teams joins each in turn, and a few referees
 * later switch to another open team. A party's current team is its latest membership.
 *
 * Three games (recurring reward transfers with a dispatch strategy: two scoped to teams, one to
 * individuals) are each played in most epochs: at the epoch's last block a team game pays some of
 * the teams' current members, the individual game a few parties, each payee's running total in
 * the game kept as the node keeps it (`game_reward_totals`).
 *
 * Statistics are written at the end of each epoch for the members of each team at that block: the
 * notional volume core reports for the epoch (`TeamsStatsUpdated`) and the quantum rewards of the
 * team games the member was paid by (the node's trigger on `rewards`, migration
 * 0098_fix_team_stats.sql, adds a team game reward's quantum amount and game id to the row).
 *
 * Simplified: volumes and game payouts come from the teams' own random streams, not from the
 * world's trades and reward rows (the reward rows `GET /api/v2/rewards` serves have no games).
 */
import type { Random } from "../random.js"
import type { AssetInfo, Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { ReferralSet } from "./referrals.js"
import { compareStrings } from "./versioned.js"

export interface Team {
  /** The referral set's id. */
  readonly id: string
  readonly referrer: Party
  readonly name: string
  readonly teamUrl: string | undefined
  readonly avatarUrl: string | undefined
  readonly closed: boolean
  readonly allowList: ReadonlyArray<string>
  /** The block that created the team. */
  readonly from: number
  /** Block time of creation, unix µs. */
  readonly createdAt: number
  readonly createdAtEpoch: number
}

/** One row of `team_members`: a party joining a team (the referrer at creation, a referee later). */
export interface TeamMember {
  readonly team: Team
  readonly party: Party
  readonly from: number
  /** Block time of the join, unix µs. */
  readonly joinedAt: number
  readonly joinedAtEpoch: number
}

export type EntityScope = "ENTITY_SCOPE_TEAMS" | "ENTITY_SCOPE_INDIVIDUALS"

/**
 * A game: a recurring reward transfer with a dispatch strategy, known by the strategy's hash,
 * paying teams' members or individuals in its asset each epoch it is played.
 */
export interface Game {
  readonly id: string
  readonly scope: EntityScope
  readonly metric: string
  readonly asset: AssetInfo
}

/** One game reward: a row of `rewards` with a game id, and the payee's running total in the game. */
export interface GamePayout {
  /** The block that closed the epoch and paid it. */
  readonly from: number
  readonly epoch: number
  readonly game: Game
  readonly party: Party
  /** The payee's team when paid (team games only). */
  readonly team: Team | undefined
  readonly amount: bigint
  readonly quantumAmount: bigint
  /** The payee's total in this game so far, this payout included (`game_reward_totals`). */
  readonly totalRewards: bigint
  readonly totalRewardsQuantum: bigint
}

/** One row of `teams_stats`: a member's figures for one epoch. */
export interface TeamStatsRow {
  /** The block that closed the epoch. */
  readonly from: number
  readonly epoch: number
  readonly team: Team
  readonly party: Party
  readonly quantumVolume: bigint
  readonly quantumReward: bigint
  /** Ids of the games that paid the member this epoch, in byte order. */
  readonly games: ReadonlyArray<string>
}

/** The per-block stream of the epoch statistics (drawn at each epoch's last block). */
export const TEAM_STATS_STREAM = 220

const METRICS = [
  "DISPATCH_METRIC_MAKER_FEES_PAID",
  "DISPATCH_METRIC_MAKER_FEES_RECEIVED",
  "DISPATCH_METRIC_AVERAGE_POSITION",
  "DISPATCH_METRIC_RELATIVE_RETURN"
]

const NAMES = ["Falcons", "Otters", "Comets", "Lynx", "Tides", "Ravens", "Atlas", "Embers", "Quasar", "Nomads"]

const byParty = (a: TeamMember, b: TeamMember) => compareStrings(a.party.id, b.party.id)

export class Teams {
  /** Teams in base order: creation time, then id. */
  readonly teams: Array<Team> = []
  readonly byId = new Map<string, Team>()
  /** Every membership in join order (height). */
  readonly members: Array<TeamMember> = []
  /** Memberships of each party, in join order. */
  readonly byParty = new Map<string, Array<TeamMember>>()
  /** The games, by id: two for teams, one for individuals. */
  readonly games: Array<Game> = []
  /** Statistics by epoch, each list by team id then party id. */
  readonly byEpoch = new Map<number, Array<TeamStatsRow>>()
  /** Game rewards by epoch, each list by game id then party id. */
  readonly payouts = new Map<number, Array<GamePayout>>()
  /** game id → party id → running totals (amount, quantum). */
  private readonly totals = new Map<string, Map<string, readonly [bigint, bigint]>>()

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain
  ) {}

  /**
   * Picks the teams among `sets` and their members up to `height` (from `random`), and switches a
   * few referees to other teams (from `switches`).
   */
  generate(random: Random, switches: Random, sets: ReadonlyArray<ReferralSet>, height: number, share = 0.6): void {
    if (height < 4) return
    const referrers = new Set(sets.map((s) => s.referrer.id))
    const joins: Array<{ readonly team: Team; readonly party: Party; readonly from: number }> = []
    for (const set of sets) {
      if (!random.chance(share)) continue
      const from = 2 + random.int(Math.max(1, Math.floor(height / 2)))
      const closed = random.chance(0.25)
      const name = `${random.pick(NAMES)} ${this.teams.length + 1}`
      const slug = name.toLowerCase().replace(" ", "-")
      const team: Team = {
        id: set.id,
        referrer: set.referrer,
        name,
        teamUrl: random.chance(0.7) ? `https://teams.example/${slug}` : undefined,
        avatarUrl: random.chance(0.5) ? `https://teams.example/${slug}.png` : undefined,
        closed,
        allowList: closed ? set.referees.map((p) => p.id) : [],
        from,
        createdAt: this.chain.blockTime(from),
        createdAtEpoch: this.chain.epochOf(from)
      }
      this.teams.push(team)
      this.byId.set(team.id, team)
      joins.push({ team, party: set.referrer, from })
      for (const party of set.referees) {
        if (referrers.has(party.id)) continue
        joins.push({ team, party, from: from + 1 + random.int(height - from) })
      }
    }
    this.teams.sort((a, b) => a.createdAt - b.createdAt || compareStrings(a.id, b.id))
    const open = this.teams.filter((t) => !t.closed)
    if (open.length > 0) {
      for (const join of [...joins]) {
        if (join.party === join.team.referrer || join.from >= height || !switches.chance(0.15)) continue
        const team = switches.pick(open)
        if (team === join.team) continue
        joins.push({ team, party: join.party, from: join.from + 1 + switches.int(height - join.from) })
      }
    }
    joins.sort(
      (a, b) => a.from - b.from || compareStrings(a.party.id, b.party.id) || compareStrings(a.team.id, b.team.id)
    )
    for (const join of joins) this.join(join.team, join.party, join.from)
    const assets = this.catalog.assets.length > 1 ? this.catalog.assets.slice(1) : this.catalog.assets
    for (const scope of ["ENTITY_SCOPE_TEAMS", "ENTITY_SCOPE_TEAMS", "ENTITY_SCOPE_INDIVIDUALS"] as const) {
      this.games.push({ id: random.hex(32), scope, metric: random.pick(METRICS), asset: random.pick(assets) })
    }
    this.games.sort((a, b) => compareStrings(a.id, b.id))
  }

  /**
   * Adds a membership, unless the party already joined a team in that epoch (the node picks a
   * party's current team by the latest join epoch, so the model keeps one join per epoch) or is
   * already in that team.
   */
  private join(team: Team, party: Party, from: number): void {
    const epoch = this.chain.epochOf(from)
    const history = this.byParty.get(party.id) ?? []
    const last = history[history.length - 1]
    if (last !== undefined && (last.joinedAtEpoch >= epoch || last.team === team)) return
    const member: TeamMember = { team, party, from, joinedAt: this.chain.blockTime(from), joinedAtEpoch: epoch }
    history.push(member)
    this.byParty.set(party.id, history)
    this.members.push(member)
  }

  /** The party's team membership at `height`: its latest join visible then. */
  currentOf(partyId: string, height: number): TeamMember | undefined {
    const history = this.byParty.get(partyId)
    if (history === undefined) return undefined
    for (let i = history.length - 1; i >= 0; i--) if (history[i].from <= height) return history[i]
    return undefined
  }

  /** The current members of every team at `height` (`current_team_members`), by party id. */
  currentMembers(height: number): Array<TeamMember> {
    const out: Array<TeamMember> = []
    for (const party of this.byParty.keys()) {
      const current = this.currentOf(party, height)
      if (current !== undefined) out.push(current)
    }
    return out.sort(byParty)
  }

  /** The teams that exist at `height`, in base order. */
  teamsAt(height: number): Array<Team> {
    return this.teams.filter((t) => t.from <= height)
  }

  /**
   * Pays the games played in `epoch` and writes its statistics at its last block: team games pay
   * some of the teams' current members, the individual game some parties; every member of a team
   * gets a statistics row, with the volume core reports and the team games' rewards.
   */
  close(random: Random, epoch: number): void {
    const from = this.chain.epochLastBlock(epoch)
    const members = this.currentMembers(from)
    const payouts: Array<GamePayout> = []
    const pay = (game: Game, party: Party, team: Team | undefined) => {
      const quantumAmount = BigInt(1 + random.int(5_000))
      const amount = quantumAmount * BigInt(game.asset.quantum)
      let byParty = this.totals.get(game.id)
      if (byParty === undefined) {
        byParty = new Map()
        this.totals.set(game.id, byParty)
      }
      const [total, totalQuantum] = byParty.get(party.id) ?? [0n, 0n]
      byParty.set(party.id, [total + amount, totalQuantum + quantumAmount])
      payouts.push({
        from,
        epoch,
        game,
        party,
        team,
        amount,
        quantumAmount,
        totalRewards: total + amount,
        totalRewardsQuantum: totalQuantum + quantumAmount
      })
    }
    const parties = this.catalog.parties.slice(1)
    for (const game of this.games) {
      if (!random.chance(0.7)) continue
      if (game.scope === "ENTITY_SCOPE_TEAMS") {
        for (const member of members) if (random.chance(0.5)) pay(game, member.party, member.team)
      } else if (parties.length > 0) {
        const paid = new Set<Party>()
        for (let i = 0; i < 6; i++) paid.add(random.pick(parties))
        for (const party of [...paid].sort((a, b) => compareStrings(a.id, b.id))) pay(game, party, undefined)
      }
    }
    payouts.sort((a, b) => compareStrings(a.game.id, b.game.id) || compareStrings(a.party.id, b.party.id))
    this.payouts.set(epoch, payouts)
    const teamPaid = new Map<Party, Array<GamePayout>>()
    for (const p of payouts) if (p.team !== undefined) teamPaid.set(p.party, [...(teamPaid.get(p.party) ?? []), p])
    const rows: Array<TeamStatsRow> = []
    for (const member of members) {
      const quantumVolume = random.chance(0.3) ? 0n : BigInt(1 + random.int(2_000_000)) * 1_000n
      const paid = teamPaid.get(member.party) ?? []
      const quantumReward = paid.reduce((sum, p) => sum + p.quantumAmount, 0n)
      const games = paid.map((p) => p.game.id)
      rows.push({ from, epoch, team: member.team, party: member.party, quantumVolume, quantumReward, games })
    }
    rows.sort((a, b) => compareStrings(a.team.id, b.team.id) || compareStrings(a.party.id, b.party.id))
    this.byEpoch.set(epoch, rows)
  }
}
