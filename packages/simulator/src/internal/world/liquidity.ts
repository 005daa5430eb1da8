/**
 * Liquidity provisions. The history table (`liquidity_provisions`) keeps one row per state change;
 * the live table (`live_liquidity_provisions`) keeps the latest row of each provision while it is
 * active, undeployed or pending. An amendment writes a PENDING version that becomes ACTIVE at the
 * next epoch; provisions are also stopped, cancelled and undeployed now and then. Transactions
 * write rows too ({@link LiquidityProvisions.record}).
 */
import type { Random } from "../random.js"
import type { Catalog, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings, insertSorted, type Versioned } from "./versioned.js"

export const LpStatus = { ACTIVE: 1, STOPPED: 2, CANCELLED: 3, REJECTED: 4, UNDEPLOYED: 5, PENDING: 6 } as const

const LIVE = new Set<number>([LpStatus.ACTIVE, LpStatus.UNDEPLOYED, LpStatus.PENDING])

const FEES = ["0.0001", "0.0005", "0.001", "0.002", "0.005", "0.01", "0.015", "0.02"]

export interface LpRow extends Versioned {
  readonly id: string
  readonly party: Party
  readonly market: MarketInfo
  /** `vega_time` and `updatedAt`, unix microseconds. */
  readonly vt: number
  readonly createdAt: number
  readonly commitment: bigint
  readonly fee: string
  readonly version: number
  readonly status: number
  readonly reference: string
  /** First height at which this row is no longer the live row of its provision. */
  liveTo: number
}

/** Base order of both tables: `vega_time, id`. */
export const compareLp = (a: LpRow, b: LpRow): number => a.vt - b.vt || compareStrings(a.id, b.id)

export interface LpKey {
  readonly vt: number
  readonly id: string
}

export const compareLpToKey = (a: LpRow, k: LpKey): number => a.vt - k.vt || compareStrings(a.id, k.id)

export const isLiveAt = (row: LpRow, height: number): boolean =>
  row.from <= height && height < row.liveTo && LIVE.has(row.status)

export class LiquidityProvisions {
  /** All history rows, in base order. */
  readonly history: Array<LpRow> = []
  readonly byId = new Map<string, Array<LpRow>>()
  readonly byMarket = new Map<string, Array<LpRow>>()
  readonly byParty = new Map<string, Array<LpRow>>()
  private readonly latest = new Map<string, LpRow>()
  /** Provisions a transaction has changed: the world's own activity leaves them alone. */
  private readonly owned = new Set<string>()

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  generate(random: Random, count: number, height: number): void {
    const parties = this.catalog.parties.slice(1)
    const rows: Array<LpRow> = []
    const taken = new Set<string>()
    for (let i = 0; i < count && parties.length > 0; i++) {
      const party = random.pick(parties)
      const market = random.pick(this.catalog.markets)
      if (taken.has(party.id + market.id)) continue
      taken.add(party.id + market.id)
      let row = this.create(random, party, market, 1 + random.int(Math.max(1, height - 10)))
      rows.push(row)
      // a few earlier amendments, each of which was activated
      for (let v = 0; v < random.int(3); v++) {
        const from = row.from + 1 + random.int(Math.max(1, Math.floor((height - row.from) / 2)))
        if (from >= height) break
        row = this.next(random, row, from, { version: row.version + 1, commitment: this.commitmentFor(random, market) })
        rows.push(row)
      }
      if (random.chance(0.1))
        rows.push(this.next(random, row, Math.min(height, row.from + 5), { status: LpStatus.STOPPED }))
    }
    rows.sort(compareLp)
    for (const row of rows) this.add(row)
  }

  private commitmentFor(random: Random, market: MarketInfo): bigint {
    return BigInt(1_000 + random.int(2_000_000)) * 10n ** BigInt(market.settlementAsset.decimals)
  }

  private create(random: Random, party: Party, market: MarketInfo, from: number): LpRow {
    const vt = this.chain.blockTime(from)
    return {
      id: random.hex(32),
      party,
      market,
      from,
      to: Infinity,
      liveTo: Infinity,
      vt,
      createdAt: vt,
      commitment: this.commitmentFor(random, market),
      fee: random.pick(FEES),
      version: 1,
      status: LpStatus.ACTIVE,
      reference: random.chance(0.4) ? `lp-${random.hex(4)}` : ""
    }
  }

  private next(
    random: Random,
    row: LpRow,
    from: number,
    change: { version?: number; status?: number; commitment?: bigint }
  ): LpRow {
    return {
      id: row.id,
      party: row.party,
      market: row.market,
      from,
      to: Infinity,
      liveTo: Infinity,
      vt: this.chain.blockTime(from),
      createdAt: row.createdAt,
      commitment: change.commitment ?? row.commitment,
      fee: change.version !== undefined ? random.pick(FEES) : row.fee,
      version: change.version ?? row.version,
      status: change.status ?? row.status,
      reference: row.reference
    }
  }

