/**
 * The network's proof-of-work spam parameters (`spam.pow.*`) and the difficulty arithmetic of
 * several transactions tied to the same block height (vega `core/pow/engine.go`).
 */

/** The `spam.pow.*` network parameters. */
export interface SpamParameters {
  /** `spam.pow.difficulty`: leading zero bits every proof of work needs (0 to 256). */
  readonly difficulty: number
  /** `spam.pow.numberOfPastBlocks`: how many recent heights a proof of work may be tied to (5 to 500). */
  readonly numberOfPastBlocks: number
  /** `spam.pow.numberOfTxPerBlock`: transactions per party and height at the base difficulty (1 or more). */
  readonly numberOfTxPerBlock: number
  /** `spam.pow.increaseDifficulty`: allow more transactions per height, each batch one bit harder. */
  readonly increasingDifficulty: boolean
}

/** The core's defaults, also mainnet's genesis values. */
export const defaultSpamParameters: SpamParameters = {
  difficulty: 15,
  numberOfPastBlocks: 100,
  numberOfTxPerBlock: 2,
  increasingDifficulty: false
}

/** How many recent block heights (and their hashes) the engine remembers. */
export const RING_SIZE = 500

const checkInteger = (name: string, value: number, min: number, max: number): void => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`spam.pow.${name} must be an integer from ${min} to ${max}, got ${value}`)
  }
}

/** The defaults with `overrides` applied, within the ranges the network parameters allow. */
export const spamParameters = (
  overrides: Partial<SpamParameters> = {},
  base: SpamParameters = defaultSpamParameters
): SpamParameters => {
  const params = { ...base, ...overrides }
  checkInteger("difficulty", params.difficulty, 0, 256)
  checkInteger("numberOfPastBlocks", params.numberOfPastBlocks, 5, RING_SIZE)
  checkInteger("numberOfTxPerBlock", params.numberOfTxPerBlock, 1, Number.MAX_SAFE_INTEGER)
  if (typeof params.increasingDifficulty !== "boolean") {
    throw new RangeError(`spam.pow.increaseDifficulty must be a boolean, got ${String(params.increasingDifficulty)}`)
  }
  return params
}

/**
 * The total difficulty `count` transactions of a party at one height need when difficulty
 * increases: the first `perBlock` need `base` each, the next `perBlock` need `base + 1`, and so on
 * (e.g. base 5, 10 per block, 33 transactions: 10·5 + 10·6 + 10·7 + 3·8 = 204).
 */
export const expectedTotalDifficulty = (base: number, perBlock: number, count: number): number => {
  const batches = Math.floor(count / perBlock)
  const rest = count % perBlock
  // sum over full batches i = 0..batches-1 of perBlock·(base + i), then the rest at base + batches
  return perBlock * (batches * base + (batches * (batches - 1)) / 2) + rest * (base + batches)
}

/**
 * The difficulty the next transaction of a party at a height needs, given how many of its
 * transactions that height has seen and their total difficulty; `undefined` when no more are allowed.
 */
export const nextTransactionDifficulty = (
  params: SpamParameters,
  seen: number,
  observed: number
): number | undefined => {
  if (!params.increasingDifficulty) return seen < params.numberOfTxPerBlock ? params.difficulty : undefined
  const needed = expectedTotalDifficulty(params.difficulty, params.numberOfTxPerBlock, seen + 1) - observed
  return Math.max(params.difficulty, needed)
}
