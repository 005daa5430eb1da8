import { describe, expect, it } from "@effect/vitest"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import { ConfigError, Effect, Layer, Redacted } from "effect"
import { TransactionSubmitter } from "@vega-effect/submitter"
import { keyOf } from "./support.js"

/** What JavaScript callers and configuration pass where a value belongs. */
const BAD: ReadonlyArray<any> = [undefined, null, 42, ""]

/** A client that must never be used: bad options fail before the submitter reads anything. */
const unusedClient = Layer.succeed(DataNodeClient.DataNodeClient, {} as DataNodeClient.Service)

const failureOf = (options: unknown) =>
  TransactionSubmitter.make(options as TransactionSubmitter.Options).pipe(
    Effect.scoped,
    Effect.provide(Layer.merge(unusedClient, ProofOfWork.layerSingleThread)),
    Effect.flip
  )

describe("bad input is a typed error", () => {
  it.effect("options or a key that are not one fail with KeyError", () =>
    Effect.gen(function* () {
      for (const bad of BAD) {
        expect(yield* failureOf(bad)).toBeInstanceOf(Keys.KeyError)
        expect(yield* failureOf({ key: bad })).toBeInstanceOf(Keys.KeyError)
        expect(yield* failureOf({ key: Redacted.make(bad) })).toBeInstanceOf(Keys.KeyError)
      }
      const error = yield* failureOf({ key: { publicKey: "ab", secret: "deadbeef" } })
      expect(error).toBeInstanceOf(Keys.KeyError)
      expect(error.message).not.toContain("deadbeef")
    })
  )

  it.effect("other unusable options fail with a ConfigError naming them", () =>
    Effect.gen(function* () {
      const key = keyOf(1)
      const cases: ReadonlyArray<readonly [string, unknown]> = [
        ["mode", "fast"],
        ["chainId", ""],
        ["requestTimeout", "soon"],
        ["headTtl", ""],
        ["powTimeout", null],
        ["resultTimeout", {}],
        ["poolSize", -1],
        ["probes", "6"],
        ["safetyBlocks", 1.5],
        ["maxExtraDifficulty", null],
        ["syncSpamStatistics", "yes"]
      ]
      for (const [name, value] of cases) {
        const error = yield* failureOf({ key, [name]: value })
        expect(ConfigError.isConfigError(error), name).toBe(true)
        expect(DataNodeClient.configProblems(error as ConfigError.ConfigError)[0]).toMatch(new RegExp(`^${name}: `))
      }
      for (const bad of BAD) {
        if (bad === undefined) continue
        for (const name of ["mode", "chainId", "headTtl", "poolSize"]) {
          const value = bad === 42 && name !== "mode" && name !== "chainId" ? (name === "headTtl" ? "x" : -42) : bad
          expect(ConfigError.isConfigError(yield* failureOf({ key, [name]: value })), `${name} ${bad}`).toBe(true)
        }
      }
    })
  )
})
