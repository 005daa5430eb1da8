/**
 * Each event POSTed as JSON (the body is its JSON line) to the configured URL, one at a time in
 * commit order, with an `idempotency-key` header holding the event id: a receiver deduplicates by
 * it, since delivery is at-least-once (an answer lost on the way back means the event is sent again).
 *
 * Requests start at most `rate` per second. A 2xx delivers the event. A network error, a timeout,
 * 408, 425, 429 or 5xx is retried, the same event, for as long as it takes (nothing is lost), on
 * the toolkit's retry policy (`RetryPolicy`): an exponential backoff with full jitter whose ceiling
 * starts at `minBackoff` and doubles up to `maxBackoff`, and never sooner than the answer's
 * `Retry-After` (or `Ratelimit-Retry-After`) asks, read as `RetryPolicy.retryAfter` reads it (at
 * most `RetryPolicy.MAX_RETRY_AFTER`, 10 minutes).
 *
 * Any other answer (400, 401, 403, 404, 410, 413, 422..., and redirects, which are not followed)
 * means the receiver will never take this request as it is. Retrying would stop every later event
 * behind it forever, so the event is refused instead: logged at error level with the status and the
 * start of the answer, counted in `vega_watcher_sink_rejected_total`, and the stream moves on.
 *
 * Header values are secrets: they are read only to build the request, hidden from trace spans,
 * and never logged (nor is anything the receiver echoes of them).
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { FailureText, RetryPolicy } from "@vega-effect/http"
import { DurationText } from "@vega-effect/schema"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type { Webhook } from "../Config.js"
import { toJsonLine, type WatchEvent } from "../Event.js"
import * as Metrics from "../Metrics.js"
import * as Secrets from "../Secrets.js"
import type { PendingEvent, Sink } from "../Sink.js"

const NAME = "webhook"

const BODY_START = 200

const retryableStatuses = new Set([408, 425, 429])

/** An attempt that may succeed if tried again: a network error, a timeout, 408, 425, 429 or 5xx. */
interface Failed {
  readonly reason: string
  readonly status?: number
  readonly what: string
  /** What the answer's `Retry-After` asks for, if it does. */
  readonly retryAfter: Option.Option<Duration.Duration>
}

type Outcome =
  | { readonly _tag: "Delivered" }
  | ({ readonly _tag: "Failed" } & Failed)
  | { readonly _tag: "Refused"; readonly status: number; readonly body: string }

const errorText = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const { reason, description, cause } = error as { reason?: unknown; description?: unknown; cause?: unknown }
  // not the error's `message`: it carries the URL, which may itself hold a token
  const parts = [reason, description, cause instanceof Error ? cause.message : undefined]
  return parts.filter((part) => typeof part === "string" && part !== "").join(": ") || "request failed"
}

/**
 * When to try an event again: forever, after an exponential backoff with full jitter from
 * `minBackoff` up to `maxBackoff`, and never sooner than a `Retry-After` asks. Its output is the
 * failure and the delay before the next attempt.
 */
export const retrySchedule = (
  config: Pick<Webhook, "minBackoff" | "maxBackoff">
): Schedule.Schedule<readonly [Duration.Duration, Failed], Failed> =>
  RetryPolicy.atLeastRetryAfter(
    RetryPolicy.backoff({ base: config.minBackoff, max: config.maxBackoff }),
    (failure: Failed) => failure.retryAfter
  ).pipe(Schedule.delays, Schedule.intersect(Schedule.identity<Failed>()))

const attempts = Metrics.sinkAttemptsTotal.pipe(Metric.tagged("sink", NAME))
const failures = Metrics.sinkFailuresTotal.pipe(Metric.tagged("sink", NAME))
const retryAfters = Metrics.sinkRetryAfterTotal.pipe(Metric.tagged("sink", NAME))
const rejected = Metrics.sinkRejectedTotal.pipe(Metric.tagged("sink", NAME))

/** What sending an event needs. */
interface Sending {
  readonly config: Webhook
  readonly client: HttpClient.HttpClient
  /** The configured header names, lowercase: their values are hidden from trace spans. */
  readonly headerNames: ReadonlyArray<string>
  /** Hides every configured secret in text that came back from the receiver. */
  readonly scrub: (text: string) => string
  /** Waits until the next request may start (at most `rate` a second). */
  readonly pace: Effect.Effect<void>
}

/** Requests start at most `rate` per second: each waits for the start the previous one left it. */
const pacer = (rate: number): Effect.Effect<void> => {
  const intervalMillis = 1000 / rate
  let nextStart = 0
  return Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const start = Math.max(now, nextStart)
    nextStart = start + intervalMillis
    if (start > now) yield* Effect.sleep(Duration.millis(start - now))
  })
}

const requestFor = (config: Webhook, event: WatchEvent) =>
  HttpClientRequest.post(config.url).pipe(
    HttpClientRequest.setHeaders(
      Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, Redacted.value(value)]))
    ),
    HttpClientRequest.bodyText(toJsonLine(event), "application/json"),
    HttpClientRequest.setHeader("content-type", "application/json"),
    HttpClientRequest.setHeader("idempotency-key", event.id)
  )

