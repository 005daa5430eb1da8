/**
 * How the node reads ids: hex in any case (stored as bytes, written back lowercase), plus the
 * well-known `network` party.
 */
import { GatewayError, Ids } from "@vega-effect/schema"
import { isHexBytes } from "../hex.js"
import type { Params, Reply } from "../route.js"
import { strings } from "./params.js"
import { error } from "./reply.js"

/** Lowercase form of a valid id, or undefined. */
export const normalizeId = (s: string): string | undefined =>
  s === Ids.NETWORK_PARTY ? s : Ids.isVegaId(s) ? s.toLowerCase() : undefined

/**
 * The well-known ids the store keeps as fixed bytes (`wellKnownIds`, datanode/entities/id.go,
 * v0.75.8), as lowercase hex.
 */
const WELL_KNOWN: Readonly<Record<string, string>> = {
  VOTE: "00",
  [Ids.NETWORK_PARTY]: "03",
  XYZalpha: "04",
  XYZbeta: "05",
  XYZdelta: "06",
  XYZepsilon: "07",
  XYZgamma: "08",
  fBTC: "09",
  fDAI: "0a",
  fEURO: "0b",
  fUSDC: "0c"
}

/**
 * The bytes the store compares an id by (`ID.Bytes()`: a well-known name's fixed bytes, else
 * `hex.DecodeString`), as lowercase hex; undefined when it does not decode.
 */
export const storedIdKey = (s: string): string | undefined =>
  Object.hasOwn(WELL_KNOWN, s) ? WELL_KNOWN[s] : isHexBytes(s) ? s.toLowerCase() : undefined

/** Whether a filter value survives the node's hex decoding (any even-length hex, or a well-known id). */
export const decodesAsId = (s: string): boolean => storedIdKey(s) !== undefined

/**
 * The node's `NewVegaIDSlice(...).Ensure()` (`datanode/api/trading_data_v2.go`, v0.75.8): each
 * element split on commas, each part `network` or 64 hex digits. The ids lowercase, or undefined
 * when a part is neither.
 */
export const vegaIdSlice = (values: ReadonlyArray<string>): Array<string> | undefined => {
  const out: Array<string> = []
  for (const value of values) {
    for (const part of value.split(",")) {
      const id = normalizeId(part)
      if (id === undefined) return undefined
      out.push(id)
    }
  }
  return out
}

/**
 * The `filter.marketIds` and `filter.partyIds` of the lists that take both (positions, orders,
 * accounts), each read as {@link vegaIdSlice}: the market ids checked first, and both answered
 * with the invalid-party-id error and their own message, as the node does.
 */
export const marketAndPartyIds = (
  params: Params
): { readonly marketIds: Array<string>; readonly partyIds: Array<string> } | Reply => {
  const marketIds = vegaIdSlice(strings(params, "filter.marketIds"))
  if (marketIds === undefined) {
    return error(GatewayError.fromApiError(GatewayError.ApiErrors.InvalidPartyId, "one or more market id is invalid"))
  }
  const partyIds = vegaIdSlice(strings(params, "filter.partyIds"))
  if (partyIds === undefined) {
    return error(GatewayError.fromApiError(GatewayError.ApiErrors.InvalidPartyId, "one or more party id is invalid"))
  }
  return { marketIds, partyIds }
}
