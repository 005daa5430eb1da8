/**
 * Reads what a report needs from the node(s), through the data-node client:
 *
 * - the assets (symbol, decimals) of every summary and row;
 * - the reward totals per party and asset (`/api/v2/rewards/summaries`, one unpaged answer per
 *   filter: the endpoint takes one party and one asset at a time);
 * - optionally the per-epoch rows (`/api/v2/rewards`), completely (`EpochRows.ts`; a read split
 *   party by party is estimated first, and refused beyond `maxRequests`);
 * - the aliases of the parties found (profiles).
 *
 * A consistent snapshot: rewards change only when an epoch ends, possibly in the middle of a read.
 * When the rows are read for every epoch and type, the totals are read again after them; the read
 * is kept when the rows add up to the totals read before or after them, or when both totals agree
 * (nothing was paid meanwhile, so any difference is the node's). Otherwise an epoch ended during
 * the read and it is done again, up to `attempts` times.
 */
import { DataNodeClient, type DataNodeError, FailureText, ReadTracking } from "@vega-effect/http"
import { Pagination } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { Amounts, Ids } from "./Amounts.js"
import type { Snapshot } from "./Build.js"
import { isoOfNanos } from "./formats/text.js"
import { type PendingRows, readRows } from "./EpochRows.js"
import { Progress } from "./Progress.js"
import type { Rows } from "./RowCollector.js"
import { ReadError } from "./ReadError.js"
import type { TooManyRequests } from "./RequestEstimate.js"
import { listOf, type RowKeeping, type RowSource } from "./RowStore.js"
import type { AssetInfo } from "./Report.js"

export interface ReadRequest {
  /** Lowercase hex ids; empty = every party. */
  readonly parties: ReadonlyArray<string>
  /** Lowercase hex ids; empty = every asset. */
  readonly assets: ReadonlyArray<string>
  /** Read the per-epoch rows too (undefined: totals only). */
  readonly epochs:
    | {
        readonly fromEpoch: bigint | undefined
        readonly toEpoch: bigint | undefined
        /** Empty = every type. */
        readonly rewardTypes: ReadonlyArray<string>
        /** Which rows to keep (for outputs that list them); none: only their sums are kept. */
        readonly keep: RowKeeping | undefined
      }
    | undefined
  /** Attempts at a consistent snapshot when epochs end during the read. Default 3. */
  readonly attempts?: number
  /** A per-epoch read split party by party that needs more requests than this is refused before its first party request. */
  readonly maxRequests?: number | undefined
}

const failed =
  (what: string) =>
  (error: DataNodeError.DataNodeError): ReadError =>
    new ReadError({ reason: `reading ${what} failed: ${FailureText.ofError(error)}`, cause: error })

/** Each party (or none) with each asset (or none): the endpoints take one of each. */
const combinations = (request: ReadRequest): ReadonlyArray<{ partyId?: string; assetId?: string }> => {
  const parties = request.parties.length === 0 ? [undefined] : request.parties
  const assets = request.assets.length === 0 ? [undefined] : request.assets
  return parties.flatMap((partyId) =>
    assets.map((assetId) => ({
      ...(partyId === undefined ? {} : { partyId }),
      ...(assetId === undefined ? {} : { assetId })
    }))
  )
}

/**
 * The totals, answer by answer into one table. One answer holds every total it matches, unpaged:
 * hundreds of thousands on a big network, most of a hundred megabytes while it is decoded. So when
 * the per-epoch rows are read too (the read holds the most then), every party's totals are asked
 * for asset by asset (`byAsset`: the assets listed, and those the rows were paid in); otherwise in
 * one answer, which also holds assets the node did not list.
 */
const readSummaries = (request: ReadRequest, ids: Ids, byAsset?: Iterable<string>) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.DataNodeClient
    const amounts = new Amounts(ids)
    const assetByAsset = request.parties.length === 0 && request.assets.length === 0 && byAsset !== undefined
    yield* Effect.forEach(
      assetByAsset ? [...new Set(byAsset)].map((assetId) => ({ assetId })) : combinations(request),
      (filter) =>
        client.listRewardSummaries(filter).pipe(
          Effect.map((answer) => {
            for (const s of answer.summaries) amounts.add(s.partyId, s.assetId, s.amount)
          }),
          Effect.mapError(failed("reward summaries"))
        ),
      // an asset's answer can hold a fifth of a big network's totals: one decoded at a time
      { concurrency: assetByAsset ? 1 : 4, discard: true }
    )
    return amounts
  })

const readAssets = Effect.gen(function* () {
  const client = yield* DataNodeClient.DataNodeClient
  const items = yield* client.assets().pipe(Stream.runCollect, Effect.mapError(failed("assets")))
  const assets = new Map<string, AssetInfo>()
  for (const { node } of items) assets.set(node.id, toAssetInfo(node))
  return assets
})

