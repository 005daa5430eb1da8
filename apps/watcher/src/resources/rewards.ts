/**
 * Reward totals per party and asset (the sum of every reward paid so far), read completely from
 * the unpaged summaries endpoint. A total grows when an epoch ends and pays the party.
 *
 * The endpoint filters on one party and one asset at most, so with several parties (or assets)
 * configured there is one request per party (or per asset, whichever list is shorter) and the
 * other list is applied here.
 */
import type { DataNodeClient } from "@vega-effect/http"
import { Amount, Decimal, Scaling } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Change, Row } from "../Event.js"
import type { DiffContext, Resource } from "../Resource.js"
import { type DecodedDiff, define, liveHint, rowDiff, unsharded } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

/** `watch.rewards`: the parties and assets to watch (absent: all). */
const fields = { parties: Schema.optional(IdList), assets: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

/** A reward total as the watcher stores it: the party's sum of rewards paid in one asset, in its base units. */
export const RewardRow = Schema.Struct({ partyId: Schema.String, assetId: Schema.String, amount: Amount.SignedAmount })
export type RewardRow = typeof RewardRow.Encoded

export const rewardKey = (partyId: string, assetId: string): string => `${partyId}/${assetId}`

/** `units` of an asset with `decimals` as an exact decimal string ("1500000000000000000" at 18 → "1.5"). */
export const humanAmount = (units: bigint, decimals: number): string =>
  Decimal.format(Scaling.fromAssetUnits(units, Scaling.assetDecimals(decimals)))

/** What `Scaling` accepts as asset decimals; anything else is reported in raw units only. */
const usableDecimals = (decimals: number): boolean => Number.isInteger(decimals) && decimals >= 0 && decimals <= 1000

/** A missing total counts as zero: a new party/asset pair is an increase from nothing. */
const diffDecoded: DecodedDiff<typeof RewardRow.Type, Options> = (before, after, context) => {
  const [from, to] = [before?.amount ?? 0n, after?.amount ?? 0n]
  const delta = to - from
  if (delta === 0n) return []
  const asset = context.asset(after?.assetId ?? before?.assetId ?? "")
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

const diffRows = rowDiff(RewardRow, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diff = (before: Row | undefined, after: Row | undefined, context: DiffContext): ReadonlyArray<Change> =>
  diffRows(before, after, context, { enabled: true })

type Filters = { readonly partyId?: string; readonly assetId?: string }

/**
 * The requests that cover the configured parties and assets: one for everything, or one per entry
 * of the shorter list, naming the other list's only entry when it has just one.
 */
export const requestsFor = (options: Options): ReadonlyArray<Filters> => {
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

export const make = (client: DataNodeClient.Service, options: Options): Resource => {
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

/**
 * Reward totals: one slice, fed by reward payouts on a bus subscription of their own (they all come
 * in an epoch's last block, a message that can pass the 64 KiB a WebSocket line may hold: on their
 * own, that close costs a read of the totals only, not of every resource the shared bus feeds).
 */
export const definition = define({
  ...catalog.rewards,
  sharding: unsharded,
  options: fields,
  reader: ({ client, options }) => make(client, options),
  // a payout, not a sum: the totals are read again
  live: {
    _tag: "Bus",
    types: ["BUS_EVENT_TYPE_REWARD_PAYOUT_EVENT"],
    subscription: "payouts",
    change: (event) => (event.rewardPayout === undefined ? undefined : liveHint(""))
  },
  row: RewardRow,
  diff: diffDecoded,
  mainFields: ["amount"],
  units: {
    ids: (row) => ({ asset: Units.textAt(row, "assetId") }),
    fields: { amount: "asset" },
    details: { delta: "asset", total: "asset" }
  }
})
