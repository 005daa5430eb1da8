/**
 * How the node reads ids: hex in any case (stored as bytes, written back lowercase), plus the
 * well-known `network` party.
 */
import { Ids } from "@vega-effect/schema"
import { isHexBytes } from "../hex.js"

/** Lowercase form of a valid id, or undefined. */
export const normalizeId = (s: string): string | undefined =>
  s === Ids.NETWORK_PARTY ? s : Ids.isVegaId(s) ? s.toLowerCase() : undefined

/** Whether a filter value survives the node's hex decoding (any even-length hex, or `network`). */
export const decodesAsId = (s: string): boolean => s === Ids.NETWORK_PARTY || isHexBytes(s)

/**
 * `NewVegaIDSlice(...).Ensure()` (datanode/api/trading_data_v2.go, v0.75.8): each element is split
 * on commas, then every part must be 64 hex or `network`; the lowercase ids, or undefined.
 */
export const vegaIds = (values: ReadonlyArray<string>): Array<string> | undefined => {
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
