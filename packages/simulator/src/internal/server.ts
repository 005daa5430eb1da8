/**
 * The HTTP side of a simulated data node: what net/http, rs/cors, the gzip middleware, the
 * grpc-gateway v2.9.0 mux and tmc/grpc-websocket-proxy do in front of the node's handlers.
 * Routing (404 / 501 bodies), query and path decoding with Go's error texts, CORS, `/health`,
 * `?pretty`, gzip, the block and rate-limit headers, injected faults, streams and WebSockets.
 *
 * What reaches the node (and so carries `X-Block-Height`, `X-Block-Timestamp` and the rate-limit
 * headers) is what passed routing and request decoding: like the real gateway, routing errors and
 * query / body decoding errors are answered without them and are not rate limited.
 *
 * Streaming routes answer as grpc-gateway's `ForwardResponseStream` does: a chunked response whose
 * status and headers go out with the first message (the gateway waits for the gRPC stream's
 * header, which the server sends with its first message), one `{"result":…}` line per message, and
 * an `{"error":…}` line when the stream fails. A stream's opening request is rate limited like
 * any other and its response carries the `Ratelimit-*` headers, but no `X-Block-*` headers (those
 * come from the node's unary interceptor). A WebSocket upgrade on any path is accepted at once
 * and the request runs behind it as tmc/grpc-websocket-proxy runs it: each line the handler writes
 * becomes a text frame, each frame the client sends is written to the request body followed by
 * `\n`, status and headers stay inside the proxy, and when the handler returns the connection is
 * closed without a close frame (the client sees code 1006).
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { Duplex } from "node:stream"
import * as zlib from "node:zlib"
import { GatewayError, StreamForm } from "@vega-effect/schema"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { WebSocket, WebSocketServer } from "ws"
import type * as Faults from "../Faults.js"
import type * as RateLimit from "../RateLimit.js"
import { errorBodyText, gatewayErrorText, prettyJson, scanJsonBody } from "./gatewayJson.js"
import {
  bytesToText,
  type CompiledParams,
  compileParams,
  parseRawQuery,
  populateRaw,
  type Query,
  type RawQuery,
  unescapePath
} from "./goQuery.js"
import { type JsonItem, makeJsonValues } from "./jsonValues.js"
import type { BlockInfo, ParamValue, Params, Reply, Route, StreamHandle, StreamRoute, StreamSink } from "./route.js"

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
 * ({@link listen} does both).
 */
export interface Handler {
  (req: http.IncomingMessage, res: http.ServerResponse): void
  /** Accepts a WebSocket upgrade and serves the request behind it. */
  readonly upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Drops every open WebSocket connection. */
  readonly closeSockets: () => void
}

type AnyRoute<Node> = Route<Node> | StreamRoute<Node>

const isStream = <Node>(route: AnyRoute<Node>): route is StreamRoute<Node> => "open" in route

interface CompiledRoute<Node> {
  readonly route: AnyRoute<Node>
  /** Literal segments, or `undefined` where the template has a `{name}` segment. */
  readonly segments: ReadonlyArray<string | undefined>
  readonly names: ReadonlyArray<string>
  /** `undefined` when the request has no query parameters: then the query is not even decoded. */
  readonly query: CompiledParams | undefined
}

const compileRoute = <Node>(route: AnyRoute<Node>): CompiledRoute<Node> => {
  const parts = route.path.slice(1).split("/")
  const names: Array<string> = []
  const segments = parts.map((part) => {
    if (part.startsWith("{") && part.endsWith("}")) {
      names.push(part.slice(1, -1))
      return undefined
    }
    return part
  })
  return {
    route,
    segments,
    names,
    query: route.params.length > 0 ? compileParams(route.params, names) : undefined
  }
}

// grpc-gateway's pattern match; path parameters are the decoded segments (legacy unescaping mode).
const matchRoute = <Node>(
  compiled: CompiledRoute<Node>,
  components: ReadonlyArray<string>
): Array<string> | undefined => {
  const { segments } = compiled
  if (segments.length !== components.length) return undefined
  let values: Array<string> | undefined
  for (let i = 0; i < segments.length; i++) {
    const literal = segments[i]
    if (literal === undefined) (values ??= []).push(bytesToText(components[i]))
    else if (literal !== components[i]) return undefined
  }
  return values ?? []
}

