/**
 * Every row of a paged route, read as the node's facts for that route allow (`RouteFacts`): by
 * cursor (checking for lost rows where the order is stable, telling repeated rows apart where it
 * has ties, asking once more where a short page may not be the last), in one page where cursors
 * fail on the node, or in time windows where the node reads a bounded range and its cursors do not
 * work. A request the node would answer with less than it matches is refused before it is sent.
 */
import * as Paginate from "@vega-effect/pagination/Paginate"
import type * as Endpoint from "@vega-effect/schema/Endpoint"
import * as Pagination from "@vega-effect/schema/Pagination"
import * as RouteFacts from "@vega-effect/schema/RouteFacts"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import { call, stream } from "./endpoints.js"
import type { Transport } from "./transport.js"

type Request = Readonly<Record<string, unknown>>
type Row = Readonly<Record<string, unknown>>
type Connection = Pagination.Connection<Row>

const NANOS_PER_SECOND = 1_000_000_000n

const refuse = (endpoint: string, reason: string) => new Errors.InvalidRequestError({ endpoint, reason })

const incomplete = (endpoint: string, reason: string, delivered: number) =>
  new Errors.IncompleteReadError({ endpoint, reason, delivered })

/** The member of a nested request at `path`, if set. */
const at = (request: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((u, key) => (typeof u === "object" && u !== null ? (u as Request)[key] : undefined), request)

const withAt = (request: Request, path: ReadonlyArray<string>, value: unknown): Request => {
  const [head, ...rest] = path
  if (head === undefined) return request
  const inner = (request[head] ?? {}) as Request
  return { ...request, [head]: rest.length === 0 ? value : withAt(inner, rest, value) }
}

/** Why a request would be answered with less than it asks, by the route's facts; undefined if none. */
export const refusal = (facts: RouteFacts.Facts, request: Request, options: Paginate.Options): string | undefined => {
  if (facts.forwardOnly === true && options.direction === "backward")
    return "the node pages this route forward only: read it with direction forward"
  if (facts.newestFirstOnly === true && options.newestFirst === false)
    return "the node cannot page this route oldest first: read it newest first"
  if (facts.oldestFirstOnly === true && options.newestFirst === true)
    return "the node cuts this route's newest-first first page to the last 24 hours: read it oldest first"
  if (options.from !== undefined && facts.paging._tag === "TimeWindows")
    return `the node's cursors fail on this route: resume from the last row's ${facts.paging.time} (${facts.paging.start.join(".")}), not from a cursor`
  if (options.from !== undefined && facts.paging._tag === "FirstPageOnly")
    return "the node's cursors fail on this route: it cannot be resumed from a cursor"
  if (
    facts.requiresOneOf !== undefined &&
    !facts.requiresOneOf.some((paths) => paths.every((p) => at(request, [p]) !== undefined))
  )
    return `set ${facts.requiresOneOf.map((paths) => paths.join(" and ")).join(" or ")}: without it the node pages this route partly or not at all`
  if (facts.epochSpan !== undefined) {
    const { from, max, to } = facts.epochSpan
    const start = at(request, [from])
    const end = at(request, [to])
    if ((start === undefined) !== (end === undefined))
      return `set both ${from} and ${to}: with one of them the node reads ${max} epochs from it, whatever was meant`
    if (start !== undefined && BigInt(String(start)) > 0n && BigInt(String(end)) - BigInt(String(start)) >= max)
      return `${from}..${to} spans more than ${max} epochs, which the node cuts to its last ${max}: read shorter spans`
  }
  return undefined
}

/** A row's members as one text, to tell rows apart. */
const keyOf = (row: Row, key: ReadonlyArray<string>): string =>
  JSON.stringify(key.map((member) => String(row[member] ?? "")))

/** Pages of a cursor route whose rows of one ordering value repeat: each row once, and a page adding none stops. */
const distinct = (endpoint: string, key: ReadonlyArray<string>) => {
  const seen = new Set<string>()
  return (page: Paginate.Page<Row>): Effect.Effect<Paginate.Page<Row>, Errors.IncompleteReadError> => {
    const fresh = page.items.filter((item) => {
      const k = keyOf(item.node, key)
      return seen.has(k) ? false : (seen.add(k), true)
    })
    if (fresh.length === 0 && page.items.length > 0 && page.hasNextPage)
      return Effect.fail(
        incomplete(
          endpoint,
          "a whole page repeated rows already read: one ordering value holds more rows than a page",
          seen.size
        )
      )
    return Effect.succeed({ ...page, items: fresh })
  }
}

const toPage = (connection: Connection): Paginate.Page<Row> => ({
  items: connection.edges,
  hasNextPage: connection.pageInfo.hasNextPage,
  hasPreviousPage: connection.pageInfo.hasPreviousPage,
  startCursor: connection.pageInfo.startCursor,
  endCursor: connection.pageInfo.endCursor
})

const cursorRows = (
  transport: Transport,
  endpoint: Endpoint.AnyPaged,
  facts: RouteFacts.Facts,
  order: "stable" | "moves" | "ties",
  request: Request,
  options: Paginate.Options
): Stream.Stream<Paginate.Item<Row>, Errors.DataNodeError> => {
  if (order === "stable" && facts.key === undefined && facts.shortPagesMayEnd !== true)
    return stream(transport, endpoint, (r: any): Connection => r[endpoint.connection], true)(request, options)
  return Stream.suspend(() => {
    const fetch = call(transport, endpoint, { node: undefined, height: undefined })
    const check = facts.key === undefined ? Effect.succeed : distinct(endpoint.name, facts.key)
    const fetchPage = (params: Paginate.PageParams) =>
      Effect.flatMap(fetch({ ...request, pagination: params }), (response: any) => {
        const page = toPage(response[endpoint.connection])
        // a short page may still not be the last: ask once more after it, and stop at an empty one
        const more =
          facts.shortPagesMayEnd === true && !page.hasNextPage && page.items.length > 0 && page.endCursor !== ""
        return check(more ? { ...page, hasNextPage: true } : page)
      })
    return Paginate.items(fetchPage, options).pipe(
      Stream.catchTag("PaginationError", (e) =>
        Stream.fail(new Errors.PaginationLoopError({ endpoint: endpoint.name, reason: e.message }))
      )
    )
  })
}

/** One page of a route whose cursors fail on the node: all of it, or a refusal. */
const onePage = (
  transport: Transport,
  endpoint: Endpoint.AnyPaged,
  request: Request,
  options: Paginate.Options
): Stream.Stream<Paginate.Item<Row>, Errors.DataNodeError> =>
  Stream.unwrap(
    Effect.map(
      call(
        transport,
        endpoint
      )({
        ...request,
        pagination: {
          first: options.pageSize ?? Pagination.MAX_PAGE_SIZE,
          ...(options.newestFirst === undefined ? {} : { newestFirst: options.newestFirst })
        }
      }),
      (response: any) => {
        const connection: Connection = response[endpoint.connection]
        if (!connection.pageInfo.hasNextPage) return Stream.fromIterable(connection.edges)
        const reason = `more rows match than one answer holds, and the node fails every request with a cursor on this route: narrow the request`
        return Stream.concat(
          Stream.fromIterable(connection.edges),
          Stream.fail(incomplete(endpoint.name, reason, connection.edges.length))
        )
      }
    )
  )

type Windows = Extract<RouteFacts.Paging, { readonly _tag: "TimeWindows" }>

/** The window's next start after a full page: the last row's time (to the second where the node truncates). */
const nextStart = (paging: Windows, last: Row): bigint => {
  const time = BigInt(String(last[paging.time]))
  return paging.wholeSeconds ? (time / NANOS_PER_SECOND) * NANOS_PER_SECOND : time
}

/**
 * A range read window by window, oldest first: each window at most the node's span, read with
 * pages of 5,000; a full one moves the window's start to its last row's time (rows at that time
 * read again are told apart by the route's key), and a page that cannot move it is refused.
 */
const windowed = (
  transport: Transport,
  endpoint: Endpoint.AnyPaged,
  paging: Windows,
  request: Request
): Stream.Stream<Paginate.Item<Row>, Errors.DataNodeError> =>
  Stream.unwrap(
    Effect.gen(function* () {
      const startText = at(request, paging.start)
      if (startText === undefined)
        return Stream.fail(
          refuse(
            endpoint.name,
            `set ${paging.start.join(".")}: the node reads this route in windows of at most ${paging.maxNanos / (86_400n * NANOS_PER_SECOND)} days, from a start`
          )
        )
      const endText = at(request, paging.end)
      const from = BigInt(String(startText))
      const to = endText === undefined ? yield* Clock.currentTimeNanos : BigInt(String(endText))
      // where the node reads whole seconds, ask for the seconds around the range and keep its rows
      const floor = (t: bigint) => (paging.wholeSeconds ? (t / NANOS_PER_SECOND) * NANOS_PER_SECOND : t)
      const end = floor(to) === to ? to : floor(to) + NANOS_PER_SECOND
      const inRange = (row: Row) => {
        const time = BigInt(String(row[paging.time]))
        return time >= from && time < to
      }
      const fetch = call(transport, endpoint, { node: undefined, height: undefined })
      let start = floor(from)
      let delivered = 0
      let seen = new Set<string>()
      const pull = Effect.gen(function* () {
        if (start >= end) return Option.none<Array<Paginate.Item<Row>>>()
        const windowEnd = start + paging.maxNanos < end ? start + paging.maxNanos : end
        const windowRequest = withAt(withAt(request, paging.start, String(start)), paging.end, String(windowEnd))
        const response: any = yield* fetch({
          ...windowRequest,
          pagination: { first: Pagination.MAX_PAGE_SIZE, newestFirst: false }
        })
        const connection: Connection = response[endpoint.connection]
        const fresh = connection.edges.filter((edge) => inRange(edge.node) && !seen.has(keyOf(edge.node, paging.key)))
        delivered += fresh.length
        const last = connection.edges.at(-1)
        if (connection.pageInfo.hasNextPage && last !== undefined) {
          const next = nextStart(paging, last.node)
          if (next <= start)
            return yield* Effect.fail(
              incomplete(endpoint.name, "one instant holds more rows than one answer (5,000)", delivered)
            )
          seen = new Set(
            connection.edges.filter((e) => nextStart(paging, e.node) >= next).map((e) => keyOf(e.node, paging.key))
          )
          start = next
        } else {
          seen = new Set()
          start = windowEnd
        }
        return Option.some(fresh)
      })
      return Stream.repeatEffectOption(
        Effect.flatMap(Effect.mapError(pull, Option.some), (o) =>
          Option.isSome(o) ? Effect.succeed(o.value) : Effect.fail(Option.none())
        )
      ).pipe(Stream.flattenIterables)
    })
  )

/** Every row of a paged route, read as its facts allow. */
export const paginate = (
  transport: Transport,
  endpoint: Endpoint.AnyPaged,
  request: Request = {},
  options: Paginate.Options = {}
): Stream.Stream<Paginate.Item<Row>, Errors.DataNodeError> => {
  const facts = RouteFacts.of(endpoint.name)
  const refused = refusal(facts, request, options)
  if (refused !== undefined) return Stream.fail(refuse(endpoint.name, refused))
  const paging = facts.paging
  switch (paging._tag) {
    case "FirstPageOnly":
      return onePage(transport, endpoint, request, options)
    case "TimeWindows":
      return windowed(transport, endpoint, paging, request)
    case "Cursor":
      return cursorRows(transport, endpoint, facts, paging.order, request, {
        ...options,
        ...(facts.oldestFirstOnly === true ? { newestFirst: false } : {})
      })
  }
}