  private add(row: LpRow): void {
    const previous = this.latest.get(row.id)
    if (previous !== undefined) previous.liveTo = row.from
    this.latest.set(row.id, row)
    insertSorted(this.history, row, compareLp)
    for (const [map, key] of [
      [this.byId, row.id],
      [this.byMarket, row.market.id],
      [this.byParty, row.party.id]
    ] as const) {
      const list = map.get(key)
      if (list === undefined) map.set(key, [row])
      else list.push(row)
    }
  }

  /** One block: new provisions, amendments, stops, cancellations; pending amendments activate at epoch start. */
  advance(random: Random, height: number, changes: number): void {
    const rows: Array<LpRow> = []
    if (height > 1 && this.chain.epochOf(height) !== this.chain.epochOf(height - 1)) {
      for (const row of this.latest.values()) {
        if (row.status === LpStatus.PENDING) rows.push(this.next(random, row, height, { status: LpStatus.ACTIVE }))
      }
    }
    const live = [...this.latest.values()].filter(
      (r) => LIVE.has(r.status) && !this.owned.has(r.id) && !rows.some((n) => n.id === r.id)
    )
    for (let i = 0; i < changes; i++) {
      const roll = random.next()
      if (roll < 0.3 || live.length === 0) {
        const party = random.pick(this.catalog.parties.slice(1))
        const market = random.pick(this.catalog.markets)
        if (party !== undefined) rows.push(this.create(random, party, market, height))
        continue
      }
      const index = random.int(live.length)
      const row = live[index]
      live.splice(index, 1)
      if (row.status === LpStatus.PENDING) {
        rows.push(this.next(random, row, height, { status: LpStatus.CANCELLED }))
      } else if (roll < 0.7) {
        rows.push(
          this.next(random, row, height, {
            version: row.version + 1,
            status: LpStatus.PENDING,
            commitment: this.commitmentFor(random, row.market)
          })
        )
      } else if (roll < 0.8) {
        rows.push(
          this.next(random, row, height, {
            status: row.status === LpStatus.UNDEPLOYED ? LpStatus.ACTIVE : LpStatus.UNDEPLOYED
          })
        )
      } else {
        rows.push(
          this.next(random, row, height, { status: random.chance(0.7) ? LpStatus.STOPPED : LpStatus.CANCELLED })
        )
      }
    }
    rows.sort(compareLp)
    for (const row of rows) {
      this.add(row)
      this.journal?.record(height, { _tag: "Provision", row })
    }
  }

  /** The latest row of a provision. */
  latestOf(id: string): LpRow | undefined {
    return this.latest.get(id)
  }

  /**
   * Writes a row made by a transaction at `row.from`. A row of the same provision written at the
   * same height is replaced (the node keeps one row per provision and block). Pending rows still
   * become ACTIVE at the next epoch.
   */
  record(row: LpRow): void {
    const previous = this.latest.get(row.id)
    if (previous !== undefined && previous.from === row.from) {
      for (const rows of [
        this.history,
        this.byId.get(row.id),
        this.byMarket.get(row.market.id),
        this.byParty.get(row.party.id)
      ]) {
        const at = rows === undefined ? -1 : rows.lastIndexOf(previous)
        if (at >= 0) rows!.splice(at, 1)
      }
      const before = this.byId.get(row.id)
      const earlier = before?.[before.length - 1]
      if (earlier === undefined) this.latest.delete(row.id)
      else this.latest.set(row.id, earlier)
    }
    this.owned.add(row.id)
    this.add(row)
    this.journal?.record(row.from, { _tag: "Provision", row })
  }

  /**
   * The node of a row: for a PENDING row, `current` is the latest ACTIVE row of the previous
   * version (visible at `height`) and `pending` the row itself; otherwise the row is `current`.
   */
  pair(row: LpRow, height: number): { readonly current: LpRow; readonly pending?: LpRow } {
    if (row.status !== LpStatus.PENDING) return { current: row }
    let current: LpRow | undefined
    for (const candidate of this.byId.get(row.id) ?? []) {
      if (
        candidate.from <= height &&
        candidate.version === row.version - 1 &&
        candidate.status === LpStatus.ACTIVE &&
        (current === undefined || compareLp(candidate, current) > 0)
      ) {
        current = candidate
      }
    }
    return current === undefined ? { current: row } : { current, pending: row }
  }

  size(): number {
    return this.history.length
  }
}
