/**
 * What a handler reads: the shared world as of this node's height, and whether the node
 * reproduces the real v0.75 node's known bugs.
 */
import type { World } from "../../World.js"

export interface NodeView {
  readonly world: World
  /** The height this node has processed; it may trail the world's when the node lags. */
  readonly height: number
  /** Reproduce the v0.75 node's quirks instead of the correct behaviour. */
  readonly quirks: boolean
}
