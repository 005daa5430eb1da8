import { describe, expect, it } from "@effect/vitest"
import { RetryPolicy } from "@vega-effect/http"
import { Chunk, Duration, Effect, Option, Schedule } from "effect"

/**
 * The delays a schedule asks for, for these inputs (in milliseconds). `Schedule.run` adds the
 * output of the step that stopped the schedule: when it stopped before the inputs ran out, that
 * last entry is not a delay (so give more inputs than the schedule can take).
 */
const delaysOf = <Out, In>(schedule: Schedule.Schedule<Out, In>, inputs: ReadonlyArray<In>) =>
  Schedule.run(Schedule.delays(schedule), 0, inputs).pipe(
    Effect.map((delays) => {
      const all = Chunk.toReadonlyArray(delays).map(Duration.toMillis)
      return all.length < inputs.length ? all.slice(0, -1) : all
    })
  )

describe("RetryPolicy", () => {
  it("reads Ratelimit-Retry-After before Retry-After, in seconds or as a date, in any case, capped", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    const read = (headers: Record<string, string>) =>
      Option.getOrUndefined(Option.map(RetryPolicy.retryAfter(headers, now), Duration.toMillis))
    expect(read({ "retry-after": "3" })).toBe(3000)
    expect(read({ "Retry-After": "1.5" })).toBe(1500)
    expect(read({ "Ratelimit-Retry-After": "7", "Retry-After": "3" })).toBe(7000)
    expect(read({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" })).toBe(30_000)
    expect(read({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" })).toBe(0)
    expect(read({ "retry-after": "86400" })).toBe(Duration.toMillis(RetryPolicy.MAX_RETRY_AFTER))
    expect(read({ "retry-after": "soon" })).toBeUndefined()
    expect(read({ "retry-after": "" })).toBeUndefined()
    expect(read({})).toBeUndefined()
    expect(Duration.toMinutes(RetryPolicy.MAX_RETRY_AFTER)).toBe(10)
  })

  it.effect("backs off exponentially with full jitter under a ceiling", () =>
    Effect.gen(function* () {
      const inputs = Array.from({ length: 10 }, () => undefined)
      const runs = yield* Effect.forEach(Array.from({ length: 200 }), () =>
        delaysOf(RetryPolicy.backoff({ base: "100 millis", max: "1 second" }), inputs)
      )
      const ceilings = [100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000, 1000]
      for (const run of runs) run.forEach((delay, n) => expect(delay).toBeLessThanOrEqual(ceilings[n]))
      // full jitter: delays spread over the whole range, not bunched near the ceiling
      const late = runs.map((run) => run[9])
      expect(Math.min(...late)).toBeLessThan(250)
      expect(Math.max(...late)).toBeGreaterThan(750)
    })
  )

  it.effect("without jitter, waits each ceiling itself", () =>
    Effect.gen(function* () {
      const delays = yield* delaysOf(
        RetryPolicy.backoff({ base: "100 millis", max: "1 second", jitter: false }),
        [1, 2, 3, 4, 5, 6]
      )
      expect(delays).toEqual([100, 200, 400, 800, 1000, 1000])
    })
  )

  it.effect("stops after the number of retries", () =>
    Effect.gen(function* () {
      expect(yield* delaysOf(RetryPolicy.schedule({ retries: 3 }), Array(10).fill(undefined))).toHaveLength(3)
      expect(yield* delaysOf(RetryPolicy.schedule({ retries: 0 }), Array(10).fill(undefined))).toHaveLength(0)
      expect(yield* delaysOf(RetryPolicy.schedule(), Array(10).fill(undefined))).toHaveLength(
        RetryPolicy.DEFAULTS.retries
      )
    })
  )

  it.effect("waits at least what a failure asks for, and still stops when the schedule does", () =>
    Effect.gen(function* () {
      const schedule = RetryPolicy.atLeastRetryAfter(
        Schedule.spaced("100 millis").pipe(Schedule.zipLeft(Schedule.recurs(3))),
        (failure: { wait?: number }) =>
          failure.wait === undefined ? Option.none() : Option.some(Duration.millis(failure.wait))
      )
      const delays = yield* delaysOf(schedule, [{ wait: 2000 }, {}, { wait: 50 }, { wait: 5000 }, {}])
      expect(delays).toEqual([2000, 100, 100])
    })
  )
})
