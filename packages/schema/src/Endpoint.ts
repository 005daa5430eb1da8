/**
 * A route of the API as data: its method, path template, request schema (path and query
 * parameters) and answer schema; for a paged route, the member of the answer that holds the page;
 * for a stream, the schema of one message. Clients build URLs from it and servers (the simulator)
 * route with it, so both agree on every name. `DataNodeApi` holds one for every route.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as Pagination from "./Pagination.js"
import * as QueryString from "./QueryString.js"

/**
 * A route that answers one JSON message.
 *
 * @since 0.2.0
 * @category Models
 */
export interface Endpoint<Req, ReqI, Res, ResI> {
  /** The RPC name behind the route (`Core…` for a core route whose name the data node also has). */
  readonly name: string
  readonly method: "GET" | "POST"
  /** Path template with `{param}` placeholders, e.g. `/api/v2/parties/{partyId}/stake`. */
  readonly path: string
  /** Names of the request fields that go in the path rather than the query string. */
  readonly pathParams: ReadonlyArray<string>
  readonly request: Schema.Schema<Req, ReqI>
  readonly response: Schema.Schema<Res, ResI>
  /** For a paged route: the member of the answer that holds the page (a connection). */
  readonly connection?: string
}

/**
 * A paged route: its answer's `connection` member holds a page of edges and its `pageInfo`, and
 * its request takes `pagination`.
 *
 * @since 0.2.0
 * @category Models
 */
export interface Paged<Req, ReqI, Res, ResI, K extends string> extends Endpoint<Req, ReqI, Res, ResI> {
  readonly connection: K
}

/**
 * Any endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type Any = Endpoint<any, any, any, any>

/**
 * Any paged endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type AnyPaged = Paged<any, any, any, any, string>

/**
 * The decoded request of an endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type Request<E extends { readonly request: Schema.Schema.Any }> = Schema.Schema.Type<E["request"]>

/**
 * The decoded answer of an endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type Response<E extends Any> = Schema.Schema.Type<E["response"]>

/**
 * The decoded rows of a paged endpoint (the `node` of each edge).
 *
 * @since 0.2.0
 * @category Models
 */
export type Node<E extends AnyPaged> = Response<E>[E["connection"]] extends Pagination.Connection<infer A> | undefined
  ? A
  : never

const pathParamsOf = (path: string): ReadonlyArray<string> => Array.from(path.matchAll(/\{(\w+)\}/g), (m) => m[1]!)

/**
 * Defines an endpoint; `pathParams` are read from the `{name}` segments of `path`.
 *
 * @since 0.2.0
 * @category Constructors
 */
export const make = <Req, ReqI, Res, ResI>(options: {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly request: Schema.Schema<Req, ReqI>
  readonly response: Schema.Schema<Res, ResI>
}): Endpoint<Req, ReqI, Res, ResI> => ({ ...options, pathParams: pathParamsOf(options.path) })

/**
 * Defines a paged endpoint: `connection` names the member of the answer that holds the page.
 *
 * @since 0.2.0
 * @category Constructors
 */
export const paged = <Req, ReqI, Res, ResI, const K extends keyof Res & string>(options: {
  readonly name: string
  readonly method: "GET"
  readonly path: string
  readonly request: Schema.Schema<Req, ReqI>
  readonly response: Schema.Schema<Res, ResI>
  readonly connection: K
}): Paged<Req, ReqI, Res, ResI, K> => ({ ...options, pathParams: pathParamsOf(options.path) })

/**
 * A streaming route (`/api/v2/stream/...`): a WebSocket of one `{"result":…}` text frame per
 * message (or a chunked HTTP answer of the same lines). Messages are written in the stream form
 * (enums as numbers, defaults left out; see `StreamForm`). Its request is read from the query
 * string, but for the event bus, whose request the client sends as a frame.
 *
 * @since 0.2.0
 * @category Models
 */
