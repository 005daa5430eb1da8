import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as BlockClock from "../../src/live/BlockClock.js"

/** A clock whose bus told of blocks up to 9, over a node that says it is at `node` (none: no answer). */
const clockAt = (node: number | undefined) =>
  Effect.gen(function* () {
    const clock = yield* BlockClock.make(
      "1 minute",
      Effect.succeed(node === undefined ? Option.none() : Option.some({ height: node, timeNanos: undefined }))
    )
    for (let height = 1; height <= 9; height++) yield* clock.tick(height, BigInt(height) * 1_000_000_000n)
    return clock
  })

describe("BlockClock.gapEnd", () => {
  it.effect("a source connected: two past the bus's head, whatever the node says", () =>
    Effect.gen(function* () {
      expect(yield* (yield* clockAt(9)).gapEnd(false)).toBe(11)
      expect(yield* (yield* clockAt(12)).gapEnd(false)).toBe(11)
    })
  )

  it.effect("a source subscribed as its gap came: one past the block the node is at, asked then", () =>
    Effect.gen(function* () {
      expect(yield* (yield* clockAt(9)).gapEnd(true)).toBe(10)
      // the node is further than the bus told: what it wrote meanwhile may be missed
      expect(yield* (yield* clockAt(12)).gapEnd(true)).toBe(13)
      // a node behind the bus's head (another node answered): never below the head
      expect(yield* (yield* clockAt(7)).gapEnd(true)).toBe(10)
    })
  )

  it.effect("a subscribed source over a node that does not answer: two past the head", () =>
    Effect.gen(function* () {
      const clock = yield* clockAt(undefined)
      expect(yield* clock.gapEnd(true)).toBe(11)
    })
  )

  it.effect("the node's answer moves the clock: a read can wait for the block it named", () =>
    Effect.gen(function* () {
      const clock = yield* clockAt(12)
      yield* clock.gapEnd(true)
      // returns at once: the node showed 12
      yield* clock.awaitBlock(12)
    })
  )
})
