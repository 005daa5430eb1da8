/**
 * The chain's clock: block heights, block times (unix microseconds, strictly increasing, about one
 * block per second of chain time), block hashes and epochs, all derived from the seed.
 */
import { makeRandom, mix } from "../random.js"

export interface ChainOptions {
  readonly seed: number
  /** Chain time of block 1, unix microseconds. */
  readonly genesisMicros: number
  readonly blocksPerEpoch: number
  readonly chainId: string
}

export interface Chain extends ChainOptions {
  /** Block time of a height in unix microseconds. */
  readonly blockTime: (height: number) => number
  /** Lowercase hex hash of a block. */
  readonly blockHash: (height: number) => string
  /** The epoch a height belongs to (epochs are numbered from 1). */
  readonly epochOf: (height: number) => number
  readonly epochFirstBlock: (epoch: number) => number
  readonly epochLastBlock: (epoch: number) => number
}

export const makeChain = (options: ChainOptions): Chain => {
  const { blocksPerEpoch, genesisMicros, seed } = options
  // each block lands somewhere in its own second, so times are increasing and carry microseconds
  const blockTime = (height: number) => genesisMicros + (height - 1) * 1_000_000 + (mix(seed, height, 1) % 999_000)
  const blockHash = (height: number) => makeRandom(mix(seed, height, 2)).hex(32)
  const epochOf = (height: number) => Math.max(1, Math.ceil(height / blocksPerEpoch))
  return {
    ...options,
    blockTime,
    blockHash,
    epochOf,
    epochFirstBlock: (epoch) => (epoch - 1) * blocksPerEpoch + 1,
    epochLastBlock: (epoch) => epoch * blocksPerEpoch
  }
}
