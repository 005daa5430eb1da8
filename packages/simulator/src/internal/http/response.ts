/**
 * How the gateway writes a JSON answer: `?pretty` indentation, gzip when the client accepts it,
 * `Content-Type`, `Vary`, CORS and `Content-Length`, over plain HTTP or as WebSocket frames. Also
 * the two answers net/http gives before any handler runs: `/health` and an unreadable path.
 */
import type * as http from "node:http"
import * as zlib from "node:zlib"
import { prettyJson } from "../gatewayJson.js"
import { addAllowOrigin } from "./cors.js"
import type { Exchange, Gateway, Headers } from "./exchange.js"
import { framedBytes, isReset, resetMidBody, truncated } from "./faults.js"
import { sendLines } from "./websocket.js"

/** `Vary` of every JSON answer. */
export const VARY: Array<string> = ["Origin", "Accept-Encoding"]

/** Whether an `Accept-Encoding` header accepts gzip (present, and not with `q=0`). */
export const acceptsGzip = (header: string | undefined): boolean => {
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

/** Writes the answer's bytes: a complete response, or over a WebSocket one frame per line. */
const write = (x: Exchange, status: number, body: string | Buffer, headers: Headers): void => {
  const transport = x.transport
  // one UTF-8 encoding of the body serves both Content-Length and the write
  const bytes = typeof body === "string" ? Buffer.from(body) : body
  if (transport._tag === "WebSocket") {
    // the status and headers stay in the proxy; the body's lines are the frames
    sendLines(transport.socket, framedBytes(x, bytes).toString())
    transport.socket.drop()
    return
  }
  const { res } = transport
  if (res.destroyed) return
  headers["Content-Length"] = String(bytes.length)
  res.writeHead(status, headers)
  if (isReset(x)) return resetMidBody(x, res, bytes)
  res.end(bytes)
}

/** The gateway's `send`: JSON answers through `?pretty`, truncation, gzip (at `gzipLevel`) and the common headers. */
export const makeSend =
  (gzipLevel: number): Gateway<unknown>["send"] =>
  (x, status, body, extra) => {
    const text = truncated(x, x.pretty ? prettyJson(body) : body)
    const headers = addAllowOrigin({ ...extra, "Content-Type": "application/json", Vary: VARY }, x.allowOrigin)
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

/** `/health`: `ok`, never delayed, limited or faulted. */
export const answerHealth = (res: http.ServerResponse, allowOrigin: boolean): void => {
  const headers = addAllowOrigin(
    { "Content-Type": "text/plain; charset=utf-8", "Content-Length": "2", Vary: "Origin" },
    allowOrigin
  )
  res.writeHead(200, headers)
  res.end("ok")
}

/** net/http's answer to a request whose path it cannot unescape, before any handler runs. */
export const answerUnreadablePath = (res: http.ServerResponse): void => {
  res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" })
  res.end("400 Bad Request")
}