const toAssetInfo = (asset: {
  readonly id: string
  readonly details: { readonly symbol: string; readonly name: string; readonly decimals: number }
}): AssetInfo => ({
  id: asset.id,
  symbol: asset.details.symbol,
  name: asset.details.name,
  decimals: asset.details.decimals
})

/** An asset the list did not hold (created meanwhile, or a node that lists only some), asked for by id. */
const describeAsset =
  (client: DataNodeClient.Service) =>
  (assetId: string): Effect.Effect<AssetInfo, ReadError> =>
    client.getAsset({ assetId }).pipe(
      Effect.map(({ asset }) => toAssetInfo(asset)),
      Effect.mapError(
        (error) =>
          new ReadError({
            reason: `partial data: rewards are paid in asset ${assetId}, which the node cannot describe (${FailureText.ofError(error)})`,
            cause: error
          })
      )
    )

/** Assets the list did not hold are asked for one by one. */
const completeAssets = (assets: Map<string, AssetInfo>, ids: Iterable<string>) =>
  Effect.gen(function* () {
    const describe = describeAsset(yield* DataNodeClient.DataNodeClient)
    const missing = [...new Set(ids)].filter((id) => !assets.has(id))
    yield* Effect.forEach(missing, (assetId) => Effect.map(describe(assetId), (asset) => assets.set(asset.id, asset)))
  })

/** Parties beyond this many have their aliases read from the whole profile list rather than by id. */
const PROFILES_BY_ID = 500

/** Parties per profile request by id: 50 ids keep the query under 4 kB, well within proxies' limits. */
const PROFILES_PER_REQUEST = 50

/**
 * The parties' aliases: by id for a few parties, from the whole profile list (every party the node
 * has seen, 5000 a page) for many. A node may be unable to page that list: as read from its source
 * (v0.74 on), a request with a cursor fails with HTTP 500, the cursor having no field for the
 * list's order. Then, and only then, the parties are asked for by id, 50 a request.
 */
const readAliases = (parties: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.DataNodeClient
    const aliases = new Map<string, string>()
    if (parties.size === 0) return aliases
    const add = (profile: { readonly partyId: string; readonly alias: string }) => {
      if (profile.alias !== "" && parties.has(profile.partyId)) aliases.set(profile.partyId, profile.alias)
    }
    if (parties.size > PROFILES_BY_ID) {
      const listed = yield* client.partiesProfiles({}, { pageSize: Pagination.MAX_PAGE_SIZE }).pipe(
        Stream.runForEach(({ node }) => Effect.sync(() => add(node))),
        Effect.either
      )
      if (Either.isRight(listed)) return aliases
      yield* Effect.logWarning(
        `the node could not page its party profiles (${FailureText.ofError(listed.left)}): reading the ${parties.size} parties by id`
      )
    }
    const ids = [...parties]
    const batches = Array.from({ length: Math.ceil(ids.length / PROFILES_PER_REQUEST) }, (_, i) =>
      ids.slice(i * PROFILES_PER_REQUEST, (i + 1) * PROFILES_PER_REQUEST)
    )
    yield* Effect.forEach(
      batches,
      (batch) =>
        client.partiesProfiles({ parties: batch }).pipe(
          Stream.runForEach(({ node }) => Effect.sync(() => add(node))),
          Effect.mapError(failed("party profiles"))
        ),
      { concurrency: 2, discard: true }
    )
    return aliases
  })

/**
 * The rows can be checked against the totals only when read for every epoch and type: limited rows
 * add up to less than the all-time totals.
 */
const isComparable = (epochs: ReadRequest["epochs"]): boolean =>
  epochs !== undefined &&
  epochs.fromEpoch === undefined &&
  epochs.toEpoch === undefined &&
  epochs.rewardTypes.length === 0

const noRows: RowSource = { count: 0, rows: () => listOf([]), close: () => undefined }

/** What one attempt read, and whether it can be kept (no epoch ended during it, see above). */
interface Attempt {
  readonly assets: Map<string, AssetInfo>
  readonly summaries: Amounts
  readonly rows: Rows | undefined
  readonly settled: boolean
}

