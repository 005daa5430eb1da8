/**
 * Turning a node's HTTP answer into a value or a typed error.
 */
import * as Decoder from "@vega-effect/schema/Decoder"
import * as GatewayError from "@vega-effect/schema/GatewayError"
import * as RateLimit from "@vega-effect/schema/RateLimit"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Errors from "../DataNodeError.js"
import * as RetryPolicy from "../RetryPolicy.js"

export interface Answer {
  readonly node: string
  readonly path: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/** How much of a body an error quotes, in characters. */
export const EXCERPT = 160

export const excerpt = (text: string): string => (text.length <= EXCERPT ? text : `${text.slice(0, EXCERPT)}…`)

/**
 * Whether an answer tells the client to wait before asking that node again: a 429, or a ban (a
 * 403 with `Ratelimit-Retry-After`). Such answers pause the node whatever the request was.
 */
export const asksToWait = (status: number, headers: Readonly<Record<string, string>>): boolean =>
  status === 429 || (status === 403 && headers[RateLimit.Headers.retryAfter.toLowerCase()] !== undefined)

const decodeErrorBody = Schema.decodeUnknownEither(GatewayError.ErrorBody)

/** The typed error of a non-2xx answer. */
export const errorOf = (answer: Answer, nowMillis: number): Errors.DataNodeError => {
  const { node, path, status } = answer
  let code: number | undefined
  let description: string
  let detail: Errors.Detail | undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.text)
  } catch {
    parsed = undefined
  }
  const body = parsed === undefined ? undefined : Either.getOrUndefined(decodeErrorBody(parsed))
  if (body !== undefined) {
    code = body.code
    description = body.message
    const vega = GatewayError.vegaErrorDetail(body)
    if (vega !== undefined) detail = { code: vega.code, message: vega.message, inner: vega.inner }
  } else {
    description =
      answer.text === "" ? "an empty body" : `a body that is not the node's error JSON: ${excerpt(answer.text)}`
  }
  const fields = {
    node,
    path,
    status,
    description,
    ...(code === undefined ? {} : { code }),
    ...(detail === undefined ? {} : { detail })
  }
  const wait = Option.getOrUndefined(RetryPolicy.retryAfter(answer.headers, nowMillis))
  switch (true) {
    case status === 400:
      return new Errors.InvalidArgumentError(fields)
    case status === 404:
      return new Errors.NotFoundError(fields)
    case status === 429:
      return new Errors.RateLimitedError(wait === undefined ? fields : { ...fields, retryAfter: wait })
    case asksToWait(status, answer.headers) || (status === 403 && code === GatewayError.GrpcCode.PermissionDenied):
      return new Errors.BannedError({ ...fields, retryAfter: wait ?? RateLimit.BAN })
    case status === 408 || status === 502 || status === 503 || status === 504:
      return new Errors.UnavailableError(fields)
    case status >= 500:
      return new Errors.InternalError(fields)
    default:
      return new Errors.InvalidArgumentError(fields)
  }
}

/** Decodes a 2xx body with the endpoint's response schema. */
export const decodeBody = <A>(
  decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
  answer: Answer
): Either.Either<A, Errors.TransportError | Errors.DecodeError> => {
  let json: unknown
  try {
    json = JSON.parse(answer.text)
  } catch (cause) {
    // a 2xx body that does not parse was cut short on the way: worth another try
    return Either.left(
      new Errors.TransportError({
        node: answer.node,
        path: answer.path,
        description: `the body is not complete JSON (${answer.text.length} characters received)`,
        cause
      })
    )
  }
  return Either.mapLeft(decode(json), (error) => {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
    return new Errors.DecodeError({
      node: answer.node,
      path: answer.path,
      pathInBody: (issue?.path ?? []).map(String).join("."),
      description: issue?.message ?? error.message,
      excerpt: excerpt(answer.text)
    })
  })
}

/** A response schema's decoder, compiled once. */
export const decoderOf = <A, I>(schema: Schema.Schema<A, I, never>) => Decoder.decodeUnknownEither(schema)
