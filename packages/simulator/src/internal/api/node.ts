/**
 * What a handler reads: the shared world as of the height this node can read, whether the node
 * reproduces the real v0.75 node's known bugs, and the core it forwards transactions to.
 */
import type { World } from "../../World.js"
import type { ResultFeed } from "../core/contract.js"
import type { Core } from "../core/core.js"
import type { NodeVersion } from "./nodeVersion.js"
import type { StreamControls } from "./streamControls.js"

export interface NodeView {
  readonly world: World
  /**
   * The height this node has processed (its `X-Block-Height`, and the blocks its streams have
   * delivered); it may trail the world's when the node lags.
   */
  readonly height: number
  /**
   * The height whose data the node's store serves: {@link height}, or the block before it while
   * the node commits the block it reached (its commit window).
   */
  readonly readableHeight: number
  /** Reproduce the v0.75 node's quirks instead of the correct behaviour. */
  readonly quirks: boolean
  /** The node release whose wire shapes the node writes. */
  readonly nodeVersion: NodeVersion
  /** The network's core, shared by every node: mempool, checks, block building. */
  readonly core: Core
  /** The results of the blocks the core builds. */
  readonly feed: ResultFeed
  /** Orders given to the node's open streams from outside. */
  readonly controls: StreamControls
}
