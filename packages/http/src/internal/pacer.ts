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
   * Runs `request` once the node's bucket has a token for it, in the order requests asked, those
   * of `background` work (made within a `RequestBudget`) after every other one waiting; until it
   * ends (answered, failed or interrupted) it counts as on its way to the node.
   */
  readonly paced: <A, E, R>(request: Effect.Effect<A, E, R>, background?: boolean) => Effect.Effect<A, E, R>
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

/** A request waiting for its turn: woken (its `turn` completed) when it is first in line. */
interface Waiter {
  turn: Deferred.Deferred<void>
  readonly background: boolean
}

/**
 * Requests waiting for a token, in the order they asked, urgent ones before background ones
 * (which thus get what the urgent work leaves). The first one is let watch the clock whenever the
 * line changes (again, if it already does: no change).
 */
const makeLine = () => {
  const urgent: Array<Waiter> = []
  const background: Array<Waiter> = []
  const first = (): Waiter | undefined => urgent[0] ?? background[0]
  const wakeFirst = () => {
    const waiter = first()
    if (waiter !== undefined) Deferred.unsafeDone(waiter.turn, Effect.void)
  }
  return {
    first,
    join: (waiter: Waiter) => {
      ;(waiter.background ? background : urgent).push(waiter)
      wakeFirst()
    },
    leave: (waiter: Waiter) => {
      const lane = waiter.background ? background : urgent
      const at = lane.indexOf(waiter)
      if (at >= 0) lane.splice(at, 1)
      wakeFirst()
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
  /** Requests waiting for a token; the first one watches the clock. */
  const line = makeLine()

  const refill = (now: number) => {
    if (refilled === undefined) refilled = now
    // other fibers' clock readings can come late: one older than the last refill adds nothing
    else if (now > refilled) {
      tokens = Math.min(burst, tokens + ((now - refilled) / 1000) * rate)
      refilled = now
    }
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

  /** The waiter goes, if it is still first in line: on its way, and the next one watches the clock. */
  const go = (waiter: Waiter): boolean => {
    if (line.first() !== waiter) {
      // an urgent request came while it waited for a token: it waits for its turn again
      waiter.turn = Deferred.unsafeMake<void>(FiberId.none)
      return false
    }
    onTheWay += 1
    line.leave(waiter)
    return true
  }

  /** A request ended: its token is taken now, the latest the node can have taken it. */
  const ended = Effect.map(Clock.currentTimeMillis, (now) => {
    refill(now)
    tokens -= 1
    onTheWay -= 1
  })

  const paced = <A, E, R>(request: Effect.Effect<A, E, R>, inBackground = false): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        const waiter: Waiter = { turn: Deferred.unsafeMake<void>(FiberId.none), background: inBackground }
        line.join(waiter)
        const turn: Effect.Effect<void> = restore(
          Effect.zipRight(
            Effect.suspend(() => Deferred.await(waiter.turn)),
            awaitToken
          )
        ).pipe(
          // a request that stops waiting leaves the line (it is in line until it goes)
          Effect.onInterrupt(() => Effect.sync(() => line.leave(waiter))),
          Effect.flatMap(() => (go(waiter) ? Effect.void : turn))
        )
        return Effect.zipRight(turn, Effect.ensuring(restore(request), ended))
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
