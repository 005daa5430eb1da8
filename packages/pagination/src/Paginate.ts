/**
 * Cursor paging as an Effect `Stream`, the way the Vega data node pages every list: `first` + `after`
 * forward, `last` + `before` backward, `pageInfo` flags and cursors on every page.
 *
 * - **Resumable.** Every item carries its cursor; pass the cursor of the last item you processed as
 *   `from` and the stream continues right after it, in either direction.
 * - **Never loops.** A page that hands back a cursor already requested fails the stream with
 *   `PaginationError` "RepeatedCursor"; a page that claims more pages but gives nothing to continue
 *   from fails with "NoProgress".
 * - **Never restarts.** A failed fetch fails the stream with the fetch's own error; earlier pages are
 *   never fetched again. Retry each request inside `fetch` (e.g. `Effect.retry`), not the stream.
 * - **Bounded prefetch.** At most `prefetch` pages are fetched ahead of the consumer.
 *
 * @since 0.1.0
 */
import { isRecord, show } from "@vega-effect/schema/Input"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@vega-effect/schema/Pagination"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { prefetch as prefetchPull } from "./internal/prefetch.js"

/**
 * What to ask the server for one page. Exactly one of `first` / `last` is set, and a cursor only
 * with its own direction (`after` with `first`, `before` with `last`); keys that do not apply are
 * absent, never `undefined`. Map it to `pagination.first`, `pagination.after`, `pagination.last`,
 * `pagination.before` and `pagination.newestFirst` (cursors are base64: percent-encode them).
 *
 * @since 0.1.0
 * @category Models
 */
export interface PageParams {
  readonly first?: number
  readonly after?: string
  readonly last?: number
  readonly before?: string
  readonly newestFirst: boolean
}

/**
 * One edge of a page: the node and the cursor that points at it.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Item<A> {
  readonly node: A
  readonly cursor: string
}

/**
 * One page as the server returned it. `items` are in display order (backward pages too, as the
 * node flips them back); `startCursor` / `endCursor` are the cursors of the first and last item,
 * `""` when the page is empty.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<Item<A>>
  readonly hasNextPage: boolean
  readonly hasPreviousPage: boolean
  readonly startCursor: string
  readonly endCursor: string
}

/**
 * How to walk a list.
 *
 * - `direction`: `"forward"` (default) walks the display order from its start with `first` + `after`;
 *   `"backward"` walks it from its end with `last` + `before`.
 * - `pageSize`: items per request, an integer in `1..5000`, default 1000.
 * - `newestFirst`: the display order, default `true` (the node's default). Use `false` with
 *   `"forward"` to read oldest to newest.
 * - `from`: resume right after this cursor (the cursor of the last item processed, in the walking
 *   direction). Absent: start at the beginning (forward) or the end (backward).
 * - `prefetch`: pages fetched ahead of the consumer, default 1; `0` fetches only on demand.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  readonly direction?: "forward" | "backward" | undefined
  readonly pageSize?: number | undefined
  readonly newestFirst?: boolean | undefined
  readonly from?: string | undefined
  readonly prefetch?: number | undefined
}

/**
 * Why paging stopped without a server error:
 *
 * - `"RepeatedCursor"`: the next request would use a cursor that was already requested (or a page
 *   fetched after a cursor returned that cursor's item again): the server is repeating pages, and
 *   following it would loop forever. `cursor` is the repeated cursor.
 * - `"NoProgress"`: a page says there is a next page in the walking direction but has no items or no
 *   cursor to continue from. `cursor` is the cursor the page was requested with, if any.
 * - `"InvalidOptions"`: the options are unusable; raised before any fetch.
 *
 * @since 0.1.0
 * @category Errors
 */
export class PaginationError extends Schema.TaggedError<PaginationError>("@vega-effect/pagination/PaginationError")(
  "PaginationError",
  {
    reason: Schema.Literal("RepeatedCursor", "NoProgress", "InvalidOptions"),
    cursor: Schema.optional(Schema.String),
    message: Schema.String
  }
) {}

