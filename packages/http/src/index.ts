/**
 * The Vega data-node client as an Effect service: typed queries and streams, timeouts, retries,
 * rate-limit pacing and multi-node failover. Each module is a namespace of the package
 * (`import { DataNodeClient } from "@vega-effect/http"`) and a subpath of its own
 * (`@vega-effect/http/DataNodeClient`).
 *
 * @since 0.1.0
 */

/**
 * The data-node client: typed queries and streams over one or several nodes.
 *
 * @since 0.1.0
 */
export * as DataNodeClient from "./DataNodeClient.js"

/**
 * The errors of the data-node client, one tagged class per kind.
 *
 * @since 0.1.0
 */
export * as DataNodeError from "./DataNodeError.js"

/**
 * Live streams of a data node (positions, liquidity provisions, the event bus) as reconnecting
 * streams over WebSocket.
 *
 * @since 0.1.0
 */
export * as LiveStream from "./LiveStream.js"

/**
 * Where answers came from: the node, block height and block time of each successful answer.
 *
 * @since 0.1.0
 */
export * as ReadTracking from "./ReadTracking.js"

/**
 * A share of the node's request rate for a piece of work.
 *
 * @since 0.1.0
 */
export * as RequestBudget from "./RequestBudget.js"

/**
 * When to try again, and after how long: the toolkit's retry policy.
 *
 * @since 0.1.0
 */
export * as RetryPolicy from "./RetryPolicy.js"
export * as FailureText from "./FailureText.js"
