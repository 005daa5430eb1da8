/**
 * The token buckets behind `RateLimit.make`: one bucket per client address, refilled continuously,
 * with the node's 429, 403 ban and `Ratelimit-*` headers. The figures and texts are the node's, from
 * the schema's `RateLimit`.
 */
import { GatewayError, RateLimit as NodeLimits } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import type { Decision, Options, RateLimiter } from "../RateLimit.js"
import { errorBodyText } from "./gatewayJson.js"

/** The 429 body, as sent. */
export const RATE_LIMITED_BODY: string = errorBodyText(GatewayError.RATE_LIMITED)

/** The 403 body, as sent. */
export const BANNED_BODY: string = errorBodyText(GatewayError.TEMPORARILY_BANNED)

/** `Ratelimit-Reset` is always one second: a bucket refills continuously. */
const RESET_SECONDS = "1"

/** The limiter headers of an answer, in the order the node writes them. */
export const limitHeaders = (rate: number, remaining: number, client?: string): Record<string, string> => {
  const headers: Record<string, string> = {
    [NodeLimits.Headers.limit]: String(rate),
    [NodeLimits.Headers.reset]: RESET_SECONDS,
    [NodeLimits.Headers.remaining]: String(remaining)
  }
  if (client !== undefined) headers[NodeLimits.Headers.remoteAddr] = client
  return headers
}

/** How often idle buckets are looked for, at most. */
const SWEEP_EVERY_MILLIS = 60_000

interface Bucket {
  tokens: number
  updated: number
  strikes: number
  bannedUntil: number
}

interface Settings {
  readonly rate: number
  readonly burst: number
  readonly banAfter: number
  readonly banForMillis: number
  readonly expireAfterMillis: number
  readonly trustedProxy: string
  readonly now: () => number
}

const settingsOf = (options: Options): Settings => ({
  rate: options.rate ?? NodeLimits.RATE_PER_SECOND,
  burst: options.burst ?? NodeLimits.BURST,
  banAfter: options.banAfter ?? 10,
  banForMillis: Duration.toMillis(Duration.decode(options.banFor ?? NodeLimits.BAN)),
  expireAfterMillis: Duration.toMillis(Duration.decode(options.expireAfter ?? NodeLimits.BUCKET_EXPIRY)),
  trustedProxy: options.trustedProxy ?? "127.0.0.1",
  now: options.now ?? Date.now
})

const banned = (s: Settings, client: string, remaining: number, retryAfterMillis: number): Decision => ({
  _tag: "Rejected",
  status: 403,
  body: BANNED_BODY,
  headers: {
    ...limitHeaders(s.rate, remaining, client),
    [NodeLimits.Headers.retryAfter]: String(Math.ceil(retryAfterMillis / 1000))
  }
})

/** Refills the bucket up to time `t`, then takes a token, refuses, or bans. */
const takeFrom = (s: Settings, bucket: Bucket, client: string, t: number): Decision => {
  bucket.tokens = Math.min(s.burst, bucket.tokens + (Math.max(0, t - bucket.updated) * s.rate) / 1000)
  bucket.updated = t
  if (t < bucket.bannedUntil) return banned(s, client, Math.floor(bucket.tokens), bucket.bannedUntil - t)
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1
    bucket.strikes = 0
    return { _tag: "Allowed", headers: limitHeaders(s.rate, Math.floor(bucket.tokens), client) }
  }
  if (bucket.strikes >= s.banAfter) {
    bucket.strikes = 0
    bucket.bannedUntil = t + s.banForMillis
    return banned(s, client, 0, s.banForMillis)
  }
  bucket.strikes++
  return { _tag: "Rejected", status: 429, body: RATE_LIMITED_BODY, headers: limitHeaders(s.rate, 0, client) }
}

/** Node reports IPv4 peers of a dual-stack socket as `::ffff:1.2.3.4`; Go reports `1.2.3.4`. */
const normalizeAddress = (address: string): string =>
  address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address

const clientAddressOf =
  (trustedProxy: string): RateLimiter["clientAddress"] =>
  (peer, forwardedFor) => {
    const direct = normalizeAddress(peer ?? "")
    if (direct !== trustedProxy || forwardedFor === undefined) return direct
    const header = typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")
    const comma = header.indexOf(",")
    const first = (comma === -1 ? header : header.slice(0, comma)).trim()
    return first === "" ? direct : normalizeAddress(first)
  }

/** A rate limiter with the node's defaults, adjusted by `options`. */
export const make = (options: Options = {}): RateLimiter => {
  const s = settingsOf(options)
  const buckets = new Map<string, Bucket>()
  let lastSweep = s.now()

  const sweep = (t: number): void => {
    if (t - lastSweep < Math.min(s.expireAfterMillis, SWEEP_EVERY_MILLIS)) return
    lastSweep = t
    for (const [client, bucket] of buckets) {
      if (t - bucket.updated >= s.expireAfterMillis && t >= bucket.bannedUntil) buckets.delete(client)
    }
  }

  const take = (client: string): Decision => {
    const t = s.now()
    sweep(t)
    let bucket = buckets.get(client)
    if (bucket === undefined) {
      bucket = { tokens: s.burst, updated: t, strikes: 0, bannedUntil: 0 }
      buckets.set(client, bucket)
    }
    return takeFrom(s, bucket, client, t)
  }

  return {
    take,
    clientAddress: clientAddressOf(s.trustedProxy),
    size: () => {
      sweep(s.now())
      return buckets.size
    },
    reset: () => buckets.clear()
  }
}
