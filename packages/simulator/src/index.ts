/**
 * A local Vega network that behaves like the real one: a deterministic world served by one or more
 * data nodes over HTTP, with lag, faults and rate limits. Each module is a namespace of the
 * package (`import { Simulator } from "@vega-effect/simulator"`) and a subpath of its own
 * (`@vega-effect/simulator/Simulator`).
 *
 * @since 0.1.0
 */

/**
 * Faults a simulated node can inject: slow answers, internal errors, bursts of 429s, connections
 * reset in the middle of a body, and bodies cut short.
 *
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"

/**
 * The data node's rate limiter: a token bucket per client IP, with the node's figures.
 *
 * @since 0.1.0
 */
export * as RateLimit from "./RateLimit.js"

/**
 * A running simulated network: one world served by one or more data nodes over HTTP.
 *
 * @since 0.1.0
 */
export * as Simulator from "./Simulator.js"

/**
 * The simulated network's state, generated deterministically from a seed and evolving block by
 * block.
 *
 * @since 0.1.0
 */
export * as World from "./World.js"