// ---------------------------------------------------------------------------------------------
// CORS (rs/cors with AllowedOrigins ["*"], MaxAge 7200, default methods and headers)
// ---------------------------------------------------------------------------------------------

const CORS_METHODS = new Set(["GET", "POST", "HEAD"])
const CORS_HEADERS = new Set(["Origin", "Accept", "Content-Type", "X-Requested-With"])
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"

const canonicalHeader = (name: string): string =>
  name
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join("-")

const preflight = (req: http.IncomingMessage, res: http.ServerResponse): void => {
  const headers: Record<string, string> = { Vary: PREFLIGHT_VARY }
  const origin = req.headers.origin
  const method = String(req.headers["access-control-request-method"]).toUpperCase()
  const requested = (req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "")
    .map(canonicalHeader)
  if (
    origin !== undefined &&
    origin !== "" &&
    (method === "OPTIONS" || CORS_METHODS.has(method)) &&
    requested.every((h) => CORS_HEADERS.has(h))
  ) {
    headers["Access-Control-Allow-Origin"] = "*"
    headers["Access-Control-Allow-Methods"] = method
    if (requested.length > 0) headers["Access-Control-Allow-Headers"] = requested.join(", ")
    headers["Access-Control-Max-Age"] = "7200"
  }
  res.writeHead(204, headers)
  res.end()
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

type Headers = Record<string, string | Array<string>>

const acceptsGzip = (header: string | undefined): boolean => {
  if (header === undefined || !header.includes("gzip")) return false
  for (const part of header.split(",")) {
    const [coding, ...parameters] = part.split(";")
    if (coding.trim().toLowerCase() !== "gzip") continue
    for (const parameter of parameters) {
      const eq = parameter.indexOf("=")
      if (eq !== -1 && parameter.slice(0, eq).trim() === "q" && Number(parameter.slice(eq + 1)) === 0) return false
    }
    return true
  }
  return false
}

const NOT_FOUND = errorBodyText(GatewayError.ROUTE_NOT_FOUND)
const METHOD_NOT_ALLOWED = errorBodyText(GatewayError.METHOD_NOT_ALLOWED)
const BAD_REQUEST = gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, "Bad Request")
const VARY: Array<string> = ["Origin", "Accept-Encoding"]
const ABSOLUTE_FORM = /^https?:\/\/[^/?]*/i

