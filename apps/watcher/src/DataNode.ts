/**
 * The data-node client as `@vega-effect/http` configures it: `DataNodeClient.config()` reads
 * `VEGA_DATANODE_URLS`, `VEGA_DATANODE_TIMEOUT` and `VEGA_DATANODE_RETRIES`, and
 * `DataNodeClient.layerConfig` builds the client from that. The URLs are the nodes the watcher's
 * configuration resolved (`--node`, then `VEGA_DATANODE_URLS`, then the file's `nodes`; or the
 * simulator's): they are put in front of the environment, which still gives the timeout and the
 * retries.
 */
import { DataNodeClient } from "@vega-effect/http"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The prefix of the client's variables: `DataNodeClient.config()`'s default. */
export const PREFIX = "VEGA_DATANODE_"

/** The variable naming the data nodes, comma-separated: the fallback of `--node`. */
export const URLS = `${PREFIX}URLS`

/** Runs `effect` with `urls` as `VEGA_DATANODE_URLS`, the current ConfigProvider (the environment) behind them. */
const onNodes =
  (urls: ReadonlyArray<string>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.configProviderWith((environment) =>
      Effect.withConfigProvider(
        effect,
        ConfigProvider.fromMap(new Map([[URLS, urls.join(",")]])).pipe(ConfigProvider.orElse(() => environment))
      )
    )

/** The client's configuration on exactly these nodes (`VEGA_DATANODE_URLS` splits on commas). */
const configOn = (urls: ReadonlyArray<string>, paced: boolean): Config.Config<DataNodeClient.Options> =>
  Config.map(DataNodeClient.config(PREFIX), (options) => ({
    ...options,
    urls,
    ...(paced ? {} : { rateLimit: false as const })
  }))

/**
 * The client's options on these nodes; fails with the variable's name when `VEGA_DATANODE_TIMEOUT`
 * or `VEGA_DATANODE_RETRIES` is not readable.
 */
export const options = (urls: ReadonlyArray<string>): Effect.Effect<DataNodeClient.Options, ConfigError.ConfigError> =>
  onNodes(urls)(configOn(urls, true))

/**
 * The client on these nodes. `paced: false` for a simulator started in this process: it does not
 * rate-limit, and the watcher is its only client.
 */
export const layer = (urls: ReadonlyArray<string>, paced: boolean) =>
  DataNodeClient.layerConfig(configOn(urls, paced)).pipe(Layer.locallyEffect(onNodes(urls)))

/** What is wrong in a configuration error, one line per bad variable (a missing one has its default). */
export const problemsOf = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
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

/** The problems with the client's variables: none when they are readable. */
export const check: Effect.Effect<ReadonlyArray<string>> = options([]).pipe(
  Effect.as([]),
  Effect.catchAll((error) => Effect.succeed(problemsOf(error)))
)
