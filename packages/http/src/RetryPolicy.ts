/**
 * When to try again, and after how long: the one retry policy of the toolkit. The data-node
 * client follows it for every read, the submitter's probes and result subscription follow its
 * backoff, and applications use the same pieces for their own deliveries (webhooks, say).
 *
 * - {@link backoff}: exponential delays from `base`, doubling up to `max`, with full jitter (each
 *   delay drawn uniformly between zero and its ceiling, so many clients do not retry in step).
 * - {@link schedule}: that backoff limited to a number of retries; the client's default.
 * - {@link retryAfter}: the wait an answer asks for (`Ratelimit-Retry-After`, `Retry-After`), in
 *   seconds or as an HTTP date, never more than {@link MAX_RETRY_AFTER}.
 * - {@link atLeastRetryAfter}: a schedule that waits at least what each failure asked.
 *
 * Options that are not usable (not an object, a negative or fractional `retries`, a `base` that is
 * not a duration) throw a `RangeError` naming the option, never a `TypeError`.
 *
 * @since 0.1.0
 */
import * as RateLimit from "@vega-effect/schema/RateLimit"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { retryOptionsProblem } from "./internal/options.js"

/**
 * The client's defaults: 5 retries, from 200 ms up to 10 s.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULTS = {
  retries: 5,
  base: Duration.millis(200),
  max: Duration.seconds(10)
} as const

/**
 * The longest wait an answer's `Retry-After` is followed for: the node's own ban. A larger value
 * (or a date further away) is read as this.
 *
 * @since 0.1.0
 * @category Constants
 */
export const MAX_RETRY_AFTER: Duration.Duration = RateLimit.BAN

/**
 * The exponential backoff: each delay's ceiling doubles from `base` up to `max`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface BackoffOptions {
  /** The ceiling of the first delay. Default 200 ms. */
  readonly base?: Duration.DurationInput | undefined
  /** The largest ceiling; delays stop growing there. Default 10 s. */
  readonly max?: Duration.DurationInput | undefined
  /** Draw each delay under its ceiling (full jitter), or wait the ceiling itself. Default true. */
  readonly jitter?: boolean | undefined
}

/** `options` if usable; else throws a `RangeError` naming the member. */
const usable = <O extends Options>(options: O): O => {
  const problem = retryOptionsProblem(options)
  if (problem === undefined) return options
  const [member, message] = problem
  throw new RangeError(`RetryPolicy${member === "" ? "" : ` option ${member}`}: ${message}`)
}

/**
 * The ceiling of the n-th delay (n from 0): `min(max, base × 2ⁿ)`. The one backoff formula:
 * {@link backoff} draws its delays under it, and the client rests a failing node for this long.
 *
 * @since 0.1.0
 * @category Schedules
 */
export const ceiling = (n: number, options: BackoffOptions = {}): Duration.Duration => {
  usable(options)
  if (typeof n !== "number" || Number.isNaN(n)) {
    throw new RangeError(`RetryPolicy.ceiling: Expected a retry number, got ${String(n)}`)
  }
  const max = Duration.decode(options.max ?? DEFAULTS.max)
  const base = Duration.toMillis(options.base ?? DEFAULTS.base)
  // 2^n overflows to Infinity for large n, which the cap absorbs
  return Duration.min(max, Duration.millis(base * 2 ** Math.max(0, n)))
}

/**
 * Exponential backoff with full jitter, forever: the n-th delay is drawn uniformly from
 * `[0, ceiling(n)]` (see {@link ceiling}), or is the ceiling itself with `jitter: false`. Its
 * output is that ceiling.
 *
 * @since 0.1.0
 * @category Schedules
 */
export const backoff = (options: BackoffOptions = {}): Schedule.Schedule<Duration.Duration> => {
  usable(options)
  const ceilings = Schedule.forever.pipe(
    Schedule.map((n) => ceiling(n, options)),
    Schedule.addDelay((limit) => limit)
  )
  return options.jitter === false ? ceilings : Schedule.jitteredWith(ceilings, { min: 0, max: 1 })
}

/**
 * The backoff and how many retries follow the first attempt.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options extends BackoffOptions {
  /** Attempts after the first. Default 5. */
  readonly retries?: number | undefined
}

/**
 * {@link backoff} for at most `retries` retries: the client's default retry schedule.
 *
 * @since 0.1.0
 * @category Schedules
 */
export const schedule = (options: Options = {}): Schedule.Schedule<Duration.Duration> =>
  Schedule.zipLeft(backoff(usable(options)), Schedule.recurs(Math.max(0, options.retries ?? DEFAULTS.retries)))

/**
 * The wait an answer asks for, from its headers (names in any case): `Ratelimit-Retry-After`
 * (the data node's, on a ban) or else `Retry-After`, as delay-seconds or an HTTP date, at most
 * {@link MAX_RETRY_AFTER}. None when neither is present or readable.
 *
 * @since 0.1.0
 * @category Headers
 */
export const retryAfter = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  nowMillis: number
): Option.Option<Duration.Duration> => {
  let raw: string | undefined
  let fallback: string | undefined
  for (const [name, value] of Object.entries(headers)) {
    const text = typeof value === "string" ? value : value?.[0]
    const lower = name.toLowerCase()
    if (lower === "ratelimit-retry-after") raw = text
    else if (lower === "retry-after") fallback = text
  }
  const text = (raw ?? fallback)?.trim()
  if (text === undefined || text === "") return Option.none()
  let millis: number
  if (/^\d+(\.\d+)?$/.test(text)) millis = Number(text) * 1000
  else {
    const date = Date.parse(text)
    if (Number.isNaN(date)) return Option.none()
    millis = Math.max(0, date - nowMillis)
  }
  return Option.some(Duration.min(Duration.millis(Math.ceil(millis)), MAX_RETRY_AFTER))
}

/**
 * `self`, waiting at least what each failure asks for: the delay after a failure is the larger of
 * the schedule's and `waitOf(failure)`. The schedule still decides whether to go on.
 *
 * @since 0.1.0
 * @category Schedules
 */
export const atLeastRetryAfter = <Out, In, R>(
  self: Schedule.Schedule<Out, In, R>,
  waitOf: (failure: In) => Option.Option<Duration.Duration>
): Schedule.Schedule<Out, In, R> =>
  Schedule.intersect(
    self,
    Schedule.identity<In>().pipe(Schedule.addDelay((failure) => Option.getOrElse(waitOf(failure), () => Duration.zero)))
  ).pipe(Schedule.map(([out]) => out))