// Go's json.Marshal (which jsonpb uses for strings) escapes these; they only occur inside strings.
const HTML_UNSAFE = /[<>&\u2028\u2029]/g
const goSafe = (json: string): string =>
  json.replace(HTML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

const encodeErrorFrame = Schema.encodeSync(Schema.Struct({ error: StreamForm.make(GatewayError.ErrorBody) }))

/**
 * An `{"error":…}` frame as the stream marshaller writes it: enums as numbers and defaults
 * omitted, so an empty `details` is absent.
 */
export const errorFrame = (body: GatewayError.ErrorBody): string => {
  // the schema keeps an optional list that is set; the stream marshaller drops an empty one
  const { details, ...rest } = body
  const error = details !== undefined && details.length > 0 ? body : rest
  return goSafe(JSON.stringify(encodeErrorFrame({ error })))
}

// ---------------------------------------------------------------------------------------------
// WebSocket connections (tmc/grpc-websocket-proxy)
// ---------------------------------------------------------------------------------------------

const NEWLINE = Buffer.from("\n")

const toBuffer = (data: WebSocket.RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)

/** One WebSocket connection, as the proxy runs the request behind it. */
interface Socket {
  /** Sends one text frame. */
  readonly send: (text: string) => void
  /** Closes the connection without a close frame, once the frames sent so far are written. */
  readonly drop: () => void
  /** Reads the client's frames as the request body; frames that came before are kept for it. */
  readonly read: (onItem: (item: JsonItem) => void) => void
  /** The request does not read its body: frames are dropped. */
  readonly ignore: () => void
  /** Calls `listener` when the connection is closed (at once when it already is). */
  readonly onClose: (listener: () => void) => void
}

const makeSocket = (ws: WebSocket): Socket => {
  let written: Promise<void> = Promise.resolve()
  let dropped = false
  let closed = false
  let kept: Array<Buffer> | undefined = []
  let reader: ReturnType<typeof makeJsonValues> | undefined
  const closeListeners: Array<() => void> = []
  ws.on("message", (data) => {
    // the proxy writes each payload to the request body followed by a newline
    const chunk = Buffer.concat([toBuffer(data), NEWLINE])
    if (reader !== undefined) reader.push(chunk)
    else kept?.push(chunk)
  })
  ws.on("error", () => ws.terminate())
  ws.on("close", () => {
    closed = true
    reader?.end()
    for (const listener of closeListeners.splice(0)) listener()
  })
  return {
    send: (text) => {
      if (dropped || ws.readyState !== WebSocket.OPEN) return
      written = new Promise((resolve) => ws.send(text, () => resolve()))
    },
    drop: () => {
      if (dropped) return
      dropped = true
      void written.then(() => ws.terminate())
    },
    read: (onItem) => {
      const values = makeJsonValues(onItem)
      reader = values
      for (const chunk of kept ?? []) values.push(chunk)
      kept = undefined
      if (closed) values.end()
    },
    ignore: () => {
      kept = undefined
    },
    onClose: (listener) => {
      if (closed) listener()
      else closeListeners.push(listener)
    }
  }
}

/** What the proxy does with a response body: one text frame per non-empty line (bufio.ScanLines). */
const sendLines = (socket: Socket, text: string): void => {
  for (const line of text.split("\n")) {
    const frame = line.endsWith("\r") ? line.slice(0, -1) : line
    if (frame !== "") socket.send(frame)
  }
}

// ---------------------------------------------------------------------------------------------
// Exchanges
// ---------------------------------------------------------------------------------------------

type Transport =
  { readonly _tag: "Http"; readonly res: http.ServerResponse } | { readonly _tag: "WebSocket"; readonly socket: Socket }

interface Exchange {
  readonly req: http.IncomingMessage
  /** The method routed on: the request's, or over a WebSocket the `method` query parameter. */
  readonly method: string
  readonly transport: Transport
  readonly pretty: boolean
  readonly gzip: boolean
  readonly vary: Array<string>
  readonly allowOrigin: boolean
  readonly fault: Faults.Fault | undefined
}

/** Where a stream's frames go. */
interface StreamOutput {
  readonly line: (frame: string) => void
  /** The final error frame; its code gives the status when nothing was sent before. */
  readonly fail: (code: number, frame: string) => void
  readonly finish: () => void
  /** A fault: part of a frame, then the connection is reset or the stream ends. */
  readonly cut: (part: string, fault: "Reset" | "Truncate") => void
}

const httpStream = (x: Exchange, res: http.ServerResponse, extra: Headers): StreamOutput => {
  let started = false
  let over = false
  const start = (status: number, json: boolean): boolean => {
    if (over || res.destroyed) return false
    if (!started) {
      started = true
      const headers: Headers = { ...extra, "Transfer-Encoding": "chunked", Vary: x.vary }
      // with no message at all nothing sets it (Go only sniffs a type when there is a body)
      if (json) headers["Content-Type"] = "application/json"
      if (x.allowOrigin) headers["Access-Control-Allow-Origin"] = "*"
      res.writeHead(status, headers)
    }
    return true
  }
  return {
    line: (frame) => {
      if (start(200, true)) res.write(`${frame}\n`)
    },
    fail: (code, frame) => {
      if (!start(GatewayError.httpStatus(code), true)) return
      over = true
      res.end(`${frame}\n`)
    },
    finish: () => {
      if (!start(200, false)) return
      over = true
      res.end()
    },
    cut: (part, fault) => {
      if (!start(200, true)) return
      over = true
      if (fault === "Truncate") res.end(part)
      else res.write(part, () => res.destroy())
    }
  }
}

const socketStream = (socket: Socket): StreamOutput => ({
  line: (frame) => socket.send(frame),
  fail: (_code, frame) => {
    socket.send(frame)
    socket.drop()
  },
  finish: () => socket.drop(),
  cut: (part) => {
    socket.send(part)
    socket.drop()
  }
})

interface Target {
  readonly path: Either.Either<string, string>
  readonly query: string
}

const requestTarget = (req: http.IncomingMessage): Target => {
  let target = req.url ?? "/"
  // absolute-form request target (`GET http://host/path`): Go routes on its path
  if (ABSOLUTE_FORM.test(target)) target = target.replace(ABSOLUTE_FORM, "")
  const q = target.indexOf("?")
  return { path: unescapePath(q === -1 ? target : target.slice(0, q)), query: q === -1 ? "" : target.slice(q + 1) }
}

/**
 * The request listener of a simulated node: routes, decodes and answers as the node's gateway
 * does, calling the route handlers with the decoded parameters.
 */
export const makeHandler = <Node>(options: HandlerOptions<Node>): Handler => {
  const { block, faults, node, rateLimiter } = options
  const gzipLevel = options.gzipLevel ?? zlib.constants.Z_BEST_SPEED
  const compiled = [...options.routes, ...(options.streams ?? [])].map(compileRoute)
  const byMethod = new Map<string, Array<CompiledRoute<Node>>>()
  for (let i = compiled.length - 1; i >= 0; i--) {
    const method = compiled[i].route.method
    const list = byMethod.get(method)
    if (list === undefined) byMethod.set(method, [compiled[i]])
    else list.push(compiled[i])
  }

  const blockHeaders = (headers: Headers): Headers => {
    const info = block(node)
    headers["X-Block-Height"] = String(info.height)
    headers["X-Block-Timestamp"] = info.timestampNanos
    return headers
  }

  const write = (x: Exchange, status: number, body: string | Buffer, headers: Headers): void => {
    const transport = x.transport
    // one UTF-8 encoding of the body serves both Content-Length and the write
    const bytes = typeof body === "string" ? Buffer.from(body) : body
    if (transport._tag === "WebSocket") {
      // the status and headers stay in the proxy; the body's lines are the frames
      const sent = x.fault?._tag === "Reset" ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes
      sendLines(transport.socket, sent.toString())
      transport.socket.drop()
      return
    }
    const { res } = transport
    if (res.destroyed) return
    headers["Content-Length"] = String(bytes.length)
    res.writeHead(status, headers)
    if (x.fault?._tag === "Reset") {
      const half = bytes.subarray(0, Math.floor(bytes.length / 2))
      if (x.req.method === "HEAD" || half.length === 0) {
        res.flushHeaders()
        setImmediate(() => res.destroy())
      } else {
        res.write(half, () => res.destroy())
      }
      return
    }
    res.end(bytes)
  }

  /** Sends a JSON answer through `?pretty`, truncation, gzip and the common headers. */
  const send = (x: Exchange, status: number, body: string, extra: Headers): void => {
    let text = x.pretty ? prettyJson(body) : body
    if (x.fault?._tag === "Truncate") text = text.slice(0, Math.floor(text.length / 2))
    const headers: Headers = { ...extra, "Content-Type": "application/json", Vary: x.vary }
    if (x.allowOrigin) headers["Access-Control-Allow-Origin"] = "*"
    if (!x.gzip) return write(x, status, text, headers)
    headers["Content-Encoding"] = "gzip"
    zlib.gzip(text, { level: gzipLevel }, (error, compressed) => {
      if (error !== null) {
        if (x.transport._tag === "Http") x.transport.res.destroy(error)
        return
      }
      write(x, status, compressed, headers)
    })
  }

  const sendError = (x: Exchange, status: number, body: string): void => send(x, status, body, {})

  /** Counts the request against the rate limiter: the headers to answer with, or `undefined` once refused. */
  const admit = (x: Exchange): Headers | undefined => {
    if (rateLimiter === undefined) return {}
    const client = rateLimiter.clientAddress(x.req.socket.remoteAddress, x.req.headers["x-forwarded-for"])
    const decision = rateLimiter.take(client)
    if (decision._tag === "Rejected") {
      send(x, decision.status, decision.body, blockHeaders({ ...decision.headers }))
      return undefined
    }
    return { ...decision.headers }
  }

  const call = (x: Exchange, route: Route<Node>, query: Query, path: Map<string, string>, body: unknown): void => {
    const admitted = admit(x)
    if (admitted === undefined) return
    const headers = admitted
    const failed = (error: unknown): Reply => ({
      status: 500,
      body: gatewayErrorText(GatewayError.GrpcCode.Internal, error instanceof Error ? error.message : String(error))
    })
    const answer = (reply: Reply): void => {
      if (reply.headers !== undefined) Object.assign(headers, reply.headers)
      send(x, reply.status, reply.body, blockHeaders(headers))
    }
    let reply: Reply | Promise<Reply>
    try {
      reply = route.handle({ query, path } satisfies Params, node, body)
    } catch (error) {
      reply = failed(error)
    }
    if (reply instanceof Promise) reply.then(answer, (error: unknown) => answer(failed(error)))
    else answer(reply)
  }

  /** The request body as JSON values: the client's frames over a WebSocket. */
  const readItems = (x: Exchange, onItem: (item: JsonItem) => void): void => {
    const transport = x.transport
    if (transport._tag === "WebSocket") return transport.socket.read(onItem)
    const values = makeJsonValues(onItem)
    x.req.on("data", (chunk: Buffer) => values.push(chunk))
    x.req.on("end", () => values.end())
  }

  /**
   * Runs a streaming route as grpc-gateway's generated handler and `ForwardResponseStream` do.
   * A bidirectional stream first waits for the client's first message (or the end of its side):
   * until then nothing the route sends is forwarded, and a first message that does not decode is
   * answered by the gateway as an error (code 2, HTTP 500) instead of the stream.
   */
  const openStream = (x: Exchange, route: StreamRoute<Node>, query: Query, path: Map<string, string>): void => {
    const transport = x.transport
    if (transport._tag === "Http" && x.req.socket.destroyed) return
    const admitted = admit(x)
    if (admitted === undefined) return
    const out = transport._tag === "Http" ? httpStream(x, transport.res, admitted) : socketStream(transport.socket)
    const decode = route.decode
    let forwarding = decode === undefined
    const held: Array<() => void> = []
    let finished = false
    let torn = false
    let handle: StreamHandle | undefined
    const cut = x.fault?._tag === "Reset" || x.fault?._tag === "Truncate" ? x.fault._tag : undefined

    const emit = (action: () => void): void => {
      if (forwarding) action()
      else held.push(action)
    }
    const teardown = (): void => {
      if (torn) return
      torn = true
      handle?.close()
    }
    const sink: StreamSink = {
      send: (frame) => {
        if (finished) return
        const text = goSafe(frame)
        if (cut === undefined) return emit(() => out.line(text))
        const fault = cut
        finished = true
        emit(() => out.cut(text.slice(0, Math.floor(text.length / 2)), fault))
        teardown()
      },
      fail: (error) => {
        if (finished) return
        finished = true
        const frame = errorFrame(error)
        emit(() => out.fail(error.code, frame))
        teardown()
      },
      end: () => {
        if (finished) return
        finished = true
        emit(() => out.finish())
        teardown()
      }
    }
    const gone = (): void => {
      finished = true
      held.length = 0
      teardown()
    }
    if (transport._tag === "Http") transport.res.on("close", gone)
    else transport.socket.onClose(gone)
    if (torn) return

    try {
      handle = route.open({ query, path } satisfies Params, node, sink)
    } catch (error) {
      sink.fail(
        GatewayError.gatewayError(
          GatewayError.GrpcCode.Internal,
          error instanceof Error ? error.message : String(error)
        )
      )
    }
    if (torn) handle?.close()

    if (decode === undefined) {
      // a server stream does not read what the client sends
      if (transport._tag === "Http") x.req.resume()
      else transport.socket.ignore()
      return
    }
    let first = true
    let clientDone = false
    readItems(x, (item) => {
      if (first) {
        first = false
        const decoded = item._tag === "Value" ? decode(item.value) : undefined
        const problem = item._tag === "Error" ? item.message : decoded?._tag === "Error" ? decoded.message : undefined
        if (problem !== undefined) {
          // the generated handler could not send the first request: the gateway answers the error
          held.length = 0
          finished = true
          teardown()
          return send(x, 500, gatewayErrorText(GatewayError.GrpcCode.Unknown, problem), admitted)
        }
        if (!finished) {
          if (decoded?._tag === "Ok") handle?.receive?.(decoded.value)
          else {
            clientDone = true
            handle?.receiveEnd?.()
          }
        }
        forwarding = true
        for (const action of held.splice(0)) action()
        return
      }
      if (clientDone || finished) return
      if (item._tag === "Value") {
        const decoded = decode(item.value)
        if (decoded._tag === "Ok") return handle?.receive?.(decoded.value)
      }
      // a later message that does not decode ends the client's side, like its end
      clientDone = true
      handle?.receiveEnd?.()
    })
  }

  const api = (x: Exchange, path: string, raw: RawQuery): void => {
    const fault = x.fault
    if (fault !== undefined && (fault._tag === "Error" || fault._tag === "RateLimited")) {
      return send(x, fault.status, fault.body, blockHeaders({ ...fault.headers }))
    }
    if (!path.startsWith("/")) return sendError(x, 400, BAD_REQUEST)
    const components = path.slice(1).split("/")
    // grpc-gateway splits a verb off the last segment; one starting with ':' matches nothing
    if (components[components.length - 1].startsWith(":")) return sendError(x, 404, NOT_FOUND)
    const method = x.method
    let found: CompiledRoute<Node> | undefined
    let values: Array<string> | undefined
    for (const candidate of byMethod.get(method) ?? []) {
      values = matchRoute(candidate, components)
      if (values !== undefined) {
        found = candidate
        break
      }
    }
    if (found === undefined || values === undefined) {
      for (const [other, list] of byMethod) {
        if (other === method) continue
        if (list.some((candidate) => matchRoute(candidate, components) !== undefined)) {
          return sendError(x, 501, METHOD_NOT_ALLOWED)
        }
      }
      return sendError(x, 404, NOT_FOUND)
    }
    const compiledRoute = found
    const pathParams = new Map<string, string>()
    for (let i = 0; i < compiledRoute.names.length; i++) pathParams.set(compiledRoute.names[i], values[i])
    let query: Query = new Map()
    if (compiledRoute.query !== undefined) {
      const parsed = populateRaw(raw, compiledRoute.query)
      if (Either.isLeft(parsed))
        return sendError(x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, parsed.left))
      query = parsed.right
      // a path parameter named in the query by its JSON name overrides the path (the generated
      // code sets path parameters first and filters only their proto names)
      for (const name of compiledRoute.names) {
        const value: ParamValue | Array<ParamValue> | undefined = query.get(name)
        if (value !== undefined) {
          pathParams.set(name, String(value))
          query.delete(name)
        }
      }
    }
    const route = compiledRoute.route
    if (isStream(route)) return openStream(x, route, query, pathParams)
    const transport = x.transport
    if (route.body !== true) {
      if (transport._tag === "WebSocket") transport.socket.ignore()
      return call(x, route, query, pathParams, undefined)
    }
    if (transport._tag === "WebSocket") {
      // the request body is the client's frames; the generated code decodes its first value
      let read = false
      return transport.socket.read((item) => {
        if (read) return
        read = true
        if (item._tag === "Error") {
          return sendError(x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, item.message))
        }
        call(x, route, query, pathParams, item._tag === "Value" ? (item.value ?? {}) : {})
      })
    }
    const chunks: Array<Buffer> = []
    x.req.on("data", (chunk: Buffer) => chunks.push(chunk))
    x.req.on("error", () => transport.res.destroy())
    x.req.on("end", () => {
      const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
      const scan = scanJsonBody(buffer)
      if (scan._tag === "Error") {
        return sendError(x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, scan.message))
      }
      let body: unknown = {}
      if (scan._tag === "Value") {
        try {
          body = JSON.parse(buffer.toString("utf8", 0, scan.end)) ?? {}
        } catch (error) {
          return sendError(x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, String(error)))
        }
      }
      call(x, route, query, pathParams, body)
    })
  }

  const run = (x: Exchange, path: string, raw: RawQuery, delay: number): void => {
    if (delay > 0) setTimeout(() => api(x, path, raw), delay)
    else api(x, path, raw)
  }

  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const target = requestTarget(req)
    if (Either.isLeft(target.path)) {
      // net/http rejects a request whose path it cannot unescape before any handler runs
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" })
      res.end("400 Bad Request")
      return
    }
    const path = target.path.right
    const method = req.method ?? "GET"
    if (method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) return preflight(req, res)
    const origin = req.headers.origin
    const allowOrigin = origin !== undefined && origin !== "" && CORS_METHODS.has(method)
    if (path === "/health") {
      const headers: Headers = { "Content-Type": "text/plain; charset=utf-8", "Content-Length": "2", Vary: "Origin" }
      if (allowOrigin) headers["Access-Control-Allow-Origin"] = "*"
      res.writeHead(200, headers)
      res.end("ok")
      return
    }
    const raw = parseRawQuery(target.query)
    const decision = faults?.decide()
    const x: Exchange = {
      req,
      method,
      transport: { _tag: "Http", res },
      pretty: raw.values.has("pretty"),
      gzip: acceptsGzip(req.headers["accept-encoding"]),
      vary: VARY,
      allowOrigin,
      fault: decision?.fault
    }
    run(x, path, raw, decision?.delay ?? 0)
  }

  const sockets = new Set<WebSocket>()
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    // the proxy answers a `Sec-WebSocket-Protocol` starting with "Bearer" in kind, and no other
    handleProtocols: (_protocols, request) => {
      const offered = request.headers["sec-websocket-protocol"]
      return typeof offered === "string" && offered.startsWith("Bearer") ? "Bearer" : false
    }
  })

  const upgrade = (req: http.IncomingMessage, stream: Duplex, head: Buffer): void => {
    const target = requestTarget(req)
    if (Either.isLeft(target.path)) {
      stream.end(
        "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"
      )
      return
    }
    const path = target.path.right
    wss.handleUpgrade(req, stream, head, (ws) => {
      sockets.add(ws)
      ws.on("close", () => sockets.delete(ws))
      const socket = makeSocket(ws)
      if (path === "/health") {
        socket.send("ok")
        return socket.drop()
      }
      const raw = parseRawQuery(target.query)
      const override = raw.values.get("method")?.[0]
      const decision = faults?.decide()
      const x: Exchange = {
        req,
        method: override !== undefined && override !== "" ? override : (req.method ?? "GET"),
        transport: { _tag: "WebSocket", socket },
        pretty: raw.values.has("pretty"),
        // the proxy's request to the gateway carries no Accept-Encoding and no Origin
        gzip: false,
        vary: VARY,
        allowOrigin: false,
        fault: decision?.fault
      }
      run(x, path, raw, decision?.delay ?? 0)
    })
  }

  const closeSockets = (): void => {
    for (const ws of sockets) ws.terminate()
    sockets.clear()
  }

  return Object.assign(listener, { upgrade, closeSockets })
}

