/**
 * `GET /api/v2/parties/profiles` (ListPartiesProfiles): every party the node has seen.
 */
import { DataNodeApi, Encoder, GatewayError, PartyProfile } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Party } from "../world/catalog.js"
import type { ProfileRow } from "../world/profiles.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { cachedJsonByVersion, list } from "./connection.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { ProfileCursor, writeCursor } from "./cursors.js"
import { normalizeId } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, strings } from "./params.js"
import { badCursor, error, internal, invalidPagination, notHex, ok } from "./reply.js"

const encode = Encoder.stringify(PartyProfile.PartyProfile)

/** A profile; v0.79 adds the party's AMM keys (`derivedKeys`), none here. */
export const profileValue = (row: ProfileRow, version: NodeVersion = "v0.75"): PartyProfile.PartyProfile =>
  ({
    partyId: row.party.id,
    alias: row.alias,
    metadata: row.metadata,
    ...(since(version, "v0.79") ? { derivedKeys: [] } : {})
  }) as unknown as PartyProfile.PartyProfile

export const profileJson = cachedJsonByVersion((row: ProfileRow, version) => encode(profileValue(row, version)))

/** The cursor is the whole profile, with `Metadata: null` when there is none. */
export const profileCursor = (row: ProfileRow): string =>
  writeCursor(ProfileCursor, [row.party.id, row.alias, row.metadata.length === 0 ? null : row.metadata])

const { ApiErrors } = GatewayError

const handle = (params: Params, node: NodeView): Reply => {
  const pageParams = pagination(params)
  const request = resolve(pageParams)
  if ("error" in request) return invalidPagination(request.error)
  const wanted: Array<string> = []
  for (const raw of strings(params, "parties")) {
    const id = normalizeId(raw)
    if (id === undefined) {
      return error(GatewayError.fromApiError(ApiErrors.PartiesProfiles, `invalid party ID found: ${notHex(raw)}`))
    }
    wanted.push(id)
  }
  // v0.75: the cursor struct has no field for the ordering column, so any cursor fails
  if (node.quirks && (pageParams.after !== undefined || pageParams.before !== undefined)) {
    return internal(ApiErrors.PartiesProfiles, "building cursor predicate: no field matching column name id")
  }
  const { profiles } = node.world
  const height = node.readableHeight
  const filter = wanted.length === 0 ? undefined : new Set(wanted)
  const parties: ReadonlyArray<Party> = profiles.parties
  const profileOf = (party: Party): ProfileRow => profiles.at(party, height)!
  const result = list<Party, string>({
    request,
    cursor: ProfileCursor,
    keyOf: (v) => idSortKey((v.get("PartyID") as string).toLowerCase()),
    source: {
      size: parties.length,
      at: (i) => parties[i],
      include: (party) => (filter === undefined || filter.has(party.id)) && profiles.at(party, height) !== undefined,
      compare: (party, key) => compareStrings(party.key, key),
      cursorOf: (party) => profileCursor(profileOf(party))
    },
    nodeJson: (party) => profileJson(node.nodeVersion)(profileOf(party))
  })
  if ("cursorError" in result) return internal(ApiErrors.PartiesProfiles, badCursor(result.cursorError))
  return ok(`{"profiles":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListPartiesProfiles.method,
  path: DataNodeApi.ListPartiesProfiles.path,
  params: [param("parties", "string", true), ...paginationParams],
  handle
}
