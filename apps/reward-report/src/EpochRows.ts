/**
 * Every per-epoch reward row (`GET /api/v2/rewards`) of an epoch range, completely.
 *
 * Rows are read by epoch windows (`DataNodeClient.rewardsByEpoch`), and an epoch with more rows
 * than one answer holds (5000) by cursor, each page checked to continue the one before. A node
 * whose cursor restarts the epoch (the v0.75 node as read from its source: it orders these rows by
 * epoch only) fails that epoch with none of its rows delivered, and the client remembers it for the
 * rest of the run: its later big epochs fail at once, without a cursor request. Such an epoch is
 * read split up instead: asset by asset, and an asset still too big party by party (the parties
 * with a total in that asset), one request each. That can take a long time at the node's rate, so
 * it is estimated first (`RequestEstimate.ts`): announced when longer than a minute, refused beyond
 * `maxRequests`. Only a single party with more than 5000 payouts of one asset in one epoch cannot
 * be read this way, and fails the read rather than leave rows out.
 *
 * Rows are added up per party and asset as they arrive, and kept only as far as the output needs
 * them (`RowCollector.ts`): an output listing every row of a read of one filter has them laid out
 * as it shows them, on a thread of their own while the read goes on (`RowThread.ts`); the rows of
 * several filters are kept in a temporary file, sorted a window of whole epochs at a time
 * (`RowStore.ts`).
 * Never as objects: a million decoded rows would take most of a gigabyte, their sums take a few
 * megabytes.
 */
import { DataNodeClient, type DataNodeError, FailureText } from "@vega-effect/http"
import { Pagination, type Reward } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Ids } from "./Amounts.js"
import { Progress, type Service as ProgressService } from "./Progress.js"
import { ReadError } from "./ReadError.js"
import type { AssetInfo } from "./Report.js"
import { guard, type TooManyRequests } from "./RequestEstimate.js"
import { inThread, type RowCollector, type Rows } from "./RowCollector.js"
import { type RowKeeping, sinkFor } from "./RowStore.js"
import { threaded } from "./RowThread.js"

export interface RowsRequest {
  /** The read's ids, shared with its other tables. */
  readonly ids: Ids
  /** Each filter is read on its own (the endpoint takes one party and one asset at a time). */
  readonly filters: ReadonlyArray<{ readonly partyId?: string; readonly assetId?: string }>
  readonly fromEpoch: bigint
  readonly toEpoch: bigint
  /** Only rows of these types are counted; empty = every type. */
  readonly rewardTypes: ReadonlySet<string>
  /** Which rows to keep (for outputs that list them); none: only their sums are kept. */
  readonly keep: RowKeeping | undefined
  /**
   * The assets known, by id: every one, to split an epoch too big for one answer. An asset a row is
   * paid in that is not known may be described (`describeAsset`) and added while the rows are read.
   */
  readonly assets: Map<string, AssetInfo>
  readonly describeAsset: (assetId: string) => Effect.Effect<AssetInfo, ReadError>
  /** The parties that can have rows in an asset (those with a total in it), to split further. */
  readonly partiesOf: (assetId: string) => ReadonlyArray<string>
  /** An asset as people know it (its symbol), for messages. */
  readonly assetName?: (assetId: string) => string
  /** A party-by-party read needing more requests than this is refused before its first party request. */
  readonly maxRequests?: number | undefined
}

type Filter = RowsRequest["filters"][number]

const failed = (error: DataNodeError.DataNodeError): ReadError =>
  new ReadError({ reason: `reading per-epoch rewards failed: ${FailureText.ofError(error)}`, cause: error })

/** What one read of the range works with: the client, the request, where rows go, the progress bar. */
interface Reading {
  readonly client: DataNodeClient.Service
  readonly progress: ProgressService
  readonly request: RowsRequest
  readonly collector: RowCollector
  /** How many epochs the range has (the progress counts epochs, filter after filter). */
  readonly epochs: number
}

/** One epoch of `filter` in one answer: its rows, or none when they do not fit. */
const oneEpoch = (
  client: DataNodeClient.Service,
  filter: Filter,
  epoch: bigint
): Effect.Effect<ReadonlyArray<Reward.Reward> | undefined, ReadError> =>
  client
    .listRewards({
      ...filter,
      fromEpoch: epoch.toString(),
      toEpoch: epoch.toString(),
      pagination: { first: Pagination.MAX_PAGE_SIZE, newestFirst: false }
    })
    .pipe(
      Effect.map(({ rewards }) => (rewards.pageInfo.hasNextPage ? undefined : rewards.edges.map((e) => e.node))),
      Effect.mapError(failed)
    )

const tooBig = (epoch: bigint, what: string) =>
  new ReadError({
    reason: `partial data: epoch ${epoch} has more than ${Pagination.MAX_PAGE_SIZE} payouts ${what}, which the node cannot list completely (it pages rewards by epoch only)`
  })

/** The assets of `epoch` whose rows do not fit one answer; the others' rows are collected on the way. */
const bigAssets = (reading: Reading, filter: Filter, epoch: bigint): Effect.Effect<Array<string>, ReadError> =>
  Effect.gen(function* () {
    const { client, collector, request } = reading
    const big: Array<string> = []
    for (const assetId of filter.assetId === undefined ? [...request.assets.keys()] : [filter.assetId]) {
      const rows = yield* oneEpoch(client, { ...filter, assetId }, epoch)
      if (rows !== undefined) collector.add(rows)
      else if (filter.partyId !== undefined) {
        return yield* tooBig(epoch, `for party ${filter.partyId} in asset ${assetId}`)
      } else big.push(assetId)
    }
    return big
  })