/**
 * The cursor to pass as `from` to resume right after the given item or page.
 *
 * For an item this is its cursor, whatever the direction. For a page it is the cursor of the last
 * item the item stream emits for it in `options.direction` (the last item forward, the first item
 * backward), or `undefined` for an empty page: an empty page moves nothing, so keep the previous
 * checkpoint.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Paginate } from "@vega-effect/pagination"
 *
 * declare const fetch: (params: Paginate.PageParams) => Effect.Effect<Paginate.Page<string>>
 * declare const save: (cursor: string) => Effect.Effect<void>
 * declare const handle: (node: string) => Effect.Effect<void>
 *
 * // Process, then checkpoint: a restart from the saved cursor continues right after the last
 * // processed item.
 * const run = (checkpoint: string | undefined) =>
 *   Paginate.items(fetch, { from: checkpoint }).pipe(
 *     Stream.runForEach((item) => Effect.zipRight(handle(item.node), save(Paginate.resumeCursor(item))))
 *   )
 * ```
 *
 * @since 0.1.0
 * @category Resuming
 */
export const resumeCursor: {
  <A>(item: Item<A>): string
  <A>(page: Page<A>, options?: Pick<Options, "direction">): string | undefined
} = (<A>(self: Item<A> | Page<A>, options?: Pick<Options, "direction">): string | undefined => {
  const given: unknown = self
  if (!isRecord(given) || !("items" in given ? Array.isArray(given.items) : typeof given.cursor === "string")) {
    throw new RangeError(`Paginate.resumeCursor: Expected an item or a page, got ${show(self)}`)
  }
  if (!("items" in self)) return self.cursor
  const { items } = self
  if (items.length === 0) return undefined
  return options?.direction === "backward" ? items[0].cursor : items[items.length - 1].cursor
}) as any

/**
 * The pages of a list, each as the server returned it (display order). Forward, pages follow the
 * display order; backward, they come from its end towards its start.
 *
 * The stream fails with the fetch's error if a fetch fails (pages fetched before it are emitted
 * first; nothing is fetched twice), with `PaginationError` if the server stops making progress, and
 * with `PaginationError` "InvalidOptions" before any fetch if the options are unusable. Each fetch
 * runs in a `Paginate.page` span.
 *
 * @since 0.1.0
 * @category Streams
 */
export const pages = <A, E, R>(
  fetch: (params: PageParams) => Effect.Effect<Page<A>, E, R>,
  options?: Options
): Stream.Stream<Page<A>, E | PaginationError, R> => {
  const settings = validate(fetch, options)
  if (Either.isLeft(settings)) return Stream.fail(settings.left)
  const walk = settings.right
  return walk.prefetch === 0
    ? Stream.suspend(() => Stream.repeatEffectOption(walker(fetch, walk)))
    : Stream.suspend(() => prefetchPull(walker(fetch, walk), walk.prefetch))
}

/**
 * The items of a list, with their cursors, in walking order: forward, the display order; backward,
 * the display order reversed (each page's items are emitted last to first), so that in both
 * directions the cursor of the last item processed is the `from` that resumes right after it.
 *
 * Checkpoint pattern: process an item, then store `item.cursor`; after a crash or a failure,
 * run the stream again with `from` set to the stored cursor. Nothing is repeated or skipped.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Paginate } from "@vega-effect/pagination"
 *
 * // 25 transfers served 10 to a page, each cursor pointing after its item. In an application
 * // `fetch` is the HTTP request, with its own retries (the data-node client of
 * // @vega-effect/http pages every list this way).
 * const transfers = Array.from({ length: 25 }, (_, i) => `transfer-${i + 1}`)
 *
 * const fetch = (params: Paginate.PageParams) =>
 *   Effect.sync((): Paginate.Page<string> => {
 *     const start = params.after === undefined ? 0 : Number(params.after)
 *     const end = Math.min(start + (params.first ?? 0), transfers.length)
 *     const items = transfers.slice(start, end).map((node, i) => ({ node, cursor: String(start + i + 1) }))
 *     return {
 *       items,
 *       hasNextPage: end < transfers.length,
 *       hasPreviousPage: start > 0,
 *       startCursor: items[0]?.cursor ?? "",
 *       endCursor: items[items.length - 1]?.cursor ?? ""
 *     }
 *   })
 *
 * const program = Paginate.items(fetch, { pageSize: 10, newestFirst: false }).pipe(
 *   Stream.map((item) => item.node),
 *   Stream.runCollect
 * )
 *
 * Effect.runPromise(program).then((all) => {
 *   assert.strictEqual(all.length, 25)
 * })
 *
 * // resume after the 20th item, as after a restart: the last 5 follow
 * const rest = Paginate.nodes(fetch, { pageSize: 10, newestFirst: false, from: "20" }).pipe(Stream.runCollect)
 * Effect.runPromise(rest).then((last) => {
 *   assert.deepStrictEqual([...last], ["transfer-21", "transfer-22", "transfer-23", "transfer-24", "transfer-25"])
 * })
 * ```
 *
 * @since 0.1.0
 * @category Streams
 */
