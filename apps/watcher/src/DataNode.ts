/**
 * The data-node client as `@vega-effect/http` configures it: the nodes the watcher's
 * configuration resolved (`--node`, then `VEGA_DATANODE_URLS`, then the file's `nodes`; or the
 * simulator's), and the transport's settings from `DataNodeClient.transportConfig()`
 * (`VEGA_DATANODE_TIMEOUT`, `VEGA_DATANODE_RETRIES`).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { DataNodeClient } from "@vega-effect/http"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"

/** The prefix of the client's variables. */
export const PREFIX = DataNodeClient.ENV_PREFIX

/** The client's configuration on these nodes; unpaced for a simulator in this process (it does not rate-limit). */
const configOn = (urls: ReadonlyArray<string>, paced: boolean): Config.Config<DataNodeClient.Options> =>
  Config.map(DataNodeClient.transportConfig(PREFIX), (transport) => ({
    ...transport,
    urls,
    ...(paced ? {} : { rateLimit: false as const })
  }))

/** The client's options on these nodes; fails naming the variable when one is not readable. */
export const options = (urls: ReadonlyArray<string>): Effect.Effect<DataNodeClient.Options, ConfigError.ConfigError> =>
  configOn(urls, true)

/** The client on these nodes. */
export const layer = (
  urls: ReadonlyArray<string>,
  paced: boolean
): Layer.Layer<DataNodeClient.DataNodeClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  DataNodeClient.layerConfig(configOn(urls, paced))

/**
 * A client on one node alone, to ask each node of a pool (the pool asks whichever it picks);
 * `retries` in place of the configured ones.
 */
export const single = (
  url: string,
  paced: boolean,
  retries?: number
): Effect.Effect<DataNodeClient.Service, ConfigError.ConfigError, HttpClient.HttpClient | Scope.Scope> =>
  Effect.flatMap(configOn([url], paced), (options) =>
    DataNodeClient.make(retries === undefined ? options : { ...options, retries })
  )

/** The problems with the client's variables: none when they are readable. */
export const check: Effect.Effect<ReadonlyArray<string>> = Effect.map(Effect.either(options([])), (read) =>
  Either.isLeft(read) ? DataNodeClient.configProblems(read.left) : []
)
