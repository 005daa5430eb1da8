/**
 * The contract between the simulated core's transaction side (mempool, checks, block building),
 * the world it applies transactions to, and the streams that report what happened.
 *
 * A block is built when the simulator advances: the core picks the transactions it includes, each
 * is applied to the world at that height and gives a `TransactionResult`, and the block's results
 * are published on the {@link ResultFeed} that the stream routes read.
 */
import type { Commands, TransactionResult } from "@vega-effect/schema"
import type { BlockChanges } from "../world/journal.js"

/** A user transaction the core included in a block, ready to be applied to the world. */
export interface IncludedTransaction {
  /** Lowercase hex SHA-256 of the transaction bytes, as the node hashed them. */
  readonly hash: string
  /** The submitter's public key, as sent (`pubKey`). */
  readonly partyId: string
  readonly command: Commands.Command
  /** Hex of the signature value; the seed of the transaction's deterministic ids. */
  readonly signature: string
  /** The height of the block that includes the transaction. */
  readonly height: number
  /** The transaction's position in its block (0-based). */
  readonly index: number
}

/** One included transaction and what came of it. */
export interface IncludedResult {
  readonly transaction: IncludedTransaction
  readonly result: TransactionResult.TransactionResult
}

/** What a block produced. */
export interface BlockResults {
  readonly height: number
  /** Lowercase hex hash of the block. */
  readonly blockHash: string
  /** Block time, unix microseconds. */
  readonly timeMicros: number
  readonly results: ReadonlyArray<IncludedResult>
  /**
   * What the block changed in the world (its own processing, then each transaction's); absent
   * for a block published by hand, which changed nothing.
   */
  readonly changes?: BlockChanges | undefined
}

/**
 * The blocks' results, published in height order (a block with no transactions is published too,
 * with no results). Keeps the most recent blocks so that a node lagging the chain can deliver them
 * once it reaches their height.
 */
export interface ResultFeed {
  readonly publish: (block: BlockResults) => void
  /** Calls `listener` for every block published from now on; returns the unsubscribe function. */
  readonly subscribe: (listener: (block: BlockResults) => void) => () => void
  /** Published blocks still kept, oldest first. */
  readonly recent: () => ReadonlyArray<BlockResults>
  /** How many listeners are subscribed: the open results streams, and the core's own waits for a block. */
  readonly listeners: () => number
}

/** A feed keeping the last `keep` blocks (default 1,000). */
export const makeResultFeed = (keep = 1_000): ResultFeed => {
  const listeners = new Set<(block: BlockResults) => void>()
  const kept: Array<BlockResults> = []
  return {
    publish: (block) => {
      kept.push(block)
      if (kept.length > keep) kept.splice(0, kept.length - keep)
      for (const listener of [...listeners]) listener(block)
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    recent: () => kept,
    listeners: () => listeners.size
  }
}
