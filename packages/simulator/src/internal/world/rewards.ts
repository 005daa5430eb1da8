/**
 * Rewards: paid at the end of each epoch (staking rewards in VEGA, fee rewards in the settlement
 * assets). Each payment is kept as a per-epoch row (what `GET /api/v2/rewards` lists) and added to
 * running totals per party and asset (what reward summaries report), so a summary is always the sum
 * of its rows.
 */
import type { Random } from "../random.js"
import type { AssetInfo, Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings, idSortKey } from "./versioned.js"

export interface RewardTotal {
  readonly from: number
  readonly total: bigint
}

export type RewardType = "ACCOUNT_TYPE_GLOBAL_REWARD" | "ACCOUNT_TYPE_FEES_INFRASTRUCTURE"

/** One payout to one party in one epoch, as the node stores it in its `rewards` table. */
export interface RewardRow {
  /** The height of the block that closed the epoch and paid it (visible from then on). */
  readonly from: number
  readonly epoch: number
  readonly party: Party
  readonly asset: AssetInfo
  readonly amount: bigint
  readonly rewardType: RewardType
  /** Block time of the paying block, unix ns (a whole number of µs). */
  readonly receivedAt: bigint
  /** Share of the epoch's total for this asset and type, 0–100, printed as Go's `%v` of a float64. */
  readonly percentageOfTotal: string
  /** `amount` ÷ asset quantum, truncated to 6 dp then rounded to an integer (NUMERIC(1000,0)). */
  readonly quantumAmount: bigint
}

/** Base order of the rows: epoch, then (a deterministic stand-in for the node's unspecified order) party and asset. */
export const compareRewardRows = (a: RewardRow, b: RewardRow): number =>
  a.epoch - b.epoch ||
  compareStrings(idSortKey(a.party.id), idSortKey(b.party.id)) ||
  compareStrings(a.asset.id, b.asset.id)

interface Payment {
  readonly party: Party
  readonly asset: AssetInfo
  readonly amount: bigint
  readonly rewardType: RewardType
}

export class Rewards {
  /** party id → asset id → totals over time (ascending `from`). */
  readonly totals = new Map<string, Map<string, Array<RewardTotal>>>()
  /** Every payout row, in base order (epoch ascending; see {@link compareRewardRows}). Never pruned. */
  readonly rows: Array<RewardRow> = []

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  /** Pays one epoch's rewards at block `from` (the epoch's last block) to about `share` of the parties. */
  payEpoch(random: Random, from: number, share: number): void {
    const parties = this.catalog.parties.slice(1)
    const payments: Array<Payment> = []
    for (const party of parties) {
      if (!random.chance(share)) continue
      const amount = BigInt(1 + random.int(5_000_000)) * 1_000_000_000_000n
      payments.push({ party, asset: this.catalog.vega, amount, rewardType: "ACCOUNT_TYPE_GLOBAL_REWARD" })
      if (random.chance(0.3)) {
        const asset = random.pick(this.catalog.assets.slice(1))
        const amount = BigInt(1 + random.int(1_000_000)) * 10n ** BigInt(Math.max(0, asset.decimals - 4))
        payments.push({ party, asset, amount, rewardType: "ACCOUNT_TYPE_FEES_INFRASTRUCTURE" })
      }
    }
    const epochTotals = new Map<string, bigint>()
    const totalKey = (p: Payment) => `${p.asset.id}/${p.rewardType}`
    for (const p of payments) epochTotals.set(totalKey(p), (epochTotals.get(totalKey(p)) ?? 0n) + p.amount)
    const epoch = this.chain.epochOf(from)
    const receivedAt = BigInt(this.chain.blockTime(from)) * 1000n
    const rows: Array<RewardRow> = payments.map((p) => ({
      from,
      epoch,
      party: p.party,
      asset: p.asset,
      amount: p.amount,
      rewardType: p.rewardType,
      receivedAt,
      percentageOfTotal: goFloat(percentage(p.amount, epochTotals.get(totalKey(p))!)),
      quantumAmount: quantumAmount(p.amount, BigInt(p.asset.quantum))
    }))
    // totals in payment order, as before rows existed; rows in base order
    for (const p of payments) this.add(p.party, p.asset, from, p.amount)
    rows.sort(compareRewardRows)
    for (const row of rows) this.rows.push(row)
    if (rows.length > 0) this.journal?.record(from, { _tag: "Rewards", rows })
  }

  private add(party: Party, asset: AssetInfo, from: number, amount: bigint): void {
    let byAsset = this.totals.get(party.id)
    if (byAsset === undefined) {
      byAsset = new Map()
      this.totals.set(party.id, byAsset)
    }
    const history = byAsset.get(asset.id)
    if (history === undefined) {
      byAsset.set(asset.id, [{ from, total: amount }])
    } else {
      history.push({ from, total: history[history.length - 1].total + amount })
    }
  }

  /** The total visible at `height`, if any. */
  static at(history: ReadonlyArray<RewardTotal>, height: number): bigint | undefined {
    for (let i = history.length - 1; i >= 0; i--) if (history[i].from <= height) return history[i].total
    return undefined
  }

  /** Drops totals superseded before `minHeight` (keeping the one visible at it). Rows are kept. */
  prune(minHeight: number): void {
    for (const byAsset of this.totals.values()) {
      for (const history of byAsset.values()) {
        let keep = 0
        while (keep + 1 < history.length && history[keep + 1].from <= minHeight) keep++
        if (keep > 0) history.splice(0, keep)
      }
    }
  }
}

/**
 * `amount / total * 100` as a float64: core sends the share as a decimal string, which the node
 * parses to the nearest float64. 30 decimals are far more than a float64 can tell apart.
 */
const percentage = (amount: bigint, total: bigint): number => {
  const scaled = (amount * 100n * 10n ** 30n) / total
  return Number(`${scaled}e-30`)
}

/** Core's amount ÷ quantum truncated to 6 dp, then rounded half away from zero to an integer by the column. */
const quantumAmount = (amount: bigint, quantum: bigint): bigint => {
  const micro = (amount * 1_000_000n) / quantum
  return (micro + 500_000n) / 1_000_000n
}

/**
 * Go's `%v` of a float64 (strconv `'g'`, shortest round-trip digits): plain notation for exponents
 * -4..5, otherwise `d.ddde±XX` with at least two exponent digits (`5e-05`, `1e+06`).
 */
export const goFloat = (x: number): string => {
  if (x === 0) return "0"
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf"
  const negative = x < 0
  // JavaScript's shortest round-trip digits are the same digits as Go's
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e")
  const digits = mantissa.replace(".", "")
  const exp = Number(exponentText)
  let out: string
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp)
    out = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${exp < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`
  } else if (exp < 0) {
    out = `0.${"0".repeat(-exp - 1)}${digits}`
  } else if (digits.length <= exp + 1) {
    out = digits + "0".repeat(exp + 1 - digits.length)
  } else {
    out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
  }
  return negative ? `-${out}` : out
}