// ---------------------------------------------------------------------------------------------
// Listening
// ---------------------------------------------------------------------------------------------

/** The server could not listen (address in use, no permission, …). */
export class ListenError extends Data.TaggedError("ListenError")<{
  readonly host: string
  readonly port: number
  readonly cause: unknown
}> {}

/** A listening server. */
export interface Listening {
  readonly server: http.Server
  readonly host: string
  readonly port: number
  /** `http://host:port`, without a trailing slash. */
  readonly url: string
}

const isHandler = (listener: http.RequestListener | Handler): listener is Handler => "upgrade" in listener

/**
 * Listens on `host` (default 127.0.0.1) and `port` (default 0: any free port) for the life of the
 * scope; closing the scope closes the server, its open connections (streams included) and its
 * WebSockets.
 */
export const listen = (
  listener: http.RequestListener | Handler,
  options: { readonly host?: string | undefined; readonly port?: number | undefined } = {}
): Effect.Effect<Listening, ListenError, Scope.Scope> => {
  const host = options.host ?? "127.0.0.1"
  const port = options.port ?? 0
  const closeSockets = (): void => {
    if (isHandler(listener)) listener.closeSockets()
  }
  return Effect.acquireRelease(
    Effect.async<Listening, ListenError>((resume) => {
      const server = http.createServer(listener)
      if (isHandler(listener)) server.on("upgrade", listener.upgrade)
      const onError = (cause: unknown) => resume(Effect.fail(new ListenError({ host, port, cause })))
      server.once("error", onError)
      server.listen(port, host, () => {
        server.off("error", onError)
        const bound = (server.address() as AddressInfo).port
        const shown = host.includes(":") ? `[${host}]` : host
        resume(Effect.succeed({ server, host, port: bound, url: `http://${shown}:${bound}` }))
      })
      return Effect.sync(() => {
        closeSockets()
        server.close()
        server.closeAllConnections()
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        closeSockets()
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  )
}
