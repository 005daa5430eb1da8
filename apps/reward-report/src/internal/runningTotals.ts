/**
 * Totals per party and asset that change with every row, kept out of the heap's objects: a pair's
 * total is two unsigned 64-bit limbs in typed arrays, not a `bigint` of its own.
 *
 * Why: a read adds millions of payouts to some hundreds of thousands of totals. As
 * `bigint`s, every total lives until its pair's next payout, long enough to be moved to the old
 * generation, and is then replaced: at five million rows the rows' thread's heap grew from 35 MB
 * to over 100 MB with the old totals' garbage scattered among the live ones (measured). Here an
 * addition makes only short-lived values. A total that does not fit (2^128 or more, or negative) is
 * kept as a `bigint` instead; rows as the node sends them never need that.
 */

/** Totals fit in two unsigned 64-bit limbs below this. */
const LIMBS_END = 1n << 128n

/** The limbs of one asset's totals, by party number. */
interface AssetTotals {
  low: BigUint64Array
  high: BigUint64Array
  /** 1 where the party has a total in the limbs. */
  present: Uint8Array
  /** Totals that do not fit in the limbs (none of theirs are in the limbs). */
  readonly wide: Map<number, bigint>
}

const assetTotals = (parties: number): AssetTotals => ({
  low: new BigUint64Array(parties),
  high: new BigUint64Array(parties),
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
    // the values made here are short-lived: only the limbs keep the total
    const sum = this.limbTotal(totals, party) + amount
    if (sum >= 0n && sum < LIMBS_END) {
      totals.low[party] = BigInt.asUintN(64, sum)
      totals.high[party] = sum >> 64n
      totals.present[party] = 1
      return
    }
    // a negative total, or one beyond the limbs: a bigint from here on
    totals.wide.set(party, sum)
    totals.present[party] = 0
  }

  /** The total in the limbs, 0 when there is none. */
  private limbTotal(totals: AssetTotals, party: number): bigint {
    return totals.present[party] === 1 ? (totals.high[party] << 64n) | totals.low[party] : 0n
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
