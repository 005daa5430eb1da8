import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { DurationText } from "@vega-effect/schema"
import { ConfigProvider, Duration, Effect, Either } from "effect"

const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("the client's configuration", () => {
  it.effect("reads the nodes, and the timeout in the one duration syntax", () =>
    Effect.gen(function* () {
      for (const [text, duration] of DurationText.EXAMPLES) {
        const options = yield* DataNodeClient.config().pipe(
          withEnv({
            VEGA_DATANODE_URLS: "http://a:1,http://b:2",
            VEGA_DATANODE_TIMEOUT: text,
            VEGA_DATANODE_RETRIES: "3"
          })
        )
        expect(options.urls).toEqual(["http://a:1", "http://b:2"])
        expect(Duration.decode(options.timeout!), text).toEqual(duration)
        expect(options.retries).toBe(3)
      }
    })
  )

  it.effect("leaves out what is unset, so the client's defaults apply", () =>
    Effect.gen(function* () {
      expect(yield* DataNodeClient.transportConfig().pipe(withEnv({}))).toEqual({})
      const missing = yield* Effect.either(DataNodeClient.config().pipe(withEnv({})))
      expect(Either.isLeft(missing)).toBe(true)
    })
  )

  it.effect("what an application gives wins, and its variable is not read", () =>
    Effect.gen(function* () {
      const options = yield* DataNodeClient.transportConfig("VEGA_DATANODE_", { timeout: "5 seconds" }).pipe(
        withEnv({ VEGA_DATANODE_TIMEOUT: "soon", VEGA_DATANODE_RETRIES: "2" })
      )
      expect(options).toEqual({ timeout: "5 seconds", retries: 2 })
    })
  )

  it.effect("names every bad variable, one line each", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        DataNodeClient.config().pipe(
          withEnv({ VEGA_DATANODE_URLS: "http://a:1", VEGA_DATANODE_TIMEOUT: "soon", VEGA_DATANODE_RETRIES: "many" })
        )
      )
      const problems = DataNodeClient.configProblems(error)
      expect(problems).toHaveLength(2)
      expect(problems[0]).toMatch(/^VEGA_DATANODE_TIMEOUT: Expected a duration such as .*"soon"/)
      expect(problems[1]).toMatch(/^VEGA_DATANODE_RETRIES: /)
    })
  )
})
