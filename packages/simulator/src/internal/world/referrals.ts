/**
 * Referral sets and their per-epoch statistics: at the end of each epoch every set gets one row per
 * referee (the referrer has none).
 */
import type { Random } from "../random.js"
import type { Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings } from "./versioned.js"

export interface ReferralSet {
  readonly id: string
  readonly referrer: Party
  readonly referees: ReadonlyArray<Party>
}

export interface ReferralStatsRow {
  readonly from: number
  readonly epoch: number
  readonly set: ReferralSet
  readonly referee: Party
  /** Time of the block that closed the epoch, unix microseconds. */
  readonly vt: number
  readonly runningVolume: bigint
  readonly discountFactor: string
  readonly rewardFactor: string
  readonly epochVolume: bigint
  readonly rewardsMultiplier: string
  readonly rewardsFactorMultiplier: string
  readonly wasEligible: boolean
  readonly referrerTakerVolume: bigint
}

/** Base order: `at_epoch DESC, set_id ASC, party_id ASC`. */
export const compareReferralStats = (a: ReferralStatsRow, b: ReferralStatsRow): number =>
  b.epoch - a.epoch || compareStrings(a.set.id, b.set.id) || compareStrings(a.referee.key, b.referee.key)

export interface ReferralStatsKey {
  readonly epoch: number
  readonly setId: string
  readonly partyKey: string
}

export const compareReferralStatsToKey = (a: ReferralStatsRow, k: ReferralStatsKey): number =>
  k.epoch - a.epoch || compareStrings(a.set.id, k.setId) || compareStrings(a.referee.key, k.partyKey)

export const DISCOUNTS = ["0", "0.005", "0.01", "0.02", "0.05"]
export const REWARDS = ["0.01", "0.05", "0.1"]
export const MULTIPLIERS = ["1", "1.5", "2"]

/** When a set was created: the block and its time (unix microseconds). */
export interface ReferralSetCreation {
  readonly set: ReferralSet
  readonly height: number
  readonly vt: number
}

/** A referee joining a set: the block, its time (unix microseconds) and its epoch. */
export interface RefereeJoin {
  readonly set: ReferralSet
  readonly referee: Party
  readonly height: number
  readonly vt: number
  readonly epoch: number
}

/** Base order of the sets: `created_at ASC` (the set id breaks ties). */
export const compareCreations = (a: ReferralSetCreation, b: ReferralSetCreation): number =>
  a.vt - b.vt || compareStrings(a.set.id, b.set.id)

/** Base order of the referees: `joined_at ASC, referee ASC`. */
export const compareJoins = (a: RefereeJoin, b: RefereeJoin): number =>
  a.vt - b.vt || compareStrings(a.referee.key, b.referee.key)

export class ReferralSets {
  readonly sets: Array<ReferralSet> = []
  /** Statistics by epoch, each list in base order. */
  readonly byEpoch = new Map<number, Array<ReferralStatsRow>>()
  private readonly running = new Map<string, bigint>()
  /** Each set's creation, in base order. */
  readonly creations: Array<ReferralSetCreation> = []
  /** Every referee's joining of a set, in base order. */
  readonly joins: Array<RefereeJoin> = []
  /** The memberships current at the last height, in base order (see {@link currentRefereesAt}). */
  readonly currentReferees: Array<RefereeJoin> = []

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  generate(random: Random, count: number, refereesPerSet: number, height: number): void {
    const parties = this.catalog.parties.slice(1)
    for (let i = 0; i < count && parties.length > 1; i++) {
      const referrer = random.pick(parties)
      const referees = new Set<Party>()
      for (let j = 0; j < refereesPerSet * 3 && referees.size < refereesPerSet; j++) {
        const party = random.pick(parties)
        if (party !== referrer) referees.add(party)
      }
      this.sets.push({ id: random.hex(32), referrer, referees: [...referees] })
    }
    const lastEpoch = this.chain.epochOf(height)
    for (let epoch = 1; epoch < lastEpoch; epoch++) this.close(random, epoch)
  }

