/**
 * The data node's rate limiter as the real node configures it by default
 * (`datanode/ratelimit/config.go`): a token bucket per client address, refilled at
 * {@link RATE_PER_SECOND} up to {@link BURST}, and a ban of {@link BAN} for a client that keeps
 * requesting while it is limited. Clients pace themselves with these figures; the simulator
 * enforces them.
 *
 * - Over the limit: HTTP 429 with gRPC code 8 (`ResourceExhausted`) and {@link RATE_LIMITED_MESSAGE}.
 * - Banned: HTTP 403 with gRPC code 7 (`PermissionDenied`), {@link BANNED_MESSAGE} and the
 *   {@link Headers.retryAfter} header in seconds.
 * - Every answer that went through the limiter carries the `Ratelimit-*` headers of {@link Headers}.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"

/**
 * Tokens added to a client's bucket per second; reported as `Ratelimit-Limit`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const RATE_PER_SECOND = 20

/**
 * The size of a client's bucket: requests it may send at once.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BURST = 100

/**
 * How long a client that keeps requesting while rate limited is banned.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BAN: Duration.Duration = Duration.minutes(10)

/**
 * A bucket unused this long is forgotten.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BUCKET_EXPIRY: Duration.Duration = Duration.hours(1)

/**
 * The message of a 429 answer.
 *
 * @since 0.1.0
 * @category Constants
 */
export const RATE_LIMITED_MESSAGE = "api request rate limit exceeded"

/**
 * The message of a 403 answer to a banned client.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BANNED_MESSAGE = "temporarily banned for continuing to request while rate limited"

/**
 * The names of the limiter's headers, in the case the node writes them (HTTP header names are
 * case-insensitive: compare them lowercased).
 *
 * @since 0.1.0
 * @category Constants
 */
export const Headers = {
  /** The rate, in requests per second. */
  limit: "Ratelimit-Limit",
  /** Always `1`: a bucket refills continuously. */
  reset: "Ratelimit-Reset",
  /** Whole tokens left in the client's bucket. */
  remaining: "Ratelimit-Remaining",
  /** The client address the bucket belongs to. */
  remoteAddr: "Ratelimit-Request-Remote-Addr",
  /** Seconds until a ban ends (on 403 answers). */
  retryAfter: "Ratelimit-Retry-After"
} as const
