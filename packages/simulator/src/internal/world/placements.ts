/**
 * Rows a party places in a market, orders and stop orders: every version of each by id, and the
 * first version of each in the order placed, by party and by market too, which is what the listing
 * routes scan. Unlike `addVersion`'s rows, every change is a version of its own, two in one block
 * included (the earlier is then seen by no view), so the first versions held here stay the rows'.
 */
import { latestVersion, versionAt, type Versioned } from "./versioned.js"

export interface Placed extends Versioned {
  readonly id: string
  readonly party: { readonly id: string }
  readonly market: { readonly index: number }
}

export class Placements<A extends Placed> {
  /** The versions of each row, oldest first. */
  readonly byId = new Map<string, Array<A>>()
  readonly placed: Array<A> = []
  readonly byParty = new Map<string, Array<A>>()
  readonly byMarket: Array<Array<A> | undefined> = []

  /** Adds a version of a row, visible from its `from`; the first version places the row. */
  protected add(row: A): void {
    const versions = this.byId.get(row.id)
    if (versions !== undefined) {
      versions[versions.length - 1].to = row.from
      versions.push(row)
      return
    }
    this.byId.set(row.id, [row])
    this.placed.push(row)
    let own = this.byParty.get(row.party.id)
    if (own === undefined) this.byParty.set(row.party.id, (own = []))
    own.push(row)
    ;(this.byMarket[row.market.index] ??= []).push(row)
  }

  /** The latest version of a row. */
  current(id: string): A | undefined {
    return latestVersion(this.byId.get(id))
  }

  /** The row as a view at `height` sees it. */
  at(id: string, height: number): A | undefined {
    return versionAt(this.byId.get(id), height)
  }
}