export interface StreamEndpoint<Msg, MsgI, Req = any, ReqI = any> {
  /** The RPC name behind the route. */
  readonly name: string
  readonly path: string
  readonly request: Schema.Schema<Req, ReqI>
  /** One message (the `result` of a frame), in stream form. */
  readonly message: Schema.Schema<Msg, MsgI>
}

/**
 * Any stream endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type AnyStream = StreamEndpoint<any, any, any, any>

/**
 * Defines a stream endpoint.
 *
 * @since 0.2.0
 * @category Constructors
 */
export const stream = <Msg, MsgI, Req, ReqI>(
  options: StreamEndpoint<Msg, MsgI, Req, ReqI>
): StreamEndpoint<Msg, MsgI, Req, ReqI> => options

/**
 * A route that answers a file (`google.api.HttpBody`: the bytes of a CSV, say, with their content
 * type), not a JSON message.
 *
 * @since 0.2.0
 * @category Models
 */
export interface FileEndpoint<Req, ReqI> {
  readonly name: string
  readonly method: "GET"
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly request: Schema.Schema<Req, ReqI>
}

/**
 * Any file endpoint.
 *
 * @since 0.2.0
 * @category Models
 */
export type AnyFile = FileEndpoint<any, any>

/**
 * Defines a file endpoint.
 *
 * @since 0.2.0
 * @category Constructors
 */
export const file = <Req, ReqI>(options: {
  readonly name: string
  readonly path: string
  readonly request: Schema.Schema<Req, ReqI>
}): FileEndpoint<Req, ReqI> => ({ ...options, method: "GET", pathParams: pathParamsOf(options.path) })

/**
 * The relative URL of a request: its path, and for a GET its query string. A POST sends its
 * request as the JSON body instead (see {@link body}).
 *
 * @since 0.2.0
 * @category Encoding
 */
export const url = <Req, ReqI>(
  endpoint: {
    readonly method: "GET" | "POST"
    readonly path: string
    readonly pathParams: ReadonlyArray<string>
    readonly request: Schema.Schema<Req, ReqI>
  },
  request: Req
): Either.Either<string, ParseResult.ParseError> =>
  Either.map(Schema.encodeEither(endpoint.request)(request), (encoded) => {
    const query: Record<string, unknown> = { ...(encoded as Record<string, unknown>) }
    let path = endpoint.path
    for (const name of endpoint.pathParams) {
      path = path.replace(`{${name}}`, QueryString.escape(String(query[name] ?? "")))
      delete query[name]
    }
    const qs = endpoint.method === "GET" ? QueryString.make(query) : ""
    return qs === "" ? path : `${path}?${qs}`
  })

/**
 * The path and query string of a stream's request (ids as given; the node compares them as text).
 *
 * @since 0.2.0
 * @category Encoding
 */
export const streamUrl = <Msg, MsgI, Req, ReqI>(
  endpoint: StreamEndpoint<Msg, MsgI, Req, ReqI>,
  request: Req
): Either.Either<string, ParseResult.ParseError> =>
  url({ method: "GET", path: endpoint.path, pathParams: [], request: endpoint.request }, request)

/**
 * The JSON body of a POST request, encoded by its schema.
 *
 * @since 0.2.0
 * @category Encoding
 */
export const body = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
): Either.Either<ReqI, ParseResult.ParseError> => Schema.encodeEither(endpoint.request)(request)

/**
 * The request of an endpoint that takes no parameters.
 *
 * @since 0.2.0
 * @category Requests
 */
export const NoParams = Schema.Struct({})

/**
 * The headers the node adds to every answer of a unary call (its unary interceptor): the height
 * and time (unix nanoseconds) of the block it had processed. HTTP header names are
 * case-insensitive: compare them lowercased.
 *
 * @since 0.2.0
 * @category Constants
 */
export const BlockHeaders = {
  height: "X-Block-Height",
  timestamp: "X-Block-Timestamp"
} as const
