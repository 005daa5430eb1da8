/**
 * Positions (`positions_current`): one row per party and market, closed ones included.
 *
 * The world starts from a snapshot, as a data node restored from network history does: positions
 * exist with no trades behind them. In each market the network party holds the opposite of all the
 * others (it took over their counterparties' closed-out positions), so every market's open volume
 * sums to zero. From then on volume, entry price and PnL move only through fills (`orders.ts`,
 * {@link Positions.record}), and each block some positions go through ORDERS_CLOSED, DISTRESSED and
 * CLOSED_OUT ({@link Positions.advanceStatuses}; the exchange hands a closed-out position to the
 * network party).
 */
import type { Random } from "../random.js"
import type { Catalog, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings, insertSorted, prune, type Versioned } from "./versioned.js"

export const PositionStatus = { UNSPECIFIED: 0, ORDERS_CLOSED: 1, CLOSED_OUT: 2, DISTRESSED: 4 } as const

export interface PositionRow extends Versioned {
  readonly party: Party
  readonly market: MarketInfo
  /** `vega_time` and `updatedAt`, unix microseconds. */
  readonly vt: number
  /**
   * Volume, PnL and price are integers: `number` in generated versions, `bigint` in versions a
   * transaction wrote (their values can exceed 2^53).
   */
  readonly openVolume: number | bigint
  readonly realisedPnl: number | bigint
  readonly unrealisedPnl: number | bigint
  readonly averageEntryPrice: number | bigint
  readonly lossSocialisation: number
  readonly status: number
}

/** Base order of the table: `vega_time, party_id, market_id`. */
export const comparePositions = (a: PositionRow, b: PositionRow): number =>
  a.vt - b.vt || compareStrings(a.party.key, b.party.key) || compareStrings(a.market.id, b.market.id)

export interface PositionKey {
  readonly vt: number
  readonly partyKey: string
  readonly marketId: string
}

export const comparePositionToKey = (a: PositionRow, k: PositionKey): number =>
  a.vt - k.vt || compareStrings(a.party.key, k.partyKey) || compareStrings(a.market.id, k.marketId)

export class Positions {
  /** Every version still visible to some view, in base order. */
  readonly log: Array<PositionRow> = []
  /** The current version of each position, by {@link Positions.keyOf}. */
  readonly current = new Map<number, PositionRow>()
  /** Versions by party index and by market index, each list in base order (versions are appended in order). */
  readonly byParty: Array<Array<PositionRow> | undefined> = []
  readonly byMarket: Array<Array<PositionRow> | undefined> = []
  private readonly keys: Array<number> = []
  /** Told of every version written, generated or recorded (the time-weighted notionals keep them). */
  onVersion: ((row: PositionRow) => void) | undefined = undefined

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  /** Creates `count` positions spread over the blocks up to `height`. */
  generate(random: Random, count: number, height: number): void {
    const { markets, network, parties } = this.catalog
    const people = parties.filter((p) => p !== network)
    const capacity = people.length * markets.length
    const total = Math.min(count, capacity)
    const offsets = people.map(() => random.int(markets.length))
    const rows: Array<PositionRow> = []
    for (let i = 0; i < total; i++) {
      const partyIndex = Math.floor(i / markets.length) % people.length
      const market = markets[(i + offsets[partyIndex]) % markets.length]
      rows.push(this.initial(random, people[partyIndex], market, 1 + random.int(height)))
    }
    const sums = markets.map(() => 0)
    for (const row of rows) sums[row.market.index] += row.openVolume as number
    for (const market of markets) {
      const house = this.initial(random, network, market, 1 + random.int(height))
      const openVolume = -sums[market.index]
      rows.push({
        ...house,
        openVolume,
        averageEntryPrice: openVolume === 0 ? 0 : market.referencePrice,
        unrealisedPnl: 0,
        status: PositionStatus.UNSPECIFIED
      })
    }
    rows.sort(comparePositions)
    for (const row of rows) this.add(row)
  }

