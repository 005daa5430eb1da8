/**
 * The client's transport defaults, in one place (the node's own rate limit comes from
 * `@vega-effect/schema`'s `RateLimit`, the retry schedule's from `RetryPolicy`).
 */
import * as RateLimit from "@vega-effect/schema/RateLimit"
import * as Duration from "effect/Duration"

export const DEFAULTS = {
  /** Per request. */
  timeout: Duration.seconds(10),
  /**
   * Client-side pacing per node (`pacer.ts`): the node's own rate, and its burst less a tenth
   * kept in reserve for what the pacer cannot see (another process sharing the client's address,
   * a count rounded down in `Ratelimit-Remaining`).
   */
  rateLimit: { rate: RateLimit.RATE_PER_SECOND, burst: RateLimit.BURST - RateLimit.BURST / 10 },
  /** Nodes more than this many blocks behind the best are not used. */
  maxLag: 5,
  /** Nodes slower than this many times the fastest (plus 100 ms) are not used. */
  slowFactor: 4,
  /** With several nodes, how often their heights are asked for. */
  healthInterval: Duration.seconds(5),
  /** How long a failing node of several rests: from `base`, doubling with each failure in a row, up to `max`. */
  rest: { base: Duration.millis(250), max: Duration.seconds(30) }
} as const
