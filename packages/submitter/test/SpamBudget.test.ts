import { describe, expect, it } from "@effect/vitest"
import { type ChainHead, SpamBudget } from "../src/internal/spamBudget.js"

const hashOf = (height: bigint) => height.toString(16).padStart(64, "0")

const head = (height: bigint, overrides: Partial<ChainHead> = {}): ChainHead => ({
  height,
  hash: hashOf(height),
  chainId: "test-chain",
  difficulty: 10,
  pastBlocks: 20,
  txPerBlock: 2,
  increasingDifficulty: false,
  ...overrides
})

describe("SpamBudget", () => {
  it("gives each height its allowance at base difficulty, newest first, then asks to wait", () => {
    const budget = new SpamBudget({ safetyBlocks: 2, maxDifficulty: 15 })
    for (let h = 100n; h <= 102n; h++) budget.observe(head(h))
    const slots = Array.from({ length: 6 }, () => budget.reserve(head(102n)))
    expect(slots.map((s) => s?.height)).toEqual([102n, 102n, 101n, 101n, 100n, 100n])
    expect(slots.every((s) => s?.difficulty === 10)).toBe(true)
    expect(slots[0]?.hash).toBe(hashOf(102n))
    // every known height used up and increasing difficulty off: wait for a new block
    expect(budget.reserve(head(102n))).toBeUndefined()
    budget.observe(head(103n))
    expect(budget.reserve(head(103n))?.height).toBe(103n)
  })

  it("keeps the safety margin before a height leaves the window", () => {
    const budget = new SpamBudget({ safetyBlocks: 5, maxDifficulty: 15 })
    for (let h = 1n; h <= 30n; h++) budget.observe(head(h))
    // usable while h + 20 > 30, i.e. h >= 11, minus 5 blocks of margin: h >= 16
    expect(budget.usable(head(30n))).toEqual(Array.from({ length: 15 }, (_, i) => 30n - BigInt(i)))
  })

  it("forgets heights that left the window", () => {
    const budget = new SpamBudget({ safetyBlocks: 0, maxDifficulty: 15 })
    budget.observe(head(1n))
    budget.reserve(head(1n))
    budget.observe(head(21n))
    expect(budget.count(1n)).toBe(0)
    expect(budget.usable(head(21n))).toEqual([21n])
  })

  it("raises the difficulty per batch of txPerBlock when increasing difficulty is on", () => {
    const budget = new SpamBudget({ safetyBlocks: 0, maxDifficulty: 12 })
    const h = head(50n, { increasingDifficulty: true })
    budget.observe(h)
    const difficulties = Array.from({ length: 6 }, () => budget.reserve(h)?.difficulty)
    // 2 at base, 2 at base + 1, 2 at base + 2 (the node's rule: sum of zeros >= expected total)
    expect(difficulties).toEqual([10, 10, 11, 11, 12, 12])
    // base + 3 is above the configured maximum: wait instead
    expect(budget.reserve(h)).toBeUndefined()
  })

  it("prefers base difficulty at an older height over a raised one at the newest", () => {
    const budget = new SpamBudget({ safetyBlocks: 0, maxDifficulty: 20 })
    budget.observe(head(9n, { increasingDifficulty: true }))
    const h = head(10n, { increasingDifficulty: true })
    budget.observe(h)
    const slots = Array.from({ length: 5 }, () => budget.reserve(h))
    expect(slots.map((s) => [s?.height, s?.difficulty])).toEqual([
      [10n, 10],
      [10n, 10],
      [9n, 10],
      [9n, 10],
      [10n, 11]
    ])
  })

  it("learns what the node counted, so another process's use of the key is respected", () => {
    const budget = new SpamBudget({ safetyBlocks: 0, maxDifficulty: 15 })
    budget.observe(head(7n))
    budget.learn(7n, hashOf(7n), 2)
    budget.learn(6n, hashOf(6n), 1)
    expect(budget.reserve(head(7n))?.height).toBe(6n)
    expect(budget.reserve(head(7n))).toBeUndefined()
  })

  it("prefers, among equal slots, a height with a proof of work ready", () => {
    const budget = new SpamBudget({ safetyBlocks: 0, maxDifficulty: 15 })
    budget.observe(head(4n))
    budget.observe(head(5n))
    expect(budget.reserve(head(5n), (h) => h === 4n)?.height).toBe(4n)
    expect(budget.freeBaseSlots(head(5n))).toEqual([
      { height: 5n, hash: hashOf(5n), free: 2 },
      { height: 4n, hash: hashOf(4n), free: 1 }
    ])
  })
})
