import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { Paginate } from "@vega-effect/pagination"
import { cursorOf, displayOrder, makeNode, NodeError, type Row, rows } from "./FakeNode.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), (chunk) => Chunk.toArray(chunk))

const seqs = (items: ReadonlyArray<Paginate.Item<Row>>) => items.map((item) => item.node.seq)

const directions = ["forward", "backward"] as const

/** The item order a walk must produce: the display order, reversed when walking backward. */
const walkingOrder = (all: ReadonlyArray<Row>, direction: "forward" | "backward", newestFirst: boolean) => {
  const display = displayOrder(all, newestFirst)
  return direction === "forward" ? display : [...display].reverse()
}

describe("Paginate: walking a list", () => {
  const counts = [0, 1, 10, 23]
  const pageSizes = [1, 2, 3, 7, 10, 11, 1000, 5000]

  for (const direction of directions) {
    for (const newestFirst of [true, false]) {
      it.effect(`${direction}, newestFirst=${newestFirst}: every item exactly once, in order`, () =>
        Effect.gen(function* () {
          for (const count of counts) {
            for (const pageSize of pageSizes) {
              for (const prefetch of [0, 1, 3]) {
                const context = `count=${count} pageSize=${pageSize} prefetch=${prefetch}`
                const all = rows(count)
                const expected = walkingOrder(all, direction, newestFirst)
                const options = { direction, newestFirst, pageSize, prefetch }

                const node = makeNode(all)
                const items = yield* collect(Paginate.items(node.fetch, options))
                expect(seqs(items), context).toEqual(expected.map((row) => row.seq))
                expect(
                  items.map((item) => item.cursor),
                  context
                ).toEqual(expected.map(cursorOf))
                // One request per page, none wasted on an empty tail.
                expect(node.requests.length, context).toBe(Math.max(1, Math.ceil(count / pageSize)))

                // The requests: exactly one of first/last, the cursor of the last item emitted so far.
                const size = direction === "forward" ? "first" : "last"
                const cursor = direction === "forward" ? "after" : "before"
                node.requests.forEach((params, i) => {
                  const keys = i === 0 ? [size, "newestFirst"] : [size, cursor, "newestFirst"]
                  expect(Object.keys(params).sort(), context).toEqual(keys.sort())
                  expect(params[size]).toBe(pageSize)
                  expect(params.newestFirst).toBe(newestFirst)
                  if (i > 0) expect(params[cursor], context).toBe(items[i * pageSize - 1].cursor)
                })

                // Pages come as the server returns them: display order inside each page.
                const pages = yield* collect(Paginate.pages(makeNode(all).fetch, options))
                const display = displayOrder(all, newestFirst).map((row) => row.seq)
                const inWalkingOrder = direction === "forward" ? pages : [...pages].reverse()
                expect(
                  inWalkingOrder.flatMap((page) => seqs(page.items)),
                  context
                ).toEqual(display)

                const nodes = yield* collect(Paginate.nodes(makeNode(all).fetch, options))
                expect(nodes, context).toEqual(expected)
              }
            }
          }
        })
      )
    }
  }

  it.effect("defaults: forward, 1000 per page, newest first, nothing else sent", () =>
    Effect.gen(function* () {
      const node = makeNode(rows(2500))
      const nodes = yield* collect(Paginate.nodes(node.fetch))
      expect(nodes.map((row) => row.seq)).toEqual(displayOrder(rows(2500), true).map((row) => row.seq))
      expect(node.requests).toEqual([
        { first: 1000, newestFirst: true },
        { first: 1000, after: cursorOf(nodes[999]), newestFirst: true },
        { first: 1000, after: cursorOf(nodes[1999]), newestFirst: true }
      ])
    })
  )

  it.effect("the stream is a description: each run starts again from `from`", () =>
    Effect.gen(function* () {
      const node = makeNode(rows(5))
      const stream = Paginate.nodes(node.fetch, { pageSize: 2 })
      const once = yield* collect(stream)
      const twice = yield* collect(stream)
      expect(twice).toEqual(once)
      expect(once.map((row) => row.seq)).toEqual([5, 4, 3, 2, 1])
    })
  )

  it.effect("each fetch runs in a Paginate.page span with the page number and cursor", () =>
    Effect.gen(function* () {
      const node = makeNode(rows(5))
      const seen: Array<{ name: string; keys: Array<string>; page: unknown; cursor: unknown; direction: unknown }> = []
      const fetch = (params: Paginate.PageParams) =>
        Effect.gen(function* () {
          const span = yield* Effect.orDie(Effect.currentSpan)
          seen.push({
            name: span.name,
            keys: [...span.attributes.keys()].filter((key) => key === "pagination.cursor"),
            page: span.attributes.get("pagination.page"),
            cursor: span.attributes.get("pagination.cursor"),
            direction: span.attributes.get("pagination.direction")
          })
          return yield* node.fetch(params)
        })
      yield* Stream.runDrain(Paginate.pages(fetch, { pageSize: 3, direction: "backward" }))
      expect(seen).toEqual([
        // the first page has no cursor: the attribute is left out, not set to undefined
        { name: "Paginate.page", keys: [], page: 1, cursor: undefined, direction: "backward" },
        {
          name: "Paginate.page",
          keys: ["pagination.cursor"],
          page: 2,
          cursor: node.requests[1].before,
          direction: "backward"
        }
      ])
    })
  )
})

