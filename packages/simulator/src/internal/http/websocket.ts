/**
 * WebSockets as tmc/grpc-websocket-proxy serves them in front of the gateway: an upgrade on any
 * path is accepted at once and the request runs behind it. Each line the handler writes becomes a
 * text frame, each frame the client sends is written to the request body followed by `\n`, the
 * status and headers stay inside the proxy, and when the handler returns the connection is closed
 * without a close frame (the client sees code 1006).
 */
import type * as http from "node:http"
import type { Duplex } from "node:stream"
import * as Either from "effect/Either"
import { WebSocket, WebSocketServer } from "ws"
import type * as Faults from "../../Faults.js"
import { parseRawQuery, type RawQuery } from "../goQuery.js"
import { makeJsonValues } from "../jsonValues.js"
import type { Exchange, Socket } from "./exchange.js"
import { afterDelay, decide } from "./faults.js"
import { requestTarget } from "./routing.js"

const NEWLINE = Buffer.from("\n")

const toBuffer = (data: WebSocket.RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)

/** A connection as the proxy runs the request behind it. */
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
    cut: () => {
      dropped = true
      ws.terminate()
    },
    backlog: () => ws.bufferedAmount,
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
export const sendLines = (socket: Socket, text: string): void => {
  for (const line of text.split("\n")) {
    const frame = line.endsWith("\r") ? line.slice(0, -1) : line
    if (frame !== "") socket.send(frame)
  }
}

/** The WebSocket side of a node. */
export interface WebSockets {
  /** Accepts a WebSocket upgrade and serves the request behind it. */
  readonly upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Drops every open WebSocket connection. */
  readonly closeSockets: () => void
}

const UNREADABLE_PATH =
  "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"

/** The request behind an accepted upgrade, as the proxy sends it to the gateway. */
const exchangeOf = (req: http.IncomingMessage, socket: Socket, raw: RawQuery, decision: Faults.Decision): Exchange => {
  const override = raw.values.get("method")?.[0]
  return {
    req,
    method: override !== undefined && override !== "" ? override : (req.method ?? "GET"),
    transport: { _tag: "WebSocket", socket },
    pretty: raw.values.has("pretty"),
    // the proxy's request to the gateway carries no Accept-Encoding and no Origin
    gzip: false,
    allowOrigin: false,
    fault: decision.fault
  }
}

/** Serves upgrades: `/health` answers `ok`; anything else runs `serve` behind the connection. */
export const makeWebSockets = (
  faults: Faults.Faults | undefined,
  serve: (x: Exchange, path: string, raw: RawQuery) => void
): WebSockets => {
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
    if (Either.isLeft(target.path)) return void stream.end(UNREADABLE_PATH)
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
      const decision = decide(faults)
      afterDelay(decision, () => serve(exchangeOf(req, socket, raw, decision), path, raw))
    })
  }
  const closeSockets = (): void => {
    for (const ws of sockets) ws.terminate()
    sockets.clear()
  }
  return { upgrade, closeSockets }
}
