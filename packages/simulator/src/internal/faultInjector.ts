/**
 * The seeded fault injector behind `Faults.make`: a delay and a fault per request, drawn from one
 * generator so the same seed and the same requests give the same faults.
 */
import { GatewayError, RateLimit as NodeLimits } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import type { Decision, ErrorStatus, Fault, Faults, Options } from "../Faults.js"
import { errorBodyText } from "./gatewayJson.js"
import { makeRandom, type Random } from "./random.js"
import { limitHeaders, RATE_LIMITED_BODY } from "./rateLimiter.js"

const NONE: Decision = { delay: Duration.zero, fault: undefined }

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

/** The node's 429, with the headers its limiter sends. */
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

const millisOf = (input: Duration.DurationInput | undefined): number =>
  input === undefined ? 0 : Math.max(0, Duration.toMillis(Duration.decode(input)))

interface Settings {
  readonly enabled: boolean
  readonly random: Random
  readonly fixedMillis: number
  readonly jitterMillis: number
  readonly errorRate: number
  readonly statuses: ReadonlyArray<ErrorStatus>
  readonly resetRate: number
  readonly truncateRate: number
  readonly burstEvery: number
  readonly burstLength: number
}

/** The options checked and resolved; a `RangeError` for impossible rates. */
const settingsOf = (o: Options): Settings => {
  const errorRate = probability("errorRate", o.errorRate)
  const resetRate = probability("resetRate", o.resetRate)
  const truncateRate = probability("truncateRate", o.truncateRate)
  if (errorRate + resetRate + truncateRate > 1) {
    throw new RangeError("Faults: errorRate + resetRate + truncateRate must not exceed 1")
  }
  const statuses = o.errorStatuses ?? [500, 503]
  if (errorRate > 0 && statuses.length === 0) throw new RangeError("Faults: errorStatuses is empty")
  return {
    enabled: o.enabled ?? true,
    random: makeRandom(o.seed ?? 0),
    fixedMillis: millisOf(o.latency?.fixed),
    jitterMillis: millisOf(o.latency?.jitter),
    errorRate,
    statuses,
    resetRate,
    truncateRate,
    burstEvery: Math.max(0, Math.floor(o.rateLimitBursts?.every ?? 0)),
    burstLength: Math.max(0, Math.floor(o.rateLimitBursts?.length ?? 0))
  }
}

/** The error, reset or truncation a request gets, if any. */
const drawFault = (s: Settings): Fault | undefined => {
  const { errorRate, random, resetRate, statuses, truncateRate } = s
  const r = random.next()
  if (r < errorRate) return FAULTS[statuses.length === 1 ? statuses[0] : statuses[random.int(statuses.length)]]
  if (r < errorRate + resetRate) return RESET
  if (r < errorRate + resetRate + truncateRate) return TRUNCATE
  return undefined
}

/** A fault injector; with no options it injects nothing. */
export const make = (options: Options = {}): Faults => {
  let s = settingsOf(options)
  let count = 0

  const decide = (): Decision => {
    if (!s.enabled) return NONE
    const millis = s.jitterMillis > 0 ? s.fixedMillis + s.random.next() * s.jitterMillis : s.fixedMillis
    const delay = millis === 0 ? Duration.zero : Duration.millis(millis)
    if (s.burstLength > 0) {
      const position = count++ % (s.burstEvery + s.burstLength)
      if (position >= s.burstEvery) return { delay, fault: RATE_LIMITED }
    }
    if (s.errorRate + s.resetRate + s.truncateRate === 0) return millis === 0 ? NONE : { delay, fault: undefined }
    return { delay, fault: drawFault(s) }
  }

  return {
    decide,
    isEnabled: () => s.enabled,
    setEnabled: (on) => {
      s = { ...s, enabled: on }
    },
    configure: (o) => {
      s = settingsOf(o)
      count = 0
    }
  }
}
