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
 * Statistics are written at the end of each epoch for the members of each team at that block: the
 * notional volume core reports for the epoch (`TeamsStatsUpdated`) and the quantum rewards of the
 * team games the member was paid by (the node's trigger on `rewards`, migration
 * 0098_fix_team_stats.sql, adds a reward's quantum amount and game id to the row).
 *
 * Simplified: volumes and game payouts come from the teams' own random streams, not from the
 * world's trades and reward rows (the reward rows `GET /api/v2/rewards` serves have no games).
 */
import type { Random } from "../random.js"
import type { Party } from "./catalog.js"
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

/** A team game: a recurring reward transfer scoped to teams, known by its dispatch strategy's hash. */
export interface TeamGame {
  readonly id: string
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
  readonly games: Array<TeamGame> = []
  /** Statistics by epoch, each list by team id then party id. */
  readonly byEpoch = new Map<number, Array<TeamStatsRow>>()

  constructor(private readonly chain: Chain) {}

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
    for (let i = 0; i < 3; i++) this.games.push({ id: random.hex(32) })
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
   * Writes the statistics of `epoch` at its last block: every member of a team then gets a row,
   * with the volume core reports and the rewards of the team games that paid it.
   */
  close(random: Random, epoch: number): void {
    const from = this.chain.epochLastBlock(epoch)
    const rows: Array<TeamStatsRow> = []
    const played = this.games.filter(() => random.chance(0.7))
    for (const member of this.currentMembers(from)) {
      const quantumVolume = random.chance(0.3) ? 0n : BigInt(1 + random.int(2_000_000)) * 1_000n
      let quantumReward = 0n
      const games: Array<string> = []
      for (const game of played) {
        if (!random.chance(0.5)) continue
        quantumReward += BigInt(1 + random.int(5_000))
        games.push(game.id)
      }
      rows.push({ from, epoch, team: member.team, party: member.party, quantumVolume, quantumReward, games })
    }
    rows.sort((a, b) => compareStrings(a.team.id, b.team.id) || compareStrings(a.party.id, b.party.id))
    this.byEpoch.set(epoch, rows)
  }
}
