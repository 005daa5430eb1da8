/**
 * What a long read will cost, said before it starts: the requests it needs and their time at the
 * node's rate limit (`RateLimit.RATE_PER_SECOND` of `@vega-effect/schema`, 20 a second). A read
 * that takes more than a minute at that rate is announced on stderr; one that needs more requests
 * than `--max-requests` (`VEGA_REPORT_MAX_REQUESTS`) is refused before its first request with
 * {@link TooManyRequests} (exit 4, nothing written).
 */
import { RateLimit } from "@vega-effect/schema"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { Progress } from "./Progress.js"
import { MAX_REQUESTS } from "./Variables.js"

/** The variable giving `--max-requests` when the option is not given. */
const ENV = MAX_REQUESTS

/** Reads longer than this at the node's rate are announced before they start. */
export const ANNOUNCE_AFTER_SECONDS = 60

/** Seconds `requests` take at the node's rate, rounded up. */
export const secondsAt = (requests: number): number => Math.ceil(requests / RateLimit.RATE_PER_SECOND)

/** `45 s`, `4 min 20 s`, `16 h 40 min`. */
export const durationText = (seconds: number): string => {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`
  return `${s} s`
}

/** `5,199 requests, about 4 min 20 s at the node's 20 requests/s`. */
export const estimateText = (requests: number): string =>
  `${requests.toLocaleString("en-US")} requests, about ${durationText(secondsAt(requests))} at the node's ${RateLimit.RATE_PER_SECOND} requests/s`

/** A read refused before it started: it needs more requests than `--max-requests` allows. */
export class TooManyRequests extends Data.TaggedError("TooManyRequests")<{
  /** What the read is, e.g. `reading epoch 12's payouts in VEGA party by party`. */
  readonly what: string
  readonly requests: number
  readonly maxRequests: number
}> {
  override get message(): string {
    return `${this.what} needs ${estimateText(this.requests)}, more than --max-requests ${this.maxRequests} (${ENV}); nothing was written. Raise the limit, or narrow the read (--party, --asset, --from-epoch, --to-epoch)`
  }
}

/**
 * Before a read of `requests` requests: refused when more than `maxRequests`, announced on stderr
 * when it takes more than a minute at the node's rate.
 */
export const guard = (
  what: string,
  requests: number,
  maxRequests: number | undefined
): Effect.Effect<void, TooManyRequests, Progress> =>
  Effect.gen(function* () {
    if (maxRequests !== undefined && requests > maxRequests) {
      return yield* new TooManyRequests({ what, requests, maxRequests })
    }
    if (secondsAt(requests) > ANNOUNCE_AFTER_SECONDS) {
      const progress = yield* Progress
      yield* progress.note(`vega-reward-report: ${what}: ${estimateText(requests)}`)
    }
  })
