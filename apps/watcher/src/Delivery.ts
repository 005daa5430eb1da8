/**
 * Moves events from the outbox to one sink, in order, for as long as the watcher runs: recover
 * what the sink already has, then deliver batch after batch, moving the sink's cursor after each
 * success. A failing sink is retried with backoff and never skips an event; the others carry on.
 */
import { FailureText, RetryPolicy } from "@vega-effect/http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import type * as SubscriptionRef from "effect/SubscriptionRef"
import * as Metrics from "./Metrics.js"
import type { Sink } from "./Sink.js"
import type { Service as Store } from "./Store.js"

/** Events per delivery; also the most a crash can leave in flight, which the file sink reads back. */
export const BATCH = 500

export interface DeliveryContext {
  readonly store: Store
  /** The seq of the last committed event. */
  readonly committed: SubscriptionRef.SubscriptionRef<number>
  /** Every configured sink's name: the outbox keeps an event until all of them have it. */
  readonly sinkNames: ReadonlyArray<string>
  /** How often to look for events other watchers committed; never when absent (this watcher is the only one). */
  readonly poll?: Duration.DurationInput
}

/** Waits until the outbox holds something after `seq`: committed here, or seen there by polling. */
const awaitAfter = (context: DeliveryContext, seq: number) => {
  const here = context.committed.changes.pipe(
    Stream.filter((last) => last > seq),
    Stream.runHead
  )
  if (context.poll === undefined) return here
  const there = context.store.lastSeq.pipe(
    Effect.repeat({ until: (last) => last > seq, schedule: Schedule.spaced(context.poll) })
  )
  return Effect.race(here, there)
}

/** A failing sink is tried again forever, on the toolkit's retry policy: from 200 ms, doubling, up to 30 s, with full jitter. */
const retrying = RetryPolicy.backoff({ base: "200 millis", max: "30 seconds" })

/** Delivers forever (until interrupted). */
export const deliverForever = (sink: Sink, context: DeliveryContext): Effect.Effect<never, unknown> =>
  Effect.gen(function* () {
    const { store } = context
    let cursor = yield* store.cursor(sink.name)
    const inFlight = yield* store.pending(cursor, BATCH)
    const already = yield* sink
      .recover(inFlight)
      .pipe(Effect.retry(FailureText.logRetries(`${sink.name}: reading back what was delivered failed`, retrying)))
    if (already > 0) {
      cursor = inFlight[already - 1].seq
      yield* store.advance(sink.name, cursor)
      yield* Effect.logInfo(`${sink.name}: ${already} event(s) were already delivered before the restart`)
    }
    return yield* Effect.forever(
      Effect.gen(function* () {
        const batch = yield* store.pending(cursor, BATCH)
        if (batch.length === 0) {
          yield* Metric.set(Metrics.outboxDepth.pipe(Metric.tagged("sink", sink.name)), 0)
          return yield* awaitAfter(context, cursor)
        }
        yield* sink.deliver(batch).pipe(Effect.retry(FailureText.logRetries(`${sink.name}: delivery failed`, retrying)))
        cursor = batch[batch.length - 1].seq
        yield* store.advance(sink.name, cursor)
        yield* store.prune(context.sinkNames)
        const last = yield* store.lastSeq
        yield* Metric.set(Metrics.outboxDepth.pipe(Metric.tagged("sink", sink.name)), Math.max(0, last - cursor))
      })
    )
  }).pipe(Effect.annotateLogs({ sink: sink.name }))

/** Waits until every sink has delivered up to `seq`. */
export const drained = (store: Store, sinkNames: ReadonlyArray<string>, seq: number): Effect.Effect<void, unknown> =>
  Effect.forEach(sinkNames, (name) => store.cursor(name)).pipe(
    Effect.map((cursors) => cursors.every((c) => c >= seq)),
    Effect.repeat({ until: (done) => done, schedule: Schedule.spaced(Duration.millis(50)) }),
    Effect.asVoid
  )
