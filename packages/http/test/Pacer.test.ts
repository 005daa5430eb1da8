/**
 * The pacer on its own (`src/internal/pacer.ts`), on the test clock: the node's bucket counted as
 * if each request were handled when its answer comes, requests on their way kept out of what may
 * be sent, the node's `Ratelimit-Remaining` and pauses followed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber, TestClock } from "effect"
import { makePacer, makeTokenBucket, type Pacer } from "../src/internal/pacer.js"
import { endsAfter } from "./support.js"

/** `n` tokens taken one after the other, in a fiber of their own. */
const takes = (pacer: Pacer, n: number) => Effect.fork(Effect.forEach(Array.from({ length: n }), () => pacer.take))

/** A request through `pacer`, on its way once this returns, that stays so until `answered` is completed. */
const held = (pacer: Pacer, answered: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    const sent = yield* Deferred.make<void>()
    const fiber = yield* Effect.fork(
      pacer.paced(Effect.zipRight(Deferred.succeed(sent, undefined), Deferred.await(answered)))
    )
    yield* Deferred.await(sent)
    return fiber
  })

/** A request through `pacer` whose answer carries `Ratelimit-Remaining: remaining`. */
const answeredWith = (pacer: Pacer, remaining: string) =>
  pacer.paced(
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.sync(() => pacer.observe({ "ratelimit-remaining": remaining }, now))
    )
  )

describe("the node's pacer", () => {
  it.effect("lets a burst through, then spaces requests at the rate", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      const fiber = yield* takes(pacer, 6)
      yield* endsAfter(fiber, 300)
    })
  )

  it.effect("holds no more than the burst however long the bucket stays unused", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      yield* endsAfter(yield* takes(pacer, 3), 0)
      yield* TestClock.adjust("1 hour")
      // three tokens at once, the fourth a tenth of a second later
      yield* endsAfter(yield* takes(pacer, 4), 100)
    })
  )

  it.effect("rounds a wait of a fraction of a millisecond up, never sending early", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 3, burst: 1 })
      // the second token comes after 333.3 ms
      yield* endsAfter(yield* takes(pacer, 2), 334)
    })
  )

  it.effect("serves requests in the order they asked", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 1 })
      const went: Array<[number, number]> = []
      const fibers = yield* Effect.forEach([1, 2, 3, 4], (n) =>
        Effect.fork(pacer.paced(Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.sync(() => went.push([n, at])))))
      )
      yield* TestClock.adjust("1 second")
      yield* Fiber.joinAll(fibers)
      expect(went).toEqual([
        [1, 0],
        [2, 100],
        [3, 200],
        [4, 300]
      ])
    })
  )

  it.effect("serves the urgent requests waiting before the background ones, each kind in the order it asked", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 1 })
      const went: Array<string> = []
      const request = (name: string, background: boolean) =>
        Effect.fork(
          pacer.paced(
            Effect.sync(() => went.push(name)),
            background
          )
        )
      const first = yield* Effect.forEach(["b1", "b2", "b3"], (name) => request(name, true))
      // b1 took the burst; b2 watches the clock when the urgent ones come
      yield* TestClock.adjust("50 millis")
      const urgent = yield* Effect.forEach(["u1", "u2"], (name) => request(name, false))
      yield* TestClock.adjust("1 second")
      yield* Fiber.joinAll([...first, ...urgent])
      expect(went).toEqual(["b1", "u1", "u2", "b2", "b3"])
    })
  )

  it.effect("a background request that stops waiting leaves its line, and the urgent one behind it is served", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 1 })
      yield* pacer.take
      const waiting = yield* Effect.fork(pacer.paced(Effect.void, true))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(waiting)
      yield* endsAfter(yield* takes(pacer, 2), 200)
    })
  )

  it.effect("sends nothing more while a burst is on its way, however long it takes, and refills from its answers", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      const answers = yield* Effect.forEach([1, 2, 3], () => Deferred.make<void>())
      const burst = yield* Effect.forEach(answers, (answered) => held(pacer, answered))
      const next = yield* Effect.fork(pacer.take)
      // the node may be sitting full while the burst travels: that time brings no tokens
      yield* TestClock.adjust("10 seconds")
      expect(next.unsafePoll()).toBeNull()
      yield* Deferred.succeed(answers[0], undefined)
      yield* Fiber.join(burst[0])
      // one request handled: its token is taken, and the next comes at the rate from then
      yield* endsAfter(next, 100)
      yield* Effect.forEach(answers, (answered) => Deferred.succeed(answered, undefined))
    })
  )

  it.effect("follows the node's Ratelimit-Remaining", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 100 })
      yield* answeredWith(pacer, "0")
      yield* endsAfter(yield* takes(pacer, 1), 100)
    })
  )

  it.effect("keeps the requests still on their way out of what the node reports left", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 100 })
      const answers = yield* Effect.forEach([1, 2, 3, 4], () => Deferred.make<void>())
      const onTheirWay = yield* Effect.forEach(answers, (answered) => held(pacer, answered))
      // three tokens left after this request; the four before it may still take theirs
      yield* answeredWith(pacer, "3")
      yield* endsAfter(yield* takes(pacer, 1), 200)
      yield* Effect.forEach(answers, (answered) => Deferred.succeed(answered, undefined))
      yield* Fiber.joinAll(onTheirWay)
    })
  )

  it.effect("never adds tokens from a Ratelimit-Remaining above its own count, and ignores an answer without one", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      yield* endsAfter(yield* takes(pacer, 1), 0)
      yield* pacer.paced(
        Effect.sync(() => {
          pacer.observe({ "ratelimit-remaining": "50" }, 0)
          pacer.observe({}, 0)
          pacer.observe({ "ratelimit-remaining": "" }, 0)
        })
      )
      // one token left, the next a tenth of a second later
      yield* endsAfter(yield* takes(pacer, 2), 100)
    })
  )

  it.effect("pauses when the node says to wait, and resumes with only what the bucket refilled meanwhile", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 100 })
      pacer.pauseUntil(2_000, 0)
      // a shorter pause asked later does not shorten the first
      pacer.pauseUntil(1_000, 0)
      yield* endsAfter(yield* takes(pacer, 1), 2_000)
      // the pause emptied the bucket: the 2 seconds refilled 20 tokens, and no more
      yield* endsAfter(yield* takes(pacer, 19), 0)
      yield* endsAfter(yield* takes(pacer, 1), 100)
    })
  )

  it.effect("a clock reading older than the last refill changes nothing of the refill", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 3 })
      yield* TestClock.adjust("1 second")
      yield* endsAfter(yield* takes(pacer, 1), 0)
      // an answer timed half a second before the last refill, as another fiber may report it: none
      // left after it, and the next token a tenth of a second later
      yield* pacer.paced(Effect.sync(() => pacer.observe({ "ratelimit-remaining": "0" }, 500)))
      yield* endsAfter(yield* takes(pacer, 1), 100)
    })
  )

  it.effect("a request that stops waiting leaves the line; one interrupted on its way has taken its token", () =>
    Effect.gen(function* () {
      const pacer = makePacer({ rate: 10, burst: 1 })
      const first = yield* Effect.fork(pacer.paced(Effect.never))
      const second = yield* Effect.fork(pacer.take)
      const third = yield* Effect.fork(pacer.take)
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(second)
      expect(third.unsafePoll()).toBeNull()
      yield* Fiber.interrupt(first)
      // the third is first in line now, and the interrupted request counts as handled
      yield* endsAfter(third, 100)
    })
  )

  it.effect("without a rate limit lets every request through at once, and still pauses", () =>
    Effect.gen(function* () {
      const pacer = makePacer(false)
      pacer.observe({ "ratelimit-remaining": "0" }, 0)
      const answered = yield* Deferred.make<void>()
      const onTheirWay = yield* Effect.forEach(Array.from({ length: 200 }), () => held(pacer, answered))
      yield* endsAfter(yield* takes(pacer, 1_000), 0)
      yield* TestClock.adjust("500 millis")
      pacer.pauseUntil(2_000, 500)
      pacer.pauseUntil(1_000, 500)
      yield* endsAfter(yield* takes(pacer, 2), 1_500)
      yield* Deferred.succeed(answered, undefined)
      yield* Fiber.joinAll(onTheirWay)
    })
  )
})

