import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Intervals from "effect/ScheduleIntervals"
import type * as Errors from "../DataNodeError.js"
import type { StreamEnd } from "../LiveStream.js"

/** Whitespace (newlines included) squeezed to single spaces: what is said is one line. */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim()

/** A wait as a person reads it, to the millisecond: `2s`, `1s 250ms`, `0ms`. */
export const formatWait = (wait: Duration.DurationInput): string =>
  Duration.format(Duration.millis(Math.max(0, Math.round(Duration.toMillis(Duration.decode(wait))))))

const TAG_PREFIX = "@vega-effect/http/DataNodeError/"

const errorTags = new Set([
  "InvalidRequestError",
  "InvalidArgumentError",
  "NotFoundError",
  "RateLimitedError",
  "BannedError",
  "InternalError",
  "UnavailableError",
  "TransportError",
  "TimeoutError",
  "DecodeError",
  "PaginationLoopError",
  "IncompleteReadError"
])

/** Whether `u` is one of the client's errors (by the class's namespaced identifier and tag). */
export const isDataNodeError = (u: unknown): u is Errors.DataNodeError => {
  if (typeof u !== "object" || u === null || !("_tag" in u) || typeof u._tag !== "string") return false
  if (!errorTags.has(u._tag)) return false
  // a Schema.TaggedError's constructor carries its identifier
  const identifier = (u.constructor as { readonly identifier?: unknown } | undefined)?.identifier
  return identifier === undefined || identifier === `${TAG_PREFIX}${u._tag}`
}

/** The system error codes of a failure to connect, and what each means in words. */
const NETWORK_CODES: ReadonlyArray<readonly [RegExp, (node: string) => string]> = [
  [/^ECONNREFUSED$/, (node) => `${node} refused the connection`],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, (node) => `${node}: DNS name not found (${hostOf(node)})`],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, (node) => `${node} timed out while connecting`],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, (node) => `${node} closed the connection unexpectedly`],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, (node) => `${node} is unreachable (no route to the host)`],
  [
    /^(CERT_|ERR_TLS|ERR_SSL|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/,
    (node) => `${node}: the TLS connection failed (certificate not accepted)`
  ]
]

const hostOf = (node: string): string => {
  try {
    return new URL(node).hostname
  } catch {
    return node
  }
}

/** The system error codes along a chain of causes (`cause`, `error`), outermost first, and codes named in messages. */
const codesOf = (root: unknown): ReadonlyArray<string> => {
  const codes: Array<string> = []
  const seen = new Set<unknown>()
  const visit = (u: unknown, depth: number): void => {
    if (typeof u !== "object" || u === null || seen.has(u) || depth > 8) return
    seen.add(u)
    const record = u as { readonly code?: unknown; readonly message?: unknown; readonly errors?: unknown }
    if (typeof record.code === "string") codes.push(record.code)
    if (typeof record.message === "string")
      codes.push(...(record.message.match(/\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/g) ?? []))
    if ("cause" in u) visit(u.cause, depth + 1)
    if ("error" in u) visit(u.error, depth + 1)
    if (Array.isArray(record.errors)) for (const inner of record.errors) visit(inner, depth + 1)
  }
  visit(root, 0)
  return codes
}

/** A transport failure in words: the network's reason when one is known, else the client's description. */
const transport = (error: Errors.TransportError): string => {
  for (const code of codesOf(error.cause)) {
    const known = NETWORK_CODES.find(([pattern]) => pattern.test(code))
    if (known !== undefined) return known[1](error.node)
  }
  return `${error.node}${error.path}: ${oneLine(error.description)}`
}

const statusText = (error: {
  readonly node: string
  readonly path: string
  readonly status: number
  readonly description: string
  readonly detail?: Errors.Detail | undefined
}): string => {
  const { detail: vega } = error
  // the node's description is often the detail's message again: what it adds is the inner text
  const words =
    vega === undefined
      ? []
      : [vega.message === error.description ? "" : vega.message, vega.inner].filter((part) => part !== "")
  const detail = words.length === 0 ? "" : ` (${words.join(": ")})`
  return `${error.node} answered ${error.path} with HTTP ${error.status}: ${oneLine(error.description)}${detail === "" ? "" : ` ${oneLine(detail)}`}`
}