  private initial(random: Random, party: Party, market: MarketInfo, from: number): PositionRow {
    const roll = random.next()
    const status =
      roll < 0.85
        ? PositionStatus.UNSPECIFIED
        : roll < 0.93
          ? PositionStatus.ORDERS_CLOSED
          : roll < 0.97
            ? PositionStatus.DISTRESSED
            : PositionStatus.CLOSED_OUT
    const volume = status === PositionStatus.CLOSED_OUT ? 0 : (random.chance(0.5) ? -1 : 1) * (1 + random.int(50_000))
    const price = Math.round(market.referencePrice * (0.9 + random.next() * 0.2))
    return {
      party,
      market,
      from,
      to: Infinity,
      vt: this.chain.blockTime(from),
      openVolume: volume,
      realisedPnl: random.between(-1_000_000_000, 1_000_000_000),
      unrealisedPnl: volume === 0 ? 0 : random.between(-500_000_000, 500_000_000),
      averageEntryPrice: volume === 0 ? 0 : price,
      lossSocialisation: random.chance(0.02) ? -random.int(1_000_000) : 0,
      status
    }
  }

  /** A number that identifies a party's position in a market. */
  keyOf(party: Party, market: MarketInfo): number {
    return party.index * this.catalog.markets.length + market.index
  }

  private add(row: PositionRow): void {
    const key = this.keyOf(row.party, row.market)
    if (!this.current.has(key)) this.keys.push(key)
    this.current.set(key, row)
    this.log.push(row)
    this.onVersion?.(row)
    ;(this.byParty[row.party.index] ??= []).push(row)
    ;(this.byMarket[row.market.index] ??= []).push(row)
  }

  /** A random position of the world's own parties (none of a party a transaction brought in). */
  pickGenerated(random: Random): PositionRow | undefined {
    if (this.keys.length === 0) return undefined
    const row = this.current.get(this.keys[random.int(this.keys.length)])!
    return row.party.index < this.catalog.parties.length ? row : undefined
  }

  /**
   * The statuses of one block: `count` random positions of the world's own parties (not the
   * network's) may change status. Returns those that became CLOSED_OUT, as they were before.
   */
  advanceStatuses(random: Random, height: number, count: number): Array<PositionRow> {
    const closedOut: Array<PositionRow> = []
    const vt = this.chain.blockTime(height)
    for (let i = 0; i < count; i++) {
      const row = this.pickGenerated(random)
      if (row === undefined || row.party === this.catalog.network) continue
      const status = nextStatus(random, row.status)
      if (status === row.status) continue
      this.record({ ...row, from: height, to: Infinity, vt, status })
      if (status === PositionStatus.CLOSED_OUT) closedOut.push(row)
    }
    return closedOut
  }

  /**
   * Writes a new version of a position at `row.from`. A version written at the same height is
   * replaced, so a block shows the last state it left.
   */
  record(row: PositionRow): void {
    const key = this.keyOf(row.party, row.market)
    const previous = this.current.get(key)
    if (previous !== undefined && previous.from === row.from) {
      for (const rows of [this.log, this.byParty[row.party.index], this.byMarket[row.market.index]]) {
        const at = rows === undefined ? -1 : rows.lastIndexOf(previous)
        if (at >= 0) rows!.splice(at, 1)
      }
    } else if (previous !== undefined) {
      previous.to = row.from
    }
    if (previous === undefined) this.keys.push(key)
    this.current.set(key, row)
    this.journal?.position(row.from, key, row)
    this.onVersion?.(row)
    insertSorted(this.log, row, comparePositions)
    insertSorted((this.byParty[row.party.index] ??= []), row, comparePositions)
    insertSorted((this.byMarket[row.market.index] ??= []), row, comparePositions)
  }

  prune(minHeight: number): void {
    if (this.log.length <= this.current.size * 1.5) return
    prune(this.log, minHeight)
    for (const rows of this.byParty) if (rows !== undefined) prune(rows, minHeight)
    for (const rows of this.byMarket) if (rows !== undefined) prune(rows, minHeight)
  }
}

/** A position's next status: most stay, some go distressed, some of those are closed out. */
const nextStatus = (random: Random, status: number): number => {
  switch (status) {
    case PositionStatus.DISTRESSED:
      return random.chance(0.5)
        ? PositionStatus.CLOSED_OUT
        : random.chance(0.6)
          ? PositionStatus.UNSPECIFIED
          : PositionStatus.DISTRESSED
    case PositionStatus.ORDERS_CLOSED:
      return random.chance(0.5) ? PositionStatus.UNSPECIFIED : PositionStatus.ORDERS_CLOSED
    case PositionStatus.CLOSED_OUT:
      return random.chance(0.1) ? PositionStatus.UNSPECIFIED : PositionStatus.CLOSED_OUT
    default:
      return random.chance(0.03)
        ? PositionStatus.DISTRESSED
        : random.chance(0.02)
          ? PositionStatus.ORDERS_CLOSED
          : PositionStatus.UNSPECIFIED
  }
}
