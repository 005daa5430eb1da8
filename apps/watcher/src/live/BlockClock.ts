/**
 * The chain's clock as the bus tells it: each block's time update maps the block's time to its
 * height (the positions and liquidity streams carry only the time), and says how far the chain is.
 *
 * A read for a change of block N waits until the node is at N+1: a node shows height N as soon as
 * it starts writing block N, and only N+1 proves N readable (see the event-streams facts, §3). On a
 * chain that stopped (a test world moved block by block), N+1 never comes: once no block has come
 * for `quiet`, what was written is readable.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as Stream from "effect/Stream"

/** Block times remembered, to map the streams' times to heights. */
const KEPT_BLOCKS = 4096

interface State {
  readonly head: number
  /** When the head last moved (`Date.now()`). */
  readonly movedAt: number
}

export interface BlockClock {
  /** Records a block's time update. */
  readonly tick: (height: number, timeNanos: bigint) => Effect.Effect<void>
  /** The highest block seen (0 before the first). */
  readonly head: Effect.Effect<number>
  /** The height of the block at `timeNanos`, waiting up to `quiet` for its time update; none if it never came. */
  readonly heightAt: (timeNanos: bigint) => Effect.Effect<Option.Option<number>>
  /** Block time of a height, RFC 3339 UTC (ms), when known. */
  readonly timeOf: (height: number) => string
  /** Waits until the chain is at `height`, or quiet for `quiet`. */
  readonly awaitBlock: (height: number) => Effect.Effect<void>
}

/** The node writes block times in ns; positions' `updatedAt` has µs precision (PostgreSQL). */
const micros = (timeNanos: bigint): bigint => timeNanos / 1000n

export const make = (quiet: Duration.DurationInput): Effect.Effect<BlockClock> =>
  Effect.gen(function* () {
    const quietMillis = Duration.toMillis(Duration.decode(quiet))
    const state = yield* SubscriptionRef.make<State>({ head: 0, movedAt: Date.now() })
    const heights = new Map<bigint, number>()
    const times = new Map<number, bigint>()

    const tick = (height: number, timeNanos: bigint) =>
      Effect.suspend(() => {
        heights.set(micros(timeNanos), height)
        times.set(height, timeNanos)
        if (times.size > KEPT_BLOCKS) {
          const oldest = times.keys().next().value as number
          heights.delete(micros(times.get(oldest)!))
          times.delete(oldest)
        }
        return SubscriptionRef.update(state, (s) => (height > s.head ? { head: height, movedAt: Date.now() } : s))
      })

    /** Waits for `done` over the clock's changes, or until the chain has been quiet for `quiet`. */
    const until = (done: (s: State) => boolean) =>
      Effect.gen(function* () {
        const now = yield* SubscriptionRef.get(state)
        if (done(now)) return
        yield* state.changes.pipe(
          Stream.filter(done),
          Stream.take(1),
          Stream.runDrain,
          Effect.raceFirst(
            Effect.suspend(function wait(): Effect.Effect<void> {
              return Effect.flatMap(SubscriptionRef.get(state), (s) => {
                const left = s.movedAt + quietMillis - Date.now()
                return left <= 0 ? Effect.void : Effect.zipRight(Effect.sleep(Duration.millis(left)), wait())
              })
            })
          )
        )
      })

    return {
      tick,
      head: Effect.map(SubscriptionRef.get(state), (s) => s.head),
      heightAt: (timeNanos) =>
        Effect.zipRight(
          until(() => heights.has(micros(timeNanos))),
          Effect.sync(() => Option.fromNullable(heights.get(micros(timeNanos))))
        ),
      timeOf: (height) => {
        const nanos = times.get(height)
        return nanos === undefined ? "" : new Date(Number(nanos / 1_000_000n)).toISOString()
      },
      awaitBlock: (height) => until((s) => s.head >= height)
    }
  })
