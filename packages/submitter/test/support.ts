import { FetchHttpClient } from "@effect/platform"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Context, type Duration, Effect, Either, Fiber, Layer } from "effect"
import { TransactionSubmitter } from "@vega-effect/submitter"

/** The wallet vector of the Vega sources (js-crypto docs/test-vectors.md). */
export const MNEMONIC =
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"

export const keyOf = (index: number) => Either.getOrThrow(Keys.fromMnemonic(MNEMONIC, { index }))

/** A simulator with blocks by hand and an easy proof of work, and a submitter for a key on it. */
export const setup = (
  simulator: Simulator.Options = {},
  submitter: Partial<TransactionSubmitter.Options> = {},
  client: Partial<DataNodeClient.Options> = {}
) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({
      seed: 5,
      blockInterval: "manual",
      ...simulator,
      spam: { difficulty: 4, ...simulator.spam }
    })
    const service = yield* submitterOn(sim, submitter, client)
    return { sim, submitter: service }
  })

/** Another submitter on the same simulator (by default its client does not pace: the simulator does not limit). */
export const submitterOn = (
  sim: Simulator.Service,
  options: Partial<TransactionSubmitter.Options> = {},
  client: Partial<DataNodeClient.Options> = {}
) =>
  Layer.build(
    TransactionSubmitter.layer({ key: keyOf(1), poolSize: 0, headTtl: "50 millis", ...options }).pipe(
      Layer.provide(
        DataNodeClient.layer({
          urls: sim.urls,
          rateLimit: false,
          retries: 8,
          backoff: { base: "20 millis", max: "200 millis" },
          ...client
        })
      ),
      Layer.provide(ProofOfWork.layerSingleThread),
      Layer.provide(FetchHttpClient.layer)
    )
  ).pipe(Effect.map(Context.get(TransactionSubmitter.TransactionSubmitter)))

/** Advances one block at a time until `done` resolves (for waits on a simulator whose blocks move by hand). */
export const advanceUntil = <A, E>(
  sim: Simulator.Service,
  done: Effect.Effect<A, E>,
  every: Duration.DurationInput = "20 millis"
) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(done)
    const ticker = yield* Effect.fork(Effect.forever(Effect.zipRight(Effect.sleep(every), sim.advance(1))))
    const result = yield* Fiber.await(fiber)
    yield* Fiber.interrupt(ticker)
    return yield* result
  })
