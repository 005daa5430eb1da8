import { FetchHttpClient } from "@effect/platform"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Layer } from "effect"

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
