/**
 * The tables of amounts per party and asset: totals add up, equal tables are equal and any
 * difference (an amount, a pair more or less, a pair swapped for another) makes them unequal,
 * whether the tables number their ids alike (one read) or not; the listings agree with the pairs
 * however the ids were numbered.
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

  it("goes through an asset's parties largest amount first, equal amounts by party id, whatever the numbering", () => {
    const [p4, p5] = [hex(4), hex(5)]
    // numbered out of id order: p5 first, p1 last; amounts beyond 2^53 differ only in their low digits
    const big = 2n ** 200n
    const amounts = table(new Ids(), [
      [p5, a1, big + 1n],
      [p3, a1, big],
      [p4, a2, 7n],
      [p2, a1, big + 1n],
      [p1, a1, big + 2n],
      [p4, a1, 3n]
    ])
    const seen: Array<string> = []
    amounts.forEachByAmount(a1, (party, amount) => seen.push(`${party}|${amount}`))
    expect(seen).toEqual([`${p1}|${big + 2n}`, `${p2}|${big + 1n}`, `${p5}|${big + 1n}`, `${p3}|${big}`, `${p4}|3`])
    const none: Array<string> = []
    amounts.forEachByAmount(hex(0xa9), (party) => none.push(party))
    expect(none).toEqual([])
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

  it("compares tables numbering their ids differently by id, not by number", () => {
    const base: ReadonlyArray<readonly [string, string, bigint]> = [
      [p1, a1, 10n],
      [p2, a1, 20n],
      [p1, a2, 30n]
    ]
    // the other table meets the ids in another order: equal numbers name other ids there
    const mine = table(new Ids(), base)
    const theirs = table(new Ids(), [...base].reverse())
    expect(mine.equals(theirs)).toBe(true)
    const swapped = table(new Ids(), [
      [p2, a1, 10n],
      [p1, a1, 20n],
      [p1, a2, 30n]
    ])
    expect(mine.equals(swapped)).toBe(false)
    expect(swapped.equals(mine)).toBe(false)
  })

  it("lists every pair of two tables once, with its amount in each", () => {
    const ids = new Ids()
    // numbers given out of any order: a party first seen late, an asset after its parties
    ids.numberOf(p3)
    const left = table(ids, [
      [p2, a2, 1n],
      [p1, a1, 2n],
      [p3, a1, 3n]
    ])
    const right = table(new Ids(), [
      [p1, a1, 2n],
      [p2, a1, 4n],
      [p3, a2, 5n]
    ])
    const pairs = [...left.pairsWith(right)].map((p) => `${p.partyId}|${p.assetId}|${p.left}|${p.right}`).sort()
    expect(pairs).toEqual(
      [
        `${p2}|${a2}|1|undefined`,
        `${p1}|${a1}|2|2`,
        `${p3}|${a1}|3|undefined`,
        `${p2}|${a1}|undefined|4`,
        `${p3}|${a2}|undefined|5`
      ].sort()
    )
  })

  it("lists its assets, the parties of an asset and all its parties as its pairs say", () => {
    const ids = new Ids()
    ids.numberOf(a2)
    ids.numberOf(p3)
    const amounts = table(ids, [
      [p2, a1, 1n],
      [p1, a1, 2n],
      [p1, a2, 0n]
    ])
    expect(amounts.assets().sort()).toEqual([a1, a2].sort())
    expect(amounts.partiesOf(a1).sort()).toEqual([p1, p2].sort())
    expect(amounts.partiesOf(a2)).toEqual([p1])
    // known to the read's ids, but without a pair in this table
    expect(amounts.partiesOf(p3)).toEqual([])
    expect([...amounts.parties()].sort()).toEqual([p1, p2].sort())
    expect(amounts.get(p3, a1)).toBeUndefined()
    expect(amounts.get(p1, a2)).toBe(0n)
  })
})
