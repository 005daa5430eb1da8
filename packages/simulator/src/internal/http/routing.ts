/**
 * Routing as the grpc-gateway v2.9.0 mux does it: the route table compiled once, a path matched
 * against it (the route registered last wins), the 404 and 501 bodies when nothing matches, and
 * the path and query parameters decoded with Go's rules and error texts.
 */
import type * as http from "node:http"
import { GatewayError } from "@vega-effect/schema"
import * as Either from "effect/Either"
import { errorBodyText, gatewayErrorText } from "../gatewayJson.js"
import {
  bytesToText,
  type CompiledParams,
  compileParams,
  populateRaw,
  type Query,
  type RawQuery,
  unescapePath
} from "../goQuery.js"
import type { ParamValue, Params, Route, StreamRoute } from "../route.js"

/** A unary or a streaming route. */
export type AnyRoute<Node> = Route<Node> | StreamRoute<Node>

/** Whether a route streams its answer. */
export const isStream = <Node>(route: AnyRoute<Node>): route is StreamRoute<Node> => "open" in route

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

/** The answer the gateway gives itself, without reaching the node. */
export interface Refusal {
  readonly _tag: "Refused"
  readonly status: number
  readonly body: string
}

const refuse = (status: number, body: string): Refusal => ({ _tag: "Refused", status, body })

const NOT_FOUND = refuse(404, errorBodyText(GatewayError.ROUTE_NOT_FOUND))
const METHOD_NOT_ALLOWED = refuse(501, errorBodyText(GatewayError.METHOD_NOT_ALLOWED))
const BAD_REQUEST = refuse(400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, "Bad Request"))

/** The route a request goes to, with the values of its path parameters. */
export interface Match<Node> {
  readonly _tag: "Matched"
  readonly compiled: CompiledRoute<Node>
  readonly values: ReadonlyArray<string>
}

/** The compiled route table: finds the route of a method and path. */
export type RouteTable<Node> = (method: string, path: string) => Match<Node> | Refusal

/**
 * Compiles the routes, then the streaming routes. As in grpc-gateway, which prepends each
 * registration, when several templates match a path the one registered **last** wins.
 */
export const makeRouteTable = <Node>(
  routes: ReadonlyArray<Route<Node>>,
  streams: ReadonlyArray<StreamRoute<Node>>
): RouteTable<Node> => {
  const compiled = [...routes, ...streams].map(compileRoute)
  const byMethod = new Map<string, Array<CompiledRoute<Node>>>()
  for (let i = compiled.length - 1; i >= 0; i--) {
    const method = compiled[i].route.method
    const list = byMethod.get(method)
    if (list === undefined) byMethod.set(method, [compiled[i]])
    else list.push(compiled[i])
  }
  return (method, path) => {
    if (!path.startsWith("/")) return BAD_REQUEST
    const components = path.slice(1).split("/")
    // grpc-gateway splits a verb off the last segment; one starting with ':' matches nothing
    if (components[components.length - 1].startsWith(":")) return NOT_FOUND
    for (const candidate of byMethod.get(method) ?? []) {
      const values = matchRoute(candidate, components)
      if (values !== undefined) return { _tag: "Matched", compiled: candidate, values }
    }
    for (const [other, list] of byMethod) {
      if (other === method) continue
      if (list.some((candidate) => matchRoute(candidate, components) !== undefined)) return METHOD_NOT_ALLOWED
    }
    return NOT_FOUND
  }
}

/** Path and query parameters as the handlers get them. */
export interface DecodedParams extends Params {
  readonly query: Query
  readonly path: Map<string, string>
}

/** Decodes a matched request's path and query parameters, or the gateway's 400 when the query is wrong. */
export const decodeParams = <Node>(match: Match<Node>, raw: RawQuery): Either.Either<DecodedParams, Refusal> => {
  const { compiled, values } = match
  const path = new Map<string, string>()
  for (let i = 0; i < compiled.names.length; i++) path.set(compiled.names[i], values[i])
  if (compiled.query === undefined) return Either.right({ query: new Map(), path })
  const parsed = populateRaw(raw, compiled.query)
  if (Either.isLeft(parsed)) {
    return Either.left(refuse(400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, parsed.left)))
  }
  const query = parsed.right
  // a path parameter named in the query by its JSON name overrides the path (the generated
  // code sets path parameters first and filters only their proto names)
  for (const name of compiled.names) {
    const value: ParamValue | Array<ParamValue> | undefined = query.get(name)
    if (value !== undefined) {
      path.set(name, String(value))
      query.delete(name)
    }
  }
  return Either.right({ query, path })
}

/** The path (unescaped, or net/http's refusal) and raw query of a request. */
export interface Target {
  readonly path: Either.Either<string, string>
  readonly query: string
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?]*/i

/** Where a request goes, as net/http reads its target. */
export const requestTarget = (req: http.IncomingMessage): Target => {
  let target = req.url ?? "/"
  // absolute-form request target (`GET http://host/path`): Go routes on its path
  if (ABSOLUTE_FORM.test(target)) target = target.replace(ABSOLUTE_FORM, "")
  const q = target.indexOf("?")
  return { path: unescapePath(q === -1 ? target : target.slice(0, q)), query: q === -1 ? "" : target.slice(q + 1) }
}
