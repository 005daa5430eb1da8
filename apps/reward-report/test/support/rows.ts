/**
 * Per-epoch rows for tests that put rows through the report's row stores: ids, times and a
 * deterministic pseudo-random sequence, so a failure can be replayed.
 */
import type { Reward } from "@vega-effect/schema"
import type { RowFields } from "../../src/RowOrder.js"

/** A 64-hex id from a number. */
export const hex = (n: number): string => n.toString(16).padStart(64, "0")

/** When an epoch's rewards are paid, in Unix nanoseconds. */
export const epochStart = (epoch: bigint): bigint => 1_700_000_000_000_000_000n + epoch * 3_600_000_000_000n

/** A deterministic pseudo-random sequence in [0, 1). */
export const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

export const shuffled = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const next = random(seed)
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy
}

/** A row as the client decodes it from the node (the fields the report does not read made up). */
export const rewardOf = (row: RowFields): Reward.Reward =>
  ({
    ...row,
    marketId: "",
    quantumAmount: 0n
  }) as unknown as Reward.Reward
