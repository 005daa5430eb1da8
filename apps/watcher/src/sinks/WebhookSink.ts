/**
 * Each event POSTed as JSON (the body is its JSON line) to the configured URL, one at a time in
 * commit order, with an `idempotency-key` header holding the event id: a receiver deduplicates by
 * it, since delivery is at-least-once (an answer lost on the way back means the event is sent again).
 *
 * Requests start at most `rate` per second. A 2xx delivers the event. A network error, a timeout,
 * 408, 425, 429 or 5xx is retried, the same event, for as long as it takes (nothing is lost):
 * after what `Retry-After` asks when the answer says (at most 10 minutes), otherwise after an
 * exponential backoff with full jitter between `minBackoff` and `maxBackoff`.
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
import { DurationText } from "@vega-effect/schema"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Random from "effect/Random"
import * as Redacted from "effect/Redacted"
import type { Webhook } from "../Config.js"
import { toJsonLine, type WatchEvent } from "../Event.js"
import * as Metrics from "../Metrics.js"
import * as Secrets from "../Secrets.js"
import type { PendingEvent, Sink } from "../Sink.js"

const NAME = "webhook"

const MAX_RETRY_AFTER_MILLIS = 10 * 60 * 1000
const BODY_START = 200

const retryableStatuses = new Set([408, 425, 429])

type Outcome =
  | { readonly _tag: "Delivered" }
  | {
      readonly _tag: "Failed"
      readonly reason: string
      readonly status?: number
      readonly what: string
      readonly retryAfterMillis: number | undefined
    }
  | { readonly _tag: "Refused"; readonly status: number; readonly body: string }

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date, at most 10 minutes; `undefined` when absent or unreadable. */
export const retryAfterMillis = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MILLIS)
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - nowMillis), MAX_RETRY_AFTER_MILLIS)
}

/** Full jitter: uniform between the minimum and the doubled-per-attempt cap. */
const backoffMillis = (config: Webhook, attempt: number): Effect.Effect<number> => {
  const [min, max] = [Duration.toMillis(config.minBackoff), Duration.toMillis(config.maxBackoff)]
  const low = Math.min(min, max)
  const cap = Math.min(max, min * 2 ** Math.min(attempt - 1, 30))
  return Random.nextRange(low, Math.max(low, cap)).pipe(Effect.map(Math.round))
}

const errorText = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const { reason, description, cause } = error as { reason?: unknown; description?: unknown; cause?: unknown }
  // not the error's `message`: it carries the URL, which may itself hold a token
  const parts = [reason, description, cause instanceof Error ? cause.message : undefined]
  return parts.filter((part) => typeof part === "string" && part !== "").join(": ") || "request failed"
}

export const make = (config: Webhook): Effect.Effect<Sink, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const headerNames = Object.keys(config.headers).map((name) => name.toLowerCase())
    const intervalMillis = 1000 / config.rate
    const timeout = config.timeout
    const attempts = Metrics.sinkAttemptsTotal.pipe(Metric.tagged("sink", NAME))
    const failures = Metrics.sinkFailuresTotal.pipe(Metric.tagged("sink", NAME))
    const retryAfters = Metrics.sinkRetryAfterTotal.pipe(Metric.tagged("sink", NAME))
    const rejected = Metrics.sinkRejectedTotal.pipe(Metric.tagged("sink", NAME))
    let nextStart = 0

    const secrets = Secrets.valuesOf(Object.values(config.headers))
    /** Hides every configured secret in text that came back from the receiver. */
    const scrub = (text: string): string => Secrets.scrub(text, secrets)

    const pace = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const start = Math.max(now, nextStart)
      nextStart = start + intervalMillis
      if (start > now) yield* Effect.sleep(Duration.millis(start - now))
    })

    const requestFor = (event: WatchEvent) =>
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

    const send = (event: WatchEvent): Effect.Effect<Outcome> =>
      client.execute(requestFor(event)).pipe(
        Effect.flatMap(answerOf),
        Effect.timeout(timeout),
        Effect.locallyWith(Headers.currentRedactedNames, (names) => [...names, ...headerNames]),
        Effect.flatMap(({ body, response }): Effect.Effect<Outcome> => {
          const status = response.status
          if (status >= 200 && status < 300) {
            // read the answer so the connection is free again; the event is delivered whatever happens here
            return response.text.pipe(Effect.timeout(timeout), Effect.ignore, Effect.as({ _tag: "Delivered" as const }))
          }
          if (retryableStatuses.has(status) || status >= 500) {
            return Clock.currentTimeMillis.pipe(
              Effect.map((now) => ({
                _tag: "Failed" as const,
                reason: `http_${status}`,
                status,
                what: `HTTP ${status}`,
                retryAfterMillis: retryAfterMillis(response.headers["retry-after"], now)
              }))
            )
          }
          return Effect.succeed({ _tag: "Refused" as const, status, body: scrub(body.slice(0, BODY_START)) })
        }),
        Effect.catchAll((error) =>
          Effect.succeed<Outcome>(
            error._tag === "TimeoutException"
              ? {
                  _tag: "Failed",
                  reason: "timeout",
                  what: `no answer in ${DurationText.format(config.timeout)}`,
                  retryAfterMillis: undefined
                }
              : { _tag: "Failed", reason: "network", what: scrub(errorText(error)), retryAfterMillis: undefined }
          )
        )
      )

    const deliverOne = (event: WatchEvent): Effect.Effect<void> =>
      Effect.gen(function* () {
        for (let attempt = 1; ; attempt++) {
          yield* pace
          yield* Metric.increment(attempts)
          const outcome = yield* send(event)
          switch (outcome._tag) {
            case "Delivered":
              return
            case "Refused": {
              yield* Metric.increment(Metric.tagged(rejected, "status", String(outcome.status)))
              const answer = outcome.body.replace(/\s+/g, " ").trim()
              yield* Effect.logError(
                `event ${event.id} (${event.kind}) refused with HTTP ${outcome.status}, skipped` +
                  (answer === "" ? "" : `: ${answer}`)
              ).pipe(Effect.annotateLogs({ status: outcome.status, attempt }))
              return
            }
            case "Failed": {
              yield* Metric.increment(Metric.tagged(failures, "reason", outcome.reason))
              const asked = outcome.retryAfterMillis !== undefined
              const delay = outcome.retryAfterMillis ?? (yield* backoffMillis(config, attempt))
              if (asked) yield* Metric.increment(retryAfters)
              yield* Effect.logWarning(
                `event ${event.id}: attempt ${attempt} failed (${outcome.what}); retrying in ${delay} ms` +
                  (asked ? " as Retry-After asks" : "")
              ).pipe(
                Effect.annotateLogs({ reason: outcome.reason, attempt }),
                Effect.annotateLogs(outcome.status === undefined ? {} : { status: outcome.status })
              )
              yield* Effect.sleep(Duration.millis(delay))
            }
          }
        }
      })

    const deliver = (events: ReadonlyArray<PendingEvent>) =>
      Effect.forEach(events, ({ event }) => deliverOne(event), { discard: true }).pipe(
        Effect.annotateLogs({ sink: NAME })
      )

    return { name: NAME, recover: () => Effect.succeed(0), deliver } satisfies Sink
  })
