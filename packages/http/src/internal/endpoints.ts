/**
 * The client's methods, made from the endpoint table (`DataNodeApi`): a request is checked with
 * the endpoint's request schema before anything is sent, its URL built from the same schema, its
 * answer decoded with the response schema; paged endpoints also get a stream of every item.
 */
import * as Paginate from "@vega-effect/pagination/Paginate"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as Pagination from "@vega-effect/schema/Pagination"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import { decoderOf } from "./answer.js"
import type { Pin, Transport } from "./transport.js"

/** A request as a user writes it: the encoded form of the endpoint's request schema. */
export type In<E extends DataNodeApi.Any> = Schema.Schema.Encoded<E["request"]>
/** The same, without `pagination`, for streams. */
export type StreamIn<E extends DataNodeApi.Any> = Omit<In<E>, "pagination">
export type Out<E extends DataNodeApi.Any> = DataNodeApi.Response<E>

export const invalidRequest = (endpoint: string, error: ParseResult.ParseError): Errors.InvalidRequestError =>
  new Errors.InvalidRequestError({
    endpoint,
    reason: ParseResult.ArrayFormatter.formatErrorSync(error)
      .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
      .join("; ")
  })

/** A checked, encoded and decoded call of one endpoint; `pin` keeps a paging run on its node. */
export const call = <E extends DataNodeApi.Any>(transport: Transport, endpoint: E, pin?: Pin) => {
  const decodeRequest = Schema.decodeUnknownEither(endpoint.request as Schema.Schema<unknown, unknown>)
  const decodeResponse = decoderOf(endpoint.response as Schema.Schema<Out<E>, unknown>)
  return (request: unknown): Effect.Effect<Out<E>, Errors.DataNodeError> => {
    const typed = decodeRequest(request ?? {})
    if (Either.isLeft(typed)) return Effect.fail(invalidRequest(endpoint.name, typed.left))
    const url = DataNodeApi.url(endpoint, typed.right)
    if (Either.isLeft(url)) return Effect.fail(invalidRequest(endpoint.name, url.left))
    return transport.read(endpoint.name, url.right, decodeResponse, pin)
  }
}

/** One page (or one answer) of an endpoint, in its own span. */
export const page =
  <E extends DataNodeApi.Any>(transport: Transport, endpoint: E) =>
  (request?: In<E>): Effect.Effect<Out<E>, Errors.DataNodeError> =>
    call(transport, endpoint)(request).pipe(Effect.withSpan(`DataNodeClient.${endpoint.name}`))

const LOST_ROWS = `the node promised more rows but the next page had none: rows were lost (a v0.75 node cannot page referral set statistics by cursor); read them in one page of up to ${Pagination.MAX_PAGE_SIZE} or narrow the request`

const paginationError = (endpoint: string, e: Paginate.PaginationError): Errors.DataNodeError =>
  e.reason === "InvalidOptions"
    ? new Errors.InvalidRequestError({ endpoint, reason: e.message })
    : new Errors.PaginationLoopError({
        endpoint,
        reason: e.message,
        ...(e.cursor === undefined ? {} : { cursor: e.cursor })
      })

/**
 * Every item of a paged endpoint, on one node while it stays healthy. `stableOrder` marks
 * endpoints whose rows never move in the order (immutable keys): there a page that comes back
 * empty after the node promised more means rows were lost, and the stream says so.
 */
export const stream =
  <E extends DataNodeApi.Any, A>(
    transport: Transport,
    endpoint: E,
    connectionOf: (response: Out<E>) => Pagination.Connection<A>,
    stableOrder = false
  ) =>
  (request?: StreamIn<E>, paging?: Paginate.Options): Stream.Stream<Paginate.Item<A>, Errors.DataNodeError> =>
    Stream.suspend(() => {
      const fetch = call(transport, endpoint, { node: undefined, height: undefined })
      const backward = paging?.direction === "backward"
      let promisedMore = false
      const fetchPage = (params: Paginate.PageParams) =>
        Effect.flatMap(fetch({ ...(request ?? {}), pagination: params }), (response) => {
          const { edges, pageInfo } = connectionOf(response)
          if (stableOrder && promisedMore && edges.length === 0) {
            const cursor = params.after ?? params.before ?? ""
            return Effect.fail(new Errors.PaginationLoopError({ endpoint: endpoint.name, reason: LOST_ROWS, cursor }))
          }
          promisedMore = backward ? pageInfo.hasPreviousPage : pageInfo.hasNextPage
          return Effect.succeed<Paginate.Page<A>>({
            items: edges,
            hasNextPage: pageInfo.hasNextPage,
            hasPreviousPage: pageInfo.hasPreviousPage,
            startCursor: pageInfo.startCursor,
            endCursor: pageInfo.endCursor
          })
        })
      return Paginate.items(fetchPage, paging).pipe(
        Stream.catchTag("PaginationError", (e) => Stream.fail(paginationError(endpoint.name, e)))
      )
    })
