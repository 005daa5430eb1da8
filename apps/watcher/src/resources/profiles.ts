/**
 * Party profiles: alias and metadata per party. The node lists every party it has seen (alias
 * `""` and no metadata until the party sets a profile), so a new key is a party new to the node.
 *
 * Read completely, in pages of `Pagination.MAX_PAGE_SIZE` (5000, the node's maximum). A real
 * v0.75 node cannot page profiles by cursor (any `after` fails with HTTP 500, which the client
 * reports as an `InternalError`), so there more than 5000 parties cannot be read unless `parties`
 * narrows the read; the simulator's default mode, and later nodes, page correctly.
 */
import type { DataNodeClient } from "@vega-effect/http"
import { Encoder, Pagination, PartyProfile } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Watch } from "../Config.js"
import type { Change, Json, Row } from "../Event.js"
import type { Resource } from "../Resource.js"

const encodeProfile = Encoder.encodeSync(PartyProfile.PartyProfile)

/** A profile as the resource stores it: the REST row. */
export const rowOf = (profile: PartyProfile.PartyProfile): Row => encodeProfile(profile)

/** The row of a party new to the network: listed with an empty alias and no metadata. */
export const newPartyRow = (partyId: string): Row => ({ partyId, alias: "", metadata: [] })

/** Parties per request when filtering: 50 ids keep the URL near 4 KB. */
const PARTIES_PER_REQUEST = 50

const aliasOf = (row: Row): string => (typeof row.alias === "string" ? row.alias : "")

/** Metadata as key → value; the node keeps keys unique per profile. */
const metadataOf = (row: Row): ReadonlyMap<string, string> => {
  const entries = new Map<string, string>()
  if (Array.isArray(row.metadata)) {
    for (const entry of row.metadata as ReadonlyArray<Json>) {
      if (entry !== null && typeof entry === "object" && !Array.isArray(entry)) {
        const { key, value } = entry as { readonly [key: string]: Json }
        if (typeof key === "string") entries.set(key, typeof value === "string" ? value : "")
      }
    }
  }
  return entries
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const profileDetails = (row: Row) => ({
  alias: aliasOf(row),
  metadata: [...metadataOf(row).keys()].sort(byText)
})

export const diff = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> => {
  if (after === undefined) {
    return before === undefined ? [] : [{ kind: "profile.removed", details: profileDetails(before) }]
  }
  if (before === undefined) return [{ kind: "profile.created", details: profileDetails(after) }]
  const changes: Array<Change> = []
  const [aliasBefore, aliasAfter] = [aliasOf(before), aliasOf(after)]
  if (aliasBefore !== aliasAfter) {
    changes.push({ kind: "profile.alias_changed", details: { from: aliasBefore, to: aliasAfter } })
  }
  const [metaBefore, metaAfter] = [metadataOf(before), metadataOf(after)]
  const added = [...metaAfter.keys()].filter((key) => !metaBefore.has(key)).sort(byText)
  const removed = [...metaBefore.keys()].filter((key) => !metaAfter.has(key)).sort(byText)
  const changed = [...metaAfter.keys()]
    .filter((key) => metaBefore.has(key) && metaBefore.get(key) !== metaAfter.get(key))
    .sort(byText)
  if (added.length + removed.length + changed.length > 0) {
    changes.push({ kind: "profile.metadata_changed", details: { added, removed, changed } })
  }
  // other fields (a newer node's `derivedKeys`); metadata merely reordered is no change
  const others = Object.keys({ ...before, ...after }).filter(
    (field) =>
      field !== "alias" && field !== "metadata" && JSON.stringify(before[field]) !== JSON.stringify(after[field])
  )
  if (others.length > 0) changes.push({ kind: "profile.changed", details: { fields: others.sort(byText) } })
  return changes
}

const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export const make = (client: DataNodeClient.Service, options: Watch["profiles"]): Resource => ({
  name: "profiles",
  watches: (key) => options.parties === undefined || options.parties.length === 0 || options.parties.includes(key),
  read: () => {
    const parties = options.parties === undefined ? undefined : [...new Set(options.parties)]
    const requests =
      parties === undefined || parties.length === 0
        ? [{}]
        : chunksOf(parties, PARTIES_PER_REQUEST).map((chunk) => ({ parties: chunk }))
    return Effect.forEach(
      requests,
      (request) => client.partiesProfiles(request, { pageSize: Pagination.MAX_PAGE_SIZE }).pipe(Stream.runCollect),
      { concurrency: 2 }
    ).pipe(
      Effect.map((pages) => {
        const rows = new Map<string, Row>()
        for (const page of pages) {
          for (const { node } of Chunk.toReadonlyArray(page)) rows.set(node.partyId, rowOf(node))
        }
        return { rows, complete: true }
      })
    )
  },
  diff: (before, after) => diff(before, after)
})
