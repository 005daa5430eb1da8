/**
 * Every reward row of an inclusive epoch range (see `DataNodeClient.Service.rewardsByEpoch`):
 * windows of epochs, each accepted only when the node says nothing is left in it, a window that
 * hits the limit read again narrower (down to the epochs its answer covered); a single epoch too big for one answer paged by cursor,
 * each page checked to continue the one before (`epochCursor.ts`).
 */
import * as Paginate from "@vega-effect/pagination/Paginate"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as Pagination from "@vega-effect/schema/Pagination"
import type * as Reward from "@vega-effect/schema/Reward"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import { call } from "./endpoints.js"
import { readEpoch, type Restarts } from "./epochCursor.js"
import type { Pin, Transport } from "./transport.js"

export interface RewardsByEpochRequest {
  readonly partyId?: string
  readonly assetId?: string
  readonly fromEpoch: bigint | number | string
  readonly toEpoch: bigint | number | string
}

const UINT64_MAX = 2n ** 64n - 1n
const name = DataNodeApi.ListRewards.name

const epochOf = (value: bigint | number | string): bigint | undefined => {
  try {
    const n = BigInt(value)
    return n >= 0n && n <= UINT64_MAX ? n : undefined
  } catch {
    return undefined
  }
}

/** The next epoch to read, and the window width that last fitted. */
interface Window {
  readonly lo: bigint
  readonly width: bigint
}

type Read = (
  lo: bigint,
  hi: bigint,
  first: number,
  after?: string
) => Effect.Effect<Reward.ListRewardsResponse["rewards"], Errors.DataNodeError>

/** How the windows are read: one request, the node that answered it, the nodes known to restart epochs. */
interface Reader {
  readonly read: Read
  readonly pin: Pin
  readonly restarts: Restarts
}

/** Reads from `window.lo` with the widest window that fits in `pageSize` rows. */
const step = (reader: Reader, to: bigint, pageSize: number) => (window: Window) =>
  Effect.gen(function* () {
    let width = window.width
    for (;;) {
      const hi = window.lo + width - 1n > to ? to : window.lo + width - 1n
      const single = hi === window.lo
      const page = yield* reader.read(window.lo, hi, single ? Pagination.MAX_PAGE_SIZE : pageSize)
      if (!page.pageInfo.hasNextPage || single) {
        const rows: ReadonlyArray<Reward.Reward> = page.pageInfo.hasNextPage
          ? yield* readEpoch(
              {
                endpoint: name,
                epoch: hi,
                fetch: (after) => reader.read(hi, hi, Pagination.MAX_PAGE_SIZE, after),
                node: () => reader.pin.node,
                restarts: reader.restarts
              },
              page
            )
          : page.edges.map((e) => e.node)
        // a window well under the limit: try a wider one next
        const next: Window = { lo: hi + 1n, width: rows.length * 4 < pageSize ? width * 2n : width }
        return [rows, next.lo > to ? Option.none<Window>() : Option.some(next)] as const
      }
      width = narrower(window.lo, hi, page)
    }
  }).pipe(Effect.withSpan("DataNodeClient.rewardsByEpoch"))

/**
 * The width to try after the window `lo..hi` hit the limit. Its answer holds the window's oldest
 * rows (oldest epoch first), so the epochs before the last one it reaches are likely to fit in one
 * answer: read them next, rather than halving the window answer after answer (each a full answer
 * decoded for nothing: eight of them to come down from 250 epochs to one). Only a hint: the
 * narrower window is still accepted only when the node says nothing is left in it, and it is always
 * narrower than this one.
 */
const narrower = (lo: bigint, hi: bigint, page: Reward.ListRewardsResponse["rewards"]): bigint => {
  const last = page.edges.at(-1)?.node.epoch
  if (last === undefined || last < lo || last > hi) return (hi - lo + 1n) / 2n
  // every row of the answer in the window's first epoch: that epoch alone fills an answer
  return last === lo ? 1n : last - lo
}

export const rewardsByEpoch = (
  transport: Transport,
  restarts: Restarts,
  request: RewardsByEpochRequest,
  options: { readonly pageSize?: number } = {}
): Stream.Stream<Reward.Reward, Errors.DataNodeError> =>
  Stream.suspend(() => {
    const pageSize = options.pageSize ?? Pagination.MAX_PAGE_SIZE
    const from = epochOf(request.fromEpoch)
    const to = epochOf(request.toEpoch)
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > Pagination.MAX_PAGE_SIZE) {
      const reason = `pageSize must be an integer in 1..${Pagination.MAX_PAGE_SIZE}, got ${pageSize}`
      return Stream.fail(new Errors.InvalidRequestError({ endpoint: name, reason }))
    }
    if (from === undefined || to === undefined) {
      const reason = `fromEpoch and toEpoch must be uint64 values, got ${String(request.fromEpoch)} and ${String(request.toEpoch)}`
      return Stream.fail(new Errors.InvalidRequestError({ endpoint: name, reason }))
    }
    if (from > to) return Stream.empty
    // all windows are read from one node while it stays healthy
    const pin: Pin = { node: undefined, height: undefined }
    const fetch = call(transport, DataNodeApi.ListRewards, pin)
    const filters = {
      ...(request.partyId === undefined ? {} : { partyId: request.partyId }),
      ...(request.assetId === undefined ? {} : { assetId: request.assetId })
    }
    const read: Read = (lo, hi, first, after) =>
      Effect.map(
        fetch({
          ...filters,
          fromEpoch: lo.toString(),
          toEpoch: hi.toString(),
          pagination: { first, newestFirst: false, ...(after === undefined ? {} : { after }) }
        }),
        (response) => response.rewards
      )
    const next = step({ read, pin, restarts }, to, pageSize)
    let window = Option.some<Window>({ lo: from, width: to - from + 1n })
    const pull = Effect.suspend(() => {
      if (Option.isNone(window)) return Effect.fail(Option.none())
      return next(window.value).pipe(
        Effect.map(([rows, after]) => ((window = after), rows)),
        Effect.mapError(Option.some)
      )
    })
    // the next window is read while the consumer works on this one (its rows are in memory once
    // more at most); one chunk per window: a consumer of chunks sees whole epochs at a time
    return Paginate.ahead(pull, 1).pipe(Stream.mapConcatChunk((rows) => Chunk.unsafeFromArray(rows)))
  })
