/**
 * CORS as the node's rs/cors does it, with `AllowedOrigins ["*"]`, `MaxAge 7200` and the default
 * methods and headers: preflight answers, and `Access-Control-Allow-Origin: *` on simple requests.
 */
import type * as http from "node:http"
import type { Headers } from "./exchange.js"

const CORS_METHODS = new Set(["GET", "POST", "HEAD"])
const CORS_HEADERS = new Set(["Origin", "Accept", "Content-Type", "X-Requested-With"])
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
const MAX_AGE_SECONDS = "7200"

const canonicalHeader = (name: string): string =>
  name
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join("-")

/** Whether the request is a CORS preflight, which rs/cors answers before any handler runs. */
export const isPreflight = (req: http.IncomingMessage, method: string): boolean =>
  method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined

/** Answers a preflight: 204, with the allow headers when the method and headers are allowed. */
export const answerPreflight = (req: http.IncomingMessage, res: http.ServerResponse): void => {
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
    headers["Access-Control-Max-Age"] = MAX_AGE_SECONDS
  }
  res.writeHead(204, headers)
  res.end()
}

/** Whether a simple (non-preflight) request gets `Access-Control-Allow-Origin`. */
export const allowsOrigin = (req: http.IncomingMessage, method: string): boolean => {
  const origin = req.headers.origin
  return origin !== undefined && origin !== "" && CORS_METHODS.has(method)
}

/** Adds `Access-Control-Allow-Origin: *` when the request is allowed it. */
export const addAllowOrigin = (headers: Headers, allowed: boolean): Headers => {
  if (allowed) headers["Access-Control-Allow-Origin"] = "*"
  return headers
}
