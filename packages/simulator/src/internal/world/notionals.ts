/**
 * Time-weighted notional positions (`time_weighted_notional_positions`): what core's market
 * activity tracker reports for the reward games that require one.
 *
 * Core (`core/execution/common/market_activity_tracker.go`, v0.75.8) keeps, per market and party,
 * the notional of the party's position (`|open volume| × price / 10^positionDecimals`, the price in
 * asset decimals, truncated to an integer), updated each time the position changes: the running
 * value becomes `(running × (S − w) + previous notional × w) / S`, with `S = 10^7`,
 * `w = S × seconds since the last change / seconds since the epoch started` (each count of seconds
 * truncated, `w` by integer division, 0 when the epoch is 0 s old), and the running value starts
 * at 0 when the party first has a position. At an epoch's end every entry is brought up to the
 * end time the same way. When the epoch's reward games are paid, a game whose dispatch strategy
 * has a notional requirement checks each party in its scope: it sums the party's running values
 * over the markets of the game's asset and sends the sum (`TimeWeightedNotionalPositionUpdated`,
 * the ending epoch, the game id); the node keeps one row per asset, party, game and epoch, stamped
 * with the epoch's last block. A game for individuals (scope `INDIVIDUAL_SCOPE_ALL` here) checks
 * every party that ever had a position in one of those markets (the network party too), a team
 * game every current team member (zero when it has no position).
 *
 * Here the games with a notional requirement are drawn from a stream of their own (the individual
 * game always has one, each team game by chance); nothing the games already answer changes (the
 * requirement is not part of any game route's answer). The model replays a party's position
 * versions: a version that changes the open volume is a change; its price is the market's mark
 * price at that block (core takes the trade's price). An epoch starts at the block that ended the
 * one before (epoch 1 at block 1). A team game's scope is every current member because the
 * world's `rewards.team.minEpochsInTeam` is 0 (testnet's value; `core/teams/engine.go`
 * `GetTeamMembers`, v0.75.8); the model does not read the parameter if a proposal changes it.
 * Simplified: payouts are not filtered by the requirement.
 */
