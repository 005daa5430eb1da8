/**
 * What `vega-sim` does once its flags are read: builds the world, serves it, says where, and
 * serves until interrupted. Loaded only then (see `cli.ts`).
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Simulator from "../Simulator.js"

export const serve = (options: Simulator.Options, seed: string): Effect.Effect<never, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const started = Date.now()
    const sim = yield* Simulator.make(options)
    yield* Console.log(
      `vega-sim: world of seed ${seed} at height ${sim.world.height} built in ${((Date.now() - started) / 1000).toFixed(1)} s`
    )
    for (const node of sim.nodes) yield* Console.log(`${node.name} ${node.url}`)
    return yield* Effect.never
  })
