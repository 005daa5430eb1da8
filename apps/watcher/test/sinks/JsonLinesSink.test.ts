import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describe, expect } from "vitest"
import { toJsonLine } from "../../src/Event.js"
import * as JsonLinesSink from "../../src/sinks/JsonLinesSink.js"
import { pendingEvents } from "./events.js"

describe("JsonLinesSink", () => {
  it.effect("writes one JSON line per event, in order, a batch in one write", () =>
    Effect.gen(function* () {
      const chunks: Array<string> = []
      const sink = JsonLinesSink.make((chunk) => Effect.sync(() => void chunks.push(chunk)))
      const first = pendingEvents(3)
      const second = pendingEvents(2, 4)
      yield* sink.deliver(first)
      yield* sink.deliver([])
      yield* sink.deliver(second)
      expect(chunks).toHaveLength(2)
      expect(chunks.join("")).toBe([...first, ...second].map(({ event }) => toJsonLine(event) + "\n").join(""))
      expect(
        chunks
          .join("")
          .split("\n")
          .slice(0, -1)
          .map((line) => JSON.parse(line).id)
      ).toEqual([...first, ...second].map(({ event }) => event.id))
      expect(sink.name).toBe("stdout")
      expect(yield* sink.recover(first)).toBe(0)
    })
  )

  it.effect("succeeds only once the stream has taken the chunk, and fails with the stream's error", () =>
    Effect.gen(function* () {
      const { Writable } = yield* Effect.promise(() => import("node:stream"))
      const written: Array<string> = []
      const ok = new Writable({
        write(chunk, _encoding, callback) {
          setTimeout(() => {
            written.push(String(chunk))
            callback()
          }, 10)
        }
      })
      yield* JsonLinesSink.make(JsonLinesSink.writeStream(ok, "stdout")).deliver(pendingEvents(2))
      expect(written.join("").split("\n")).toHaveLength(3)

      const broken = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error("EPIPE")) })
      broken.on("error", () => undefined)
      const error = yield* JsonLinesSink.make(JsonLinesSink.writeStream(broken, "stdout"))
        .deliver(pendingEvents(1))
        .pipe(Effect.flip)
      expect(error._tag).toBe("SinkError")
      expect(error.message).toContain("EPIPE")
    })
  )
})
