/**
 * The tables of amounts per party and asset: totals add up, equal tables are equal and any
 * difference (an amount, a pair more or less, a pair swapped for another) makes them unequal.
 * (That each id is kept once saves memory only: strings compare by value, so no test can see it.)
 */
import { describe, expect, it } from "@effect/vitest"
import { Amounts, Ids } from "../src/Amounts.js"

const hex = (n: number) => n.toString(16).padStart(64, "0")
const [p1, p2, p3, a1, a2] = [hex(1), hex(2), hex(3), hex(0xa1), hex(0xa2)]

const table = (ids: Ids, pairs: ReadonlyArray<readonly [string, string, bigint]>) => {
  const amounts = new Amounts(ids)
  for (const [party, asset, amount] of pairs) amounts.add(party, asset, amount)
  return amounts
}

describe("Amounts", () => {
  it("adds up a pair's amounts and lists each pair once", () => {
    const amounts = table(new Ids(), [
      [p1, a1, 10n],
      [p1, a1, 5n],
      [p2, a1, 1n],
      [p1, a2, 2n ** 255n]
    ])
    expect(amounts.size).toBe(3)
    expect(amounts.get(p1, a1)).toBe(15n)
    expect(amounts.get(p1, a2)).toBe(2n ** 255n)
    expect(amounts.get(p3, a1)).toBeUndefined()
    expect([...amounts].map((s) => `${s.partyId}|${s.assetId}|${s.amount}`).sort()).toEqual(
      [`${p1}|${a1}|15`, `${p2}|${a1}|1`, `${p1}|${a2}|${2n ** 255n}`].sort()
    )
  })

  it("is equal only to a table of the same pairs with the same amounts", () => {
    const ids = new Ids()
    const base: ReadonlyArray<readonly [string, string, bigint]> = [
      [p1, a1, 10n],
      [p2, a1, 20n],
      [p1, a2, 30n]
    ]
    const same = table(ids, [...base].reverse())
    expect(table(ids, base).equals(same)).toBe(true)
    const different = [
      table(ids, [
        [p1, a1, 10n],
        [p2, a1, 21n],
        [p1, a2, 30n]
      ]),
      table(ids, [...base, [p3, a1, 0n]]),
      table(ids, base.slice(0, 2)),
      table(ids, [
        [p1, a1, 10n],
        [p2, a1, 20n],
        [p3, a2, 30n]
      ])
    ]
    for (const other of different) {
      expect(table(ids, base).equals(other)).toBe(false)
      expect(other.equals(table(ids, base))).toBe(false)
    }
  })
})
