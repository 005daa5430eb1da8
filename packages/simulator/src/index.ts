/**
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"
export * as RateLimit from "./RateLimit.js"
export * as Simulator from "./Simulator.js"
export * as World from "./World.js"
