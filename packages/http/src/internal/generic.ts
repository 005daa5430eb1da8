/**
 * The client's methods for any route of the endpoint table: one answer (`query`), every row of a
 * paged route (`paginate`), a live stream (`observe`) and a file (`download`). Each endpoint's
 * request check, decoders and frame decoder are built once, on its first use.
 */
import type * as Socket from "@effect/platform/Socket"
import type * as Paginate from "@vega-effect/pagination/Paginate"
import * as Endpoint from "@vega-effect/schema/Endpoint"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import type * as LiveStream from "../LiveStream.js"
import { call, invalidRequest } from "./endpoints.js"
import { frameDecoder, observe as observeRoute, type Route } from "./liveStream.js"
import { paginate as paginateRoute } from "./routePaging.js"
import type { Transport } from "./transport.js"

/** A request as a user writes it: the encoded form of the endpoint's request schema. */
export type RequestOf<E extends { readonly request: Schema.Schema.Any }> = Schema.Schema.Encoded<E["request"]>
/** A paged route's request, without `pagination` (the stream pages). */
export type PagedRequestOf<E extends Endpoint.AnyPaged> = Omit<RequestOf<E>, "pagination">
/** One message of a stream route. */
export type MessageOf<E extends Endpoint.AnyStream> = Schema.Schema.Type<E["message"]>

/** A file a route answered: its content type, its name where the node gives one, and its bytes. */
export interface File {
  readonly contentType: string
  readonly fileName: string | undefined
  readonly bytes: Uint8Array
}

/**
 * The event bus reads no query: its request is the first frame the client sends once the socket is
 * open, and with a `batchSize` the node waits for an ack frame after each message.
 */
const SUBSCRIBED_BY_FRAME: ReadonlySet<string> = new Set(["ObserveEventBus", "CoreObserveEventBus"])

const busRoute = <A>(endpoint: Endpoint.AnyStream, request: unknown, decode: Route<A>["decode"]): Route<A> => {
  const frame = Schema.encodeSync(endpoint.request)(request) as { readonly batchSize?: string }
  const batchSize = BigInt(frame.batchSize ?? "0")
  return {
    name: endpoint.name,
    path: endpoint.path,
    decode,
    subscribe: JSON.stringify(frame),
    ack: batchSize > 0n ? JSON.stringify({ batchSize: String(batchSize) }) : undefined
  }
}

/** A per-endpoint cache of what is built from it. */
const memo = <K extends object, V>(make: (key: K) => V) => {
  const cache = new WeakMap<K, V>()
  return (key: K): V => {
    let value = cache.get(key)
    if (value === undefined) {
      value = make(key)
      cache.set(key, value)
    }
    return value
  }
}

export const make = (transport: Transport) => {
  const calls = memo((endpoint: Endpoint.Any) => call(transport, endpoint))
  const frames = memo((endpoint: Endpoint.AnyStream) => frameDecoder(endpoint.message))
  const streamRequests = memo((endpoint: Endpoint.AnyStream) => Schema.decodeUnknownEither(endpoint.request))

  const query = <E extends Endpoint.Any>(
    endpoint: E,
    request?: RequestOf<E>
  ): Effect.Effect<Endpoint.Response<E>, Errors.DataNodeError> =>
    endpoint.method === "POST"
      ? Effect.fail(
          new Errors.InvalidRequestError({
            endpoint: endpoint.name,
            reason: "a POST is sent once, never retried: use execute, or @vega-effect/submitter for transactions"
          })
        )
      : calls(endpoint)(request).pipe(Effect.withSpan(`DataNodeClient.${endpoint.name}`))

  const paginate = <E extends Endpoint.AnyPaged>(
    endpoint: E,
    request?: PagedRequestOf<E>,
    options?: Paginate.Options
  ): Stream.Stream<Paginate.Item<Endpoint.Node<E>>, Errors.DataNodeError> =>
    paginateRoute(transport, endpoint, request as never, options) as Stream.Stream<
      Paginate.Item<Endpoint.Node<E>>,
      Errors.DataNodeError
    >

  const observe = <E extends Endpoint.AnyStream>(
    endpoint: E,
    request?: RequestOf<E>,
    options?: LiveStream.ObserveOptions
  ): Stream.Stream<LiveStream.Observation<MessageOf<E>>, Errors.InvalidRequestError, Socket.WebSocketConstructor> => {
    const typed = streamRequests(endpoint)(request ?? {})
    if (Either.isLeft(typed)) return Stream.fail(invalidRequest(endpoint.name, typed.left))
    const decode = frames(endpoint)
    if (SUBSCRIBED_BY_FRAME.has(endpoint.name))
      return observeRoute(transport, busRoute(endpoint, typed.right, decode), options)
    const path = Endpoint.streamUrl(endpoint, typed.right)
    if (Either.isLeft(path)) return Stream.fail(invalidRequest(endpoint.name, path.left))
    const route: Route<MessageOf<E>> = { name: endpoint.name, path: path.right, decode }
    return observeRoute(transport, route, options)
  }

  const download = <E extends Endpoint.AnyFile>(
    endpoint: E,
    request?: RequestOf<E>
  ): Effect.Effect<File, Errors.DataNodeError> => {
    const typed = Schema.decodeUnknownEither(endpoint.request)(request ?? {})
    const path = Either.flatMap(typed, (decoded) => Endpoint.url(endpoint, decoded))
    if (Either.isLeft(path)) return Effect.fail(invalidRequest(endpoint.name, path.left))
    return readFile(transport, endpoint.name, path.right).pipe(Effect.withSpan(`DataNodeClient.${endpoint.name}`))
  }

  return { query, paginate, observe, download }
}

/** How much of a file's end is searched for an error the node appended after sending part of it. */
const TAIL = 4096

/**
 * A file answer, whole: a stream of chunks the node writes as it reads them, so a failure after
 * the first chunk can only be appended to the body, as a JSON error object, with status 200.
 */
const readFile = (transport: Transport, endpoint: string, path: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const { node, response } = yield* transport.open(path)
      const bytes = new Uint8Array(
        yield* Effect.mapError(
          response.arrayBuffer,
          (cause) => new Errors.TransportError({ node, path, description: "the file was cut short", cause })
        )
      )
      const tail = new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - TAIL)))
      const appended = tail.lastIndexOf('{"error":')
      if (appended >= 0 && tail.trimEnd().endsWith("}")) {
        const description = `the node failed while sending the file: ${tail.slice(appended).trim()}`
        return yield* Effect.fail(new Errors.InternalError({ node, path, status: response.status, description }))
      }
      const disposition = response.headers["content-disposition"] ?? ""
      return {
        contentType: response.headers["content-type"] ?? "",
        fileName: /filename="?([^";]+)"?/.exec(disposition)?.[1],
        bytes
      } satisfies File
    })
  ).pipe(Effect.withSpan(`DataNodeClient.${endpoint}`))