describe("a plain token bucket", () => {
  it.effect("lets a burst through, then serves callers at the rate in the order they came", () =>
    Effect.gen(function* () {
      const take = makeTokenBucket({ rate: 10, burst: 3 })
      yield* endsAfter(yield* Effect.fork(Effect.all([take, take, take])), 0)
      yield* endsAfter(yield* Effect.fork(Effect.all([take, take], { concurrency: "unbounded" })), 200)
      yield* TestClock.adjust("1 hour")
      // full again, and no fuller than its burst
      yield* endsAfter(yield* Effect.fork(Effect.all([take, take, take, take])), 100)
    })
  )

  it.effect("refills at the rate, a fraction of a token at a time", () =>
    Effect.gen(function* () {
      const take = makeTokenBucket({ rate: 10, burst: 3 })
      yield* endsAfter(yield* Effect.fork(Effect.all([take, take, take])), 0)
      yield* TestClock.adjust("150 millis")
      // a token and a half: one at once, the next 50 ms later
      yield* endsAfter(yield* Effect.fork(Effect.all([take, take])), 50)
    })
  )

  it.effect("rounds a wait of a fraction of a millisecond up", () =>
    Effect.gen(function* () {
      const take = makeTokenBucket({ rate: 3, burst: 1 })
      yield* endsAfter(yield* Effect.fork(Effect.zipRight(take, take)), 334)
    })
  )
})