describe("Paginate: resuming", () => {
  for (const direction of directions) {
    for (const newestFirst of [true, false]) {
      it.effect(`${direction}, newestFirst=${newestFirst}: from any item's cursor gives exactly the rest`, () =>
        Effect.gen(function* () {
          const all = rows(10)
          for (const pageSize of [1, 3, 4, 10, 1000]) {
            const options = { direction, newestFirst, pageSize }
            const full = yield* collect(Paginate.items(makeNode(all).fetch, options))
            expect(seqs(full)).toEqual(walkingOrder(all, direction, newestFirst).map((row) => row.seq))
            for (let i = 0; i < full.length; i++) {
              const from = Paginate.resumeCursor(full[i])
              expect(from).toBe(full[i].cursor)
              const rest = yield* collect(Paginate.items(makeNode(all).fetch, { ...options, from }))
              expect(seqs(rest), `pageSize=${pageSize} from item ${i}`).toEqual(seqs(full.slice(i + 1)))
            }

            // Checkpointing per page: resumeCursor(page) continues after the page's last walked item.
            const pages = yield* collect(Paginate.pages(makeNode(all).fetch, options))
            let done = 0
            for (const page of pages) {
              done += page.items.length
              const from = Paginate.resumeCursor(page, options)
              const rest = yield* collect(Paginate.items(makeNode(all).fetch, { ...options, from }))
              expect(seqs(rest), `pageSize=${pageSize} after ${done} items`).toEqual(seqs(full.slice(done)))
            }
          }
        })
      )
    }
  }

  it("resumeCursor of an empty page is undefined (keep the previous checkpoint)", () => {
    const empty: Paginate.Page<never> = {
      items: [],
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: "",
      endCursor: ""
    }
    expect(Paginate.resumeCursor(empty)).toBeUndefined()
    expect(Paginate.resumeCursor(empty, { direction: "backward" })).toBeUndefined()
  })
})

