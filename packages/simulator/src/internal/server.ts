/**
 * The HTTP side of a simulated data node: what net/http, rs/cors, the gzip middleware and the
 * grpc-gateway v2.9.0 mux do in front of the node's handlers. Routing (404 / 501 bodies), query
 * and path decoding with Go's error texts, CORS, `/health`, `?pretty`, gzip, the block and
 * rate-limit headers, and injected faults.
 *
 * What reaches the node (and so carries `X-Block-Height`, `X-Block-Timestamp` and the rate-limit
 * headers) is what passed routing and request decoding: like the real gateway, routing errors and
 * query / body decoding errors are answered without them and are not rate limited.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as zlib from "node:zlib"
import { GatewayError } from "@vega-effect/schema"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
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
import type { BlockInfo, ParamValue, Params, Reply, Route } from "./route.js"

/** Options of {@link makeHandler}. */
export interface HandlerOptions<Node> {
  /**
   * The route table. As in grpc-gateway, which prepends each registration, when several
   * templates match a path the one registered **last** wins: list routes in the order the
   * generated code registers them (the proto service order).
   */
  readonly routes: ReadonlyArray<Route<Node>>
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

interface CompiledRoute<Node> {
  readonly route: Route<Node>
  /** Literal segments, or `undefined` where the template has a `{name}` segment. */
  readonly segments: ReadonlyArray<string | undefined>
  readonly names: ReadonlyArray<string>
  /** `undefined` when the request has no query parameters: then the query is not even decoded. */
  readonly query: CompiledParams | undefined
}

const compileRoute = <Node>(route: Route<Node>): CompiledRoute<Node> => {
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

interface Exchange {
  readonly req: http.IncomingMessage
  readonly res: http.ServerResponse
  readonly pretty: boolean
  readonly gzip: boolean
  readonly vary: Array<string>
  readonly allowOrigin: boolean
  readonly fault: Faults.Fault | undefined
}

/**
 * The request listener of a simulated node: routes, decodes and answers as the node's gateway
 * does, calling the route handlers with the decoded parameters.
 */
export const makeHandler = <Node>(options: HandlerOptions<Node>): http.RequestListener => {
  const { block, faults, node, rateLimiter } = options
  const gzipLevel = options.gzipLevel ?? zlib.constants.Z_BEST_SPEED
  const compiled = options.routes.map(compileRoute)
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
    const { res } = x
    if (res.destroyed) return
    // one UTF-8 encoding of the body serves both Content-Length and the write
    const bytes = typeof body === "string" ? Buffer.from(body) : body
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
        x.res.destroy(error)
        return
      }
      write(x, status, compressed, headers)
    })
  }

  const sendError = (x: Exchange, status: number, body: string): void => send(x, status, body, {})

  const call = (
    x: Exchange,
    compiledRoute: CompiledRoute<Node>,
    query: Query,
    path: Map<string, string>,
    body: unknown
  ): void => {
    let headers: Headers = {}
    if (rateLimiter !== undefined) {
      const client = rateLimiter.clientAddress(x.req.socket.remoteAddress, x.req.headers["x-forwarded-for"])
      const decision = rateLimiter.take(client)
      if (decision._tag === "Rejected")
        return send(x, decision.status, decision.body, blockHeaders({ ...decision.headers }))
      headers = { ...decision.headers }
    }
    let reply: Reply
    try {
      reply = compiledRoute.route.handle({ query, path } satisfies Params, node, body)
    } catch (error) {
      reply = {
        status: 500,
        body: gatewayErrorText(GatewayError.GrpcCode.Internal, error instanceof Error ? error.message : String(error))
      }
    }
    if (reply.headers !== undefined) Object.assign(headers, reply.headers)
    send(x, reply.status, reply.body, blockHeaders(headers))
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
    const method = x.req.method ?? "GET"
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
    const route = found
    const pathParams = new Map<string, string>()
    for (let i = 0; i < route.names.length; i++) pathParams.set(route.names[i], values[i])
    let query: Query = new Map()
    if (route.query !== undefined) {
      const parsed = populateRaw(raw, route.query)
      if (Either.isLeft(parsed))
        return sendError(x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, parsed.left))
      query = parsed.right
      // a path parameter named in the query by its JSON name overrides the path (the generated
      // code sets path parameters first and filters only their proto names)
      for (const name of route.names) {
        const value: ParamValue | Array<ParamValue> | undefined = query.get(name)
        if (value !== undefined) {
          pathParams.set(name, String(value))
          query.delete(name)
        }
      }
    }
    if (route.route.body !== true) return call(x, route, query, pathParams, undefined)
    const chunks: Array<Buffer> = []
    x.req.on("data", (chunk: Buffer) => chunks.push(chunk))
    x.req.on("error", () => x.res.destroy())
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

  return (req, res) => {
    let target = req.url ?? "/"
    // absolute-form request target (`GET http://host/path`): Go routes on its path
    if (ABSOLUTE_FORM.test(target)) target = target.replace(ABSOLUTE_FORM, "")
    const q = target.indexOf("?")
    const decoded = unescapePath(q === -1 ? target : target.slice(0, q))
    if (Either.isLeft(decoded)) {
      // net/http rejects a request whose path it cannot unescape before any handler runs
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" })
      res.end("400 Bad Request")
      return
    }
    const path = decoded.right
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
    const raw = parseRawQuery(q === -1 ? "" : target.slice(q + 1))
    const decision = faults?.decide()
    const x: Exchange = {
      req,
      res,
      pretty: raw.values.has("pretty"),
      gzip: acceptsGzip(req.headers["accept-encoding"]),
      vary: VARY,
      allowOrigin,
      fault: decision?.fault
    }
    if (decision !== undefined && decision.delay > 0) setTimeout(() => api(x, path, raw), decision.delay)
    else api(x, path, raw)
  }
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

/**
 * Listens on `host` (default 127.0.0.1) and `port` (default 0: any free port) for the life of the
 * scope; closing the scope closes the server and its open connections.
 */
export const listen = (
  listener: http.RequestListener,
  options: { readonly host?: string | undefined; readonly port?: number | undefined } = {}
): Effect.Effect<Listening, ListenError, Scope.Scope> => {
  const host = options.host ?? "127.0.0.1"
  const port = options.port ?? 0
  return Effect.acquireRelease(
    Effect.async<Listening, ListenError>((resume) => {
      const server = http.createServer(listener)
      const onError = (cause: unknown) => resume(Effect.fail(new ListenError({ host, port, cause })))
      server.once("error", onError)
      server.listen(port, host, () => {
        server.off("error", onError)
        const bound = (server.address() as AddressInfo).port
        const shown = host.includes(":") ? `[${host}]` : host
        resume(Effect.succeed({ server, host, port: bound, url: `http://${shown}:${bound}` }))
      })
      return Effect.sync(() => {
        server.close()
        server.closeAllConnections()
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  )
}
