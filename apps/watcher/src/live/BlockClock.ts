/**
 * The chain's clock as the node tells it: each block's time update on the bus, and the height and
 * block time every REST answer carries (`X-Block-Height`, `X-Block-Timestamp`), map block times to
 * heights (the positions and liquidity streams carry only the time), and say how far the chain is.
 *
 * A read for a change of block N waits until the node is at N+1: a node shows height N as soon as
 * it starts writing block N, and only N+1 proves N readable (see the event-streams facts, §3). On a
 * chain that stopped (a test world moved block by block), N+1 never comes: once no block has come
 * for `quiet`, what was written is readable.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"

/** Block times remembered, to map the streams' times to heights. */
const KEPT_BLOCKS = 4096

interface State {
  /** The highest block the bus told of. */
  readonly head: number
  /** The highest block a REST answer showed. */
  readonly readHead: number
  /** When a block not seen before last showed up, on the bus or in an answer (`Date.now()`). */
  readonly movedAt: number
  /** While the bus is up: the block the chain was at when it connected (what came before is a gap). */
  readonly busFrom: number | undefined
}

/** A block as a REST answer showed it: its height and time (ns). */
export interface Seen {
  readonly height: number
  readonly timeNanos: bigint | undefined
}

export interface BlockClock {
  /** Records a block's time update from the bus. */
  readonly tick: (height: number, timeNanos: bigint) => Effect.Effect<void>
  /** Records the block a REST answer showed. */
  readonly observe: (seen: Seen) => Effect.Effect<void>
  /** The highest block the bus told of (0 before the first). */
  readonly head: Effect.Effect<number>
  /**
   * The height a read must reach to cover what a source missed before its gap, now. A read at
   * height H shows at least block H-1. The node subscribes a source at some point after it
   * connects, and the bus may not have told of the block the node is writing yet: two past the
   * bus's head. A source subscribed as its gap came (`subscribed`: the positions stream's last
   * snapshot page) missed at most the block the node says it is at when asked right after: one
   * past that (two past the head when the node does not answer).
   */
  readonly gapEnd: (subscribed: boolean) => Effect.Effect<number>
  /**
   * The block up to which every event is in: the one before the bus's head (events of one block
   * come through one sender per type, so the head's own may still be on their way); once no block
   * has come for `quiet` (a chain that stopped), the bus's head itself, or the block the bus
   * connected at when it told of none since; while the bus is down, the highest block seen.
   */
  readonly known: Effect.Effect<number>
  /** The bus connected: blocks up to where the node is now are a gap, later ones it tells of. */
  readonly busUp: Effect.Effect<void>
  /** The bus went down. */
  readonly busDown: Effect.Effect<void>
  /**
   * The height of the block at `timeNanos`: from the bus's time updates (waiting up to `quiet` for
   * it), else from what REST answers showed (asking the node once more); none if neither tells.
   */
  readonly heightAt: (timeNanos: bigint) => Effect.Effect<Option.Option<number>>
  /** Block time of a height, RFC 3339 UTC (ms), when known. */
  readonly timeOf: (height: number) => string
  /** Waits until the chain is at `height`, or quiet for `quiet`. */
  readonly awaitBlock: (height: number) => Effect.Effect<void>
}

/** The node writes block times in ns; positions' `updatedAt` has µs precision (PostgreSQL). */
const micros = (timeNanos: bigint): bigint => timeNanos / 1000n

/** Heights by block time and times by height, the oldest forgotten first. */
class Blocks {
  private readonly heights = new Map<bigint, number>()
  private readonly times = new Map<number, bigint>()

  add(height: number, timeNanos: bigint): void {
    if (this.times.has(height)) return
    this.heights.set(micros(timeNanos), height)
    this.times.set(height, timeNanos)
    if (this.times.size > KEPT_BLOCKS) {
      const oldest = this.times.keys().next().value as number
      this.heights.delete(micros(this.times.get(oldest)!))
      this.times.delete(oldest)
    }
  }

