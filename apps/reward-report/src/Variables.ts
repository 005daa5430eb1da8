/**
 * The environment variables the command line names, written out here so that `--help` says them
 * without loading the client or the schemas: the data-node client's prefix is `@vega-effect/http`'s
 * `DataNodeClient.ENV_PREFIX` (`cli.test.ts` checks the two agree).
 */
import * as Duration from "effect/Duration"

/** The prefix of the data-node client's variables (`VEGA_DATANODE_URLS`, `..._TIMEOUT`, `..._RETRIES`). */
export const DATANODE_PREFIX = "VEGA_DATANODE_"

/** The request limit's variable, the fallback of `--max-requests`. */
export const MAX_REQUESTS = "VEGA_REPORT_MAX_REQUESTS"

/**
 * The time limit of a request when neither `--timeout` nor `VEGA_DATANODE_TIMEOUT` gives one: the
 * summaries of a large network are one big answer.
 */
export const DEFAULT_TIMEOUT = Duration.seconds(60)
