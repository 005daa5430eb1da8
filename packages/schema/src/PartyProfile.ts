/**
 * Party profiles as served by `GET /api/v2/parties/profiles`. Every party the node has seen is
 * listed, with `alias: ""` and `metadata: []` when it never set a profile.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Metadata } from "./Commands.js"
import { PartyId } from "./Ids.js"
import * as Pagination from "./Pagination.js"

/**
 * Limits the node enforces on `UpdatePartyProfile`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const LIMITS = {
  aliasMaxLength: 32,
  metadataMaxEntries: 10,
  keyMaxLength: 32,
  valueMaxLength: 255
} as const

export {
  /**
   * `vega.Metadata`: the key says what kind of value it holds. Shared with `UpdatePartyProfile`.
   *
   * @since 0.1.0
   * @category Schemas
   */
  Metadata
}

/**
 * `vega.PartyProfile`; `derivedKeys` is added by v0.79 nodes.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PartyProfile = Schema.Struct({
  partyId: PartyId,
  alias: Schema.String,
  metadata: Schema.Array(Metadata),
  derivedKeys: Schema.optionalWith(Schema.Array(Schema.String), { exact: true })
}).annotations({ identifier: "PartyProfile" })
/**
 * The decoded form of the `PartyProfile` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PartyProfile = typeof PartyProfile.Type

/**
 * Request of `GET /api/v2/parties/profiles` (`parties` repeated). Note: the node fails with HTTP
 * 500 on any `after`/`before` cursor for this endpoint; only `first`/`last` work.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListPartiesProfilesRequest = Schema.Struct({
  parties: Schema.optionalWith(Schema.Array(PartyId), { exact: true }),
  pagination: Schema.optionalWith(Pagination.PaginationParams, { exact: true })
}).annotations({ identifier: "ListPartiesProfilesRequest" })
/**
 * The decoded form of the `ListPartiesProfilesRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListPartiesProfilesRequest = typeof ListPartiesProfilesRequest.Type

/**
 * Response of `GET /api/v2/parties/profiles`: one page of profiles.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListPartiesProfilesResponse = Schema.Struct({
  profiles: Pagination.Connection(PartyProfile)
}).annotations({ identifier: "ListPartiesProfilesResponse" })
/**
 * The decoded form of the `ListPartiesProfilesResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListPartiesProfilesResponse = typeof ListPartiesProfilesResponse.Type
