/**
 * The per-epoch rows kept on disk: what comes back is what went in, in report order with the ids
 * the rows would get if sorted all at once, however the reads divided them.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import type { AssetInfo, EpochRow, EpochRows } from "../src/Report.js"
import { compareRows, type RowFields, rowIdOf, rowKey } from "../src/RowOrder.js"
import * as Table from "../src/formats/Table.js"
import { listOf, type Resolve, RowHead, RowSpill } from "../src/RowStore.js"
import { epochStart, hex, random, shuffled } from "./support/rows.js"
import { sampleReport } from "./support/sample.js"

const assets: ReadonlyArray<AssetInfo> = [
  { id: hex(0xa1), symbol: "VEGA", name: "Vega", decimals: 18 },
  { id: hex(0xa2), symbol: "USDT", name: "Tether", decimals: 6 }
]
const resolve: Resolve = {
  asset: (id) => assets.find((a) => a.id === id)!,
  alias: (partyId) => (partyId === hex(1) ? "one\twith a tab" : undefined)
}

/** Rows of `epochs` epochs for `parties` parties, with repeated keys, odd text and missing games. */
const world = (epochs: number, parties: number, seed = 1): Array<RowFields> => {
  const next = random(seed)
  const rows: Array<RowFields> = []
  for (let e = 1n; e <= BigInt(epochs); e++) {
    for (let p = 1; p <= parties; p++) {
      const payouts = Math.floor(next() * 3)
      for (let i = 0; i < payouts; i++) {
        rows.push({
          epoch: e,
          receivedAt: epochStart(e),
          partyId: hex(p),
          assetId: assets[Math.floor(next() * 2)].id,
          rewardType: next() < 0.1 ? "ACCOUNT_TYPE_\\ODD\tTYPE\n" : "ACCOUNT_TYPE_GLOBAL_REWARD",
          // equal amounts too: rows equal in every field must still get distinct ids
          amount: BigInt(Math.floor(next() * 4)) * 10n ** 30n,
          percentageOfTotal: next() < 0.5 ? "5e-05" : "33.333333333333336",
          lockedUntilEpoch: e + 30n,
          gameId: next() < 0.3 ? undefined : next() < 0.5 ? "" : hex(0x9a),
          teamId: next() < 0.5 ? undefined : hex(0x7e)
        })
      }
    }
  }
  return rows
}

/**
 * The ids by their definition: every row sorted at once, numbered among the rows of its
 * `rowKey` (counted by key, whatever the order of the keys).
 */
const definedIds = (rows: ReadonlyArray<RowFields>): ReadonlyArray<string> => {
  const seen = new Map<string, number>()
  return [...rows].sort(compareRows).map((row) => {
    const key = rowKey(row)
    const index = seen.get(key) ?? 0
    seen.set(key, index + 1)
    return rowIdOf(key, index)
  })
}

/** What the rows must come back as: all sorted at once, in memory. */
const expected = (rows: ReadonlyArray<RowFields>): ReadonlyArray<EpochRow> => {
  const spill = new RowSpill()
  try {
    put(spill, rows)
    spill.seal()
    return [...spill.rows(resolve)]
  } finally {
    spill.close()
  }
}

/** Adds the rows of each epoch window (a few epochs, in the node's unspecified order), sealing each. */
const spillWindows = (spill: Sink, rows: ReadonlyArray<RowFields>, width: bigint, seed: number) => {
  const last = rows.reduce((max, r) => (r.epoch > max ? r.epoch : max), 0n)
  for (let lo = 1n; lo <= last; lo += width) {
    put(
      spill,
      shuffled(
        rows.filter((r) => r.epoch >= lo && r.epoch < lo + width),
        seed + Number(lo)
      )
    )
    spill.seal()
  }
}

/** What the tests put rows into: a {@link RowSpill} or a {@link RowHead}. */
interface Sink {
  add(row: RowFields): void
  seal(): void
}

const put = (spill: Sink, rows: Iterable<RowFields>) => {
  for (const row of rows) spill.add(row)
}

const plain = (rows: Iterable<EpochRow>) => [...rows].map((r) => ({ ...r }))

/** Assets of every kind of decimals, and one whose amounts are all 0. */
const tableAssets: ReadonlyArray<AssetInfo> = [
  { id: hex(0xb1), symbol: "VEGA", name: "Vega", decimals: 18 },
  { id: hex(0xb2), symbol: "USDT", name: "Tether", decimals: 6 },
  { id: hex(0xb3), symbol: "WHOLE-UNITS", name: "No decimals", decimals: 0 },
  { id: hex(0xb4), symbol: "PAID-NOTHING-\u{1F600}", name: "Paid nothing", decimals: 8 }
]
const tableResolve: Resolve = {
  asset: (id) => tableAssets.find((a) => a.id === id)!,
  alias: (partyId) =>
    partyId === hex(3) ? "a rather long alias \u{1F600}\u{1F600}" : partyId === hex(4) ? "x" : undefined
}

