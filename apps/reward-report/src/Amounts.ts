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

/** A pair's running total, with the party id as the read keeps it. */
interface Total {
  readonly partyId: string
  amount: bigint
}

export class Amounts implements Iterable<Summary> {
  private readonly byAsset = new Map<string, Map<string, Total>>()
  /** How many (party, asset) pairs. */
  size = 0

  constructor(private readonly ids: Ids) {}

  /** Adds `amount` to the pair's total; returns the party id as the read keeps it (one string per id). */
  add(partyId: string, assetId: string, amount: bigint): string {
    let parties = this.byAsset.get(assetId)
    if (parties === undefined) this.byAsset.set(this.ids.of(assetId), (parties = new Map()))
    const total = parties.get(partyId)
    if (total !== undefined) {
      total.amount += amount
      return total.partyId
    }
    const kept = this.ids.of(partyId)
    parties.set(kept, { partyId: kept, amount })
    this.size++
    return kept
  }

  get(partyId: string, assetId: string): bigint | undefined {
    return this.byAsset.get(assetId)?.get(partyId)?.amount
  }

  /** The same pairs with the same amounts. */
  equals(other: Amounts): boolean {
    if (this.size !== other.size) return false
    for (const [assetId, parties] of this.byAsset) {
      for (const [partyId, total] of parties) if (other.get(partyId, assetId) !== total.amount) return false
    }
    return true
  }

  /** Every asset with a pair, and the parties that have one in it. */
  partiesByAsset(): ReadonlyMap<string, ReadonlyMap<string, unknown>> {
    return this.byAsset
  }

  *[Symbol.iterator](): Iterator<Summary> {
    for (const [assetId, parties] of this.byAsset) {
      for (const { amount, partyId } of parties.values()) yield { partyId, assetId, amount }
    }
  }
}
