/**
 * Stake linkings (`stake_linking_current`): VEGA associated with a key from Ethereum. A link or
 * unlink is seen PENDING, then accepted or rejected once final; each state is a new version whose
 * `vega_time` is the block that wrote it.
 */
import { makeRandom, type Random } from "../random.js"
import type { Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings, insertSorted, prune, type Versioned } from "./versioned.js"

export const StakeType = { LINK: 1, UNLINK: 2 } as const
export const StakeStatus = { PENDING: 1, ACCEPTED: 2, REJECTED: 3 } as const

/** 10^15: stake amounts are kept in thousandths of a VEGA (18 decimals). */
export const MILLI_VEGA = 1_000_000_000_000_000n

export interface StakeRow extends Versioned {
  readonly id: string
  readonly party: Party
  readonly vt: number
  readonly type: number
  readonly status: number
  /** Thousandths of a VEGA. */
  readonly amountMilli: number
  /** Ethereum block time, unix seconds (`ts` and `blockTime`). */
  readonly ethTime: number
  /** Unix microseconds of finalisation; 0 while pending. */
  readonly finalizedAt: number
  /** Seed of the Ethereum transaction hash (see {@link txHashOf}); kept as a number to spare memory. */
  readonly txSeed: number
  readonly ethBlock: number
  readonly logIndex: number
  readonly address: string
}

/** Base order: `vega_time, id`. */
export const compareStake = (a: StakeRow, b: StakeRow): number => a.vt - b.vt || compareStrings(a.id, b.id)

export interface StakeKey {
  readonly vt: number
  readonly id: string
}

export const compareStakeToKey = (a: StakeRow, k: StakeKey): number => a.vt - k.vt || compareStrings(a.id, k.id)

/** The Ethereum transaction that emitted the event: `0x` + 64 lowercase hex characters. */
export const txHashOf = (row: StakeRow): string => `0x${makeRandom(row.txSeed).hex(32)}`

/** Seconds between Vega chain time and the Ethereum block that emitted the event. */
const ETH_LAG_SECONDS = 90

export class StakeLinkings {
  /** Versions per party, in base order. */
  readonly byParty = new Map<string, Array<StakeRow>>()
  private readonly pending: Array<StakeRow> = []
  private count = 0

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  /** `count` linkings, skewed so that a few parties hold many (a cube of a uniform draw). */
  generate(random: Random, count: number, height: number): void {
    const parties = this.catalog.parties
    if (parties.length < 2) return
    // draw (party, height) pairs first, then build each party's rows in time order, so that an
    // unlink never takes more than what is linked at that point
    const party = new Int32Array(count)
    const from = new Int32Array(count)
    for (let i = 0; i < count; i++) {
      party[i] = 1 + Math.floor((parties.length - 1) * random.next() ** 3)
      from[i] = 1 + random.int(height)
    }
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => party[a] - party[b] || from[a] - from[b])
    let start = 0
    while (start < count) {
      const owner = parties[party[order[start]]]
      const rows: Array<StakeRow> = []
      let linked = 0
      let i = start
      for (; i < count && party[order[i]] === owner.index; i++) {
        const at = from[order[i]]
        const status =
          at > height - 3 ? StakeStatus.PENDING : random.chance(0.05) ? StakeStatus.REJECTED : StakeStatus.ACCEPTED
        const unlink = linked > 1000 && random.chance(0.25)
        const amountMilli = unlink ? 1 + random.int(Math.floor(linked / 2)) : 1 + random.int(5_000_000)
        const row = this.row(random, owner, {
          from: at,
          type: unlink ? StakeType.UNLINK : StakeType.LINK,
          status,
          amountMilli
        })
        if (status === StakeStatus.ACCEPTED) linked += signed(row)
        if (status === StakeStatus.PENDING) this.pending.push(row)
        rows.push(row)
      }
      rows.sort(compareStake)
      this.byParty.set(owner.id, rows)
      start = i
    }
    this.pending.sort((a, b) => a.from - b.from)
  }

  private row(
    random: Random,
    party: Party,
    fields: { from: number; type: number; status: number; amountMilli: number }
  ): StakeRow {
    const vt = this.chain.blockTime(fields.from)
    const ethTime = Math.floor(vt / 1_000_000) - ETH_LAG_SECONDS
    this.count++
    return {
      id: random.hex(32),
      party,
      from: fields.from,
      to: Infinity,
      vt,
      type: fields.type,
      status: fields.status,
      amountMilli: fields.amountMilli,
      ethTime,
      finalizedAt: fields.status === StakeStatus.PENDING ? 0 : vt,
      txSeed: random.uint32(),
      ethBlock: 19_000_000 + Math.floor((ethTime - 1_700_000_000) / 12),
      logIndex: random.int(200),
      address: random.pick(this.catalog.stakeAddresses)
    }
  }

  /** One block: pending events older than a few blocks settle, and new links and unlinks arrive. */
  advance(random: Random, height: number, arrivals: number): void {
    const vt = this.chain.blockTime(height)
    const settled: Array<StakeRow> = []
    const balances = new Map<string, number>()
    while (this.pending.length > 0 && this.pending[0].from <= height - 3) {
      const row = this.pending.shift()!
      if (row.to !== Infinity) continue
      const balance = balances.get(row.party.id) ?? this.available(row.party.id, height)
      const status =
        row.type === StakeType.UNLINK && balance < row.amountMilli
          ? StakeStatus.REJECTED
          : random.chance(0.9)
            ? StakeStatus.ACCEPTED
            : StakeStatus.REJECTED
      balances.set(row.party.id, status === StakeStatus.ACCEPTED ? balance + signed(row) : balance)
      row.to = height
      settled.push({ ...row, from: height, to: Infinity, vt, status, finalizedAt: vt })
    }
    for (const row of settled) {
      insertSorted(this.byParty.get(row.party.id)!, row, compareStake)
      this.journal?.record(height, { _tag: "Stake", row })
    }
    const parties = this.catalog.parties.slice(1)
    for (let i = 0; i < arrivals && parties.length > 0; i++) {
      const party = random.pick(parties)
      const available = this.available(party.id, height)
      const unlink = available > 1000 && random.chance(0.3)
      const row = this.row(random, party, {
        from: height,
        type: unlink ? StakeType.UNLINK : StakeType.LINK,
        status: StakeStatus.PENDING,
        amountMilli: unlink ? 1 + random.int(Math.floor(available / 2)) : 1 + random.int(2_000_000)
      })
      const list = this.byParty.get(party.id)
      if (list === undefined) this.byParty.set(party.id, [row])
      else insertSorted(list, row, compareStake)
      this.pending.push(row)
      this.journal?.record(height, { _tag: "Stake", row })
    }
  }

  /** `currentStakeAvailable` in thousandths of a VEGA: accepted links minus accepted unlinks. */
  available(partyId: string, height: number): number {
    let sum = 0
    for (const row of this.byParty.get(partyId) ?? []) {
      if (row.from <= height && height < row.to && row.status === StakeStatus.ACCEPTED) sum += signed(row)
    }
    return sum
  }

  size(): number {
    return this.count
  }

  prune(minHeight: number): void {
    for (const rows of this.byParty.values()) prune(rows, minHeight)
  }
}

const signed = (row: StakeRow): number => (row.type === StakeType.LINK ? row.amountMilli : -row.amountMilli)
