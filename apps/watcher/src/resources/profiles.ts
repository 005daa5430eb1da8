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
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Row } from "../Event.js"
import { changedFields } from "../FieldChanges.js"
import type { Resource } from "../Resource.js"
import { type DecodedDiff, define, liveRows, noAssets, rowDiff, SHARED_BUS, unsharded } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

/** `watch.profiles`: the parties to watch (absent: all). */
const fields = { parties: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

const encodeProfile = Encoder.encodeSync(PartyProfile.PartyProfile)

/** A profile as the resource stores it: the REST row. */
export const rowOf = (profile: PartyProfile.PartyProfile): Row => encodeProfile(profile)

/** The row of a party new to the network: listed with an empty alias and no metadata. */
export const newPartyRow = (partyId: string): Row => ({ partyId, alias: "", metadata: [] })

/** Parties per request when filtering: 50 ids keep the URL near 4 KB. */
const PARTIES_PER_REQUEST = 50

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Metadata as key → value; the node keeps keys unique per profile. */
const metadataOf = (profile: PartyProfile.PartyProfile): ReadonlyMap<string, string> =>
  new Map(profile.metadata.map(({ key, value }) => [key, value]))

const profileDetails = (profile: PartyProfile.PartyProfile) => ({
  alias: profile.alias,
  metadata: [...metadataOf(profile).keys()].sort(byText)
})

const metadataChange = (before: PartyProfile.PartyProfile, after: PartyProfile.PartyProfile): Change | undefined => {
  const [was, now] = [metadataOf(before), metadataOf(after)]
  const added = [...now.keys()].filter((key) => !was.has(key)).sort(byText)
  const removed = [...was.keys()].filter((key) => !now.has(key)).sort(byText)
  const changed = [...now.keys()].filter((key) => was.has(key) && was.get(key) !== now.get(key)).sort(byText)
  return added.length + removed.length + changed.length > 0
    ? { kind: "profile.metadata_changed", details: { added, removed, changed } }
    : undefined
}

const fieldsChanged = changedFields(PartyProfile.PartyProfile)

/** Fields other than alias and metadata that differ (a newer node's `derivedKeys`), by name. */
const otherFieldsChanged = (before: PartyProfile.PartyProfile, after: PartyProfile.PartyProfile): Array<string> =>
  fieldsChanged(before, after)
    .filter((field) => field !== "alias" && field !== "metadata")
    .sort(byText)

const diffDecoded: DecodedDiff<PartyProfile.PartyProfile, Options> = (before, after) => {
  if (after === undefined) {
    return before === undefined ? [] : [{ kind: "profile.removed", details: profileDetails(before) }]
  }
  if (before === undefined) return [{ kind: "profile.created", details: profileDetails(after) }]
  const changes: Array<Change> = []
  if (before.alias !== after.alias) {
    changes.push({ kind: "profile.alias_changed", details: { from: before.alias, to: after.alias } })
  }
  const metadata = metadataChange(before, after)
  if (metadata !== undefined) changes.push(metadata)
  // metadata merely reordered is no change
  const others = otherFieldsChanged(before, after)
  if (others.length > 0) changes.push({ kind: "profile.changed", details: { fields: others } })
  return changes
}

const diffRows = rowDiff(PartyProfile.PartyProfile, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diff = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, { enabled: true })

const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export const make = (client: DataNodeClient.Service, options: Options): Resource => ({
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

/** Profiles: one slice, fed by the bus's profile updates and new parties, as whole rows. */
export const definition = define({
  ...catalog.profiles,
  sharding: unsharded,
  options: fields,
  reader: ({ client, options }) => make(client, options),
  live: {
    _tag: "Bus",
    types: ["BUS_EVENT_TYPE_PARTY_PROFILE_UPDATED", "BUS_EVENT_TYPE_PARTY"],
    subscription: SHARED_BUS,
    // whole rows: an updated profile, or a new party's empty one
    change: (event) => {
      const profile = event.partyProfileUpdated?.updatedProfile
      if (profile !== undefined) return liveRows([[profile.partyId, rowOf(profile)]])
      return event.party === undefined ? undefined : liveRows([[event.party.id, newPartyRow(event.party.id)]])
    }
  },
  row: PartyProfile.PartyProfile,
  diff: diffDecoded,
  mainFields: ["alias", "metadata", "derivedKeys"],
  units: Units.none
})
