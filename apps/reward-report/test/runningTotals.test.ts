/**
 * Totals kept in limbs add up exactly as `bigint`s do, whatever the amounts: small, across a
 * limb's carry, beyond the limbs, negative.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { RunningTotals } from "../src/internal/runningTotals.js"

const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 6n }),
  // around a limb's end (2^64) and the limbs' (2^128), and other powers of two on the way
  fc.bigInt({ min: 2n ** 64n - 5n, max: 2n ** 64n + 5n }),
  fc.bigInt({ min: 2n ** 128n - 10n ** 20n, max: 2n ** 128n + 5n }),
  fc.bigInt({ min: 2n ** 52n - 5n, max: 2n ** 52n + 5n }),
  fc.bigInt({ min: 0n, max: 10n ** 22n }),
  fc.bigInt({ min: 2n ** 104n - 10n ** 20n, max: 2n ** 104n + 5n }),
  fc.bigInt({ min: 2n ** 103n, max: 2n ** 105n }),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  fc.bigInt({ min: -(10n ** 20n), max: -1n })
)

const totalsOf = (payouts: ReadonlyArray<readonly [number, number, bigint]>) => {
  const totals = new RunningTotals()
  for (const [party, asset, value] of payouts) totals.add(party, asset, value)
  const pairs: Array<string> = []
  totals.forEachPair((party, asset, total) => pairs.push(`${asset}/${party}=${total}`))
  return { pairs, size: totals.size }
}

const expected = (payouts: ReadonlyArray<readonly [number, number, bigint]>) => {
  const sums = new Map<string, bigint>()
  for (const [party, asset, value] of payouts) {
    const key = `${asset}/${party}`
    sums.set(key, (sums.get(key) ?? 0n) + value)
  }
  return [...sums].map(([key, total]) => `${key}=${total}`)
}

describe("running totals", () => {
  it("add up exactly as bigints do, each pair once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(3000), fc.nat(3), amount), { maxLength: 200 }),
        // a few pairs paid many times, so carries and the limbs' end are crossed
        fc.array(fc.tuple(fc.nat(3), fc.nat(1), amount), { maxLength: 400 }),
        (spread, repeated) => {
          const payouts = [...spread, ...repeated]
          const { pairs, size } = totalsOf(payouts)
          expect([...pairs].sort()).toEqual(expected(payouts).sort())
          expect(size).toBe(pairs.length)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("carry from one limb to the next, and keep totals beyond both", () => {
    const limb = 2n ** 52n
    const payouts: Array<readonly [number, number, bigint]> = [
      [0, 0, limb - 1n],
      [0, 0, 1n],
      [1, 0, 2n ** 104n - 1n],
      [1, 0, 1n],
      [2, 1, 5n],
      [2, 1, -7n],
      // high limbs that add up beyond exact numbers
      [3, 0, 3n * 2n ** 103n],
      [3, 0, 3n * 2n ** 103n + 1n]
    ]
    expect(totalsOf(payouts).pairs).toEqual([
      "0/0=4503599627370496",
      `0/1=${2n ** 104n}`,
      `0/3=${3n * 2n ** 104n + 1n}`,
      "1/2=-2"
    ])
  })
})