describe("Paginate: failures", () => {
  const unavailable = new NodeError({ status: 503, message: "unavailable" })

  it.effect("a fetch that fails once, retried inside fetch, yields every item once", () =>
    Effect.gen(function* () {
      const all = rows(10)
      for (const direction of directions) {
        for (const failAt of [1, 2, 3, 4]) {
          for (const prefetch of [0, 1, 3]) {
            const context = `${direction} failAt=${failAt} prefetch=${prefetch}`
            const node = makeNode(all)
            let calls = 0
            const flaky = (params: Paginate.PageParams) =>
              Effect.suspend(() => (++calls === failAt ? Effect.fail(unavailable) : node.fetch(params)))
            const fetch = (params: Paginate.PageParams) => Effect.retry(flaky(params), Schedule.spaced("1 second"))

            const fiber = yield* Effect.fork(collect(Paginate.items(fetch, { direction, pageSize: 3, prefetch })))
            yield* TestClock.adjust("1 second")
            const items = yield* Fiber.join(fiber)

            expect(seqs(items), context).toEqual(walkingOrder(all, direction, true).map((row) => row.seq))
            expect(calls, context).toBe(5) // 4 pages + the failed attempt, nothing re-fetched
            const cursors = node.requests.map((params) => params.after ?? params.before ?? null)
            expect(new Set(cursors).size, context).toBe(4)
          }
        }
      }
    })
  )

  it.effect("a failed fetch fails the stream with its error, after the pages before it; resume completes", () =>
    Effect.gen(function* () {
      const all = rows(10)
      const full = displayOrder(all, true).map((row) => row.seq)
      for (const prefetch of [0, 1, 3]) {
        const node = makeNode(all)
        let calls = 0
        const fetch = (params: Paginate.PageParams) =>
          Effect.suspend(() => (++calls === 3 ? Effect.fail(unavailable) : node.fetch(params)))

        let checkpoint: string | undefined
        const processed: Array<number> = []
        const error = yield* Paginate.items(fetch, { pageSize: 3, prefetch }).pipe(
          Stream.runForEach((item) =>
            Effect.sync(() => {
              processed.push(item.node.seq)
              checkpoint = item.cursor
            })
          ),
          Effect.flip
        )
        // (Effect.fail inside the page span hands back a proxy of the error, so compare fields.)
        expect(error).toMatchObject({ _tag: "NodeError", status: 503 })
        expect(processed).toEqual(full.slice(0, 6))
        expect(calls).toBe(3) // stops at the failure: no earlier page again, nothing after it

        const rest = yield* collect(Paginate.nodes(makeNode(all).fetch, { pageSize: 3, from: checkpoint }))
        expect([...processed, ...rest.map((row) => row.seq)]).toEqual(full)
      }
    })
  )

  it.effect("a defect in fetch is not swallowed", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Stream.runDrain(Paginate.pages(() => Effect.die("boom"))))
      expect(exit._tag).toBe("Failure")
      expect(exit._tag === "Failure" && exit.cause._tag).toBe("Die")
    })
  )
})

// ---------------------------------------------------------------------------------------------
// Loop guard, against scripted (misbehaving) servers
// ---------------------------------------------------------------------------------------------

const item = (cursor: string): Paginate.Item<string> => ({ node: cursor, cursor })
const page = (
  cursors: ReadonlyArray<string>,
  flags: { readonly next?: boolean; readonly previous?: boolean; readonly start?: string; readonly end?: string }
): Paginate.Page<string> => ({
  items: cursors.map(item),
  hasNextPage: flags.next ?? false,
  hasPreviousPage: flags.previous ?? false,
  startCursor: flags.start ?? cursors[0] ?? "",
  endCursor: flags.end ?? cursors[cursors.length - 1] ?? ""
})

/**
 * No script here needs this many requests: one more means the loop guard let paging go on, and the
 * fetch dies instead of serving pages forever (the walk never yields to timers, so a test's time
 * limit would never fire and the run would hang instead of failing).
 */
const MAX_REQUESTS = 50

/** Serves `script[i]` to the i-th request (the last one after that, up to `MAX_REQUESTS`), recording requests. */
const scripted = (script: ReadonlyArray<Paginate.Page<string>>) => {
  const requests: Array<Paginate.PageParams> = []
  const fetch = (params: Paginate.PageParams) =>
    requests.length >= MAX_REQUESTS
      ? Effect.dieMessage(`paging went on past ${MAX_REQUESTS} requests to a scripted server: it was not stopped`)
      : Effect.sync(() => {
          requests.push(params)
          return script[Math.min(requests.length, script.length) - 1]
        })
  return { fetch, requests }
}

/** Runs the item stream to its end or failure: what was emitted, and the failure if any. */
const run = (server: ReturnType<typeof scripted>, options?: Paginate.Options) =>
  Effect.gen(function* () {
    const emitted: Array<string> = []
    const exit = yield* Paginate.items(server.fetch, options).pipe(
      Stream.runForEach((it) => Effect.sync(() => emitted.push(it.cursor))),
      Effect.either
    )
    return { emitted, error: exit._tag === "Left" ? Option.some(exit.left) : Option.none() }
  })

