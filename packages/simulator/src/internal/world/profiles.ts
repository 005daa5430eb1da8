/**
 * Party profiles: every party the node has seen has one (alias `""`, no metadata until it sets
 * some); the network party's alias is `network`. Profiles change now and then, and with
 * `UpdatePartyProfile` transactions ({@link Profiles.set}).
 */
import { Ids } from "@vega-effect/schema"
import type { Random } from "../random.js"
import type { Catalog, Party } from "./catalog.js"
import type { Journal } from "./journal.js"
import { compareStrings, insertSorted, type Versioned } from "./versioned.js"

export interface ProfileRow extends Versioned {
  readonly party: Party
  readonly alias: string
  readonly metadata: ReadonlyArray<{ readonly key: string; readonly value: string }>
}

const byKey = (metadata: ProfileRow["metadata"]): ProfileRow["metadata"] =>
  [...metadata].sort((a, b) => compareStrings(a.key, b.key))

const KEYS = ["twitter", "discord", "website", "telegram", "github"]
const NAMES = ["trader", "whale", "maker", "degen", "quant", "hodler", "scalper", "arb"]

export class Profiles {
  /** Parties in base order (`id`, as bytes), each with its versions. */
  readonly parties: Array<Party>
  readonly versions = new Map<string, Array<ProfileRow>>()
  /** Parties whose profile a transaction has set: the world's own profile changes leave them alone. */
  private readonly owned = new Set<string>()

  constructor(
    catalog: Catalog,
    private readonly journal?: Journal
  ) {
    this.parties = [...catalog.parties].sort((a, b) => compareStrings(a.key, b.key))
    for (const party of catalog.parties) {
      const alias = party === catalog.network ? Ids.NETWORK_PARTY : ""
      this.versions.set(party.id, [{ party, from: 0, to: Infinity, alias, metadata: [] }])
    }
  }

  generate(random: Random, share: number, height: number): void {
    for (const party of this.parties) {
      if (party.id !== Ids.NETWORK_PARTY && random.chance(share)) this.update(random, party, 1 + random.int(height))
    }
  }

  update(random: Random, party: Party, height: number): void {
    if (this.owned.has(party.id)) return
    const versions = this.versions.get(party.id)!
    const current = versions[versions.length - 1]
    current.to = height
    const name = `${random.pick(NAMES)}-${random.hex(2)}`
    const metadata = byKey(KEYS.filter(() => random.chance(0.3)).map((key) => ({ key, value: `${name}@${key}` })))
    const row: ProfileRow = { party, from: height, to: Infinity, alias: random.chance(0.9) ? name : "", metadata }
    versions.push(row)
    this.journal?.record(height, { _tag: "Profile", row })
  }

  /** Adds a party first seen at `height`: no profile before it, alias `""` and no metadata from it. */
  join(party: Party, height: number): void {
    if (this.versions.has(party.id)) return
    insertSorted(this.parties, party, (a, b) => compareStrings(a.key, b.key))
    this.versions.set(party.id, [{ party, from: height, to: Infinity, alias: "", metadata: [] }])
    this.journal?.record(height, { _tag: "Party", party })
  }

  /**
   * Sets a party's profile from `height` (what an `UpdatePartyProfile` transaction does). A version
   * written at the same height is replaced, so a block shows the last change it made.
   */
  set(party: Party, height: number, alias: string, metadata: ProfileRow["metadata"]): ProfileRow {
    const versions = this.versions.get(party.id)!
    const current = versions[versions.length - 1]
    // the node sorts a profile's metadata by key
    const row: ProfileRow = { party, from: height, to: Infinity, alias, metadata: byKey(metadata) }
    if (current.from === height) versions[versions.length - 1] = row
    else {
      current.to = height
      versions.push(row)
    }
    this.owned.add(party.id)
    this.journal?.record(height, { _tag: "Profile", row })
    return row
  }

  /** The party whose latest profile has `alias`, other than `except`. */
  aliasOwner(alias: string, except: Party | undefined): Party | undefined {
    for (const versions of this.versions.values()) {
      const latest = versions[versions.length - 1]
      if (latest.alias === alias && latest.party !== except) return latest.party
    }
    return undefined
  }

  /** The version of a party's profile visible at `height`. */
  at(party: Party, height: number): ProfileRow | undefined {
    const versions = this.versions.get(party.id)!
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i]
      if (v.from <= height && height < v.to) return v
    }
    return undefined
  }
}