/** Rows whose cells vary in width every way a table column can: epochs, parties, types, amounts. */
const varied = (count: number, lastEpoch: number, seed: number, assets = tableAssets): Array<RowFields> => {
  const next = random(seed)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]
  const types = ["ACCOUNT_TYPE_GLOBAL_REWARD", "ACCOUNT_TYPE_FEES_INFRASTRUCTURE", "T\u{1F600}"]
  return Array.from({ length: count }, () => {
    const asset = pick(assets)
    const digits = 1 + Math.floor(next() * 30)
    const zeros = Math.floor(next() * digits)
    const magnitude = BigInt(String(1 + Math.floor(next() * 9)).repeat(digits - zeros) + "0".repeat(zeros))
    const amount = asset === tableAssets[3] || next() < 0.05 ? 0n : next() < 0.1 ? -magnitude : magnitude
    const epoch = BigInt(1 + Math.floor(next() * lastEpoch))
    return {
      epoch,
      receivedAt: epochStart(epoch) + BigInt(Math.floor(next() * 1_000_000_000)),
      partyId: hex(1 + Math.floor(next() * 6)),
      assetId: asset.id,
      rewardType: pick(types),
      amount,
      percentageOfTotal: "1",
      lockedUntilEpoch: 0n,
      gameId: undefined,
      teamId: undefined
    }
  })
}

describe("RowSpill", () => {
  it("sizes a table's columns from the cells it gathered as the rows came, as measuring every row does", () => {
    const worlds: ReadonlyArray<readonly [number, number, number, ReadonlyArray<AssetInfo>]> = [
      [1, 1, 1, tableAssets],
      [40, 9, 2, tableAssets],
      [400, 120, 3, tableAssets],
      [2_000, 1_234_567, 4, tableAssets],
      // amounts of 0 show no fraction, whatever the asset's decimals
      [200, 30, 5, [tableAssets[2], tableAssets[3]]]
    ]
    for (const [count, lastEpoch, seed, assets] of worlds) {
      const spill = new RowSpill()
      try {
        spillWindows(spill, varied(count, lastEpoch, seed, assets), BigInt(Math.ceil(lastEpoch / 20)), seed)
        const rows = spill.rows(tableResolve)
        const widest = [...rows.widest!()]
        expect(widest.length).toBeLessThanOrEqual(2 + 6 + 3 + 4 * 4)
        const view = { ...sampleReport, view: "epochs" as const }
        // the same rows measured themselves (a second pass)
        const measuredRows: EpochRows = { ...rows }
        delete measuredRows.widest
        const measured = Table.render({ ...view, epochs: measuredRows })
        expect(Table.render({ ...view, epochs: rows })).toBe(measured)
      } finally {
        spill.close()
      }
    }
  })

  it("gives back every row in report order with the ids of one sort of all, whatever the windows", () => {
    const rows = world(40, 30)
    const truth = expected(rows)
    expect(truth.length).toBe(rows.length)
    expect(new Set(truth.map((r) => r.rowId)).size).toBe(truth.length)
    // the ids are those of the definition, not only self-consistent
    expect(truth.map((r) => r.rowId)).toEqual(definedIds(rows))
    for (const width of [1n, 3n, 7n]) {
      const spill = new RowSpill()
      try {
        spillWindows(spill, rows, width, Number(width))
        expect(spill.count).toBe(rows.length)
        expect(plain(spill.rows(resolve))).toEqual(plain(truth))
        // a second pass reads the same rows again
        expect(plain(spill.rows(resolve)).length).toBe(rows.length)
        // and without ids: the same rows, in the same order, with no id made
        const unidentified = [...spill.rows(resolve).withoutIds()].map((r) => ({ ...r }))
        expect(unidentified).toEqual(plain(truth).map(({ rowId: _, ...rest }) => rest))
        expect(unidentified.every((r) => (r as { rowId?: string }).rowId === undefined)).toBe(true)
      } finally {
        spill.close()
      }
    }
  })

  it("merges the runs of several reads (one per party asked for) into report order", () => {
    const rows = world(25, 12, 7)
    const spill = new RowSpill()
    try {
      // one read per party, each oldest epoch first: the second starts a new run at epoch 1
      for (let p = 12; p >= 1; p--) {
        spillWindows(
          spill,
          rows.filter((r) => r.partyId === hex(p)),
          2n,
          p
        )
      }
      expect(plain(spill.rows(resolve))).toEqual(plain(expected(rows)))
      expect(
        spill
          .rows(resolve)
          .head(5)
          .map((r) => r.rowId)
      ).toEqual(
        expected(rows)
          .slice(0, 5)
          .map((r) => r.rowId)
      )
    } finally {
      spill.close()
    }
  })

  it("lists by payout time, oldest or newest first, as a stable sort of the rows would", () => {
    const rows = world(30, 10, 3)
    const truth = listOf(expected(rows))
    for (const runs of ["one read", "one read per party"]) {
      const spill = new RowSpill()
      try {
        if (runs === "one read") spillWindows(spill, rows, 4n, 1)
        else
          for (let p = 1; p <= 10; p++)
            spillWindows(
              spill,
              rows.filter((r) => r.partyId === hex(p)),
              4n,
              p
            )
        for (const first of ["oldest", "newest"] as const) {
          expect(plain(spill.rows(resolve).byReceivedAt(first)), `${runs}, ${first} first`).toEqual(
            plain(truth.byReceivedAt(first))
          )
        }
      } finally {
        spill.close()
      }
    }
  })

  it("refuses to list by time when a later epoch was paid before an earlier one", () => {
    const rows = world(4, 5).map((r) => (r.epoch === 3n ? { ...r, receivedAt: epochStart(1n) } : r))
    const spill = new RowSpill()
    try {
      spillWindows(spill, rows, 1n, 1)
      expect(() => [...spill.rows(resolve).byReceivedAt("oldest")]).toThrow(/payout times go back/)
    } finally {
      spill.close()
    }
  })

  it("refuses a key sealed in two parts: the ids count the rows of a key", () => {
    const rows = world(1, 3).filter((r) => r.partyId === hex(1))
    const twice = [rows[0], { ...rows[0], amount: rows[0].amount + 1n }]
    const spill = new RowSpill()
    try {
      put(spill, [twice[0]])
      spill.seal()
      put(spill, [twice[1]])
      expect(() => spill.seal()).toThrow(/sealed in two parts/)
    } finally {
      spill.close()
    }
  })

  it("leaves no file behind: the name is gone while it is open, and closing twice is harmless", () => {
    const ours = () => readdirSync(tmpdir()).filter((name) => name.startsWith("vega-reward-report-"))
    const before = ours()
    const spill = new RowSpill()
    put(spill, world(2, 3))
    spill.seal()
    expect(ours()).toEqual(before)
    expect([...spill.rows(resolve)].length).toBe(spill.count)
    spill.close()
    spill.close()
    expect(ours()).toEqual(before)
  })
})