describe("Paginate: loop guard", () => {
  for (const prefetch of [0, 1, 3]) {
    it.effect(`prefetch=${prefetch}: a server repeating the same page fails with RepeatedCursor`, () =>
      Effect.gen(function* () {
        const server = scripted([page(["a", "b"], { next: true })])
        const { emitted, error } = yield* run(server, { prefetch })
        expect(emitted).toEqual(["a", "b"])
        const e = Option.getOrThrow(error)
        expect(e).toBeInstanceOf(Paginate.PaginationError)
        expect(e).toMatchObject({ _tag: "PaginationError", reason: "RepeatedCursor", cursor: "b" })
        expect(e.message).toMatch(/repeated a page/)
        expect(server.requests).toEqual([
          { first: 1000, newestFirst: true },
          { first: 1000, after: "b", newestFirst: true }
        ])
      })
    )
  }

  it.effect("the same endCursor forever (vega#9836) fails with RepeatedCursor without emitting the repeat", () =>
    Effect.gen(function* () {
      const server = scripted([
        page(["a1", "a2"], { next: true, end: "X" }),
        page(["b1", "b2"], { next: true, end: "X" })
      ])
      const { emitted, error } = yield* run(server)
      expect(emitted).toEqual(["a1", "a2"])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "RepeatedCursor", cursor: "X" })
      expect(Option.getOrThrow(error).message).toBe(
        'page 2 (forward, after cursor "X") returned endCursor equal to the cursor it was requested with: the server repeated a page; stopping instead of looping'
      )
      expect(server.requests).toHaveLength(2)
    })
  )

  it.effect("a cycle over several pages fails with RepeatedCursor", () =>
    Effect.gen(function* () {
      const server = scripted([
        page(["a"], { next: true }),
        page(["b"], { next: true }),
        page(["c"], { next: true, end: "a" })
      ])
      const { emitted, error } = yield* run(server, { pageSize: 1 })
      expect(emitted).toEqual(["a", "b"])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "RepeatedCursor", cursor: "a" })
      expect(Option.getOrThrow(error).message).toMatch(/already requested/)
      expect(server.requests).toHaveLength(3)
    })
  )

  it.effect("a page that returns the item at its own cursor again fails instead of duplicating it", () =>
    Effect.gen(function* () {
      const server = scripted([page(["a", "b"], { next: true }), page(["b", "c"], { next: false })])
      const { emitted, error } = yield* run(server)
      expect(emitted).toEqual(["a", "b"])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "RepeatedCursor", cursor: "b" })
    })
  )

  it.effect("a backward walk repeating its page fails with RepeatedCursor", () =>
    Effect.gen(function* () {
      const server = scripted([page(["b", "a"], { previous: true, next: true })])
      const { emitted, error } = yield* run(server, { direction: "backward", pageSize: 2 })
      expect(emitted).toEqual(["a", "b"])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "RepeatedCursor", cursor: "b" })
      expect(Option.getOrThrow(error).message).toBe(
        'page 2 (backward, before cursor "b") returned the item at its own cursor again: the server repeated a page'
      )
      expect(server.requests).toEqual([
        { last: 2, newestFirst: true },
        { last: 2, before: "b", newestFirst: true }
      ])
    })
  )

  it.effect("hasNextPage with no items fails with NoProgress", () =>
    Effect.gen(function* () {
      const first = yield* run(scripted([page([], { next: true })]))
      expect(first.emitted).toEqual([])
      const e = Option.getOrThrow(first.error)
      expect(e).toMatchObject({ reason: "NoProgress" })
      expect(e.cursor).toBeUndefined()
      expect(e.message).toBe(
        "page 1 (forward, no cursor) reports hasNextPage=true but has no items, so paging cannot advance"
      )
      // no cursor to report: the field is left out
      expect("cursor" in e).toBe(false)

      const later = scripted([page(["a"], { next: true }), page([], { next: true, previous: true })])
      const second = yield* run(later, { from: "z" })
      expect(second.emitted).toEqual(["a"])
      expect(Option.getOrThrow(second.error)).toMatchObject({ reason: "NoProgress", cursor: "a" })
      expect(later.requests.map((params) => params.after)).toEqual(["z", "a"])
    })
  )

  it.effect("a resumed walk whose page hands back the cursor it resumed from fails at once", () =>
    Effect.gen(function* () {
      const server = scripted([page(["a"], { next: true, end: "z" })])
      const { emitted, error } = yield* run(server, { from: "z" })
      expect(emitted).toEqual([])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "RepeatedCursor", cursor: "z" })
      expect(server.requests).toHaveLength(1)
    })
  )

  it.effect("hasNextPage with no endCursor at all (a node leaving the field out) fails with NoProgress", () =>
    Effect.gen(function* () {
      const { endCursor: _, ...missing } = page(["a"], { next: true })
      const { error } = yield* run(scripted([missing as Paginate.Page<string>]))
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "NoProgress" })
      expect(Option.getOrThrow(error).message).toMatch(/endCursor is empty/)
    })
  )

  it.effect("hasNextPage with no endCursor fails with NoProgress", () =>
    Effect.gen(function* () {
      const { emitted, error } = yield* run(scripted([page(["a"], { next: true, end: "" })]))
      expect(emitted).toEqual([])
      expect(Option.getOrThrow(error)).toMatchObject({ reason: "NoProgress" })
      expect(Option.getOrThrow(error).message).toMatch(/endCursor is empty/)
    })
  )

  it.effect("backward: hasPreviousPage with no items or no startCursor fails with NoProgress", () =>
    Effect.gen(function* () {
      const empty = yield* run(scripted([page([], { previous: true })]), { direction: "backward" })
      expect(Option.getOrThrow(empty.error)).toMatchObject({ reason: "NoProgress" })
      expect(Option.getOrThrow(empty.error).message).toMatch(/hasPreviousPage=true but has no items/)
      const noCursor = yield* run(scripted([page(["a"], { previous: true, start: "" })]), { direction: "backward" })
      expect(Option.getOrThrow(noCursor.error).message).toMatch(/startCursor is empty/)
    })
  )

  it.effect("only the flag of the walking direction continues a walk", () =>
    Effect.gen(function* () {
      // Forward, an empty page claiming earlier pages: the walk is simply over.
      const forward = scripted([page([], { previous: true })])
      expect(yield* run(forward)).toEqual({ emitted: [], error: Option.none() })
      expect(forward.requests).toHaveLength(1)
      // Backward, hasNextPage is set on every page after a cursor (the node's table): not a reason to go on.
      const backward = scripted([page(["b", "a"], { next: true, previous: false })])
      expect(yield* run(backward, { direction: "backward", from: "c" })).toEqual({
        emitted: ["a", "b"],
        error: Option.none()
      })
      expect(backward.requests).toHaveLength(1)
    })
  )
})

