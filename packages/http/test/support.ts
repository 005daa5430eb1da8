import {
  FetchHttpClient,
  HttpClient,
  type HttpClientError,
  type HttpClientRequest,
  HttpClientResponse
} from "@effect/platform"
import { expect } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Clock, Duration, Effect, Fiber, Layer, TestClock } from "effect"

/** A simulator and a client over all its nodes. */
export const stack = (simulator: Simulator.Options, client: Partial<DataNodeClient.Options> = {}) =>
  Layer.unwrapEffect(
    Effect.map(Simulator.Simulator, (sim) => DataNodeClient.layer({ urls: sim.urls, ...client }))
  ).pipe(
    Layer.provideMerge(Simulator.layer({ blockInterval: "manual", ...simulator })),
    Layer.provide(FetchHttpClient.layer)
  )

/** The raw JSON the first node answers for a path, to compare with the client's decoding. */
export const raw = (path: string) =>
  Effect.flatMap(Simulator.Simulator, (sim) =>
    Effect.promise(() => fetch(sim.url + path).then((r) => r.json() as Promise<unknown>))
  )

/** A request an in-memory node got, with the time it came (test clock millis). */
export interface Sent {
  readonly url: string
  readonly at: number
  readonly request: HttpClientRequest.HttpClientRequest
}

/**
 * An `HttpClient` that reaches no network: `answer` gives the outcome of each request (its number
 * from 1), a web `Response` or a platform error, and every request is kept in `sent`.
 */
export const fakeHttp = (
  answer: (
    request: HttpClientRequest.HttpClientRequest,
    n: number
  ) => Effect.Effect<Response, HttpClientError.HttpClientError>
) => {
  const sent: Array<Sent> = []
  const client = HttpClient.make((request) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      sent.push({ url: request.url, at, request })
      return Effect.map(answer(request, sent.length), (response) => HttpClientResponse.fromWeb(request, response))
    })
  )
  return { sent, client }
}

/** A JSON answer. */
export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

/**
 * Checks that `fiber` ends `millis` from now on the test clock and not a millisecond sooner
 * (`millis` 0: ends without the clock moving).
 */
export const endsAfter = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, millis: number) =>
  Effect.gen(function* () {
    if (millis > 0) {
      yield* TestClock.adjust(Duration.millis(millis - 1))
      expect(fiber.unsafePoll(), `ended before ${millis} ms`).toBeNull()
    }
    yield* TestClock.adjust(Duration.millis(millis === 0 ? 0 : 1))
    expect(fiber.unsafePoll(), `still waiting after ${millis} ms`).not.toBeNull()
    return yield* Fiber.join(fiber)
  })
