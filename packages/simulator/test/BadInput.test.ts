import { describe, expect, it } from "@effect/vitest"
import { ConfigError, Effect, Layer } from "effect"
import { Simulator } from "@vega-effect/simulator"

/** What JavaScript callers and configuration pass where a value belongs. */
const BAD: ReadonlyArray<any> = [undefined, null, 42, ""]

/** The path of the option a `make` failed on; fails the test on anything but a `ConfigError`. */
const rejected = (options: unknown) =>
  Simulator.make(options as Simulator.Options).pipe(
    Effect.scoped,
    Effect.flip,
    Effect.map((error) => {
      expect(ConfigError.isConfigError(error), String(error)).toBe(true)
      return (error as ConfigError.InvalidData).path.join(".")
    })
  )

describe("bad input is a typed error", () => {
  it.effect("Simulator.make refuses unusable options with a ConfigError naming them", () =>
    Effect.gen(function* () {
      for (const bad of [null, 42, ""]) expect(yield* rejected(bad)).toBe("")
      for (const bad of BAD) {
        if (bad === undefined) continue
        const durationLike = bad === 42 ? "soon" : bad
        expect(yield* rejected({ blockInterval: durationLike })).toBe("blockInterval")
        expect(yield* rejected({ nodes: bad })).toBe("nodes")
        expect(yield* rejected({ nodes: [bad] })).toBe("nodes.0")
        expect(yield* rejected({ nodes: [{}, { port: bad === 42 ? 70000 : bad }] })).toBe("nodes.1.port")
        expect(yield* rejected({ nodes: [{ host: bad }] })).toBe("nodes.0.host")
        expect(yield* rejected({ nodes: [{ commitWindow: durationLike }] })).toBe("nodes.0.commitWindow")
        expect(yield* rejected({ seed: bad === 42 ? {} : bad })).toBe("seed")
        expect(yield* rejected({ chainId: bad })).toBe("chainId")
        expect(yield* rejected({ genesis: bad === 42 ? "yesterday" : bad })).toBe("genesis")
        expect(yield* rejected({ quirks: bad })).toBe("quirks")
        expect(yield* rejected({ nodeVersion: bad })).toBe("nodeVersion")
        expect(yield* rejected({ blocksPerEpoch: bad === 42 ? 0 : bad })).toBe("blocksPerEpoch")
        expect(yield* rejected({ spam: bad })).toBe("spam")
        expect(yield* rejected({ tradingEnabled: bad })).toBe("tradingEnabled")
      }
      expect(yield* rejected({ nodes: [] })).toBe("nodes")
    })
  )

  it.effect("the layers fail the same way", () =>
    Effect.gen(function* () {
      for (const layer of [Simulator.layer(null as any), Simulator.layerTest(42 as any)]) {
        const error = yield* Layer.build(layer).pipe(Effect.scoped, Effect.flip)
        expect(ConfigError.isConfigError(error)).toBe(true)
      }
    })
  )

  it.effect("good options still start a simulator", () =>
    Simulator.make({ blockInterval: "manual", nodes: [{ port: 0, commitWindow: "0 millis" }], seed: "s" }).pipe(
      Effect.map((sim) => expect(sim.urls).toHaveLength(1)),
      Effect.scoped
    )
  )
})