describe("Paginate: options", () => {
  const invalid: ReadonlyArray<readonly [Paginate.Options, RegExp]> = [
    [{ pageSize: 0 }, /pageSize must be an integer between 1 and 5000, got 0/],
    [{ pageSize: 5001 }, /pageSize must be an integer between 1 and 5000, got 5001/],
    [{ pageSize: 2.5 }, /pageSize must be an integer .* got 2\.5/],
    [{ pageSize: Number.NaN }, /pageSize .* got NaN/],
    [{ pageSize: -1 }, /pageSize .* got -1/],
    [{ prefetch: -1 }, /prefetch must be a non-negative integer, got -1/],
    [{ prefetch: 0.5 }, /prefetch must be a non-negative integer, got 0\.5/],
    [{ from: "" }, /from must be a non-empty cursor/],
    [{ direction: "sideways" as any }, /direction must be "forward" or "backward", got "sideways"/],
    [{ newestFirst: "yes" as any }, /newestFirst must be a boolean/]
  ]

  it.effect("invalid options fail with InvalidOptions before any fetch", () =>
    Effect.gen(function* () {
      for (const [options, message] of invalid) {
        let fetches = 0
        const fetch = () => Effect.sync(() => (fetches++, page(["a"], {})))
        for (const drain of [
          Stream.runDrain(Paginate.pages(fetch, options)),
          Stream.runDrain(Paginate.items(fetch, options)),
          Stream.runDrain(Paginate.nodes(fetch, options))
        ]) {
          const error = yield* Effect.flip(drain)
          expect(error, JSON.stringify(options)).toBeInstanceOf(Paginate.PaginationError)
          expect(error).toMatchObject({ reason: "InvalidOptions" })
          expect(error.message).toMatch(message)
        }
        expect(fetches, JSON.stringify(options)).toBe(0)
      }
    })
  )

  it.effect("the limits themselves are accepted", () =>
    Effect.gen(function* () {
      for (const options of [{ pageSize: 1 }, { pageSize: 5000 }, { prefetch: 0 }, { from: "x" }]) {
        const { error } = yield* run(scripted([page(["a"], {})]), options)
        expect(error, JSON.stringify(options)).toEqual(Option.none())
      }
    })
  )

  it("PaginationError is a tagged error carrying its message", () => {
    const error = new Paginate.PaginationError({ reason: "NoProgress", message: "stuck" })
    expect(error._tag).toBe("PaginationError")
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toBe("stuck")
  })
})