export const items = <A, E, R>(
  fetch: (params: PageParams) => Effect.Effect<Page<A>, E, R>,
  options?: Options
): Stream.Stream<Item<A>, E | PaginationError, R> =>
  pages(fetch, options).pipe(
    Stream.mapConcatChunk(
      options?.direction === "backward"
        ? (page) => Chunk.reverse(Chunk.unsafeFromArray(page.items))
        : (page) => Chunk.unsafeFromArray(page.items)
    )
  )

/**
 * The nodes of a list in walking order, without their cursors: `items` mapped to `item.node`.
 * Use `items` when you need to checkpoint.
 *
 * @since 0.1.0
 * @category Streams
 */
export const nodes = <A, E, R>(
  fetch: (params: PageParams) => Effect.Effect<Page<A>, E, R>,
  options?: Options
): Stream.Stream<A, E | PaginationError, R> => Stream.map(items(fetch, options), (item) => item.node)

/**
 * A sequential pull as a stream that runs up to `ahead` pulls in advance of its consumer: the
 * prefetch of `pages`, for reads paged some other way (the data-node client's windows of epochs).
 * `pull` gives one element per call and fails with `Option.none()` at the end, `Option.some(e)` on
 * an error. A consumer that has taken N elements has let at most N + `ahead` pulls start; results
 * keep their order, a failure comes after the elements pulled before it, and an in-flight pull is
 * interrupted when the stream ends.
 *
 * @example
 * ```ts
 * import { Effect, Option, Stream } from "effect"
 * import { Paginate } from "@vega-effect/pagination"
 *
 * let next = 1
 * const pull = Effect.suspend(() => (next > 3 ? Effect.fail(Option.none()) : Effect.succeed(next++)))
 *
 * Effect.runPromise(Stream.runCollect(Paginate.ahead(pull, 1))).then((all) => {
 *   console.log([...all]) // [1, 2, 3]
 * })
 * ```
 *
 * @since 0.1.0
 * @category Streams
 */
export const ahead = <A, E, R>(pull: Effect.Effect<A, Option.Option<E>, R>, ahead: number): Stream.Stream<A, E, R> =>
  prefetchPull(pull, ahead)

// ---------------------------------------------------------------------------------------------
// internals
// ---------------------------------------------------------------------------------------------

interface Walk {
  readonly backward: boolean
  readonly pageSize: number
  readonly newestFirst: boolean
  readonly from: string | undefined
  readonly prefetch: number
}

const invalid = (message: string) => new PaginationError({ reason: "InvalidOptions", message })

const validate = (fetch: unknown, options: Options | undefined): Either.Either<Walk, PaginationError> => {
  if (typeof fetch !== "function") {
    return Either.left(invalid(`the fetch must be a function from page parameters to a page, got ${show(fetch)}`))
  }
  if (options !== undefined && !isRecord(options)) {
    return Either.left(invalid(`the options must be an object, got ${show(options)}`))
  }
  const direction = options?.direction ?? "forward"
  const pageSize = options?.pageSize ?? DEFAULT_PAGE_SIZE
  const newestFirst = options?.newestFirst ?? true
  const from = options?.from
  const prefetch = options?.prefetch ?? 1
  if (direction !== "forward" && direction !== "backward") {
    return Either.left(invalid(`direction must be "forward" or "backward", got ${show(direction)}`))
  }
  if (typeof pageSize !== "number" || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return Either.left(invalid(`pageSize must be an integer between 1 and ${MAX_PAGE_SIZE}, got ${show(pageSize)}`))
  }
  if (typeof newestFirst !== "boolean") {
    return Either.left(invalid(`newestFirst must be a boolean, got ${show(newestFirst)}`))
  }
  if (from !== undefined && (typeof from !== "string" || from.length === 0)) {
    // The node rejects an empty cursor ("cursor is empty"); omit `from` to start at the beginning.
    return Either.left(
      invalid(`from must be a non-empty cursor (omit it to start from the beginning), got ${show(from)}`)
    )
  }
  if (typeof prefetch !== "number" || !Number.isInteger(prefetch) || prefetch < 0) {
    return Either.left(invalid(`prefetch must be a non-negative integer, got ${show(prefetch)}`))
  }
  return Either.right({ backward: direction === "backward", pageSize, newestFirst, from, prefetch })
}

