/**
 * The errors of the data-node client, one class per kind, all `Schema.TaggedError`s with a
 * namespaced identifier; match them by `_tag`.
 *
 * Errors that come from a node's answer carry the node, the request path, the HTTP status and
 * the node's own words: gRPC `code`, `message`, and the Vega error detail (`detail.code`,
 * `detail.message`, `detail.inner`) when there is one.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"

/**
 * The Vega error detail of a node's error body.
 *
 * @since 0.1.0
 * @category Models
 */
export const Detail = Schema.Struct({ code: Schema.Number, message: Schema.String, inner: Schema.String })
/**
 * The decoded form of the `Detail` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Detail = typeof Detail.Type

/** Where an error happened and what the node said. */
const answered = {
  node: Schema.String,
  path: Schema.String,
  status: Schema.Number,
  code: Schema.optional(Schema.Number),
  description: Schema.String,
  detail: Schema.optional(Detail)
}

const describe = (e: {
  readonly node: string
  readonly path: string
  readonly status: number
  readonly description: string
  readonly detail?: Detail | undefined
}): string => {
  const detail =
    e.detail === undefined
      ? ""
      : ` [${e.detail.code} ${e.detail.message}${e.detail.inner === "" ? "" : `: ${e.detail.inner}`}]`
  return `${e.node}${e.path} answered ${e.status}: ${e.description}${detail}`
}

/**
 * The request was refused before it was sent: an invalid id, a page size outside 1..5000, both
 * `before` and `after`, ... `message` says what is wrong and where.
 *
 * @since 0.1.0
 * @category Errors
 */
export class InvalidRequestError extends Schema.TaggedError<InvalidRequestError>(
  "@vega-effect/http/DataNodeError/InvalidRequestError"
)("InvalidRequestError", { endpoint: Schema.String, reason: Schema.String }) {
  override get message(): string {
    return `invalid ${this.endpoint} request: ${this.reason}`
  }
}

/**
 * The node rejected the request as invalid (HTTP 400, or another 4xx).
 *
 * @since 0.1.0
 * @category Errors
 */
export class InvalidArgumentError extends Schema.TaggedError<InvalidArgumentError>(
  "@vega-effect/http/DataNodeError/InvalidArgumentError"
)("InvalidArgumentError", answered) {
  override get message(): string {
    return describe(this)
  }
}

/**
 * The resource does not exist (HTTP 404).
 *
 * @since 0.1.0
 * @category Errors
 */
export class NotFoundError extends Schema.TaggedError<NotFoundError>("@vega-effect/http/DataNodeError/NotFoundError")(
  "NotFoundError",
  answered
) {
  override get message(): string {
    return describe(this)
  }
}

/**
 * The node's rate limit was hit (HTTP 429) and retries did not get through. `retryAfter` is the
 * wait the node asked for, when it said.
 *
 * @since 0.1.0
 * @category Errors
 */
export class RateLimitedError extends Schema.TaggedError<RateLimitedError>(
  "@vega-effect/http/DataNodeError/RateLimitedError"
)("RateLimitedError", { ...answered, retryAfter: Schema.optional(Schema.DurationFromMillis) }) {
  override get message(): string {
    return describe(this)
  }
}

/**
 * The node banned this client for requesting while rate limited (HTTP 403). The client does not
 * send to that node again before `retryAfter` has passed.
 *
 * @since 0.1.0
 * @category Errors
 */
export class BannedError extends Schema.TaggedError<BannedError>("@vega-effect/http/DataNodeError/BannedError")(
  "BannedError",
  { ...answered, retryAfter: Schema.DurationFromMillis }
) {
  override get message(): string {
    return `${describe(this)} (banned for ${Duration.format(this.retryAfter)})`
  }
}

/**
 * The node failed (HTTP 500 and other 5xx it does not call unavailable). Retried only without a
 * Vega error detail: a handler's own error would come back the same.
 *
 * @since 0.1.0
 * @category Errors
 */
export class InternalError extends Schema.TaggedError<InternalError>("@vega-effect/http/DataNodeError/InternalError")(
  "InternalError",
  answered
) {
  override get message(): string {
    return describe(this)
  }
}

/**
 * The node, or a proxy in front of it, is unavailable (HTTP 408, 502, 503, 504).
 *
 * @since 0.1.0
 * @category Errors
 */