import type { Random } from "../random.js"
import type { AssetInfo, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { PositionRow, Positions } from "./positions.js"
import type { Game, Teams } from "./teams.js"

/** Core's scaling factor for time weights. */
const SCALE = 10_000_000n

/** One row of the node's table. */
export interface NotionalRow {
  readonly epoch: number
  readonly asset: AssetInfo
  readonly party: Party
  readonly game: Game
  readonly notional: bigint
  /** The block of the epoch's end (`vega_time`). */
  readonly from: number
  /** Block time, unix µs. */
  readonly vt: number
}

interface Tracked {
  notional: bigint
  /** Block time of the last change, unix µs. */
  t: number
  running: bigint
}

const MAX_UINT64 = (1n << 64n) - 1n

const seconds = (micros: number): number => Math.trunc(micros / 1_000_000)

/** Core's `updateNotional`. */
const update = (entry: Tracked, notional: bigint, sinceStart: number, sinceLast: number, time: number): void => {
  const w = sinceStart !== 0 ? (BigInt(sinceLast) * SCALE) / BigInt(sinceStart) : 0n
  entry.running = (entry.running * (SCALE - w) + entry.notional * w) / SCALE
  entry.notional = notional
  entry.t = time
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n)

const pow10 = (n: number): bigint => 10n ** BigInt(n)

export class Notionals {
  /** Game id → the dispatch strategy's notional requirement, for the games that have one. */
  readonly requirements = new Map<string, bigint>()
  /** Every position version of each party (by party index), in the order written. */
  private readonly versions: Array<Array<PositionRow> | undefined> = []
  private readonly byId = new Map<string, Party>()

  /** Keeps every version `positions` writes from now on. */
  constructor(
    private readonly chain: Chain,
    positions: Positions,
    private readonly markPrice: (market: MarketInfo, height: number) => bigint
  ) {
    positions.onVersion = (row) => this.note(row)
  }

  /** Keeps a position version (every one written, generated or recorded). */
  note(row: PositionRow): void {
    const rows = (this.versions[row.party.index] ??= [])
    if (rows.length === 0) this.byId.set(row.party.id, row.party)
    rows.push(row)
  }

  /** Gives the individual game, and each team game by chance, a notional requirement. */
  generate(random: Random, games: ReadonlyArray<Game>): void {
    for (const game of games) {
      const required = game.scope === "ENTITY_SCOPE_INDIVIDUALS" || random.chance(0.5)
      const amount = BigInt(1 + random.int(1_000)) * BigInt(game.asset.quantum)
      if (required) this.requirements.set(game.id, amount)
    }
  }

  /** Chain time at which `epoch` starts: the block that ended the one before (block 1 for the first). */
  private epochStart(epoch: number): number {
    return this.chain.blockTime(epoch === 1 ? 1 : this.chain.epochLastBlock(epoch - 1))
  }

  /** A party's notional in a market at a block: `|volume| × mark price in asset decimals / 10^positionDecimals`. */
  private notionalOf(row: PositionRow): bigint {
    const market = row.market
    const volume = abs(BigInt(row.openVolume))
    const shift = market.settlementAsset.decimals - market.priceDecimals
    const mark = this.markPrice(market, row.from)
    const price = shift >= 0 ? mark * pow10(shift) : mark / pow10(-shift)
    const pd = market.positionDecimals
    return pd >= 0 ? (volume * price) / pow10(pd) : volume * price * pow10(-pd)
  }

  /**
   * For each epoch up to `epoch` (index 1 on), the sum over the asset's markets of the party's
   * running values at the epoch's end, or undefined while the party has had no position in them.
   */
  private valuesUpTo(party: Party, asset: AssetInfo, epoch: number): Array<bigint | undefined> {
    const rows = (this.versions[party.index] ?? []).filter((r) => r.market.settlementAsset.id === asset.id)
    const tracked = new Map<MarketInfo, Tracked>()
    const volumes = new Map<MarketInfo, bigint>()
    const out: Array<bigint | undefined> = [undefined]
    let i = 0
    for (let e = 1; e <= epoch; e++) {
      const start = this.epochStart(e)
      const last = this.chain.epochLastBlock(e)
      for (; i < rows.length && rows[i].from <= last; i++) {
        const row = rows[i]
        const volume = BigInt(row.openVolume)
        if (volumes.get(row.market) === volume) continue
        volumes.set(row.market, volume)
        const notional = this.notionalOf(row)
        const entry = tracked.get(row.market)
        if (entry === undefined) tracked.set(row.market, { notional, t: row.vt, running: 0n })
        else update(entry, notional, seconds(row.vt - start), seconds(row.vt - entry.t), row.vt)
      }
      const end = this.chain.blockTime(last)
      let total = 0n
      for (const entry of tracked.values()) {
        update(entry, entry.notional, seconds(end - start), seconds(end - entry.t), end)
        total += entry.running
      }
      out.push(tracked.size === 0 ? undefined : total)
    }
    return out
  }

  /** The latest epoch ended at `height`. */
  private latestEnded(height: number): number {
    const epoch = this.chain.epochOf(height)
    return height === this.chain.epochLastBlock(epoch) ? epoch : epoch - 1
  }

  /**
   * The row of a party in a game at `epoch`, or at the latest epoch with one, as a node at
   * `height` has them; undefined when there is none.
   */
  rowAt(party: Party, game: Game, epoch: number | undefined, height: number, teams: Teams): NotionalRow | undefined {
    if (!this.requirements.has(game.id)) return undefined
    const latest = this.latestEnded(height)
    if (epoch !== undefined && (epoch < 1 || epoch > latest)) return undefined
    const values = this.valuesUpTo(party, game.asset, epoch ?? latest)
    for (let e = epoch ?? latest; e >= (epoch ?? 1); e--) {
      const from = this.chain.epochLastBlock(e)
      // a team game checks its current members, with or without a position
      const notional =
        game.scope === "ENTITY_SCOPE_TEAMS"
          ? teams.currentOf(party.id, from) !== undefined
            ? (values[e] ?? 0n)
            : undefined
          : values[e]
      // a sum beyond uint64 fails the node's parsing of the event and is never stored
      if (notional === undefined || notional > MAX_UINT64) continue
      return { epoch: e, asset: game.asset, party, game, notional, from, vt: this.chain.blockTime(from) }
    }
    return undefined
  }

  /** A party that ever held a position, by id. */
  partyOf(id: string): Party | undefined {
    return this.byId.get(id)
  }
}
