/**
 * The contract between the HTTP gateway (routing, query parsing, headers, rate limits, faults)
 * and the data node behind it (the handlers that read the world).
 *
 * A route declares its query parameters with their proto types, the way grpc-gateway knows them
 * from the request message; the gateway parses the query string into {@link Params} exactly as
 * grpc-gateway v2.9.0 would (and answers its errors itself), then calls the handler.
 */
import type { GatewayError } from "@vega-effect/schema"

/** The proto scalar type of a query parameter (`enum`: a proto enum, see {@link enumParam}). */
export type ParamType = "string" | "bool" | "int32" | "uint32" | "int64" | "uint64" | "enum"

export interface ParamSpec {
  /** Dotted path of lowerCamel JSON names, e.g. `pagination.first`, `filter.partyIds`. */
  readonly path: string
  /** The same path with proto (snake_case) names, e.g. `pagination.newest_first`. */
  readonly protoPath: string
  readonly type: ParamType
  readonly repeated: boolean
  /** An `enum` parameter's values, name to number. */
  readonly enumValues?: Readonly<Record<string, number>>
}

/**
 * A parsed query value: strings stay strings, bools are booleans, 32-bit numbers, 64-bit bigints,
 * and an enum value is its name (however the query spelt it).
 */
export type ParamValue = string | boolean | number | bigint

/**
 * Parsed parameters, keyed by the lowerCamel dotted path. A repeated parameter maps to an array;
 * a parameter absent from the query is absent here. Path parameters are keyed by their name.
 */
export interface Params {
  readonly query: ReadonlyMap<string, ParamValue | ReadonlyArray<ParamValue>>
  readonly path: ReadonlyMap<string, string>
}

/** What a handler answers: a status, a JSON body (already serialised) and extra headers. */
export interface Reply {
  readonly status: number
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

/** The block a node has processed, for the `X-Block-Height` and `X-Block-Timestamp` headers. */
export interface BlockInfo {
  readonly height: number
  /** Unix nanoseconds as a decimal string. */
  readonly timestampNanos: string
}

export interface Route<Node> {
  readonly method: "GET" | "POST"
  /** Path template with `{name}` segments, e.g. `/api/v2/parties/{partyId}/stake`. */
  readonly path: string
  readonly params: ReadonlyArray<ParamSpec>
  /** Whether the request body is JSON (POST routes). */
  readonly body?: boolean
  /** Answers synchronously, or later (a submission that waits for its block). */
  readonly handle: (params: Params, node: Node, body: unknown) => Reply | Promise<Reply>
}

const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** Declares a query parameter by its lowerCamel dotted path. */
export const param = (path: string, type: ParamType, repeated = false): ParamSpec => ({
  path,
  protoPath: path.split(".").map(snake).join("."),
  type,
  repeated
})

/** Declares a query parameter of a proto enum type, given the enum's values (name to number). */
export const enumParam = (path: string, values: Readonly<Record<string, number>>, repeated = false): ParamSpec => ({
  ...param(path, "enum", repeated),
  enumValues: values
})

/** The five pagination parameters every list request carries. */
export const paginationParams: ReadonlyArray<ParamSpec> = [
  param("pagination.first", "int32"),
  param("pagination.after", "string"),
  param("pagination.last", "int32"),
  param("pagination.before", "string"),
  param("pagination.newestFirst", "bool")
]

/**
 * Where a streaming route writes. Each message is one frame as the gateway writes it, compact
 * JSON (`{"result":…}`); the server adds the framing of the transport (a `\n` over chunked HTTP, a
 * text frame over a WebSocket).
 */
export interface StreamSink {
  /** Sends one `{"result":…}` frame. */
  readonly send: (frame: string) => void
  /**
   * Sends one `google.api.HttpBody` message: its bytes as they are, then the gateway's `\n`
   * delimiter; the first one's content type is the response's. Text goes out as UTF-8, bytes as
   * they are.
   */
  readonly sendBody: (contentType: string, data: string | Uint8Array) => void
  /**
   * gRPC's `SendHeader`: metadata the gateway writes as response headers (with the first message,
   * so call it before any).
   */
  readonly sendHeader: (headers: Readonly<Record<string, string>>) => void
  /** Ends the stream with an `{"error":…}` frame carrying this status. */
  readonly fail: (error: GatewayError.ErrorBody) => void
  /** Ends the stream without an error (the handler returned nil). */
  readonly end: () => void
  /** Bytes already written that the client has not taken yet (a slow consumer's backlog). */
  readonly backlog: () => number
}

/** What an open stream gives back to the server. */
export interface StreamHandle {
  /** A request message of a bidirectional stream, as the route's `decode` gave it. */
  readonly receive?: (request: unknown) => void
  /** The client's side of a bidirectional stream ended (`io.EOF` on the server's `Recv`). */
  readonly receiveEnd?: () => void
  /**
   * Called once when the stream is torn down: the client went away, the stream ended, or the
   * server is closing. Releases subscriptions and timers.
   */
  readonly close: () => void
}

/** The decoding of a request message: the request, or the error text the gateway reports. */
export type Decoded =
  { readonly _tag: "Ok"; readonly value: unknown } | { readonly _tag: "Error"; readonly message: string }

/**
 * A streaming route (`/api/v2/stream/...`): served as a chunked HTTP response, or over a WebSocket
 * when the request is an upgrade on the same path.
 */
export interface StreamRoute<Node> {
  readonly method: "GET"
  readonly path: string
  readonly params: ReadonlyArray<ParamSpec>
  /**
   * Bidirectional streams only: decodes one client message (a JSON value) into the request the
   * route receives. Server-streaming routes ignore what the client sends.
   */
  readonly decode?: (json: unknown) => Decoded
  /** Starts the stream; the server calls `close` on the handle when it is torn down. */
  readonly open: (params: Params, node: Node, sink: StreamSink) => StreamHandle
}