export class UnavailableError extends Schema.TaggedError<UnavailableError>(
  "@vega-effect/http/DataNodeError/UnavailableError"
)("UnavailableError", answered) {
  override get message(): string {
    return describe(this)
  }
}

/**
 * The request could not be sent or its answer could not be read (connection refused or reset,
 * body cut short, ...).
 *
 * @since 0.1.0
 * @category Errors
 */
export class TransportError extends Schema.TaggedError<TransportError>(
  "@vega-effect/http/DataNodeError/TransportError"
)("TransportError", { node: Schema.String, path: Schema.String, description: Schema.String, cause: Schema.Defect }) {
  override get message(): string {
    return `${this.node}${this.path}: ${this.description}`
  }
}

/**
 * The node did not answer in time.
 *
 * @since 0.1.0
 * @category Errors
 */
export class TimeoutError extends Schema.TaggedError<TimeoutError>("@vega-effect/http/DataNodeError/TimeoutError")(
  "TimeoutError",
  { node: Schema.String, path: Schema.String, timeout: Schema.DurationFromMillis }
) {
  override get message(): string {
    return `${this.node}${this.path}: no answer within ${Duration.format(this.timeout)}`
  }
}

/**
 * The answer was not what the API promises: `pathInBody` is where in the JSON (e.g.
 * `positions.edges.3.node.openVolume`), `excerpt` the start of the body.
 *
 * @since 0.1.0
 * @category Errors
 */
export class DecodeError extends Schema.TaggedError<DecodeError>("@vega-effect/http/DataNodeError/DecodeError")(
  "DecodeError",
  {
    node: Schema.String,
    path: Schema.String,
    pathInBody: Schema.String,
    description: Schema.String,
    excerpt: Schema.String
  }
) {
  override get message(): string {
    return `${this.node}${this.path}: unexpected answer at ${this.pathInBody === "" ? "the top" : this.pathInBody}: ${this.description} (body starts: ${this.excerpt})`
  }
}

/**
 * Paging stopped because the node did not move forward (it repeated a page, or claimed more
 * pages without giving any), which would otherwise loop forever.
 *
 * @since 0.1.0
 * @category Errors
 */
export class PaginationLoopError extends Schema.TaggedError<PaginationLoopError>(
  "@vega-effect/http/DataNodeError/PaginationLoopError"
)("PaginationLoopError", { endpoint: Schema.String, reason: Schema.String, cursor: Schema.optional(Schema.String) }) {
  override get message(): string {
    return `${this.endpoint}: paging stopped: ${this.reason}`
  }
}

/**
 * The node cannot deliver every row a read asked for, so the read stops rather than return less:
 * a route whose cursor paging fails on the node matched more than one page, or one instant of a
 * windowed route holds more rows than one answer. Narrow the request (a party, a market, a
 * shorter range) and read again; `delivered` rows were delivered before it stopped.
 *
 * @since 0.2.0
 * @category Errors
 */
export class IncompleteReadError extends Schema.TaggedError<IncompleteReadError>(
  "@vega-effect/http/DataNodeError/IncompleteReadError"
)("IncompleteReadError", { endpoint: Schema.String, reason: Schema.String, delivered: Schema.Number }) {
  override get message(): string {
    return `${this.endpoint}: not every row can be read: ${this.reason} (${this.delivered} delivered)`
  }
}

/**
 * Any error of the client.
 *
 * @since 0.1.0
 * @category Errors
 */
export type DataNodeError =
  | InvalidRequestError
  | InvalidArgumentError
  | NotFoundError
  | RateLimitedError
  | BannedError
  | InternalError
  | UnavailableError
  | TransportError
  | TimeoutError
  | DecodeError
  | PaginationLoopError
  | IncompleteReadError

/**
 * Whether a retry (on this or another node) may succeed.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isRetryable = (error: DataNodeError): boolean => {
  switch (error._tag) {
    case "TransportError":
    case "TimeoutError":
    case "RateLimitedError":
    case "UnavailableError":
      return true
    case "InternalError":
      // a handler error carries a Vega detail and fails the same way every time; a bare 500 is
      // the gateway or something in front of it
      return error.detail === undefined
    default:
      return false
  }
}
