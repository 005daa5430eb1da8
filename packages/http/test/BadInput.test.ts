import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient, RequestBudget, RetryPolicy } from "@vega-effect/http"
import { ConfigError, Duration, Effect, Either, Layer } from "effect"

/** What JavaScript callers and configuration pass where a value belongs. */
const BAD: ReadonlyArray<any> = [undefined, null, 42, ""]

/** A client that must never be reached: bad options fail before any request. */
const unreachable = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) => Effect.die(`unexpected request to ${request.url}`)) as HttpClient.HttpClient
)

const failureOf = (options: unknown) =>
  DataNodeClient.make(options as DataNodeClient.Options).pipe(
    Effect.scoped,
    Effect.provide(unreachable),
    Effect.flip,
    Effect.map((error) => {
      expect(ConfigError.isConfigError(error)).toBe(true)
      return DataNodeClient.configProblems(error)
    })
  )

describe("bad input is a typed error", () => {
  it.effect("DataNodeClient.make fails with a ConfigError naming the option", () =>
    Effect.gen(function* () {
      for (const bad of BAD) {
        expect((yield* failureOf(bad))[0]).toMatch(/^: Expected the client's options/)
        expect((yield* failureOf({ urls: bad }))[0]).toMatch(
          /^urls: Expected at least one node URL|^urls: Expected node URLs/
        )
        expect((yield* failureOf({ urls: [bad] }))[0]).toMatch(/^urls: Expected node URLs/)
        expect(
          (yield* failureOf({ urls: "http://a", timeout: bad === 42 || bad === undefined ? "soon" : bad }))[0]
        ).toMatch(/^timeout: Expected a duration/)
        if (bad !== undefined) {
          expect((yield* failureOf({ urls: "http://a", retries: bad === 42 ? -1 : bad }))[0]).toMatch(/^retries:/)
          expect((yield* failureOf({ urls: "http://a", backoff: { max: bad === 42 ? "x" : bad } }))[0]).toMatch(
            /^backoff.max:/
          )
        }
      }
      expect((yield* failureOf({ urls: ["http://a", "ftp://b"] }))[0]).toContain('"ftp://b"')
      expect((yield* failureOf({ urls: [] }))[0]).toMatch(/^urls: Expected at least one node URL/)
    })
  )

  it.effect("DataNodeClient.layer fails the same way", () =>
    Effect.gen(function* () {
      const error = yield* Layer.build(DataNodeClient.layer({ urls: undefined as any })).pipe(
        Effect.scoped,
        Effect.provide(unreachable),
        Effect.flip
      )
      expect(ConfigError.isConfigError(error)).toBe(true)
    })
  )

  it("RequestBudget.make throws its RangeError", () => {
    for (const bad of BAD) {
      expect(() => RequestBudget.make(bad)).toThrow(RangeError)
      expect(() => RequestBudget.make({ perSecond: bad === 42 ? "42" : bad })).toThrow(RangeError)
      expect(() => RequestBudget.make({ perSecond: 1, burst: bad === 42 ? "42" : (bad ?? Number.NaN) })).toThrow(
        RangeError
      )
    }
  })
})

describe("RetryPolicy with unusable options", () => {
  it("throws a RangeError naming the option, not a TypeError", () => {
    for (const bad of [null, 42, ""]) {
      expect(() => RetryPolicy.schedule(bad as any)).toThrow(
        /^RetryPolicy: Expected \{ retries\?, base\?, max\?, jitter\? \}/
      )
      expect(() => RetryPolicy.backoff(bad as any)).toThrow(RangeError)
      expect(() => RetryPolicy.ceiling(1, bad as any)).toThrow(RangeError)
    }
    expect(() => RetryPolicy.schedule({ retries: -1 })).toThrow(
      /^RetryPolicy option retries: Expected an integer from 0, got -1/
    )
    expect(() => RetryPolicy.schedule({ retries: 1.5 })).toThrow(RangeError)
    expect(() => RetryPolicy.backoff({ base: "soon" as any })).toThrow(/^RetryPolicy option base: Expected a duration/)
    expect(() => RetryPolicy.backoff({ jitter: "no" as any })).toThrow(/^RetryPolicy option jitter:/)
    expect(() => RetryPolicy.ceiling(undefined as any)).toThrow(/^RetryPolicy.ceiling: Expected a retry number/)
    // what the documentation allows still works
    expect(Duration.toMillis(RetryPolicy.ceiling(3, { base: "100 millis", max: "1 second" }))).toBe(800)
    expect(RetryPolicy.schedule()).toBeDefined()
    expect(RetryPolicy.schedule(undefined)).toBeDefined()
  })
})

// the options checks accept what the client is documented to take
it.effect("good options still make a client", () =>
  DataNodeClient.make({ urls: ["http://127.0.0.1:1/"], timeout: "2 seconds", retries: 0, rateLimit: false }).pipe(
    Effect.scoped,
    Effect.provide(unreachable),
    Effect.either,
    Effect.map((result) => expect(Either.isRight(result)).toBe(true))
  )
)
