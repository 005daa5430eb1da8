/**
 * Faults a simulated node can inject, so clients can be tested against the failures a real
 * network shows: slow answers, internal errors, bursts of 429s, connections reset in the middle
 * of a body, and bodies cut short. Every choice comes from a seeded generator, so the same seed
 * and the same sequence of requests give the same faults.
 *
 * The gateway consults {@link Faults.decide} once per API request (not for `/health` or CORS
 * preflights).
 *
 * @since 0.1.0
 */
import { GatewayError, RateLimit as NodeLimits } from "@vega-effect/schema"
import { errorBodyText } from "./internal/gatewayJson.js"
import { makeRandom, type Random } from "./internal/random.js"
import { limitHeaders, RATE_LIMITED_BODY } from "./internal/rateLimiter.js"

/**
 * A status {@link Options.errorRate} may answer with.
 *
 * @since 0.1.0
 * @category Models
 */
export type ErrorStatus = 500 | 503

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Seed of the generator. Default 0. */
  readonly seed?: number
  /** Whether faults start switched on. Default true. */
  readonly enabled?: boolean
  /** Delay before answering: `fixed` ms plus up to `jitter` ms (uniform). */
  readonly latency?: { readonly fixed?: number; readonly jitter?: number }
  /** Probability (0–1) of answering with an error instead of the real answer. */
  readonly errorRate?: number
  /**
   * The statuses {@link errorRate} picks from, uniformly. Default both: 500
   * `{"code":13,"message":"Internal error","details":[]}` and 503
   * `{"code":14,"message":"Unavailable error","details":[]}`.
   */
  readonly errorStatuses?: ReadonlyArray<ErrorStatus>
  /**
   * After every `every` requests, answer the next `length` with the real 429 body (counting only
   * requests while faults are on).
   */
  readonly rateLimitBursts?: { readonly every: number; readonly length: number }
  /**
   * Probability of writing the status line, the headers and about half the body, then destroying
   * the connection.
   */
  readonly resetRate?: number
  /**
   * Probability of sending a complete response whose JSON body is cut to about half (the
   * `Content-Length` matches what is sent).
   */
  readonly truncateRate?: number
}

/**
 * What to do with one request: wait `delay` ms, then answer normally or with the fault.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Decision {
  readonly delay: number
  readonly fault: Fault | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export type Fault =
  | {
      readonly _tag: "Error" | "RateLimited"
      readonly status: number
      readonly body: string
      readonly headers: Readonly<Record<string, string>>
    }
  | { readonly _tag: "Reset" }
  | { readonly _tag: "Truncate" }

/**
 * A node's fault injector.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Faults {
  /** Decides the fate of the next request. */
  readonly decide: () => Decision
  readonly isEnabled: () => boolean
  /** Switches faults on or off (a switched-off injector answers `{ delay: 0, fault: undefined }`). */
  readonly setEnabled: (enabled: boolean) => void
  /** Replaces the options; the generator and burst counter start over from the new seed. */
  readonly configure: (options: Options) => void
}

const NONE: Decision = { delay: 0, fault: undefined }

const errorFault = (status: ErrorStatus): Fault => ({
  _tag: "Error",
  status,
  body: errorBodyText(
    status === 500
      ? GatewayError.gatewayError(GatewayError.GrpcCode.Internal, "Internal error")
      : GatewayError.gatewayError(GatewayError.GrpcCode.Unavailable, "Unavailable error")
  ),
  headers: {}
})

const FAULTS: Record<ErrorStatus, Fault> = { 500: errorFault(500), 503: errorFault(503) }

const RATE_LIMITED: Fault = {
  _tag: "RateLimited",
  status: 429,
  body: RATE_LIMITED_BODY,
  headers: limitHeaders(NodeLimits.RATE_PER_SECOND, 0)
}
const RESET: Fault = { _tag: "Reset" }
const TRUNCATE: Fault = { _tag: "Truncate" }

const probability = (name: string, p: number | undefined): number => {
  const value = p ?? 0
  if (!(value >= 0 && value <= 1)) throw new RangeError(`Faults: ${name} must be between 0 and 1, got ${p}`)
  return value
}

/**
 * A fault injector. With no options it injects nothing.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options: Options = {}): Faults => {
  let enabled = true
  let random: Random
  let fixed = 0
  let jitter = 0
  let errorRate = 0
  let statuses: ReadonlyArray<ErrorStatus> = [500, 503]
  let resetRate = 0
  let truncateRate = 0
  let burstEvery = 0
  let burstLength = 0
  let count = 0

  const configure = (o: Options): void => {
    enabled = o.enabled ?? true
    random = makeRandom(o.seed ?? 0)
    fixed = Math.max(0, o.latency?.fixed ?? 0)
    jitter = Math.max(0, o.latency?.jitter ?? 0)
    errorRate = probability("errorRate", o.errorRate)
    resetRate = probability("resetRate", o.resetRate)
    truncateRate = probability("truncateRate", o.truncateRate)
    if (errorRate + resetRate + truncateRate > 1) {
      throw new RangeError("Faults: errorRate + resetRate + truncateRate must not exceed 1")
    }
    statuses = o.errorStatuses ?? [500, 503]
    if (errorRate > 0 && statuses.length === 0) throw new RangeError("Faults: errorStatuses is empty")
    burstEvery = Math.max(0, Math.floor(o.rateLimitBursts?.every ?? 0))
    burstLength = Math.max(0, Math.floor(o.rateLimitBursts?.length ?? 0))
    count = 0
  }
  configure(options)

  const decide = (): Decision => {
    if (!enabled) return NONE
    const delay = jitter > 0 ? fixed + random.next() * jitter : fixed
    if (burstLength > 0) {
      const position = count++ % (burstEvery + burstLength)
      if (position >= burstEvery) return { delay, fault: RATE_LIMITED }
    }
    if (errorRate + resetRate + truncateRate === 0) return delay === 0 ? NONE : { delay, fault: undefined }
    const r = random.next()
    let fault: Fault | undefined
    if (r < errorRate) fault = FAULTS[statuses.length === 1 ? statuses[0] : statuses[random.int(statuses.length)]]
    else if (r < errorRate + resetRate) fault = RESET
    else if (r < errorRate + resetRate + truncateRate) fault = TRUNCATE
    return { delay, fault }
  }

  return {
    decide,
    isEnabled: () => enabled,
    setEnabled: (on) => {
      enabled = on
    },
    configure
  }
}
