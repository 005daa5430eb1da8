/**
 * Amounts per party and asset: the reward summaries as the node gives them, or the per-epoch rows
 * added up. Hundreds of thousands of pairs on a big network, read two or three times over, so each
 * id of the read gets a number once ({@link Ids}) and a table keeps, per asset, one array slot per
 * party number: no key strings and no map entry per pair, and tables of one read compare slot by
 * slot.
 */
import type { Summary } from "./Build.js"
import { compareBig, compareText } from "./RowOrder.js"

/**
 * The ids of one read, numbered in the order they are first seen. The node sends each id afresh
 * in every answer: the tables, the row file and the rows keep one string per id (and its number).
 */
export class Ids {
  private readonly numbers = new Map<string, number>()
  private readonly list: Array<string> = []

  /** The id's number, given on first sight. */
  numberOf(id: string): number {
    let n = this.numbers.get(id)
    if (n === undefined) {
      // kept as a string of its own: one cut from a longer text would keep all of that text alive
      const own = JSON.parse(JSON.stringify(id)) as string
      n = this.list.push(own) - 1
      this.numbers.set(own, n)
    }
    return n
  }

  /** The number of an id seen before, or undefined. */
  find(id: string): number | undefined {
    return this.numbers.get(id)
  }

  /** The id numbered `n`. */
  idOf(n: number): string {
    return this.list[n]
  }

  /** Every id, in the order of their numbers. */
  all(): ReadonlyArray<string> {
    return this.list
  }
}

/** One asset's amounts: the slot of each party number, undefined where the party has no pair. */
type Slots = Array<bigint | undefined>

/** A pair of two tables of one read: its amount in each, undefined where a table has no such pair. */
export interface PairOfTables {
  readonly partyId: string
  readonly assetId: string
  readonly left: bigint | undefined
  readonly right: bigint | undefined
}

/** Amounts by asset, then party: a pair is one slot, its amount a `bigint`. */
export class Amounts implements Iterable<Summary> {
  /** Asset number → slots by party number. */
  private readonly byAsset = new Map<number, Slots>()
  /** How many (party, asset) pairs. */
  size = 0

  constructor(readonly ids: Ids = new Ids()) {}

  /** A table of `summaries`, the amounts of a pair listed more than once added up. */
  static of(summaries: Iterable<Summary>, ids?: Ids): Amounts {
    const amounts = new Amounts(ids)
    for (const s of summaries) amounts.add(s.partyId, s.assetId, s.amount)
    return amounts
  }

  /** The asset of the last {@link add}: rows and totals mostly come an asset's together. */
  private lastAssetId = ""
  private lastAsset = -1

  /** Adds `amount` to the pair's total. */
  add(partyId: string, assetId: string, amount: bigint): void {
    if (assetId !== this.lastAssetId) this.lastAsset = this.ids.numberOf((this.lastAssetId = assetId))
    this.addAt(this.ids.numberOf(partyId), this.lastAsset, amount)
  }

  /** {@link add} by the ids' numbers (in this table's {@link Ids}), for callers that have them already. */
  addAt(party: number, asset: number, amount: bigint): void {
    let slots = this.byAsset.get(asset)
    if (slots === undefined) this.byAsset.set(asset, (slots = []))
    // filled up to the slot, never with holes: the array stays a plain one however the numbers come
    while (slots.length <= party) slots.push(undefined)
    const total = slots[party]
    if (total === undefined) this.size++
    slots[party] = total === undefined ? amount : total + amount
  }

  /**
   * Each party with a pair in `assetId` and its amount, largest amount first, equal amounts by
   * party id (sorted as numbers, not objects: a big network has hundreds of thousands of pairs).
   */
  forEachByAmount(assetId: string, f: (partyId: string, amount: bigint) => void): void {
    const slots = this.slotsOf(assetId) as Array<bigint>
    const parties: Array<number> = []
    slots.forEach((amount, party) => amount !== undefined && parties.push(party))
    const ids = this.ids
    const sorted = Int32Array.from(parties).sort(
      (a, b) => compareBig(slots[b], slots[a]) || compareText(ids.idOf(a), ids.idOf(b))
    )
    for (const party of sorted) f(ids.idOf(party), slots[party])
  }

  private slotsOf(assetId: string): Slots {
    const asset = this.ids.find(assetId)
    return (asset === undefined ? undefined : this.byAsset.get(asset)) ?? []
  }

  get(partyId: string, assetId: string): bigint | undefined {
    const asset = this.ids.find(assetId)
    const party = this.ids.find(partyId)
    return asset === undefined || party === undefined ? undefined : this.byAsset.get(asset)?.[party]
  }

  /** The same pairs with the same amounts. */
  equals(other: Amounts): boolean {
    if (this.size !== other.size) return false
    for (const { left, right } of this.pairsWith(other)) if (left !== right) return false
    return true
  }

  /** Every asset with a pair. */
  assets(): Array<string> {
    return [...this.byAsset.keys()].map((n) => this.ids.idOf(n))
  }

  /** The parties with a pair in `assetId`. */
  partiesOf(assetId: string): Array<string> {
    const parties: Array<string> = []
    this.slotsOf(assetId).forEach((amount, party) => amount !== undefined && parties.push(this.ids.idOf(party)))
    return parties
  }

  /** Every party with a pair in any asset, once. */
  parties(): Set<string> {
    const parties = new Set<string>()
    for (const slots of this.byAsset.values()) {
      slots.forEach((amount, party) => amount !== undefined && parties.add(this.ids.idOf(party)))
    }
    return parties
  }

  /**
   * Every pair of either table with its amount in each, asset by asset. Tables of one read (the
   * same {@link Ids}) are gone through slot by slot; `other` is first copied onto this table's ids
   * otherwise.
   */
  *pairsWith(other: Amounts): Generator<PairOfTables> {
    const right = other.ids === this.ids ? other : Amounts.of(other, this.ids)
    const assets = new Set([...this.byAsset.keys(), ...right.byAsset.keys()])
    for (const asset of assets) {
      const mine = this.byAsset.get(asset) ?? []
      const theirs = right.byAsset.get(asset) ?? []
      const assetId = this.ids.idOf(asset)
      for (let party = 0; party < Math.max(mine.length, theirs.length); party++) {
        const l = mine[party]
        const r = theirs[party]
        if (l !== undefined || r !== undefined) {
          yield { partyId: this.ids.idOf(party), assetId, left: l, right: r }
        }
      }
    }
  }

  /** Every pair by the numbers of its ids, asset by asset. */
  forEachPair(f: (party: number, asset: number, amount: bigint) => void): void {
    for (const [asset, slots] of this.byAsset) {
      for (let party = 0; party < slots.length; party++) {
        const amount = slots[party]
        if (amount !== undefined) f(party, asset, amount)
      }
    }
  }

  *[Symbol.iterator](): Iterator<Summary> {
    for (const [asset, slots] of this.byAsset) {
      const assetId = this.ids.idOf(asset)
      for (let party = 0; party < slots.length; party++) {
        const amount = slots[party]
        if (amount !== undefined) yield { partyId: this.ids.idOf(party), assetId, amount }
      }
    }
  }
}