/** One attempt: statistics, assets, totals and rows, and (when comparable) the totals again after the rows. */
const readAttempt = (
  request: ReadRequest,
  comparable: boolean
): Effect.Effect<Attempt, ReadError | TooManyRequests, DataNodeClient.DataNodeClient | Progress | Scope.Scope> =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.DataNodeClient
    const progress = yield* Progress
    const epochs = request.epochs
    const ids = new Ids()
    yield* progress.step("reading chain statistics")
    const { statistics } = yield* client.statistics.pipe(Effect.mapError(failed("chain statistics")))
    yield* progress.step("reading assets")
    const assets = yield* readAssets
    yield* progress.step("reading reward totals")
    const summaries = yield* readSummaries(request, ids, epochs === undefined ? undefined : assets.keys())
    if (epochs === undefined) return { assets, summaries, rows: undefined, settled: true }
    // the current epoch's rewards may be paid during the read: it is included, and checked below
    const fromEpoch = epochs.fromEpoch ?? 0n
    const toEpoch = epochs.toEpoch ?? statistics.epochSeq
    const pending: PendingRows =
      fromEpoch > toEpoch
        ? {
            paidIn: [],
            result: Effect.succeed({
              kept: epochs.keep === undefined ? undefined : noRows,
              sums: new Amounts(ids),
              count: 0
            })
          }
        : yield* readRows({
            ids,
            filters: combinations(request),
            fromEpoch,
            toEpoch,
            rewardTypes: new Set(epochs.rewardTypes),
            keep: epochs.keep,
            assets,
            describeAsset: describeAsset(client),
            partiesOf: (assetId) => summaries.partiesOf(assetId),
            assetName: (id) => assets.get(id)?.symbol ?? id,
            maxRequests: request.maxRequests
          })
    if (!comparable) return { assets, summaries, rows: yield* pending.result, settled: true }
    yield* progress.step("reading reward totals again")
    // the rows' thread finishes its work with the rows meanwhile
    const after = yield* readSummaries(request, ids, [...assets.keys(), ...pending.paidIn])
    const rows = yield* pending.result
    if (after.equals(rows.sums)) return { assets, summaries: after, rows, settled: true }
    // unchanged totals: nothing was paid during the read, so a difference is the node's own
    const settled = summaries.equals(after) || summaries.equals(rows.sums)
    return { assets, summaries, rows, settled }
  })

/** Attempts until one is settled (at most `attempts`), then the assets and aliases that one needs. */
const readSettled = (request: ReadRequest, comparable: boolean) =>
  Effect.gen(function* () {
    const progress = yield* Progress
    const attempts = request.attempts ?? 3
    for (let n = 1; ; n++) {
      const result = yield* readAttempt(request, comparable)
      if (result.settled) {
        const { assets, rows, summaries } = result
        const tables = rows === undefined ? [summaries] : [summaries, rows.sums]
        yield* completeAssets(
          assets,
          tables.flatMap((table) => table.assets())
        )
        yield* progress.step("reading party aliases")
        const parties = new Set(tables.flatMap((table) => [...table.parties()]))
        const aliases = yield* readAliases(parties)
        return { assets, rows, summaries, aliases }
      }
      // the rows of an attempt that is not kept are not needed any more
      result.rows?.kept?.close()
      if (n >= attempts) {
        return yield* new ReadError({
          reason: `partial data: rewards kept being paid while reading (${attempts} attempts); try again`
        })
      }
      yield* Effect.logWarning("rewards were paid during the read (an epoch ended): reading again")
    }
  })

/** Reads a snapshot; its provenance says which nodes answered and at which heights. */
export const read = (
  request: ReadRequest
): Effect.Effect<Snapshot, ReadError | TooManyRequests, DataNodeClient.DataNodeClient | Progress | Scope.Scope> =>
  Effect.gen(function* () {
    const progress = yield* Progress
    const epochs = request.epochs
    const comparable = isComparable(epochs)
    const tracked = yield* ReadTracking.track(readSettled(request, comparable)).pipe(Effect.ensuring(progress.finish))
    const { aliases, assets, rows } = tracked[0]
    // limited rows cannot be compared with all-time totals: the report's totals are then their sums
    const summaries = comparable || rows === undefined ? tracked[0].summaries : rows.sums
    const reads = tracked[1]
    if (reads.highest === undefined || reads.lowest === undefined) {
      return yield* new ReadError({ reason: "the node sent no block height with its answers (X-Block-Height)" })
    }
    const blockTime = reads.highest.blockTimestamp
    return {
      assets,
      summaries,
      aliases,
      rows: rows?.kept,
      rowSums: rows === undefined ? undefined : { sums: rows.sums, count: rows.count },
      notComparable:
        epochs === undefined || comparable
          ? undefined
          : "the per-epoch rows were limited to an epoch range or to some reward types, so the totals are their sums",
      provenance: {
        nodes: reads.nodes,
        height: BigInt(reads.highest.height),
        lowestHeight: BigInt(reads.lowest.height),
        blockTime: blockTime === undefined || !/^\d+$/.test(blockTime) ? "unknown" : isoOfNanos(BigInt(blockTime))
      }
    } satisfies Snapshot
  })
