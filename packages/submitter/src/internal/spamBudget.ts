/**
 * The key's proof-of-work budget: which block heights it may still tie a transaction to, and at
 * what difficulty, so that no transaction is ever skipped or punished by the node's spam rules.
 *
 * The node counts a party's transactions per proof-of-work block height (not per including
 * block): the first `txPerBlock` need the base difficulty; more are skipped unless increasing
 * difficulty is on, in which case each further batch of `txPerBlock` needs one more zero bit. A
 * height is usable while `height + pastBlocks > current`. So the budget spreads transactions over
 * every known height of the window, newest first, keeping `safetyBlocks` of margin so that a
 * transaction has time to be included before its height leaves the window.
 *
 * Counts only grow: a slot is spent when it is reserved, whether or not the transaction lands.
 */

/** The proof-of-work parameters and latest block, as `/blockchain/height` reports them. */
export interface ChainHead {
  readonly height: bigint
  readonly hash: string
  readonly chainId: string
  readonly difficulty: number
  readonly pastBlocks: number
  readonly txPerBlock: number
  readonly increasingDifficulty: boolean
}

/** A height and its hash to tie a transaction to, and the difficulty its proof of work needs. */
export interface Slot {
  readonly height: bigint
  readonly hash: string
  readonly difficulty: number
}

export interface BudgetOptions {
  /** Blocks of margin kept before a height leaves the window. */
  readonly safetyBlocks: number
  /** With increasing difficulty on, the highest difficulty the budget will ask for. */
  readonly maxDifficulty: number
}

export class SpamBudget {
  /** Block hash of every height seen that may still be usable. */
  private readonly hashes = new Map<bigint, string>()
  /** Transactions tied to each height (reserved here, or seen by the node). */
  private readonly used = new Map<bigint, number>()

  constructor(private readonly options: BudgetOptions) {}

  /** Remembers a block and forgets heights that left the window. */
  observe(head: ChainHead): void {
    this.hashes.set(head.height, head.hash)
    const oldest = head.height - BigInt(head.pastBlocks)
    for (const height of this.hashes.keys()) if (height <= oldest) this.hashes.delete(height)
    for (const height of this.used.keys()) if (height <= oldest) this.used.delete(height)
  }

  /** Merges what the node says the key used (from `/statistics/spam/{party}`). */
  learn(height: bigint, hash: string, transactionsSeen: number): void {
    this.hashes.set(height, hash)
    this.used.set(height, Math.max(this.used.get(height) ?? 0, transactionsSeen))
  }

  /** Transactions already tied to a height. */
  count(height: bigint): number {
    return this.used.get(height) ?? 0
  }

  /** Heights still usable with their margin, newest first. */
  usable(head: ChainHead): Array<bigint> {
    const margin = Math.min(this.options.safetyBlocks, Math.max(0, head.pastBlocks - 1))
    // a height h is accepted while h + pastBlocks > current; keep `margin` blocks in hand
    const lowest = head.height - BigInt(head.pastBlocks) + 1n + BigInt(margin)
    return [...this.hashes.keys()].filter((h) => h >= lowest && h <= head.height).sort((a, b) => (a < b ? 1 : -1))
  }

  /** The difficulty the `n`-th (0-based) transaction at a height needs, or undefined when none is allowed. */
  difficultyFor(head: ChainHead, n: number): number | undefined {
    if (n < head.txPerBlock) return head.difficulty
    if (!head.increasingDifficulty) return undefined
    const difficulty = head.difficulty + Math.floor(n / head.txPerBlock)
    return difficulty <= this.options.maxDifficulty ? difficulty : undefined
  }

  /**
   * Reserves the best slot: a base-difficulty slot at the newest usable height if there is one,
   * else (increasing difficulty on) the cheapest raised slot; `undefined` when the key must wait
   * for a new block.
   */
  reserve(head: ChainHead, prefer?: (height: bigint) => boolean): Slot | undefined {
    const heights = this.usable(head)
    let best: { height: bigint; difficulty: number } | undefined
    for (const height of heights) {
      const difficulty = this.difficultyFor(head, this.count(height))
      if (difficulty === undefined) continue
      const better =
        best === undefined ||
        difficulty < best.difficulty ||
        (difficulty === best.difficulty && prefer !== undefined && prefer(height) && !prefer(best.height))
      if (better) best = { height, difficulty }
    }
    if (best === undefined) return undefined
    this.used.set(best.height, this.count(best.height) + 1)
    return { height: best.height, hash: this.hashes.get(best.height)!, difficulty: best.difficulty }
  }

  /** Base-difficulty slots still free, newest first (what a pool of pre-solved proofs can target). */
  freeBaseSlots(head: ChainHead): Array<{ readonly height: bigint; readonly hash: string; readonly free: number }> {
    return this.usable(head)
      .map((height) => ({ height, hash: this.hashes.get(height)!, free: head.txPerBlock - this.count(height) }))
      .filter((s) => s.free > 0)
  }
}
