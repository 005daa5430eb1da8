/**
 * The mempool: transactions the core accepted and no block has included yet, in arrival order.
 * Its keys double as CometBFT's mempool cache: the same bytes again while they wait here are
 * refused before any check (`tx already exists in cache`).
 */
import type { HashedTransaction } from "./powEngine.js"

export interface MempoolEntry {
  readonly tx: HashedTransaction
  readonly bytes: Uint8Array
}

/** The error CometBFT returns for bytes already in its mempool cache. */
export const TX_IN_CACHE = "tx already exists in cache"

export class Mempool {
  // a Map iterates in insertion order: the order the proposer takes transactions in
  private readonly entries = new Map<string, MempoolEntry>()

  get size(): number {
    return this.entries.size
  }

  /** Whether bytes with this hash (lowercase hex) are waiting. */
  has(hash: string): boolean {
    return this.entries.has(hash)
  }

  add(entry: MempoolEntry): void {
    this.entries.set(entry.tx.hash, entry)
  }

  remove(hash: string): void {
    this.entries.delete(hash)
  }

  /** The waiting transactions, oldest first (a copy: the caller may remove while iterating). */
  list(): ReadonlyArray<MempoolEntry> {
    return [...this.entries.values()]
  }
}
