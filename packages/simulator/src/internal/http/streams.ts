/**
 * Streaming routes as grpc-gateway's generated handlers and `ForwardResponseStream` serve them: a
 * chunked response whose status and headers go out with the first message (the gateway waits for
 * the gRPC stream's header, which the server sends with its first message), one `{"result":…}`
 * line per message, and an `{"error":…}` line when the stream fails. Over a WebSocket each line is
 * a text frame.
 *
 * A stream's opening request is rate limited like any other and its response carries the
 * `Ratelimit-*` headers, but no `X-Block-*` headers (those come from the node's unary interceptor).
 * A bidirectional stream first waits for the client's first message (or the end of its side):
 * until then nothing the route sends is forwarded. A message that does not decode, the first
 * too, ends the client's side: v0.75.8's generated handlers (`protos/data-node/api/v2/
 * trading_data.pb.gw.go`, `protos/vega/api/v1/core.pb.gw.go`) decode the body only in the
 * goroutine that forwards each message, which logs the failure and closes its sending side.
 */
import type * as http from "node:http"
import { GatewayError, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { MAX_SUBSCRIPTIONS_MESSAGE, MAX_SUBSCRIPTIONS_PER_CLIENT, WEBSOCKET_MAX_LINE_BYTES } from "../api/limits.js"
import { gatewayErrorText, goSafe } from "../gatewayJson.js"
import type { JsonItem } from "../jsonValues.js"
import type { Decoded, StreamHandle, StreamRoute, StreamSink } from "../route.js"
import { addAllowOrigin } from "./cors.js"
import type { Exchange, Gateway, Headers, Socket } from "./exchange.js"
import { cutFrame, type StreamCut, streamCut } from "./faults.js"
import { ignoreBody, readJsonItems } from "./requestBody.js"
import { VARY } from "./response.js"
import type { DecodedParams } from "./routing.js"

const JSON_TYPE = "application/json"

const encodeErrorFrame = Schema.encodeSync(Schema.Struct({ error: StreamForm.make(GatewayError.ErrorBody) }))

/**
 * An `{"error":…}` frame as the stream marshaller writes it: enums as numbers and defaults
 * omitted, so an empty `details` is absent, and so is an empty `inner` of a Vega detail (the
 * detail is a `vega.ErrorDetail` message, written by the same marshaller).
 */
export const errorFrame = (body: GatewayError.ErrorBody): string => {
  // the schema keeps an optional list that is set; the stream marshaller drops an empty one
  const { details, ...rest } = body
  const error = details !== undefined && details.length > 0 ? body : rest
  const encoded = encodeErrorFrame({ error }) as { error: { details?: Array<Record<string, unknown>> } }
  for (const detail of encoded.error.details ?? []) {
    if (detail["@type"] === GatewayError.VEGA_ERROR_DETAIL_TYPE && detail.inner === "") delete detail.inner
  }
  return goSafe(JSON.stringify(encoded))
}

/** The bare status of the node's refusal of one stream too many (ResourceExhausted, HTTP 429). */
const TOO_MANY_STREAMS = gatewayErrorText(GatewayError.GrpcCode.ResourceExhausted, MAX_SUBSCRIPTIONS_MESSAGE)

const NEWLINE = Buffer.from("\n")

/** A body's bytes as text where a text frame is all that can carry them (one char per byte). */
const bodyText = (data: string | Uint8Array): string =>
  typeof data === "string" ? data : Buffer.from(data).toString("latin1")

/** Where a stream's frames go. */
interface StreamOutput {
  readonly line: (frame: string) => void
  /** An `HttpBody` message's bytes, then the delimiter; its content type goes out with the first. */
  readonly body: (contentType: string, data: string | Uint8Array) => void
  /** Headers to send with the first frame. */
  readonly header: (headers: Readonly<Record<string, string>>) => void
  /** The final error frame; its code gives the status when nothing was sent before. */
  readonly fail: (code: number, frame: string) => void
  readonly finish: () => void
  /** A fault: part of a frame, then the connection is reset or the stream ends. */
  readonly cut: (part: string, fault: StreamCut) => void
  /** Drops the connection now, whatever is unsent. */
  readonly drop: () => void
  /** Bytes written and not yet taken by the client. */
  readonly backlog: () => number
}

/** A chunked response whose status line and headers go out with the first frame (or the end). */
const httpStream = (x: Exchange, res: http.ServerResponse, extra: Headers): StreamOutput => {
  let started = false
  let over = false
  let metadata: Headers = {}
  const start = (status: number, contentType: string | undefined): boolean => {
    if (over || res.destroyed) return false
    if (!started) {
      started = true
      const headers: Headers = { ...metadata, ...extra, "Transfer-Encoding": "chunked", Vary: VARY }
      // with no message at all nothing sets it (Go only sniffs a type when there is a body)
      if (contentType !== undefined) headers["Content-Type"] = contentType
      res.writeHead(status, addAllowOrigin(headers, x.allowOrigin))
    }
    return true
  }
  return {
    line: (frame) => {
      if (start(200, JSON_TYPE)) res.write(`${frame}\n`)
    },
    body: (contentType, data) => {
      if (!start(200, contentType)) return
      if (typeof data === "string") res.write(`${data}\n`)
      else res.write(Buffer.concat([data, NEWLINE]))
    },
    header: (headers) => {
      if (!started) metadata = { ...metadata, ...headers }
    },
    fail: (code, frame) => {
      if (!start(GatewayError.httpStatus(code), JSON_TYPE)) return
      over = true
      res.end(`${frame}\n`)
    },
    finish: () => {
      if (!start(200, undefined)) return
      over = true
      res.end()
    },
    cut: (part, fault) => {
      if (!start(200, JSON_TYPE)) return
      over = true
      if (fault === "Truncate") res.end(part)
      else res.write(part, () => res.destroy())
    },
    drop: () => {
      over = true
      res.destroy()
    },
    // what the response holds plus what its socket does
    backlog: () => res.writableLength
  }
}

/**
 * Whether the proxy can read the line: its scanner's buffer must hold the line and its `\n`, or
 * it stops and closes the socket without sending the line (nor a close frame).
 */
const fitsProxy = (frame: string): boolean => Buffer.byteLength(frame) < WEBSOCKET_MAX_LINE_BYTES

/** Frames over a WebSocket; the end of the stream drops the connection. */
const socketStream = (socket: Socket): StreamOutput => ({
  line: (frame) => (fitsProxy(frame) ? socket.send(frame) : socket.drop()),
  // the proxy reads the response line by line: each line of the body is a frame
  body: (_contentType, data) => {
    for (const line of bodyText(data).split("\n")) {
      if (!fitsProxy(line)) return socket.drop()
      socket.send(line)
    }
  },
  // the proxy does not forward response headers
  header: () => {},
  fail: (_code, frame) => {
    if (fitsProxy(frame)) socket.send(frame)
    socket.drop()
  },
  finish: () => socket.drop(),
  cut: (part) => {
    socket.send(part)
    socket.drop()
  },
  drop: () => socket.cut(),
  backlog: () => socket.backlog()
})

/**
 * One running stream on the server's side: the sink the route writes to, which holds frames back
 * until the client's first message has arrived (bidirectional streams), and the route's teardown,
 * done once.
 */
class ServerStream {
  private forwarding: boolean
  private readonly held: Array<() => void> = []
  /** Nothing more goes out: the stream ended, failed, was cut, or the client went away. */
  finished = false
  /** The route's handle was (or is to be) closed. */
  torn = false
  handle: StreamHandle | undefined

  constructor(
    private readonly out: StreamOutput,
    private readonly cut: StreamCut | undefined,
    waitForClient: boolean
  ) {
    this.forwarding = !waitForClient
  }

  private emit(action: () => void): void {
    if (this.forwarding) action()
    else this.held.push(action)
  }

  private last(action: () => void): void {
    this.finished = true
    this.emit(action)
    this.teardown()
  }

  teardown(): void {
    if (this.torn) return
    this.torn = true
    this.handle?.close()
  }

  readonly sink: StreamSink = {
    send: (frame) => {
      if (this.finished) return
      const text = goSafe(frame)
      const cut = this.cut
      if (cut === undefined) return this.emit(() => this.out.line(text))
      this.last(() => this.out.cut(cutFrame(text), cut))
    },
    sendBody: (contentType, data) => {
      if (this.finished) return
      const cut = this.cut
      if (cut === undefined) return this.emit(() => this.out.body(contentType, data))
      this.last(() => this.out.cut(cutFrame(bodyText(data)), cut))
    },
    sendHeader: (headers) => {
      if (!this.finished) this.emit(() => this.out.header(headers))
    },
    fail: (error) => {
      if (this.finished) return
      const frame = errorFrame(error)
      this.last(() => this.out.fail(error.code, frame))
    },
    end: () => {
      if (this.finished) return
      this.last(() => this.out.finish())
    },
    backlog: () => this.out.backlog()
  }

  /** Drops the connection now: nothing more is sent, and the route is torn down. */
  drop(): void {
    this.abandon()
    this.out.drop()
  }

  /** Starts the route; a route that throws fails the stream with gRPC `Internal`. */
  open<Node>(route: StreamRoute<Node>, params: DecodedParams, node: Node): void {
    try {
      this.handle = route.open({ query: params.query, path: params.path }, node, this.sink)
    } catch (error) {
      this.sink.fail(
        GatewayError.gatewayError(
          GatewayError.GrpcCode.Internal,
          error instanceof Error ? error.message : String(error)
        )
      )
    }
    // the route ended the stream before its handle was known
    if (this.torn) this.handle?.close()
  }

  /** Nothing more is sent and what was held is dropped: the client went away, or the gateway answers instead. */
  abandon(): void {
    this.finished = true
    this.held.length = 0
    this.teardown()
  }

  /** Forwards what was held, and from now on everything. */
  release(): void {
    this.forwarding = true
    for (const action of this.held.splice(0)) action()
  }
}

/**
 * Feeds the client's messages to a bidirectional stream: the route receives the first (or the end
 * of the client's side) and what it sent so far is released. A message that does not decode, the
 * first too, ends the client's side, like its end.
 */
const feedClientMessages = (x: Exchange, stream: ServerStream, decode: (json: unknown) => Decoded): void => {
  let first = true
  let clientDone = false
  const endClientSide = (): void => {
    clientDone = true
    stream.handle?.receiveEnd?.()
  }
  const onFirst = (item: JsonItem): void => {
    const decoded = item._tag === "Value" ? decode(item.value) : undefined
    if (!stream.finished) {
      if (decoded?._tag === "Ok") stream.handle?.receive?.(decoded.value)
      else endClientSide()
    }
    stream.release()
  }
  readJsonItems(x, (item) => {
    if (first) {
      first = false
      return onFirst(item)
    }
    if (clientDone || stream.finished) return
    if (item._tag === "Value") {
      const decoded = decode(item.value)
      if (decoded._tag === "Ok") return stream.handle?.receive?.(decoded.value)
    }
    endClientSide()
  })
}

/** Serves a streaming route, over chunked HTTP or the request's WebSocket. */
export const openStream = <Node>(
  gateway: Gateway<Node>,
  x: Exchange,
  route: StreamRoute<Node>,
  params: DecodedParams
): void => {
  const transport = x.transport
  if (transport._tag === "Http" && x.req.socket.destroyed) return
  const admitted = gateway.admit(x)
  if (admitted === undefined) return
  // the node's stream interceptor: the gateway answers the refusal as an error
  if (gateway.streams.size >= MAX_SUBSCRIPTIONS_PER_CLIENT)
    return gateway.send(x, GatewayError.httpStatus(GatewayError.GrpcCode.ResourceExhausted), TOO_MANY_STREAMS, admitted)
  const out = transport._tag === "Http" ? httpStream(x, transport.res, admitted) : socketStream(transport.socket)
  const stream = new ServerStream(out, streamCut(x), route.decode !== undefined)
  const forget = gateway.streams.add(() => stream.drop())
  const gone = (): void => {
    forget()
    stream.abandon()
  }
  if (transport._tag === "Http") transport.res.on("close", gone)
  else transport.socket.onClose(gone)
  if (stream.torn) return
  stream.open(route, params, gateway.node)
  // a server stream does not read what the client sends
  if (route.decode === undefined) return ignoreBody(x)
  feedClientMessages(x, stream, route.decode)
}
