/**
 * The data node's rate limiter (datanode/ratelimit): a token bucket per client IP, 20 requests a
 * second with a burst of 100, and a 10-minute ban for a client that keeps requesting while it is
 * limited.
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
import { GatewayError } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import { errorBodyText } from "./internal/gatewayJson.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Tokens added per second, reported as `Ratelimit-Limit`. Default 20. */
  readonly rate?: number
  /** Bucket size. Default 100. */
  readonly burst?: number
  /**
   * How many consecutive requests a client may have refused with 429 before the next one bans
   * it. Default 10: a client that backs off on its first 429s is never banned, one that loops
   * without waiting is banned within a fraction of a second. Any request let through resets the
   * count. The node's exact threshold is not documented.
   */
  readonly banAfter?: number
  /** How long a ban lasts. Default 10 minutes. */
  readonly banFor?: Duration.DurationInput
  /** A bucket unused this long is forgotten. Default 1 hour. */
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
export const RATE_LIMITED_BODY: string = errorBodyText(GatewayError.RATE_LIMITED)

/**
 * The 403 body, as sent.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BANNED_BODY: string = errorBodyText(GatewayError.TEMPORARILY_BANNED)

interface Bucket {
  tokens: number
  updated: number
  strikes: number
  bannedUntil: number
}

/** Node reports IPv4 peers of a dual-stack socket as `::ffff:1.2.3.4`; Go reports `1.2.3.4`. */
const normalizeAddress = (address: string): string =>
  address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address

/**
 * A rate limiter with the node's defaults, adjustable through {@link Options}.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options: Options = {}): RateLimiter => {
  const rate = options.rate ?? 20
  const burst = options.burst ?? 100
  const banAfter = options.banAfter ?? 10
  const banFor = Duration.toMillis(Duration.decode(options.banFor ?? Duration.minutes(10)))
  const expireAfter = Duration.toMillis(Duration.decode(options.expireAfter ?? Duration.hours(1)))
  const trustedProxy = options.trustedProxy ?? "127.0.0.1"
  const now = options.now ?? Date.now
  const limit = String(rate)
  const buckets = new Map<string, Bucket>()
  let lastSweep = now()

  const sweep = (t: number): void => {
    if (t - lastSweep < Math.min(expireAfter, 60_000)) return
    lastSweep = t
    for (const [client, bucket] of buckets) {
      if (t - bucket.updated >= expireAfter && t >= bucket.bannedUntil) buckets.delete(client)
    }
  }

  const headers = (client: string, remaining: number): Record<string, string> => ({
    "Ratelimit-Limit": limit,
    "Ratelimit-Reset": "1",
    "Ratelimit-Remaining": String(remaining),
    "Ratelimit-Request-Remote-Addr": client
  })

  const take = (client: string): Decision => {
    const t = now()
    sweep(t)
    let bucket = buckets.get(client)
    if (bucket === undefined) {
      bucket = { tokens: burst, updated: t, strikes: 0, bannedUntil: 0 }
      buckets.set(client, bucket)
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, t - bucket.updated) * rate) / 1000)
      bucket.updated = t
    }
    if (t < bucket.bannedUntil) {
      return {
        _tag: "Rejected",
        status: 403,
        body: BANNED_BODY,
        headers: {
          ...headers(client, Math.floor(bucket.tokens)),
          "Ratelimit-Retry-After": String(Math.ceil((bucket.bannedUntil - t) / 1000))
        }
      }
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      bucket.strikes = 0
      return { _tag: "Allowed", headers: headers(client, Math.floor(bucket.tokens)) }
    }
    if (bucket.strikes >= banAfter) {
      bucket.strikes = 0
      bucket.bannedUntil = t + banFor
      return {
        _tag: "Rejected",
        status: 403,
        body: BANNED_BODY,
        headers: { ...headers(client, 0), "Ratelimit-Retry-After": String(Math.ceil(banFor / 1000)) }
      }
    }
    bucket.strikes++
    return { _tag: "Rejected", status: 429, body: RATE_LIMITED_BODY, headers: headers(client, 0) }
  }

  const clientAddress = (
    peer: string | undefined,
    forwardedFor: string | ReadonlyArray<string> | undefined
  ): string => {
    const direct = normalizeAddress(peer ?? "")
    if (direct !== trustedProxy || forwardedFor === undefined) return direct
    const header = typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")
    const comma = header.indexOf(",")
    const first = (comma === -1 ? header : header.slice(0, comma)).trim()
    return first === "" ? direct : normalizeAddress(first)
  }

  return {
    take,
    clientAddress,
    size: () => {
      sweep(now())
      return buckets.size
    },
    reset: () => buckets.clear()
  }
}
