/**
 * The data-node client as `@vega-effect/http` configures it: `DataNodeClient.config()` reads
 * `VEGA_DATANODE_URLS`, `VEGA_DATANODE_TIMEOUT` and `VEGA_DATANODE_RETRIES` from the environment (the
 * current `ConfigProvider`), and `DataNodeClient.layerConfig` builds the client from that. What the
 * command line says comes first (the nodes, `--timeout`), the environment next, and the report's own
 * default timeout last.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { DataNodeClient } from "@vega-effect/http"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The prefix of the client's variables: `DataNodeClient.config()`'s default. */
export const PREFIX = "VEGA_DATANODE_"

/** The variable naming the data nodes, comma-separated: the fallback of `--node`. */
export const URLS = `${PREFIX}URLS`

const TIMEOUT = `${PREFIX}TIMEOUT`

/** Per request, when neither `--timeout` nor `VEGA_DATANODE_TIMEOUT` says: the summaries of a large network are one big answer. */
export const DEFAULT_TIMEOUT = Duration.seconds(60)

/** A duration as configuration text that Effect's `Config.duration` and `DurationText` both read. */
const asText = (duration: Duration.Duration): string => `${Duration.toMillis(duration)} millis`

export interface Given {
  /** The nodes to read (the command line's, or the environment's), or a simulator's. */
  readonly urls: ReadonlyArray<string>
  /** `--timeout`, when given. */
  readonly timeout?: Duration.Duration | undefined
}

/** Runs `effect` with what is given in front of the environment, and the report's defaults behind it. */
const withGiven =
  (given: Given) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.configProviderWith((environment) => {
      const front = new Map([[URLS, given.urls.join(",")]])
      if (given.timeout !== undefined) front.set(TIMEOUT, asText(given.timeout))
      const defaults = new Map([[TIMEOUT, asText(DEFAULT_TIMEOUT)]])
      return Effect.withConfigProvider(
        effect,
        ConfigProvider.fromMap(front).pipe(
          ConfigProvider.orElse(() => environment),
          ConfigProvider.orElse(() => ConfigProvider.fromMap(defaults))
        )
      )
    })

/** The client's configuration on exactly the given nodes (`VEGA_DATANODE_URLS` splits on commas). */
const configOn = (given: Given, paced: boolean): Config.Config<DataNodeClient.Options> =>
  Config.map(DataNodeClient.config(PREFIX), (options) => ({
    ...options,
    urls: given.urls,
    ...(paced ? {} : { rateLimit: false as const })
  }))

/** The client's options; fails with the variable's name when one is not readable. */
export const options = (given: Given): Effect.Effect<DataNodeClient.Options, ConfigError.ConfigError> =>
  withGiven(given)(configOn(given, true))

/** The client over undici; `paced` = the node's rate limits kept (off for a simulator in this process). */
export const layer = (given: Given, paced: boolean) =>
  DataNodeClient.layerConfig(configOn(given, paced)).pipe(
    Layer.locallyEffect(withGiven(given)),
    Layer.provide(NodeHttpClient.layerUndici)
  )

/** What is wrong in a configuration error, one line per bad variable (a missing one has its default). */
const problemsOf = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...new Set([...problemsOf(error.left), ...problemsOf(error.right)])]
    case "MissingData":
      return []
    default:
      return [`${error.path.join(".")}: ${error.message}`]
  }
}

/** The problems with the client's variables, given `--timeout` or not: none when they are readable. */
export const check = (timeout: Duration.Duration | undefined): Effect.Effect<ReadonlyArray<string>> =>
  options({ urls: [], timeout }).pipe(
    Effect.as([]),
    Effect.catchAll((error) => Effect.succeed(problemsOf(error)))
  )
