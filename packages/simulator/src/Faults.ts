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
import type * as Duration from "effect/Duration"
import * as internal from "./internal/faultInjector.js"

/**
 * A status {@link Options.errorRate} may answer with.
 *
 * @since 0.1.0
 * @category Models
 */
export type ErrorStatus = 500 | 503

/**
 * Which faults a node injects and how often: latency, error answers, bursts of 429s, reset
 * connections and cut bodies, each off unless set.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Seed of the generator. Default 0. */
  readonly seed?: number
  /** Whether faults start switched on. Default true. */
  readonly enabled?: boolean
  /**
   * Delay before answering: `fixed` plus up to `jitter` (uniform), e.g.
   * `{ fixed: "50 millis", jitter: Duration.millis(20) }`. A plain number is milliseconds.
   */
  readonly latency?: { readonly fixed?: Duration.DurationInput; readonly jitter?: Duration.DurationInput }
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
 * What to do with one request: wait `delay`, then answer normally or with the fault.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Decision {
  readonly delay: Duration.Duration
  readonly fault: Fault | undefined
}

/**
 * A fault to inject into one answer: an error or 429 answer (its status, body and headers), a
 * connection reset, or a body cut short.
 *
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
  /** Switches faults on or off (a switched-off injector answers `{ delay: Duration.zero, fault: undefined }`). */
  readonly setEnabled: (enabled: boolean) => void
  /** Replaces the options; the generator and burst counter start over from the new seed. */
  readonly configure: (options: Options) => void
}

/**
 * A fault injector. With no options it injects nothing.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (options?: Options) => Faults = internal.make
