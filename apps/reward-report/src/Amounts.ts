/**
 * Amounts per party and asset: the reward summaries as the node gives them, or the per-epoch rows
 * added up. Hundreds of thousands of pairs on a big network, so they are kept by asset then party
 * (no key strings built per pair), party ids shared with every other table of the read, and
 * compared pair by pair.
 */
import type { Summary } from "./Build.js"

/** One string per id for the whole read: the node sends each id afresh in every answer. */
export class Ids {
  private readonly known = new Map<string, string>()

  of<S extends string>(id: S): S {
    const known = this.known.get(id)
    if (known !== undefined) return known as S
    this.known.set(id, id)
    return id
  }
}

/** Amounts by asset, then party: a pair is one map entry, its amount a `bigint`. */
export class Amounts implements Iterable<Summary> {
  private readonly byAsset = new Map<string, Map<string, bigint>>()
  /** How many (party, asset) pairs. */
  size = 0

  constructor(private readonly ids: Ids = new Ids()) {}

  /** A table of `summaries`, the amounts of a pair listed more than once added up. */
  static of(summaries: Iterable<Summary>, ids?: Ids): Amounts {
    const amounts = new Amounts(ids)
    for (const s of summaries) amounts.add(s.partyId, s.assetId, s.amount)
    return amounts
  }

  /** Adds `amount` to the pair's total. */
  add(partyId: string, assetId: string, amount: bigint): void {
    let parties = this.byAsset.get(assetId)
    if (parties === undefined) this.byAsset.set(this.ids.of(assetId), (parties = new Map()))
    const total = parties.get(partyId)
    if (total !== undefined) {
      parties.set(partyId, total + amount)
      return
    }
    parties.set(this.ids.of(partyId), amount)
    this.size++
  }

  get(partyId: string, assetId: string): bigint | undefined {
    return this.byAsset.get(assetId)?.get(partyId)
  }

  /** The same pairs with the same amounts. */
  equals(other: Amounts): boolean {
    if (this.size !== other.size) return false
    for (const [assetId, parties] of this.byAsset) {
      for (const [partyId, amount] of parties) if (other.get(partyId, assetId) !== amount) return false
    }
    return true
  }

  /** Every asset with a pair, and each party's amount in it. */
  partiesByAsset(): ReadonlyMap<string, ReadonlyMap<string, bigint>> {
    return this.byAsset
  }

  *[Symbol.iterator](): Iterator<Summary> {
    for (const [assetId, parties] of this.byAsset) {
      for (const [partyId, amount] of parties) yield { partyId, assetId, amount }
    }
  }
}