/** One of the client's errors as one line naming the node and the cause. */
export const ofError = (error: Errors.DataNodeError): string => {
  switch (error._tag) {
    case "TransportError":
      return transport(error)
    case "TimeoutError":
      return `${error.node} did not answer ${error.path} within ${formatWait(error.timeout)}`
    case "RateLimitedError":
      return `${error.node} rate limited ${error.path}${
        error.retryAfter === undefined ? "" : `: it asks to wait ${formatWait(error.retryAfter)}`
      }`
    case "BannedError":
      return `${error.node} banned this client for ${formatWait(error.retryAfter)} (requests while rate limited)`
    case "DecodeError":
      return `${error.node}${error.path}: the answer did not decode at ${
        error.pathInBody === "" ? "the top" : error.pathInBody
      }: ${oneLine(error.description)}`
    case "InvalidArgumentError":
    case "NotFoundError":
    case "InternalError":
    case "UnavailableError":
      return statusText(error)
    case "InvalidRequestError":
    case "PaginationLoopError":
    case "IncompleteReadError":
      return oneLine(error.message)
  }
}

/** Why a live stream's connection to `node` ended, as one line naming the node. */
export const ofStreamEnd = (node: string, end: StreamEnd): string => {
  switch (end._tag) {
    case "Unreachable":
      return ofError(end.error)
    case "Closed":
      return `${node} closed the stream (code ${end.code}${end.reason === "" ? "" : `: ${oneLine(end.reason)}`})`
    case "Failed":
      return `${node} ended the stream with an error (${end.error.code}: ${oneLine(end.error.message)})`
    case "Refused":
      return `${node} refused the stream (${end.status.code}: ${oneLine(end.status.message)})`
    case "Idle":
      return `${node} sent nothing for ${formatWait(end.after)}`
    case "Undecodable":
      return `${node} sent a message that did not decode: ${oneLine(end.message)}`
  }
}

/** Any failure: the client's errors in words, other errors by their message (or tag), one line. */
export const ofUnknown = (error: unknown): string => {
  if (isDataNodeError(error)) return ofError(error)
  if (typeof error === "object" && error !== null) {
    const record = error as { readonly message?: unknown; readonly _tag?: unknown }
    if (typeof record.message === "string" && record.message.trim() !== "") return oneLine(record.message)
    if (typeof record._tag === "string") return record._tag
  }
  return oneLine(String(error))
}

/** What a cause says in one line: its first failure, else its first defect, else that it was interrupted. */
export const ofCause = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return ofUnknown(failure.value)
  const defect = Option.getOrUndefined(Cause.dieOption(cause))
  if (defect !== undefined) return `unexpected: ${ofUnknown(defect)}`
  return Cause.isInterruptedOnly(cause) ? "interrupted" : oneLine(Cause.pretty(cause).split("\n")[0] ?? "")
}

/** `; next try in 2s`, or nothing when there is no next try. */
export const nextTry = (
  retryIn: Option.Option<Duration.DurationInput> | Duration.DurationInput | undefined
): string => {
  if (retryIn === undefined) return ""
  if (Option.isOption(retryIn))
    return Option.match(retryIn, { onNone: () => "", onSome: (wait) => `; next try in ${formatWait(wait)}` })
  return `; next try in ${formatWait(retryIn)}`
}

/** One line (`what: cause; next try in …`) at `level`, and the whole cause, stacks included, at debug level. */
export const logFailure =
  (level: "Warning" | "Error") =>
  (
    what: string,
    failure: unknown,
    retryIn?: Option.Option<Duration.DurationInput> | Duration.DurationInput
  ): Effect.Effect<void> => {
    const cause = Cause.isCause(failure) ? failure : Cause.fail(failure)
    const line = `${what}: ${ofCause(cause)}${nextTry(retryIn)}`
    const log = level === "Warning" ? Effect.logWarning(line) : Effect.logError(line)
    return Effect.zipRight(log, Effect.logDebug(`${what}: the whole cause`, cause))
  }

/**
 * `schedule`, each of whose inputs (a failure) is logged by {@link logFailure} with the wait the
 * schedule itself chose before the next try, or none when it gives up.
 */
export const logRetries =
  (level: "Warning" | "Error") =>
  <Out, E, R>(what: string, schedule: Schedule.Schedule<Out, E, R>): Schedule.Schedule<Out, E, R> =>
    Schedule.makeWithState(schedule.initial, (now, input: E, state) =>
      Effect.tap(schedule.step(now, input, state), ([, , decision]) =>
        logFailure(level)(
          what,
          input,
          ScheduleDecision.isContinue(decision)
            ? Option.some(Duration.millis(Math.max(0, Intervals.start(decision.intervals) - now)))
            : Option.none()
        )
      )
    )
