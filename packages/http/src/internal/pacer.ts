/**
 * Client-side pacing so a long read never trips the node's rate limit: a token bucket per node
 * (the node's own 20 requests/s, burst 100, by default), kept in line with the node's
 * `Ratelimit-Remaining` header, and paused when the node says to wait.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

export interface PacerOptions {
  readonly rate: number
  readonly burst: number
}

export interface Pacer {
  /** Waits for a token (reserving it), then returns. */
  readonly take: Effect.Effect<void>
  /** Aligns the bucket with what the node reports. */
  readonly observe: (headers: Readonly<Record<string, string>>) => void
  /** Sends nothing before `until` (unix ms). */
  readonly pauseUntil: (until: number) => void
}

export const makePacer = (options: PacerOptions | false): Pacer => {
  if (options === false) {
    let pausedUntil = 0
    return {
      take: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        now < pausedUntil ? Effect.sleep(Duration.millis(pausedUntil - now)) : Effect.void
      ),
      observe: () => {},
      pauseUntil: (until) => {
        pausedUntil = Math.max(pausedUntil, until)
      }
    }
  }
  const { burst, rate } = options
  let tokens = burst
  let last: number | undefined
  let pausedUntil = 0
  const refill = (now: number) => {
    if (last !== undefined) tokens = Math.min(burst, tokens + ((now - last) / 1000) * rate)
    last = now
  }
  return {
    take: Effect.flatMap(Clock.currentTimeMillis, (now) => {
      refill(now)
      // reserve a token even when none is left: callers queue in the order they arrive
      tokens -= 1
      const wait = Math.max(pausedUntil - now, tokens >= 0 ? 0 : (-tokens / rate) * 1000)
      return wait > 0 ? Effect.sleep(Duration.millis(Math.ceil(wait))) : Effect.void
    }),
    observe: (headers) => {
      const remaining = Number(headers["ratelimit-remaining"])
      if (Number.isFinite(remaining)) tokens = Math.min(tokens, remaining)
    },
    pauseUntil: (until) => {
      pausedUntil = Math.max(pausedUntil, until)
      tokens = Math.min(tokens, 0)
    }
  }
}