const params = (walk: Walk, cursor: string | undefined): PageParams =>
  walk.backward
    ? cursor === undefined
      ? { last: walk.pageSize, newestFirst: walk.newestFirst }
      : { last: walk.pageSize, before: cursor, newestFirst: walk.newestFirst }
    : cursor === undefined
      ? { first: walk.pageSize, newestFirst: walk.newestFirst }
      : { first: walk.pageSize, after: cursor, newestFirst: walk.newestFirst }

/**
 * One run of a walk: each evaluation fetches the next page, checks it, and fails with
 * `Option.none()` once the list is exhausted. The state lives in the closure, so build one per run
 * (a stream run again starts from `from` again).
 */
const walker = <A, E, R>(
  fetch: (params: PageParams) => Effect.Effect<Page<A>, E, R>,
  walk: Walk
): Effect.Effect<Page<A>, Option.Option<E | PaginationError>, R> => {
  let cursor = walk.from
  let done = false
  let index = 0
  // Every cursor requested so far: a server cycling over several pages is caught too, not only one
  // repeating its last page. One string per page, so this stays small.
  const requested = new Set<string>()
  if (cursor !== undefined) requested.add(cursor)
  const direction = walk.backward ? "backward" : "forward"
  const flag = walk.backward ? "hasPreviousPage" : "hasNextPage"
  const edge = walk.backward ? "startCursor" : "endCursor"

  return Effect.suspend(() => {
    if (done) return Effect.fail(Option.none())
    const requestCursor = cursor
    const pageNumber = ++index
    const where =
      requestCursor === undefined
        ? `page ${pageNumber} (${direction}, no cursor)`
        : `page ${pageNumber} (${direction}, ${walk.backward ? "before" : "after"} cursor ${JSON.stringify(requestCursor)})`
    const attributes: Record<string, unknown> = {
      "pagination.page": pageNumber,
      "pagination.direction": direction,
      "pagination.page_size": walk.pageSize,
      "pagination.newest_first": walk.newestFirst
    }
    if (requestCursor !== undefined) attributes["pagination.cursor"] = requestCursor
    return fetch(params(walk, requestCursor)).pipe(
      Effect.withSpan("Paginate.page", { attributes, captureStackTrace: false }),
      Effect.mapError(Option.some),
      Effect.flatMap((page): Effect.Effect<Page<A>, Option.Option<PaginationError>> => {
        const fail = (reason: "RepeatedCursor" | "NoProgress", message: string, at: string | undefined) => {
          done = true
          return Effect.fail(
            Option.some(new PaginationError(at === undefined ? { reason, message } : { reason, cursor: at, message }))
          )
        }
        // After a cursor the node never returns that cursor's own item: seeing it means the page
        // overlaps the one before, and emitting it would duplicate an item.
        if (requestCursor !== undefined && page.items.some((item) => item.cursor === requestCursor)) {
          return fail(
            "RepeatedCursor",
            `${where} returned the item at its own cursor again: the server repeated a page`,
            requestCursor
          )
        }
        if (!page[flag]) {
          done = true
          return Effect.succeed(page)
        }
        if (page.items.length === 0) {
          return fail(
            "NoProgress",
            `${where} reports ${flag}=true but has no items, so paging cannot advance`,
            requestCursor
          )
        }
        const next = page[edge]
        if (typeof next !== "string" || next.length === 0) {
          return fail(
            "NoProgress",
            `${where} reports ${flag}=true but its ${edge} is empty, so there is no cursor to continue from`,
            requestCursor
          )
        }
        if (requested.has(next)) {
          return fail(
            "RepeatedCursor",
            next === requestCursor
              ? `${where} returned ${edge} equal to the cursor it was requested with: the server repeated a page; stopping instead of looping`
              : `${where} returned ${edge} ${JSON.stringify(next)}, which was already requested: the server is cycling over pages; stopping instead of looping`,
            next
          )
        }
        requested.add(next)
        cursor = next
        return Effect.succeed(page)
      })
    )
  })
}
