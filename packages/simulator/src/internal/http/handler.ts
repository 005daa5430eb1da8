/**
 * The HTTP side of a simulated data node: what net/http, rs/cors, the gzip middleware, the
 * grpc-gateway v2.9.0 mux and tmc/grpc-websocket-proxy do in front of the node's handlers,
 * composed from one module per concern (routing, CORS, responses, faults, rate limiting, unary
 * calls, streams, WebSockets).
 *
 * What reaches the node (and so carries `X-Block-Height`, `X-Block-Timestamp` and the rate-limit
 * headers) is what passed routing and request decoding: like the real gateway, routing errors and
 * query / body decoding errors are answered without them and are not rate limited.
 */
import type * as http from "node:http"
import type { Duplex } from "node:stream"
import * as zlib from "node:zlib"
import { DataNodeApi } from "@vega-effect/schema"
import * as Either from "effect/Either"
import type * as Faults from "../../Faults.js"
import type * as RateLimit from "../../RateLimit.js"
import { parseRawQuery, type RawQuery } from "../goQuery.js"
import type { BlockInfo, Route, StreamRoute } from "../route.js"
import { allowsOrigin, answerPreflight, isPreflight } from "./cors.js"
import { type Exchange, type Gateway, type Headers, OpenStreams, sendError } from "./exchange.js"
import { afterDelay, decide, replacedAnswer } from "./faults.js"
import { makeAdmission } from "./rateLimit.js"
import { acceptsGzip, answerHealth, answerUnreadablePath, makeSend } from "./response.js"
import { decodeParams, isStream, makeRouteTable, requestTarget, type RouteTable } from "./routing.js"
import { openStream } from "./streams.js"
import { serveUnary } from "./unary.js"
import { makeWebSockets } from "./websocket.js"

/** Options of {@link makeHandler}. */
export interface HandlerOptions<Node> {
  /**
   * The route table. As in grpc-gateway, which prepends each registration, when several
   * templates match a path the one registered **last** wins: list routes in the order the
   * generated code registers them (the proto service order).
   */
  readonly routes: ReadonlyArray<Route<Node>>
  /** The streaming routes, registered after {@link routes}. */
  readonly streams?: ReadonlyArray<StreamRoute<Node>> | undefined
  readonly node: Node
  /** The block the node is at, for `X-Block-Height` / `X-Block-Timestamp`. */
  readonly block: (node: Node) => BlockInfo
  /** Rate limiting; off when absent. */
  readonly rateLimiter?: RateLimit.RateLimiter | undefined
  /** Fault injection; off when absent. */
  readonly faults?: Faults.Faults | undefined
  /** zlib level for gzipped answers. Default 1 (fastest: the bytes never match Go's gzip anyway). */
  readonly gzipLevel?: number | undefined
}

/**
 * The request listener of a simulated node, with its WebSocket side: give {@link Handler.upgrade}
 * the server's `upgrade` events, and call {@link Handler.closeSockets} when the server stops
 * (`listen` does both).
 */
export interface Handler {
  (req: http.IncomingMessage, res: http.ServerResponse): void
  /** Accepts a WebSocket upgrade and serves the request behind it. */
  readonly upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Drops every open WebSocket connection. */
  readonly closeSockets: () => void
  /**
   * Drops the connection of every open stream: a WebSocket without a close frame, a chunked
   * response destroyed before its end.
   */
  readonly cutStreams: () => void
}

const makeGateway = <Node>(options: HandlerOptions<Node>): Gateway<Node> => {
  const { block, node } = options
  const send = makeSend(options.gzipLevel ?? zlib.constants.Z_BEST_SPEED)
  const blockHeaders = (headers: Headers): Headers => {
    const info = block(node)
    headers[DataNodeApi.BlockHeaders.height] = String(info.height)
    headers[DataNodeApi.BlockHeaders.timestamp] = info.timestampNanos
    return headers
  }
  const admit = makeAdmission(options.rateLimiter, { send, blockHeaders })
  return { node, streams: new OpenStreams(), send, blockHeaders, admit }
}

/** Serves an API request: an injected error, a routing or query error, or the route. */
const serveWith =
  <Node>(gateway: Gateway<Node>, table: RouteTable<Node>) =>
  (x: Exchange, path: string, raw: RawQuery): void => {
    const replaced = replacedAnswer(x.fault)
    if (replaced !== undefined) {
      return gateway.send(x, replaced.status, replaced.body, gateway.blockHeaders({ ...replaced.headers }))
    }
    const match = table(x.method, path)
    if (match._tag === "Refused") return sendError(gateway, x, match.status, match.body)
    const params = decodeParams(match, raw)
    if (Either.isLeft(params)) return sendError(gateway, x, params.left.status, params.left.body)
    const route = match.compiled.route
    if (isStream(route)) return openStream(gateway, x, route, params.right)
    serveUnary(gateway, x, route, params.right)
  }

/**
 * The request listener of a simulated node: routes, decodes and answers as the node's gateway
 * does, calling the route handlers with the decoded parameters.
 */
export const makeHandler = <Node>(options: HandlerOptions<Node>): Handler => {
  const gateway = makeGateway(options)
  const serve = serveWith(gateway, makeRouteTable(options.routes, options.streams ?? []))
  const { faults } = options
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const target = requestTarget(req)
    // net/http rejects a request whose path it cannot unescape before any handler runs
    if (Either.isLeft(target.path)) return answerUnreadablePath(res)
    const path = target.path.right
    const method = req.method ?? "GET"
    if (isPreflight(req, method)) return answerPreflight(req, res)
    const allowOrigin = allowsOrigin(req, method)
    if (path === "/health") return answerHealth(res, allowOrigin)
    const raw = parseRawQuery(target.query)
    const decision = decide(faults)
    const x: Exchange = {
      req,
      method,
      transport: { _tag: "Http", res },
      pretty: raw.values.has("pretty"),
      gzip: acceptsGzip(req.headers["accept-encoding"]),
      allowOrigin,
      fault: decision.fault
    }
    afterDelay(decision, () => serve(x, path, raw))
  }
  const { closeSockets, upgrade } = makeWebSockets(faults, serve)
  const cutStreams = (): void => gateway.streams.cutAll()
  return Object.assign(listener, { upgrade, closeSockets, cutStreams })
}
