/**
 * Failures as one line a person can read, naming the node and the cause in plain words: for logs
 * and messages of applications built on the client.
 *
 *     http://127.0.0.1:18282 refused the connection
 *     https://node-a.example: DNS name not found (node-a.example)
 *     https://node-a.example did not answer /api/v2/positions within 10s
 *     https://node-a.example rate limited /api/v2/positions: it asks to wait 3s
 *     https://node-a.example answered /api/v2/market/ab12 with HTTP 404: market not found
 *     https://node-a.example/api/v2/positions: the answer did not decode at positions.edges.3.node.openVolume: …
 *
 * {@link logWarning} and {@link logError} log such a line (with when the next try is, from the
 * caller's schedule) and keep the whole cause, stack traces included, for the debug level;
 * {@link logRetries} makes a retry schedule log each failure so, with the wait it chose itself.
 *
 * @since 0.1.0
 */
import type * as Cause from "effect/Cause"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Schedule from "effect/Schedule"
import type { DataNodeError } from "./DataNodeError.js"
import * as internal from "./internal/failureText.js"
import type { StreamEnd } from "./LiveStream.js"

/**
 * One of the client's errors in one line: the node, and the cause in words (connection refused,
 * timed out, DNS name not found, the HTTP status with the node's message, rate limited with the
 * wait asked, which field of the answer did not decode).
 *
 * @since 0.1.0
 * @category Summaries
 */
export const ofError: (error: DataNodeError) => string = internal.ofError

/**
 * Why a live stream's connection to `node` ended (an `Observation`'s `Disconnected` reason), in one line.
 *
 * @since 0.1.0
 * @category Summaries
 */
export const ofStreamEnd: (node: string, end: StreamEnd) => string = internal.ofStreamEnd

/**
 * Any error in one line: the client's errors as {@link ofError}, others by their message (or tag).
 *
 * @since 0.1.0
 * @category Summaries
 */
export const ofUnknown: (error: unknown) => string = internal.ofUnknown

/**
 * A cause in one line: its first failure as {@link ofUnknown}, else its first defect, else
 * `interrupted`.
 *
 * @since 0.1.0
 * @category Summaries
 */
export const ofCause: (cause: Cause.Cause<unknown>) => string = internal.ofCause

/**
 * A wait rounded to the millisecond, as `Duration.format` writes it (`2s`, `1s 250ms`).
 *
 * @since 0.1.0
 * @category Summaries
 */
export const formatWait: (wait: Duration.DurationInput) => string = internal.formatWait

/**
 * `; next try in 2s` for a wait, nothing for none (`Option.none()` or `undefined`).
 *
 * @since 0.1.0
 * @category Summaries
 */
export const nextTry: (retryIn: Option.Option<Duration.DurationInput> | Duration.DurationInput | undefined) => string =
  internal.nextTry

/**
 * Whether a value is one of the client's errors.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isDataNodeError: (u: unknown) => u is DataNodeError = internal.isDataNodeError

/**
 * Logs `what: <the cause in one line>; next try in <retryIn>` at warning level, and the whole
 * cause with its stack traces at debug level only. `failure` is a `Cause`, or an error (the
 * cause's failure). `retryIn` is the wait the caller's schedule
 * (or the error's `retryAfter`) gives; none or omitted says nothing of a next try.
 *
 * @since 0.1.0
 * @category Logging
 */
export const logWarning: (
  what: string,
  failure: unknown,
  retryIn?: Option.Option<Duration.DurationInput> | Duration.DurationInput
) => Effect.Effect<void> = internal.logFailure("Warning")

/**
 * {@link logWarning} at error level.
 *
 * @since 0.1.0
 * @category Logging
 */
export const logError: (
  what: string,
  failure: unknown,
  retryIn?: Option.Option<Duration.DurationInput> | Duration.DurationInput
) => Effect.Effect<void> = internal.logFailure("Error")

/**
 * The retry `schedule`, logging each failure it is given as {@link logWarning} does, with the
 * wait the schedule itself chose before the next try (a backoff's jitter and a `Retry-After`
 * included), or without one when it gives up:
 *
 *     deliver.pipe(Effect.retry(FailureText.logRetries("delivery failed", RetryPolicy.backoff())))
 *     // WARN: delivery failed: https://hooks.example answered … with HTTP 503: …; next try in 1s 250ms
 *
 * @since 0.1.0
 * @category Logging
 */
export const logRetries: <Out, E, R>(
  what: string,
  schedule: Schedule.Schedule<Out, E, R>
) => Schedule.Schedule<Out, E, R> = internal.logRetries("Warning")