/**
 * An epoch too big for one answer, read asset by asset and, where still too big, party by party:
 * estimated, announced or refused first, with its own progress.
 */
const splitEpoch = (
  reading: Reading,
  filter: Filter,
  epoch: bigint
): Effect.Effect<void, ReadError | TooManyRequests, Progress> =>
  Effect.gen(function* () {
    const { client, collector, progress, request } = reading
    const big = yield* bigAssets(reading, filter, epoch)
    if (big.length === 0) return
    const reads = big.flatMap((assetId) => request.partiesOf(assetId).map((partyId) => ({ partyId, assetId })))
    const names = big.map((a) => request.assetName?.(a) ?? a).join(", ")
    const what = `epoch ${epoch} has more than ${Pagination.MAX_PAGE_SIZE} payouts in ${names} that the node cannot page: reading them party by party`
    yield* guard(what, reads.length, request.maxRequests)
    yield* Effect.logDebug(`${what} (${reads.length} requests)`)
    yield* progress.step(`epoch ${epoch}, party by party`, reads.length)
    let done = 0
    const pages = yield* Effect.forEach(
      reads,
      (read) => Effect.tap(oneEpoch(client, read, epoch), () => progress.update(++done)),
      { concurrency: 4 }
    )
    for (const [i, page] of pages.entries()) {
      if (page === undefined) return yield* tooBig(epoch, `for party ${reads[i].partyId} in asset ${reads[i].assetId}`)
      collector.add(page)
    }
  }).pipe(Effect.tap(() => reading.collector.seal))

/** The range for one filter: windows of epochs, with the epochs too big for them split up. */
const readFilter = (
  reading: Reading,
  filter: Filter,
  index: number
): Effect.Effect<void, ReadError | TooManyRequests, Progress> =>
  Effect.gen(function* () {
    const { client, collector, progress, epochs } = reading
    const { fromEpoch, toEpoch } = reading.request
    let cursor = fromEpoch
    while (cursor <= toEpoch) {
      let last: bigint | undefined
      const outcome = yield* client.rewardsByEpoch({ ...filter, fromEpoch: cursor, toEpoch }).pipe(
        // a chunk is a window of whole epochs (see `rewardsByEpoch`)
        Stream.runForEachChunk((chunk) =>
          Effect.suspend(() => {
            collector.add(Chunk.toReadonlyArray(chunk))
            const lastRow = Chunk.last(chunk)
            if (lastRow._tag === "None") return collector.seal
            last = lastRow.value.epoch
            return Effect.zipRight(collector.seal, progress.update(index * epochs + Number(last - fromEpoch + 1n)))
          })
        ),
        Effect.either
      )
      if (Either.isRight(outcome)) return
      if (outcome.left._tag === "ReadError") return yield* outcome.left
      if (outcome.left._tag !== "PaginationLoopError") return yield* failed(outcome.left)
      // windows are delivered whole: every epoch up to the last row delivered is complete; find
      // the first epoch after it that does not fit one answer, taking the others on the way
      let epoch = last === undefined ? cursor : last + 1n
      for (;;) {
        if (epoch > toEpoch) return yield* failed(outcome.left)
        const rows = yield* oneEpoch(client, filter, epoch)
        if (rows === undefined) break
        collector.add(rows)
        yield* collector.seal
        epoch++
      }
      yield* splitEpoch(reading, filter, epoch)
      yield* progress.step("reading per-epoch rewards", epochs * reading.request.filters.length)
      yield* progress.update(index * epochs + Number(epoch - fromEpoch + 1n))
      cursor = epoch + 1n
    }
  })

/** Where the rows go when they are kept in this thread, let go when the scope closes. */
const keptRows = (keep: RowKeeping | undefined, ids: Ids) =>
  Effect.acquireRelease(
    Effect.sync(() => (keep === undefined ? undefined : sinkFor(keep, ids))),
    (sink) => Effect.sync(() => sink?.close())
  )

/** Rows listed in full go to a thread of their own to be laid out when they come in report order (a read of one filter). */
const collectorFor = (request: RowsRequest): Effect.Effect<RowCollector, never, Scope.Scope> => {
  const keep = request.keep
  if (request.filters.length === 1 && keep !== undefined && "template" in keep) {
    return threaded({
      ids: request.ids,
      types: request.rewardTypes,
      template: keep.template,
      assets: request.assets,
      describeAsset: request.describeAsset
    })
  }
  return Effect.map(keptRows(keep, request.ids), (sink) => inThread(request.ids, request.rewardTypes, sink))
}

/**
 * The rows read: the assets they were paid in, and the rows themselves once the thread they went
 * to (if any) has done its work with them (it goes on while other reads are made).
 */
export interface PendingRows {
  readonly paidIn: ReadonlyArray<string>
  readonly result: Effect.Effect<Rows, ReadError>
}

/** Reads the rows; the kept ones stay readable until the scope closes. */
export const readRows = (
  request: RowsRequest
): Effect.Effect<PendingRows, ReadError | TooManyRequests, DataNodeClient.DataNodeClient | Progress | Scope.Scope> =>
  Effect.gen(function* () {
    const reading: Reading = {
      client: yield* DataNodeClient.DataNodeClient,
      progress: yield* Progress,
      request,
      collector: yield* collectorFor(request),
      epochs: Number(request.toEpoch - request.fromEpoch + 1n)
    }
    yield* reading.progress.step("reading per-epoch rewards", reading.epochs * request.filters.length)
    for (const [index, filter] of request.filters.entries()) yield* readFilter(reading, filter, index)
    reading.collector.done()
    return { paidIn: reading.collector.paidIn(), result: reading.collector.result }
  })
