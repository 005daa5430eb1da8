/**
 * Every reward row of an inclusive epoch range without cursors (see
 * `DataNodeClient.Service.rewardsByEpoch` for why): windows of epochs, each accepted only when
 * the node says nothing is left in it, a window that hits the limit halved and read again.
 */
import { DataNodeApi, Pagination, type Reward } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import { call } from "./endpoints.js"
import type { Transport } from "./transport.js"

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
  first: number
) => Effect.Effect<Reward.ListRewardsResponse["rewards"], Errors.DataNodeError>

/** Reads from `window.lo` with the widest window that fits in `pageSize` rows. */
const step = (read: Read, to: bigint, pageSize: number, narrowed: boolean) => (window: Window) =>
  Effect.gen(function* () {
    let width = window.width
    for (;;) {
      const hi = window.lo + width - 1n > to ? to : window.lo + width - 1n
      const single = hi === window.lo
      const page = yield* read(window.lo, hi, single ? Pagination.MAX_PAGE_SIZE : pageSize)
      if (!page.pageInfo.hasNextPage) {
        const rows: ReadonlyArray<Reward.Reward> = page.edges.map((e) => e.node)
        // a window well under the limit: try a wider one next
        const next: Window = { lo: hi + 1n, width: rows.length * 4 < pageSize ? width * 2n : width }
        return [rows, next.lo > to ? Option.none<Window>() : Option.some(next)] as const
      }
      if (single) {
        return yield* new Errors.PaginationLoopError({
          endpoint: name,
          reason: `epoch ${window.lo} has more than ${Pagination.MAX_PAGE_SIZE} reward rows${narrowed ? " for this party" : ""}: the node cannot page within one epoch (its cursor orders by epoch only), so they cannot all be read; narrow the request (partyId, assetId)`
        })
      }
      width = (hi - window.lo + 1n) / 2n
    }
  }).pipe(Effect.withSpan("DataNodeClient.rewardsByEpoch"))

export const rewardsByEpoch = (
  transport: Transport,
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
    const fetch = call(transport, DataNodeApi.ListRewards, { node: undefined, height: undefined })
    const filters = {
      ...(request.partyId === undefined ? {} : { partyId: request.partyId }),
      ...(request.assetId === undefined ? {} : { assetId: request.assetId })
    }
    const read: Read = (lo, hi, first) =>
      Effect.map(
        fetch({
          ...filters,
          fromEpoch: lo.toString(),
          toEpoch: hi.toString(),
          pagination: { first, newestFirst: false }
        }),
        (response) => response.rewards
      )
    return Stream.paginateEffect(
      { lo: from, width: to - from + 1n },
      step(read, to, pageSize, filters.partyId !== undefined)
    ).pipe(Stream.flattenIterables)
  })
