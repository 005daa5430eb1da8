/**
 * A node that does not answer, said for the node as a whole: one line per step of a backoff,
 * however often its streams and reads fail, and one when it is back, on the test clock. The
 * watcher process whose node goes away, as an operator sees it, is in `Warnings.test.ts`.
 */
import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { describe, expect } from "vitest"
import * as Outages from "../src/Outages.js"
import { captureLogs } from "./support/logs.js"

const node = "http://127.0.0.1:18282"
const refused = `${node} refused the connection`
const messageOf = (line: { readonly text: string }): string =>
  (JSON.parse(line.text) as { message: Array<string> }).message[0]

/** Each stream failing every `every` ms for `forMillis`, told to `outages`. */
const failing = (outages: Outages.Outages, streams: ReadonlyArray<string>, every: number, forMillis: number) =>
  Effect.gen(function* () {
    for (let t = 0; t < forMillis; t += every) {
      yield* outages.readFailed("reconciling stake:3", { _tag: "TransportError", node, path: "/x", description: "x" })
      for (const what of streams) {
        yield* outages.failed({ node, what, kind: "stream", cause: refused, retryIn: `${every} millis` })
      }
      yield* TestClock.adjust(`${every} millis`)
    }
  })

describe("Outages", () => {
  it.scoped("says a node's failures in one line per step, whatever its streams and reads do", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const outages = yield* Outages.make
      const streams = ["bus", "payouts", "positions", "liquidity"]
      const run = yield* Effect.fork(failing(outages, streams, 100, 10_000))
      yield* TestClock.adjust("100 millis")
      yield* Fiber.join(run)
      yield* outages.answered(node)
      const said = logs.lines.map(messageOf)
      // 4 streams failing every 100 ms for 10 s, 400 failures: a line at 0.25 s, then 1, 2, 4 s apart
      expect(said).toEqual([
        `${refused}: the bus, payouts, positions and liquidity streams and reconciling stake:3 failed; next try in 50ms; what the streams carry is read again once it is back`,
        `${refused}, for 1s: the bus, payouts, positions and liquidity streams and reconciling stake:3 tried again; next try in 50ms`,
        `${refused}, for 3s: the bus, payouts, positions and liquidity streams and reconciling stake:3 tried again; next try in 50ms`,
        `${refused}, for 7s: the bus, payouts, positions and liquidity streams and reconciling stake:3 tried again; next try in 50ms`,
        `${node} answers again, after 10s`
      ])
      expect(logs.lines.map((line) => line.level)).toEqual(["WARN", "WARN", "WARN", "WARN", "INFO"])
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("says a glitch shorter than its first moment in its one line, and no more", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const outages = yield* Outages.make
      yield* outages.failed({ node, what: "positions", kind: "stream", cause: `${node} closed the stream (code 1006)` })
      yield* TestClock.adjust("100 millis")
      yield* outages.answered(node)
      yield* TestClock.adjust("10 seconds")
      expect(logs.lines.map(messageOf)).toEqual([
        `${node} closed the stream (code 1006): the positions stream failed; what the streams carry is read again once it is back`
      ])
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("leaves a failure that is the node's answer to a line of its own", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const outages = yield* Outages.make
      yield* outages.readFailed("reconciling stake:3", new Error("the answer did not decode"), "1 second")
      expect(logs.lines.map(messageOf)).toEqual([
        "reconciling stake:3 failed: the answer did not decode; next try in 1s"
      ])
    }).pipe(Effect.provide(logs.layer))
  })
})
