/**
 * Reward totals per party and asset (the sum of every reward paid so far), read completely from
 * the unpaged summaries endpoint. A total grows when an epoch ends and pays the party.
 *
 * The endpoint filters on one party and one asset at most, so with several parties (or assets)
 * configured there is one request per party (or per asset, whichever list is shorter) and the
 * other list is applied here.
 */
import type { DataNodeClient } from "@vega-effect/http"
import { Decimal, Scaling } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import type { Watch } from "../Config.js"
import type { Change, Row } from "../Event.js"
import type { DiffContext, Resource } from "../Resource.js"

export type RewardRow = { readonly partyId: string; readonly assetId: string; readonly amount: string }

export const rewardKey = (partyId: string, assetId: string): string => `${partyId}/${assetId}`

const amountOf = (row: Row | undefined): bigint => {
  const amount = row?.amount
  return typeof amount === "string" && /^-?\d+$/.test(amount) ? BigInt(amount) : 0n
}

const assetIdOf = (before: Row | undefined, after: Row | undefined): string => {
  const id = after?.assetId ?? before?.assetId
  return typeof id === "string" ? id : ""
}

/** `units` of an asset with `decimals` as an exact decimal string ("1500000000000000000" at 18 → "1.5"). */
export const humanAmount = (units: bigint, decimals: number): string =>
  Decimal.format(Scaling.fromAssetUnits(units, Scaling.assetDecimals(decimals)))

/** What `Scaling` accepts as asset decimals; anything else is reported in raw units only. */
const usableDecimals = (decimals: number): boolean => Number.isInteger(decimals) && decimals >= 0 && decimals <= 1000

/** A missing total counts as zero: a new party/asset pair is an increase from nothing. */
export const diff = (before: Row | undefined, after: Row | undefined, context: DiffContext): ReadonlyArray<Change> => {
  const [from, to] = [amountOf(before), amountOf(after)]
  const delta = to - from
  if (delta === 0n) return []
  const asset = context.asset(assetIdOf(before, after))
  const raw = { delta: delta.toString(), total: to.toString() }
  const details =
    asset === undefined || !usableDecimals(asset.decimals)
      ? raw
      : {
          delta: raw.delta,
          deltaHuman: humanAmount(delta, asset.decimals),
          symbol: asset.symbol,
          total: raw.total,
          totalHuman: humanAmount(to, asset.decimals)
        }
  return [{ kind: delta > 0n ? "reward.increased" : "reward.decreased", details }]
}

type Filters = { readonly partyId?: string; readonly assetId?: string }

/**
 * The requests that cover the configured parties and assets: one for everything, or one per entry
 * of the shorter list, naming the other list's only entry when it has just one.
 */
export const requestsFor = (options: Watch["rewards"]): ReadonlyArray<Filters> => {
  const parties = [...new Set(options.parties ?? [])]
  const assets = [...new Set(options.assets ?? [])]
  if (parties.length === 0 && assets.length === 0) return [{}]
  if (assets.length === 0) return parties.map((partyId) => ({ partyId }))
  if (parties.length === 0) return assets.map((assetId) => ({ assetId }))
  if (parties.length <= assets.length) {
    return parties.map((partyId) => (assets.length === 1 ? { partyId, assetId: assets[0] } : { partyId }))
  }
  return assets.map((assetId) => (parties.length === 1 ? { partyId: parties[0], assetId } : { assetId }))
}

export const make = (client: DataNodeClient.Service, options: Watch["rewards"]): Resource => {
  const parties = options.parties === undefined || options.parties.length === 0 ? undefined : new Set(options.parties)
  const assets = options.assets === undefined || options.assets.length === 0 ? undefined : new Set(options.assets)
  const requests = requestsFor(options)
  return {
    name: "rewards",
    read: () =>
      Effect.forEach(requests, (request) => client.listRewardSummaries(request), { concurrency: 4 }).pipe(
        Effect.map((answers) => {
          const found: Array<RewardRow> = []
          for (const { summaries } of answers) {
            for (const { amount, assetId, partyId } of summaries) {
              if (parties !== undefined && !parties.has(partyId)) continue
              if (assets !== undefined && !assets.has(assetId)) continue
              found.push({ partyId, assetId, amount: amount.toString() })
            }
          }
          // v0.75 answers in no particular order: sort so the same totals always give the same snapshot
          const key = (row: RewardRow) => rewardKey(row.partyId, row.assetId)
          found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
          return { rows: new Map<string, Row>(found.map((row) => [key(row), row])), complete: true }
        })
      ),
    diff
  }
}
