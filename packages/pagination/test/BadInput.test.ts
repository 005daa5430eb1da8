import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Paginate } from "@vega-effect/pagination"

/** What JavaScript callers and configuration pass where a value belongs. */
const BAD: ReadonlyArray<any> = [undefined, null, 42, ""]

const empty: Paginate.Page<string> = {
  items: [],
  hasNextPage: false,
  hasPreviousPage: false,
  startCursor: "",
  endCursor: ""
}
const fetch = (_: Paginate.PageParams) => Effect.succeed(empty)

/** The reason the walk failed with; fails the test on anything but a `PaginationError`. */
const reasonOf = (stream: Stream.Stream<unknown, Paginate.PaginationError>) =>
  Stream.runDrain(stream).pipe(
    Effect.flip,
    Effect.map((error) => {
      expect(error).toBeInstanceOf(Paginate.PaginationError)
      return error.reason
    })
  )

describe("bad input is a typed error", () => {
  it.effect("options that are not an object, and bad members, fail with InvalidOptions", () =>
    Effect.gen(function* () {
      for (const bad of BAD) {
        if (bad !== undefined) {
          expect(yield* reasonOf(Paginate.pages(fetch, bad))).toBe("InvalidOptions")
          expect(yield* reasonOf(Paginate.items(fetch, bad))).toBe("InvalidOptions")
          expect(yield* reasonOf(Paginate.nodes(fetch, bad))).toBe("InvalidOptions")
        }
        expect(
          yield* reasonOf(Paginate.pages(fetch, { direction: bad === undefined || bad === null ? "sideways" : bad }))
        ).toBe("InvalidOptions")
        expect(yield* reasonOf(Paginate.pages(fetch, { pageSize: typeof bad === "string" ? (bad as never) : 0 }))).toBe(
          "InvalidOptions"
        )
        if (bad !== undefined) expect(yield* reasonOf(Paginate.pages(fetch, { from: bad }))).toBe("InvalidOptions")
      }
    })
  )

  it.effect("a fetch that is not a function fails with InvalidOptions, not a defect", () =>
    Effect.gen(function* () {
      for (const bad of BAD) {
        expect(yield* reasonOf(Paginate.pages(bad, {}))).toBe("InvalidOptions")
        expect(yield* reasonOf(Paginate.nodes(bad))).toBe("InvalidOptions")
      }
    })
  )

  it.effect("the error says what was wrong and what it got", () =>
    Effect.gen(function* () {
      const messageOf = (stream: Stream.Stream<unknown, Paginate.PaginationError>) =>
        Effect.map(Effect.flip(Stream.runDrain(stream)), (error) => error.message)
      expect(yield* messageOf(Paginate.pages(42 as any))).toBe(
        "the fetch must be a function from page parameters to a page, got 42"
      )
      expect(yield* messageOf(Paginate.pages(fetch, 42 as any))).toBe("the options must be an object, got 42")
    })
  )
})

describe("resumeCursor of something that is not an item or a page", () => {
  it("throws a RangeError naming what it got, not a TypeError", () => {
    for (const bad of [...BAD, {}, { items: "x" }, { cursor: 7 }]) {
      expect(() => Paginate.resumeCursor(bad)).toThrow(RangeError)
      expect(() => Paginate.resumeCursor(bad)).toThrow(/^Paginate.resumeCursor: Expected an item or a page, got /)
    }
    expect(Paginate.resumeCursor({ node: "a", cursor: "c1" })).toBe("c1")
    expect(Paginate.resumeCursor(empty)).toBeUndefined()
  })
})
