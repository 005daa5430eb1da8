import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"

/**
 * Turns a sequential pull (one element per call, `Option.none()` in the error channel at the end)
 * into a stream that runs up to `ahead` pulls in advance of the consumer.
 *
 * `Stream.buffer({ capacity: n })` would let the producer start one more pull than `n` (it pulls,
 * then blocks on the full queue), so the bound is enforced with demand tokens instead: the producer
 * takes a token before every pull, there are `ahead` tokens to begin with, and the consumer adds one
 * each time it asks for an element. A consumer that has asked for N elements has therefore allowed
 * at most N + `ahead` pulls to start.
 *
 * The producer is a fiber in the stream's scope: when the stream ends, fails or is interrupted, an
 * in-flight pull is interrupted and no further pull starts. Results keep their order, and a failure
 * is delivered after the elements pulled before it.
 *
 * @internal
 */
export const prefetch = <A, E, R>(pull: Effect.Effect<A, Option.Option<E>, R>, ahead: number): Stream.Stream<A, E, R> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      // Both queues are bounded in practice by the tokens: at most `ahead + 1` entries each.
      const demand = yield* Queue.unbounded<void>()
      const results = yield* Queue.unbounded<Take.Take<A, E>>()
      yield* Queue.offerAll(
        demand,
        Array.from({ length: ahead }, () => undefined)
      )

      const step = Queue.take(demand).pipe(
        Effect.zipRight(Take.fromPull(Effect.map(pull, Chunk.of))),
        Effect.tap((take) => Queue.offer(results, take)),
        Effect.map(Take.isSuccess)
      )
      yield* Effect.forkScoped(Effect.repeat(step, { while: (more) => more }))

      return Stream.repeatEffectChunkOption(
        Queue.offer(demand, undefined).pipe(Effect.zipRight(Queue.take(results)), Effect.flatMap(Take.done))
      )
    })
  )
