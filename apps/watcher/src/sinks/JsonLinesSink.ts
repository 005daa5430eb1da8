/**
 * JSON Lines: one `toJsonLine(event)` per line, a batch in one write. At-least-once: a crash after
 * the write and before the cursor moves prints the batch again on restart (same ids).
 */
import * as Effect from "effect/Effect"
import { toJsonLine } from "../Event.js"
import { type Sink, SinkError } from "../Sink.js"

export type Write = (chunk: string) => Effect.Effect<void, SinkError>

/**
 * Writes to a Node stream and succeeds once the stream has handed the chunk on (its write
 * callback), so a delivered line is no longer only in this process's buffers.
 */
export const writeStream =
  (stream: NodeJS.WritableStream, sink: string): Write =>
  (chunk) =>
    Effect.async<void, SinkError>((resume) => {
      try {
        stream.write(chunk, (error) =>
          resume(
            error === null || error === undefined
              ? Effect.void
              : Effect.fail(new SinkError({ sink, message: `cannot write: ${error.message}`, cause: error }))
          )
        )
      } catch (error) {
        resume(Effect.fail(new SinkError({ sink, message: `cannot write: ${String(error)}`, cause: error })))
      }
    })

export const make = (write: Write, name = "stdout"): Sink => ({
  name,
  recover: () => Effect.succeed(0),
  deliver: (events) =>
    events.length === 0 ? Effect.void : write(events.map(({ event }) => toJsonLine(event) + "\n").join(""))
})

/** JSON Lines on the process's standard output. */
export const stdout: Sink = make(writeStream(process.stdout, "stdout"))
