/**
 * Totals per party and asset that change with every row, kept out of the heap's objects: a pair's
 * total is two numbers in typed arrays (52 bits each: exact to 2^104), not a `bigint`.
 *
 * Why: a read adds millions of payouts to some hundreds of thousands of totals. As
 * `bigint`s, every total lives until its pair's next payout, long enough to be moved to the old
 * generation, and is then replaced: at five million rows the rows' thread's heap grew from 35 MB
 * to over 100 MB with the old totals' garbage scattered among the live ones (measured). Here an
 * addition makes only short-lived values. A total that does not fit (or a negative amount) is kept
 * as a `bigint` instead; rows as the node sends them never need that.
 */

/** One limb's base: 2^52, so that a limb plus an amount below it stays an exact integer. */
const BASE = 2 ** 52
const BASE_BITS = 52n
const LIMB_MASK = (1n << BASE_BITS) - 1n
const BIG_BASE = 1n << BASE_BITS
const MAX_HIGH = BigInt(Number.MAX_SAFE_INTEGER)

/** The limbs of one asset's totals, by party number. */
interface AssetTotals {
  low: Float64Array
  high: Float64Array
  /** 1 where the party has a total in the limbs. */
  present: Uint8Array
  /** Totals that do not fit in the limbs (none of theirs are in the limbs). */
  readonly wide: Map<number, bigint>
}

const assetTotals = (parties: number): AssetTotals => ({
  low: new Float64Array(parties),
  high: new Float64Array(parties),
  present: new Uint8Array(parties),
  wide: new Map()
})

/** `from`'s arrays copied into arrays for at least `parties` parties. */
const grown = (from: AssetTotals, parties: number): AssetTotals => {
  const size = Math.max(parties, 2 * from.low.length)
  const to = assetTotals(size)
  to.low.set(from.low)
  to.high.set(from.high)
  to.present.set(from.present)
  return { ...to, wide: from.wide }
}

export class RunningTotals {
  private readonly byAsset = new Map<number, AssetTotals>()

  /** Adds `amount` to the total of the party and asset numbered so. */
  add(party: number, asset: number, amount: bigint): void {
    let totals = this.byAsset.get(asset)
    if (totals === undefined) this.byAsset.set(asset, (totals = assetTotals(Math.max(1024, party + 1))))
    else if (party >= totals.low.length) this.byAsset.set(asset, (totals = grown(totals, party + 1)))
    const wide = totals.wide.get(party)
    if (wide !== undefined) {
      totals.wide.set(party, wide + amount)
      return
    }
    if (amount >= 0n) {
      const high = amount >> BASE_BITS
      const highNumber = Number(high)
      const low = totals.low[party] + Number(amount & LIMB_MASK)
      const carry = low >= BASE ? 1 : 0
      const sum = totals.high[party] + highNumber + carry
      if (high <= MAX_HIGH && sum <= Number.MAX_SAFE_INTEGER) {
        totals.low[party] = low - carry * BASE
        totals.high[party] = sum
        totals.present[party] = 1
        return
      }
    }
    // a negative amount, or a total beyond the limbs: a bigint from here on
    totals.wide.set(party, this.limbTotal(totals, party) + amount)
    totals.present[party] = 0
  }

  /** The total in the limbs, 0 when there is none. */
  private limbTotal(totals: AssetTotals, party: number): bigint {
    return totals.present[party] === 1 ? BigInt(totals.high[party]) * BIG_BASE + BigInt(totals.low[party]) : 0n
  }

  /** The numbers of the assets with a total. */
  assets(): Array<number> {
    return [...this.byAsset.keys()]
  }

  /** How many pairs have a total. */
  get size(): number {
    let size = 0
    for (const totals of this.byAsset.values()) {
      for (let party = 0; party < totals.present.length; party++) size += totals.present[party]
      size += totals.wide.size
    }
    return size
  }

  /** Every pair's total by the numbers of its ids, asset by asset. */
  forEachPair(f: (party: number, asset: number, amount: bigint) => void): void {
    for (const [asset, totals] of this.byAsset) {
      for (let party = 0; party < totals.present.length; party++) {
        if (totals.present[party] === 1) f(party, asset, this.limbTotal(totals, party))
        else {
          const wide = totals.wide.get(party)
          if (wide !== undefined) f(party, asset, wide)
        }
      }
    }
  }
}