  /**
   * Writes the statistics of `epoch`, visible from the block that closed it. The set's own figures
   * (running volume, reward factors, eligibility, referrer volume) are the same in every referee's
   * row, as the node copies them from the set's event.
   */
  close(random: Random, epoch: number): void {
    const from = this.chain.epochLastBlock(epoch)
    const vt = this.chain.blockTime(from)
    const rows: Array<ReferralStatsRow> = []
    const bySet: Array<Array<ReferralStatsRow>> = []
    for (const set of [...this.sets].sort((a, b) => compareStrings(a.id, b.id))) {
      const setVolume = BigInt(random.int(5_000_000)) * 1_000_000n
      const running = (this.running.get(set.id) ?? 0n) + setVolume
      this.running.set(set.id, running)
      const eligible = random.chance(0.8)
      const shared = {
        from,
        epoch,
        set,
        vt,
        runningVolume: running,
        rewardFactor: eligible ? random.pick(REWARDS) : "0",
        rewardsMultiplier: random.pick(MULTIPLIERS),
        rewardsFactorMultiplier: eligible ? random.pick(REWARDS) : "0",
        wasEligible: eligible,
        referrerTakerVolume: BigInt(random.int(2_000_000)) * 1_000_000n
      }
      const setRows = set.referees.map((referee): ReferralStatsRow => ({
        ...shared,
        referee,
        discountFactor: eligible ? random.pick(DISCOUNTS) : "0",
        epochVolume: BigInt(random.int(1_000_000)) * 1_000_000n
      }))
      setRows.sort(compareReferralStats)
      rows.push(...setRows)
      if (setRows.length > 0) bySet.push(setRows)
    }
    rows.sort(compareReferralStats)
    this.byEpoch.set(epoch, rows)
    for (const setRows of bySet) this.journal?.record(from, { _tag: "ReferralStats", rows: setRows })
  }

  /**
   * Dates the sets and their referees, drawing from a stream of their own: each set is created in
   * a block of the first epoch and its referees join after it, in the same epoch (the statistics
   * have a row for each of them from epoch 1). A party that is a referee of several sets is a
   * current member of the one it joined last.
   */
  date(random: Random): void {
    const last = this.chain.epochLastBlock(1)
    for (const set of this.sets) {
      const height = 1 + random.int(Math.max(1, last - 2))
      this.creations.push({ set, height, vt: this.chain.blockTime(height) })
      for (const referee of set.referees) {
        const at = height + 1 + random.int(Math.max(1, last - height))
        this.joins.push({ set, referee, height: at, vt: this.chain.blockTime(at), epoch: this.chain.epochOf(at) })
      }
    }
    this.creations.sort(compareCreations)
    this.joins.sort(compareJoins)
    this.currentReferees.push(...this.currentRefereesAt(Infinity))
  }

  /**
   * The memberships current at `height` (the node's `current_referral_set_referees`: each
   * referee's join of the latest epoch; all joins here are of the first epoch, so the latest join
   * visible), in base order.
   */
  currentRefereesAt(height: number): Array<RefereeJoin> {
    const latest = new Map<string, RefereeJoin>()
    for (const join of this.joins) {
      const previous = latest.get(join.referee.id)
      if (join.height <= height && (previous === undefined || compareJoins(previous, join) < 0)) {
        latest.set(join.referee.id, join)
      }
    }
    return [...latest.values()].sort(compareJoins)
  }

  /** The number of current referees of each set. */
  refereeCounts(height: number): Map<string, number> {
    const counts = new Map<string, number>()
    for (const join of this.currentRefereesAt(height)) counts.set(join.set.id, (counts.get(join.set.id) ?? 0) + 1)
    return counts
  }

  /**
   * A referee's notional taker volume over epochs `(first, last]`, summed over every set's
   * statistics (the node groups the referees' statistics by party alone).
   */
  periodVolumes(first: number, last: number, height: number): Map<string, bigint> {
    const volumes = new Map<string, bigint>()
    for (let epoch = first + 1; epoch <= last; epoch++) {
      for (const row of this.byEpoch.get(epoch) ?? []) {
        if (row.from <= height) volumes.set(row.referee.id, (volumes.get(row.referee.id) ?? 0n) + row.epochVolume)
      }
    }
    return volumes
  }

  /** The last epoch with statistics visible at `height` (the `MAX(at_epoch)` of the table). */
  latestEpoch(height: number): number | undefined {
    let latest: number | undefined
    for (const [epoch, rows] of this.byEpoch) {
      if (rows.length > 0 && rows[0].from <= height && (latest === undefined || epoch > latest)) latest = epoch
    }
    return latest
  }
}
