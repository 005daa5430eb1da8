/**
 * The data-node client as `@vega-effect/http` configures it: the nodes and `--timeout` the
 * command line gives (nodes from `--node`, else `VEGA_DATANODE_URLS`), and the transport's
 * settings from `DataNodeClient.transportConfig()` (`VEGA_DATANODE_TIMEOUT`,
 * `VEGA_DATANODE_RETRIES`); the report's own default timeout last.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { DataNodeClient } from "@vega-effect/http"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { DEFAULT_TIMEOUT } from "./Variables.js"

/** The prefix of the client's variables. */
export const PREFIX = DataNodeClient.ENV_PREFIX

export interface Given {
  /** The nodes to read (the command line's, or the environment's), or a simulator's. */
  readonly urls: ReadonlyArray<string>
  /** `--timeout`, when given. */
  readonly timeout?: Duration.Duration | undefined
}

/** The client's configuration on the given nodes; unpaced for a simulator in this process (it does not rate-limit). */
const configOn = (given: Given, paced: boolean): Config.Config<DataNodeClient.Options> =>
  Config.map(
    DataNodeClient.transportConfig(PREFIX, given.timeout === undefined ? {} : { timeout: given.timeout }),
    (transport) => ({
      ...transport,
      urls: given.urls,
      timeout: transport.timeout ?? DEFAULT_TIMEOUT,
      ...(paced ? {} : { rateLimit: false as const })
    })
  )

/** The client's options; fails naming the variable when one is not readable. */
export const options = (given: Given): Effect.Effect<DataNodeClient.Options, ConfigError.ConfigError> =>
  configOn(given, true)

/** The client over undici. */
export const layer = (given: Given, paced: boolean) =>
  DataNodeClient.layerConfig(configOn(given, paced)).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** The problems with the client's variables, given `--timeout` or not: none when they are readable. */
export const check = (timeout: Duration.Duration | undefined): Effect.Effect<ReadonlyArray<string>> =>
  Effect.map(Effect.either(options({ urls: [], timeout })), (read) =>
    Either.isLeft(read) ? DataNodeClient.configProblems(read.left) : []
  )
