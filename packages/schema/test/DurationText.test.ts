import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Option, Schema } from "effect"
import { DurationText } from "@vega-effect/schema"

const nanos = (text: string): bigint | undefined =>
  Option.getOrUndefined(Option.flatMap(DurationText.parse(text), Duration.toNanos))

describe("DurationText", () => {
  it("reads the short and the long spellings of every unit alike", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, bigint]> = [
      [["500ms", "500 ms", "500 millis", "500 milliseconds", "0.5s", "0.5 seconds"], 500_000_000n],
      [["1s", "1 s", "1 second", "1 seconds", "1sec", "1000ms", "1000 millis"], 1_000_000_000n],
      [["2m", "2 min", "2 minutes", "120s", "120 seconds", "0.033333333333333333333333333333333333m"], -1n],
      [["1.5m", "90s", "90 seconds", "1.5 minutes"], 90_000_000_000n],
      [["1h", "1 hour", "60m", "3600s"], 3_600_000_000_000n],
      [["2d", "2 days", "48h"], 172_800_000_000_000n],
      [["1w", "1 week", "7 days"], 604_800_000_000_000n],
      [["250us", "250 micros", "250µs", "0.25ms"], 250_000n],
      [["7ns", "7 nanos"], 7n],
      [["0s", "0 ms"], 0n]
    ]
    for (const [texts, expected] of cases) {
      const values = texts.map(nanos)
      if (expected === -1n) {
        // 2 minutes in every exact spelling; the inexact one is refused, not rounded
        expect(values.slice(0, 5)).toEqual(Array(5).fill(120_000_000_000n))
        expect(values[5]).toBeUndefined()
      } else {
        expect(values, texts.join(", ")).toEqual(Array(texts.length).fill(expected))
      }
    }
  })

  it("reads each of its examples as the duration it names", () => {
    for (const [text, duration] of DurationText.EXAMPLES) {
      expect(Option.getOrThrow(DurationText.parse(text)), text).toEqual(duration)
    }
  })

  it("refuses what is not a duration", () => {
    for (const text of ["", "1", "s", "1 fortnight", "-1s", "1.s", ".5s", "1e3ms", "1 s s", "0.5ns", "one second"]) {
      expect(DurationText.parse(text), text).toEqual(Option.none())
    }
  })

  it("is case-insensitive and ignores surrounding space", () => {
    expect(nanos(" 2S ")).toBe(2_000_000_000n)
    expect(nanos("3 Seconds")).toBe(3_000_000_000n)
  })

  it("formats in the largest whole unit and reads its own output back", () => {
    expect(DurationText.format(Duration.seconds(90))).toBe("90s")
    expect(DurationText.format(Duration.minutes(2))).toBe("2m")
    expect(DurationText.format(Duration.millis(1.5))).toBe("1500us")
    expect(DurationText.format(Duration.zero)).toBe("0s")
    expect(DurationText.format(Duration.infinity)).toBe("infinity")
    for (const d of [Duration.millis(1), Duration.seconds(61), Duration.hours(25), Duration.nanos(123n)]) {
      expect(Option.getOrThrow(DurationText.parse(DurationText.format(d)))).toEqual(d)
    }
  })

  it("decodes as a schema, naming the expected form", () => {
    const decode = Schema.decodeUnknownEither(DurationText.DurationFromText)
    expect(decode("1 second")).toEqual(Either.right(Duration.seconds(1)))
    const error = decode("soon")
    expect(Either.isLeft(error) && error.left.message).toContain('Expected a duration such as "500ms"')
    expect(Either.isLeft(Schema.decodeUnknownEither(DurationText.PositiveDurationFromText)("0s"))).toBe(true)
    expect(Schema.encodeSync(DurationText.DurationFromText)(Duration.millis(500))).toBe("500ms")
  })

  it.effect("reads configuration in the same syntax", () =>
    Effect.gen(function* () {
      const provider = ConfigProvider.fromMap(
        new Map([
          ["A", "2s"],
          ["B", "500 millis"],
          ["C", "later"]
        ])
      )
      const read = (name: string) => Effect.withConfigProvider(Effect.either(DurationText.config(name)), provider)
      expect(yield* read("A")).toEqual(Either.right(Duration.seconds(2)))
      expect(yield* read("B")).toEqual(Either.right(Duration.millis(500)))
      const bad = yield* read("C")
      expect(Either.isLeft(bad) && String(bad.left)).toContain('actual "later"')
    })
  )
})
