/**
 * The cross-check of the per-epoch rows' sums against the summaries: what passes, what is named
 * as a difference and in which order, and the tables a read keeps compared as lists are.
 */
import { assert, describe, it } from "@effect/vitest"
import { Amounts } from "../src/Amounts.js"
import { crossCheck } from "../src/Build.js"

describe("crossCheck", () => {
  const asset = { id: "a".repeat(64), symbol: "VEGA", name: "Vega", decimals: 18 }
  const sum = (partyId: string, amount: bigint) => ({ partyId, assetId: asset.id, amount })

  it("passes when the rows' sums add up, names each difference otherwise, including rows without a summary", () => {
    const p1 = "1".repeat(64)
    const p2 = "2".repeat(64)
    const summaries = [{ partyId: p1, assetId: asset.id, amount: 30n }]
    assert.deepStrictEqual(
      crossCheck(summaries, [sum(p1, 10n), sum(p1, 20n)], 2, () => asset),
      {
        status: "passed",
        pairs: 1,
        rows: 2
      }
    )
    // each difference names the party's alias, where it has one
    const aliases = new Map([[p2, "second"]])
    const failed = crossCheck(
      summaries,
      [sum(p1, 10n), sum(p2, 5n)],
      2,
      () => asset,
      (id) => aliases.get(id)
    )
    assert.deepStrictEqual(failed, {
      status: "failed",
      pairs: 2,
      rows: 2,
      mismatches: [
        { partyId: p1, alias: undefined, asset, summary: 30n, rows: 10n },
        { partyId: p2, alias: "second", asset, summary: 0n, rows: 5n }
      ]
    })
  })

  it("lists the differences by asset symbol, then asset id, then party, whatever order they came in", () => {
    const [p1, p2] = ["1".repeat(64), "2".repeat(64)]
    const usdtB = { id: "b".repeat(64), symbol: "USDT", name: "Tether", decimals: 6 }
    const usdtC = { id: "c".repeat(64), symbol: "USDT", name: "Tether (bridged)", decimals: 6 }
    const vega = { id: "a".repeat(64), symbol: "VEGA", name: "Vega", decimals: 18 }
    const assets = new Map([usdtB, usdtC, vega].map((a) => [a.id, a]))
    // rows only, no summaries: every pair differs, in this order
    const rows = [
      { partyId: p2, assetId: vega.id, amount: 1n },
      { partyId: p1, assetId: vega.id, amount: 2n },
      { partyId: p1, assetId: usdtC.id, amount: 3n },
      { partyId: p2, assetId: usdtB.id, amount: 4n },
      { partyId: p1, assetId: usdtB.id, amount: 5n }
    ]
    const check = crossCheck([], rows, rows.length, (id) => assets.get(id)!)
    assert.strictEqual(check.status, "failed")
    assert.deepStrictEqual(
      check.status === "failed" ? check.mismatches.map((m) => [m.asset.id, m.partyId, m.rows]) : [],
      [
        [usdtB.id, p1, 5n],
        [usdtB.id, p2, 4n],
        [usdtC.id, p1, 3n],
        [vega.id, p1, 2n],
        [vega.id, p2, 1n]
      ]
    )
  })

  it("compares the tables a read keeps as it compares lists", () => {
    const [p1, p2, p3] = ["1".repeat(64), "2".repeat(64), "3".repeat(64)]
    const other = { ...asset, id: "b".repeat(64), symbol: "USDT" }
    const assetOf = (id: string) => (id === asset.id ? asset : other)
    const at = (partyId: string, assetId: string, amount: bigint) => ({ partyId, assetId, amount })
    const cases: ReadonlyArray<readonly [ReadonlyArray<ReturnType<typeof at>>, ReadonlyArray<ReturnType<typeof at>>]> =
      [
        [[at(p1, asset.id, 30n)], [at(p1, asset.id, 10n), at(p1, asset.id, 20n)]],
        [[at(p1, asset.id, 30n), at(p2, other.id, 0n)], [at(p1, asset.id, 30n)]],
        [[at(p1, asset.id, 30n)], [at(p1, asset.id, 30n), at(p3, other.id, 0n), at(p2, asset.id, 7n)]],
        [
          [at(p1, other.id, 1n), at(p2, asset.id, 2n)],
          [at(p2, other.id, 1n), at(p1, asset.id, 2n)]
        ],
        [[], [at(p3, other.id, 4n)]]
      ]
    for (const [summaries, rows] of cases) {
      assert.deepStrictEqual(
        crossCheck(Amounts.of(summaries), Amounts.of(rows), rows.length, assetOf),
        crossCheck(summaries, rows, rows.length, assetOf)
      )
    }
  })
})