  heightAt(timeNanos: bigint): number | undefined {
    return this.heights.get(micros(timeNanos))
  }

  timeOf(height: number): bigint | undefined {
    return this.times.get(height)
  }
}

export const make = (
  quiet: Duration.DurationInput,
  /** Asks the node where it is (one cheap read). */
  probe: Effect.Effect<Option.Option<Seen>>
): Effect.Effect<BlockClock> =>
  Effect.gen(function* () {
    const quietMillis = Duration.toMillis(Duration.decode(quiet))
    const state = yield* SubscriptionRef.make<State>({ head: 0, readHead: 0, movedAt: Date.now(), busFrom: undefined })
    const blocks = new Blocks()
    const newest = (s: State) => Math.max(s.head, s.readHead)

    const tick = (height: number, timeNanos: bigint) =>
      Effect.suspend(() => {
        blocks.add(height, timeNanos)
        return SubscriptionRef.update(state, (s) =>
          height <= s.head ? s : { ...s, head: height, movedAt: height > newest(s) ? Date.now() : s.movedAt }
        )
      })

    const observe = ({ height, timeNanos }: Seen) =>
      Effect.suspend(() => {
        if (timeNanos !== undefined) blocks.add(height, timeNanos)
        return SubscriptionRef.update(state, (s) =>
          height <= s.readHead ? s : { ...s, readHead: height, movedAt: height > newest(s) ? Date.now() : s.movedAt }
        )
      })

    /** Waits for `done` over the clock's changes, or until the chain has been quiet for `quiet`. */
    const until = (done: (s: State) => boolean) =>
      Effect.gen(function* () {
        if (done(yield* SubscriptionRef.get(state))) return
        const quietly: Effect.Effect<void> = Effect.flatMap(SubscriptionRef.get(state), (s) => {
          const left = s.movedAt + quietMillis - Date.now()
          return left <= 0 ? Effect.void : Effect.zipRight(Effect.sleep(Duration.millis(left)), quietly)
        })
        yield* state.changes.pipe(Stream.filter(done), Stream.take(1), Stream.runDrain, Effect.raceFirst(quietly))
      })

    const heightAt = (timeNanos: bigint) =>
      Effect.gen(function* () {
        yield* until(() => blocks.heightAt(timeNanos) !== undefined)
        const known = blocks.heightAt(timeNanos)
        if (known !== undefined) return Option.some(known)
        // the bus did not say (it was down): the node's answer for its current block may
        yield* Effect.flatMap(probe, Option.match({ onNone: () => Effect.void, onSome: observe }))
        return Option.fromNullable(blocks.heightAt(timeNanos))
      })

    return {
      tick,
      observe,
      head: Effect.map(SubscriptionRef.get(state), (s) => s.head),
      gapEnd: (subscribed) =>
        Effect.gen(function* () {
          const { head } = yield* SubscriptionRef.get(state)
          const now = subscribed ? yield* probe : Option.none()
          if (Option.isNone(now)) return head + 2
          yield* observe(now.value)
          return Math.max(now.value.height, head) + 1
        }),
      known: Effect.map(SubscriptionRef.get(state), (s) =>
        Date.now() - s.movedAt < quietMillis
          ? s.head - 1
          : s.busFrom === undefined
            ? newest(s)
            : Math.max(s.head, s.busFrom)
      ),
      busUp: Effect.gen(function* () {
        yield* Effect.flatMap(probe, Option.match({ onNone: () => Effect.void, onSome: observe }))
        yield* SubscriptionRef.update(state, (s) => ({ ...s, busFrom: newest(s) }))
      }),
      busDown: SubscriptionRef.update(state, (s) => ({ ...s, busFrom: undefined })),
      heightAt,
      timeOf: (height) => {
        const nanos = blocks.timeOf(height)
        return nanos === undefined ? "" : new Date(Number(nanos / 1_000_000n)).toISOString()
      },
      awaitBlock: (height) => until((s) => newest(s) >= height)
    }
  })
