/**
 * Where events go. Sinks read the outbox, each at its own pace and with its own cursor, so a slow
 * webhook never holds back the file. An event leaves the outbox when every sink has it.
 *
 * Delivery guarantees: a sink's cursor moves only after `deliver` succeeds, so a crash in between
 * repeats the events in flight (at-least-once, same ids). A sink that can tell what it already has
 * (the file sink reads back its tail) says so in `recover`, which makes it exactly-once.
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { WatchEvent } from "./Event.js"

/** An event waiting in the outbox, in commit order (`seq` grows by one per event). */
export interface PendingEvent {
  readonly seq: number
  readonly event: WatchEvent
}

export class SinkError extends Schema.TaggedError<SinkError>()("SinkError", {
  sink: Schema.String,
  message: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {}

export interface Sink {
  /** Unique among the configured sinks; it names the sink's cursor in the store. */
  readonly name: string
  /**
   * Called once before the first delivery with the events the store says are not yet delivered,
   * oldest first: how many of them, from the first, the sink already has. At-least-once sinks
   * answer 0.
   */
  readonly recover: (pending: ReadonlyArray<PendingEvent>) => Effect.Effect<number, SinkError>
  /** Delivers the events in order; succeeds only when all of them are delivered. */
  readonly deliver: (events: ReadonlyArray<PendingEvent>) => Effect.Effect<void, SinkError>
}
