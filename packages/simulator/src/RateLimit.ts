/**
 * The data node's rate limiter (datanode/ratelimit): a token bucket per client IP, with the node's
 * figures from `@vega-effect/schema`'s `RateLimit` (20 requests a second, a burst of 100, a
 * 10-minute ban for a client that keeps requesting while it is limited).
 *
 * - Over the limit: HTTP 429 `{"code":8,"message":"api request rate limit exceeded","details":[]}`.
 * - Banned: HTTP 403 `{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}`
 *   with `Ratelimit-Retry-After: <seconds>`.
 * - Every answer that went through the limiter carries `Ratelimit-Limit` (the rate),
 *   `Ratelimit-Reset: 1`, `Ratelimit-Remaining` (whole tokens left) and
 *   `Ratelimit-Request-Remote-Addr` (the client address the bucket belongs to).
 *
 * The simulator's gateway only limits when it is given a limiter.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import * as internal from "./internal/rateLimiter.js"

/**
 * The limiter's figures: rate, burst, ban length and bucket expiry default to the real node's.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Tokens added per second, reported as `Ratelimit-Limit`. Default the node's `RATE_PER_SECOND` (20). */
  readonly rate?: number
  /** Bucket size. Default the node's `BURST` (100). */
  readonly burst?: number
  /**
   * How many consecutive requests a client may have refused with 429 before the next one bans
   * it. Default 10: a client that backs off on its first 429s is never banned, one that loops
   * without waiting is banned within a fraction of a second. Any request let through resets the
   * count. The node's exact threshold is not documented.
   */
  readonly banAfter?: number
  /** How long a ban lasts. Default the node's `BAN` (10 minutes). */
  readonly banFor?: Duration.DurationInput
  /** A bucket unused this long is forgotten. Default the node's `BUCKET_EXPIRY` (1 hour). */
  readonly expireAfter?: Duration.DurationInput
  /**
   * The peer whose `X-Forwarded-For` is trusted: requests from it are counted against the first
   * forwarded address. Default `"127.0.0.1"`.
   */
  readonly trustedProxy?: string
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: () => number
}

/**
 * What the limiter says about one request: let it through with these headers, or answer with
 * this status, body and headers.
 *
 * @since 0.1.0
 * @category Models
 */
export type Decision =
  | { readonly _tag: "Allowed"; readonly headers: Readonly<Record<string, string>> }
  | {
      readonly _tag: "Rejected"
      readonly status: 429 | 403
      readonly body: string
      readonly headers: Readonly<Record<string, string>>
    }

/**
 * A rate limiter: one token bucket and one ban per client address.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RateLimiter {
  /** Counts one request from a client address and decides. */
  readonly take: (client: string) => Decision
  /**
   * The address a request is counted against: the first `X-Forwarded-For` address when the peer
   * is the trusted proxy, the peer otherwise.
   */
  readonly clientAddress: (peer: string | undefined, forwardedFor: string | ReadonlyArray<string> | undefined) => string
  /** Number of buckets currently kept (after dropping expired ones). */
  readonly size: () => number
  /** Forgets every bucket and ban. */
  readonly reset: () => void
}

/**
 * The 429 body, as sent.
 *
 * @since 0.1.0
 * @category Constants
 */
export const RATE_LIMITED_BODY: string = internal.RATE_LIMITED_BODY

/**
 * The 403 body, as sent.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BANNED_BODY: string = internal.BANNED_BODY

/**
 * A rate limiter with the node's defaults, adjustable through {@link Options}.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (options?: Options) => RateLimiter = internal.make