describe("RowHead", () => {
  const ids = (rows: Iterable<EpochRow>) => [...rows].map((r) => r.rowId)

  it("keeps the first rows in report order with their ids, counting all, whatever the reads", () => {
    const rows = world(30, 12, 5)
    const truth = expected(rows)
    for (const limit of [1, 17, 250]) {
      for (const reads of ["windows of 1", "windows of 4", "one read per party, last party first"]) {
        const head = new RowHead(limit)
        if (reads === "windows of 1") spillWindows(head, rows, 1n, limit)
        else if (reads === "windows of 4") spillWindows(head, rows, 4n, limit)
        else
          for (let p = 12; p >= 1; p--)
            spillWindows(
              head,
              rows.filter((r) => r.partyId === hex(p)),
              3n,
              p
            )
        const kept = head.rows(resolve)
        expect(kept.length, `${limit}, ${reads}`).toBe(rows.length)
        expect(plain(kept.head(limit)), `${limit}, ${reads}`).toEqual(plain(truth.slice(0, limit)))
        expect(ids(kept.head(limit - 1))).toEqual(ids(truth.slice(0, limit - 1)))
      }
    }
  })

  it("refuses to list more rows than it kept, rather than leave rows out", () => {
    const rows = world(10, 8, 2)
    const head = new RowHead(20)
    spillWindows(head, rows, 2n, 1)
    const kept = head.rows(resolve)
    const refusal = `only the first 20 of ${rows.length} per-epoch rows were kept`
    expect(() => [...kept]).toThrow(refusal)
    expect(() => [...kept.withoutIds()]).toThrow(refusal)
    expect(() => [...kept.byReceivedAt("oldest")]).toThrow(refusal)
    expect(() => kept.notInTimeOrder()).toThrow(refusal)
    expect(() => kept.head(21)).toThrow(refusal)
    expect(kept.head(20)).toHaveLength(20)
    // one row too many is as much a refusal
    const allButOne = new RowHead(rows.length - 1)
    spillWindows(allButOne, rows, 2n, 1)
    expect(() => [...allButOne.rows(resolve)]).toThrow(`only the first ${rows.length - 1} of ${rows.length}`)
  })

  it("is the whole list when every row fits", () => {
    const rows = world(6, 5, 9)
    const truth = listOf(expected(rows))
    const head = new RowHead(rows.length)
    spillWindows(head, rows, 2n, 3)
    const kept = head.rows(resolve)
    expect(plain(kept)).toEqual(plain(truth))
    expect([...kept.withoutIds()]).toEqual(plain(truth).map(({ rowId: _, ...rest }) => rest))
    expect(plain(kept.byReceivedAt("newest"))).toEqual(plain(truth.byReceivedAt("newest")))
    expect(kept.notInTimeOrder()).toBeUndefined()
    expect(plain(kept.head(rows.length + 5))).toEqual(plain(truth))
  })
})
