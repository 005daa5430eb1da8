/**
 * Client-side pacing so a long read never trips a node's rate limit (the node's own 20 requests/s,
 * burst 100, by default; see `defaults.ts`).
 *
 * A node takes a token from its bucket when it handles a request, which can be well after the
 * client sent it: requests bunch on the way (a busy event loop or connection pool, a proxy, a node
 * that stalls), and a node whose bucket sits full while they travel gains nothing from that time.
 * A bucket counted from the times requests were sent lets through more than the node will have:
 * refill the node never got, spent on requests that then arrive together. So the pacer counts the
 * node's bucket as if each request were handled as late as it can be, when its answer comes, and
 * keeps the requests still on their way out of what it may send. Its count is kept at or below the
 * node's own `Ratelimit-Remaining`, and nothing is sent while the node says to wait.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"

export interface PacerOptions {
  readonly rate: number
  readonly burst: number
}

export interface Pacer {
  /**
   * Runs `request` once the node's bucket has a token for it, in the order requests asked; until
   * it ends (answered, failed or interrupted) it counts as on its way to the node.
   */
  readonly paced: <A, E, R>(request: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Waits for a token for something the pacer does not follow to its end (a live stream's connection). */
  readonly take: Effect.Effect<void>
  /**
   * Aligns the count with the headers of an answer that came at `now` (unix ms); called while
   * that answer's request is still on its way.
   */
  readonly observe: (headers: Readonly<Record<string, string>>, now: number) => void
  /** Sends nothing before `until` (unix ms); the node's bucket is taken as empty at `now`. */
  readonly pauseUntil: (until: number, now: number) => void
}

/** Without a rate limit: requests go at once, except while the node says to wait. */
const unpaced = (): Pacer => {
  let pausedUntil = 0
  const take = Effect.flatMap(Clock.currentTimeMillis, (now) =>
    now < pausedUntil ? Effect.sleep(Duration.millis(pausedUntil - now)) : Effect.void
  )
  return {
    paced: (request) => Effect.zipRight(take, request),
    take,
    observe: () => {},
    pauseUntil: (until) => {
      pausedUntil = Math.max(pausedUntil, until)
    }
  }
}

export const makePacer = (options: PacerOptions | false): Pacer => {
  if (options === false) return unpaced()
  const { burst, rate } = options
  /** The node's bucket as counted here: requests on their way are not taken from it yet. */
  let tokens = burst
  let refilled: number | undefined
  let onTheWay = 0
  let pausedUntil = 0
  /** Requests waiting for a token, in the order they asked; the first one watches the clock. */
  const line: Array<Deferred.Deferred<void>> = []

  const refill = (now: number) => {
    if (refilled === undefined) refilled = now
    // other fibers' clock readings can come late: one older than the last refill adds nothing
    else if (now > refilled) {
      tokens = Math.min(burst, tokens + ((now - refilled) / 1000) * rate)
      refilled = now
    }
  }

  /** Lets the first request in line watch the clock (again, if it already does: no change). */
  const nextInLine = () => {
    if (line.length > 0) Deferred.unsafeDone(line[0], Effect.void)
  }

  /**
   * The first request in line: goes once a token is left after every request on its way, or
   * sleeps until one can be. While the bucket is full and requests are on their way, no refill
   * comes (the node may be sitting full too) and the wait is checked again after a token's time.
   */
  const awaitToken: Effect.Effect<void> = Effect.suspend(() =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      refill(now)
      const free = tokens - onTheWay
      // zero or less once a token is free
      const wait = Math.max(pausedUntil - now, ((1 - free) / rate) * 1000)
      return wait > 0 ? Effect.zipRight(Effect.sleep(Duration.millis(Math.ceil(wait))), awaitToken) : Effect.void
    })
  )

  /** The first request in line goes: on its way, and the next one watches the clock. */
  const go = Effect.sync(() => {
    onTheWay += 1
    line.shift()
    nextInLine()
  })

  /** A request that stops waiting (it is in line until it goes). */
  const leaveLine = (turn: Deferred.Deferred<void>) =>
    Effect.sync(() => {
      line.splice(line.indexOf(turn), 1)
      nextInLine()
    })

  /** A request ended: its token is taken now, the latest the node can have taken it. */
  const ended = Effect.map(Clock.currentTimeMillis, (now) => {
    refill(now)
    tokens -= 1
    onTheWay -= 1
  })

  const paced = <A, E, R>(request: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        const turn = Deferred.unsafeMake<void>(FiberId.none)
        line.push(turn)
        nextInLine()
        return restore(Effect.zipRight(Deferred.await(turn), awaitToken)).pipe(
          Effect.onInterrupt(() => leaveLine(turn)),
          Effect.zipRight(go),
          Effect.zipRight(Effect.ensuring(restore(request), ended))
        )
      })
    )

  return {
    paced,
    take: paced(Effect.void),
    observe: (headers, now) => {
      const header = headers["ratelimit-remaining"]
      const remaining = Number(header)
      // no header (`Number` makes it NaN) or an empty one (which it makes 0) says nothing
      if (header === "" || !Number.isFinite(remaining)) return
      refill(now)
      // the node's count after this request, which is still on its way here
      tokens = Math.min(tokens, remaining + 1)
    },
    pauseUntil: (until, now) => {
      pausedUntil = Math.max(pausedUntil, until)
      refill(now)
      tokens = Math.min(tokens, 0)
    }
  }
}

/**
 * A plain token bucket on the clock, for shares of the client's own making (`RequestBudget`):
 * `burst` at once, then `rate` a second, callers served in the order they arrive.
 */
export const makeTokenBucket = (options: PacerOptions): Effect.Effect<void> => {
  const { burst, rate } = options
  let tokens = burst
  let last: number | undefined
  return Effect.flatMap(Clock.currentTimeMillis, (now) => {
    if (last !== undefined) tokens = Math.min(burst, tokens + ((now - last) / 1000) * rate)
    last = now
    // reserve a token even when none is left: callers queue in the order they arrive
    tokens -= 1
    return tokens >= 0 ? Effect.void : Effect.sleep(Duration.millis(Math.ceil((-tokens / rate) * 1000)))
  })
}
