import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { Paginate } from "@vega-effect/pagination"
import { makeNode, rows } from "./FakeNode.js"

const PAGES = 6
const PAGE_SIZE = 10

/** The fake node behind a fetch that takes `latency` ms, counting fetch starts. */
const slowNode = (latency: number) => {
  const node = makeNode(rows(PAGES * PAGE_SIZE))
  const counter = { started: 0 }
  const fetch = (params: Paginate.PageParams) =>
    Effect.suspend(() => {
      counter.started++
      return Effect.zipRight(Effect.sleep(latency), node.fetch(params))
    })
  return { fetch, counter }
}

describe("Paginate: bounded prefetch", () => {
  for (const prefetch of [0, 1, 2, 3]) {
    for (const [latency, work] of [
      [100, 1000],
      [1000, 100]
    ] as const) {
      // Pages are fetched one after another (each needs the previous cursor), so a fetch slower than
      // the work keeps at most one page in flight: the bound is reached only when fetching is fast.
      const ahead = latency < work ? prefetch : Math.min(prefetch, 1)
      it.effect(`prefetch=${prefetch}, fetch ${latency}ms, work ${work}ms: ${ahead} page(s) ahead, never more`, () =>
        Effect.gen(function* () {
          const { counter, fetch } = slowNode(latency)
          // Fetch starts seen at the end of the consumer's work on each page.
          const startedWhileWorking: Array<number> = []
          const consume = Paginate.pages(fetch, { pageSize: PAGE_SIZE, prefetch }).pipe(
            Stream.runForEach(() =>
              Effect.zipRight(
                Effect.sleep(work),
                Effect.sync(() => startedWhileWorking.push(counter.started))
              )
            )
          )
          const fiber = yield* Effect.fork(consume)
          yield* TestClock.adjust("1 hour")
          yield* Fiber.join(fiber)

          // While the consumer works on page N, min(N + ahead, PAGES) fetches have started: never
          // more than `prefetch` ahead, and with a fast fetch exactly that many (prefetch happens).
          expect(startedWhileWorking).toEqual(Array.from({ length: PAGES }, (_, i) => Math.min(i + 1 + ahead, PAGES)))
          expect(counter.started).toBe(PAGES)
        })
      )
    }
  }

  it.effect("prefetch overlaps fetching with the consumer's work (virtual time)", () =>
    Effect.gen(function* () {
      const finish = (prefetch: number) =>
        Effect.gen(function* () {
          const { fetch } = slowNode(100)
          let last = 0
          const fiber = yield* Effect.fork(
            Paginate.items(fetch, { pageSize: PAGE_SIZE, prefetch }).pipe(
              Stream.runForEach(() =>
                Effect.zipRight(
                  Effect.sleep(10),
                  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => (last = now)))
                )
              )
            )
          )
          const start = yield* Clock.currentTimeMillis
          yield* TestClock.adjust("1 hour")
          yield* Fiber.join(fiber)
          return last - start
        })
      // Without prefetch every page costs fetch + work; with it, only the first fetch is waited for.
      expect(yield* finish(0)).toBe(PAGES * (100 + 100))
      expect(yield* finish(1)).toBe(100 + PAGES * 100)
    })
  )
})

describe("Paginate: interruption", () => {
  for (const prefetch of [0, 1, 3]) {
    it.effect(`prefetch=${prefetch}: interrupting the consumer interrupts an in-flight fetch at once`, () =>
      Effect.gen(function* () {
        const node = makeNode(rows(100))
        const secondStarted = yield* Deferred.make<void>()
        let started = 0
        let interrupted = 0
        const fetch = (params: Paginate.PageParams) =>
          Effect.suspend(() => {
            started++
            if (started === 1) return node.fetch(params)
            return Deferred.succeed(secondStarted, undefined).pipe(
              Effect.zipRight(Effect.never),
              Effect.onInterrupt(() => Effect.sync(() => interrupted++))
            )
          })
        const fiber = yield* Effect.fork(Stream.runDrain(Paginate.items(fetch, { pageSize: 10, prefetch })))
        yield* Deferred.await(secondStarted)
        // Fiber.interrupt waits for the interruption to finish: it returns only if the fetch stopped.
        const exit = yield* Fiber.interrupt(fiber)
        expect(Exit.isInterrupted(exit)).toBe(true)
        expect(interrupted).toBe(1)
        yield* TestClock.adjust("1 hour")
        expect(started).toBe(2)
      })
    )
  }

  it.effect(
    "a consumer that stops early (Stream.take) ends the prefetch: in-flight fetch interrupted, none after",
    () =>
      Effect.gen(function* () {
        const node = makeNode(rows(100))
        let started = 0
        let interrupted = 0
        const fetch = (params: Paginate.PageParams) =>
          Effect.suspend(() => {
            started++
            const slow = started === 1 ? Effect.void : Effect.sleep("1 second")
            return Effect.zipRight(slow, node.fetch(params)).pipe(
              Effect.onInterrupt(() => Effect.sync(() => interrupted++))
            )
          })
        const first = yield* Stream.runCollect(
          Paginate.nodes(fetch, { pageSize: 10, prefetch: 3 }).pipe(Stream.take(5))
        )
        expect(first.length).toBe(5)
        expect(started).toBe(2) // page 1, and page 2 in flight
        expect(interrupted).toBe(1)
        yield* TestClock.adjust("1 hour")
        expect(started).toBe(2)
      })
  )
})

describe("Paginate.ahead: any sequential pull, prefetched", () => {
  it.effect("keeps order, runs at most `ahead` pulls in advance, fails after the elements pulled before", () =>
    Effect.gen(function* () {
      let pulls = 0
      const pull = Effect.suspend(() => {
        pulls++
        if (pulls === 6) return Effect.fail(Option.some("node gone"))
        return Effect.as(Effect.sleep("10 millis"), pulls)
      })
      const startedAt: Array<number> = []
      const consume = Paginate.ahead(pull, 2).pipe(
        Stream.runForEach((n) =>
          Effect.zipRight(
            Effect.sleep("1 second"),
            Effect.sync(() => startedAt.push(pulls))
          ).pipe(Effect.as(n))
        ),
        Effect.either
      )
      const fiber = yield* Effect.fork(consume)
      yield* TestClock.adjust("1 hour")
      const outcome = yield* Fiber.join(fiber)
      expect(outcome).toEqual(Either.left("node gone"))
      // after the work on element n, pulls n+1 and n+2 have started (n+2 <= 6), never n+3
      expect(startedAt).toEqual([3, 4, 5, 6, 6])
    })
  )

  it.effect("ends when the pull ends, with every element", () =>
    Effect.gen(function* () {
      let next = 0
      const pull = Effect.suspend(() => (next === 4 ? Effect.fail(Option.none()) : Effect.succeed(++next)))
      expect([...(yield* Stream.runCollect(Paginate.ahead(pull, 1)))]).toEqual([1, 2, 3, 4])
    })
  )
})
