/**
 * One request and the way its answer goes back, over plain HTTP or over a WebSocket, and what the
 * parts of the handler share about the node they serve.
 */
import type * as http from "node:http"
import type * as Faults from "../../Faults.js"
import type { JsonItem } from "../jsonValues.js"

/** Response headers, in the order they are written. */
export type Headers = Record<string, string | Array<string>>

/** One WebSocket connection, as tmc/grpc-websocket-proxy runs the request behind it. */
export interface Socket {
  /** Sends one text frame. */
  readonly send: (text: string) => void
  /** Closes the connection without a close frame, once the frames sent so far are written. */
  readonly drop: () => void
  /** Closes the connection at once, without a close frame, whatever is still unsent. */
  readonly cut: () => void
  /** Bytes sent and not yet taken by the client's side of the connection. */
  readonly backlog: () => number
  /** Reads the client's frames as the request body; frames that came before are kept for it. */
  readonly read: (onItem: (item: JsonItem) => void) => void
  /** The request does not read its body: frames are dropped. */
  readonly ignore: () => void
  /** Calls `listener` when the connection is closed (at once when it already is). */
  readonly onClose: (listener: () => void) => void
}

/** Where the answer goes. */
export type Transport =
  { readonly _tag: "Http"; readonly res: http.ServerResponse } | { readonly _tag: "WebSocket"; readonly socket: Socket }

/** A request on its way through the gateway. */
export interface Exchange {
  readonly req: http.IncomingMessage
  /** The method routed on: the request's, or over a WebSocket the `method` query parameter. */
  readonly method: string
  readonly transport: Transport
  /** `?pretty` was given. */
  readonly pretty: boolean
  /** The answer is gzipped. */
  readonly gzip: boolean
  /** The answer carries `Access-Control-Allow-Origin: *`. */
  readonly allowOrigin: boolean
  /** The fault injected into this request's answer, if any. */
  readonly fault: Faults.Fault | undefined
}

/**
 * The node's open streams, each by the way to cut its connection: for the node's cap on streams
 * and for dropping them all at once.
 */
export class OpenStreams {
  private readonly cuts = new Set<() => void>()

  get size(): number {
    return this.cuts.size
  }

  /** Counts a stream until the returned function is called. */
  add(cut: () => void): () => void {
    this.cuts.add(cut)
    return () => this.cuts.delete(cut)
  }

  /** Cuts every open stream's connection. */
  cutAll(): void {
    const cuts = [...this.cuts]
    this.cuts.clear()
    for (const cut of cuts) cut()
  }
}

/** What the parts of the handler share: the node served and the way answers go out. */
export interface Gateway<Node> {
  readonly node: Node
  /** The streams open on the node. */
  readonly streams: OpenStreams
  /** Adds `X-Block-Height` and `X-Block-Timestamp` for the block the node is at. */
  readonly blockHeaders: (headers: Headers) => Headers
  /** Sends a JSON answer through `?pretty`, faults, gzip and the common headers. */
  readonly send: (x: Exchange, status: number, body: string, headers: Headers) => void
  /**
   * Counts the request against the rate limiter: the headers to answer with, or `undefined` once
   * the request is refused (and the refusal sent).
   */
  readonly admit: (x: Exchange) => Headers | undefined
}

/** Sends a gateway error body (no block or rate-limit headers: the node never saw the request). */
export const sendError = <Node>(gateway: Gateway<Node>, x: Exchange, status: number, body: string): void =>
  gateway.send(x, status, body, {})