const answerOf = (response: HttpClientResponse.HttpClientResponse) =>
  response.status >= 200 && response.status < 300
    ? Effect.succeed({ response, body: "" })
    : response.text.pipe(
        Effect.orElseSucceed(() => ""),
        Effect.map((body) => ({ response, body }))
      )

const outcomeOf = (
  { config, scrub }: Sending,
  response: HttpClientResponse.HttpClientResponse,
  body: string
): Effect.Effect<Outcome> => {
  const status = response.status
  if (status >= 200 && status < 300) {
    // read the answer so the connection is free again; the event is delivered whatever happens here
    return response.text.pipe(Effect.timeout(config.timeout), Effect.ignore, Effect.as({ _tag: "Delivered" as const }))
  }
  if (retryableStatuses.has(status) || status >= 500) {
    return Clock.currentTimeMillis.pipe(
      Effect.map((now) => ({
        _tag: "Failed" as const,
        reason: `http_${status}`,
        status,
        what: `HTTP ${status}`,
        retryAfter: RetryPolicy.retryAfter(response.headers, now)
      }))
    )
  }
  return Effect.succeed({ _tag: "Refused" as const, status, body: scrub(body.slice(0, BODY_START)) })
}

const send = (sending: Sending, event: WatchEvent): Effect.Effect<Outcome> =>
  sending.client.execute(requestFor(sending.config, event)).pipe(
    Effect.flatMap(answerOf),
    Effect.timeout(sending.config.timeout),
    Effect.locallyWith(Headers.currentRedactedNames, (names) => [...names, ...sending.headerNames]),
    Effect.flatMap(({ body, response }) => outcomeOf(sending, response, body)),
    Effect.catchAll((error) =>
      Effect.succeed<Outcome>(
        error._tag === "TimeoutException"
          ? {
              _tag: "Failed",
              reason: "timeout",
              what: `no answer in ${DurationText.format(sending.config.timeout)}`,
              retryAfter: Option.none()
            }
          : { _tag: "Failed", reason: "network", what: sending.scrub(errorText(error)), retryAfter: Option.none() }
      )
    )
  )

const refused = (event: WatchEvent, outcome: Extract<Outcome, { _tag: "Refused" }>, attempt: number) => {
  const answer = outcome.body.replace(/\s+/g, " ").trim()
  return Metric.increment(Metric.tagged(rejected, "status", String(outcome.status))).pipe(
    Effect.zipRight(
      Effect.logError(
        `event ${event.id} (${event.kind}) refused with HTTP ${outcome.status}, skipped` +
          (answer === "" ? "" : `: ${answer}`)
      )
    ),
    Effect.annotateLogs({ status: outcome.status, attempt })
  )
}

const retrying = (event: WatchEvent, attempt: number, delay: Duration.Duration, failure: Failed) => {
  const asked = Option.isSome(failure.retryAfter)
  return Effect.logWarning(
    `event ${event.id}: attempt ${attempt} failed: ${failure.what}${FailureText.nextTry(delay)}` +
      (asked ? " as Retry-After asks" : "")
  ).pipe(
    Effect.zipRight(asked ? Metric.increment(retryAfters) : Effect.void),
    Effect.annotateLogs({ reason: failure.reason, attempt }),
    Effect.annotateLogs(failure.status === undefined ? {} : { status: failure.status })
  )
}

/** Sends the event until it is delivered or refused; a retryable failure is tried again, never skipped. */
const deliverOne = (sending: Sending, event: WatchEvent): Effect.Effect<void> => {
  let attempt = 0
  const once: Effect.Effect<void, Failed> = Effect.gen(function* () {
    yield* sending.pace
    attempt += 1
    yield* Metric.increment(attempts)
    const outcome = yield* send(sending, event)
    if (outcome._tag === "Refused") return yield* refused(event, outcome, attempt)
    if (outcome._tag === "Failed") {
      yield* Metric.increment(Metric.tagged(failures, "reason", outcome.reason))
      return yield* Effect.fail(outcome)
    }
  })
  const schedule = retrySchedule(sending.config).pipe(
    Schedule.tapOutput(([delay, failure]) => retrying(event, attempt, delay, failure))
  )
  // the schedule never ends: a failure is retried as long as it takes
  return once.pipe(Effect.retry(schedule), Effect.orDie)
}

export const make = (config: Webhook): Effect.Effect<Sink, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const secrets = Secrets.valuesOf(Object.values(config.headers))
    const sending: Sending = {
      config,
      client,
      headerNames: Object.keys(config.headers).map((name) => name.toLowerCase()),
      scrub: (text) => Secrets.scrub(text, secrets),
      pace: pacer(config.rate)
    }

    const deliver = (events: ReadonlyArray<PendingEvent>) =>
      Effect.forEach(events, ({ event }) => deliverOne(sending, event), { discard: true }).pipe(
        Effect.annotateLogs({ sink: NAME })
      )

    return { name: NAME, recover: () => Effect.succeed(0), deliver } satisfies Sink
  })
