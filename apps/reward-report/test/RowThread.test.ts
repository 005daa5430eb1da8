/**
 * Rows handed to their own thread come back as the reading thread would have made them: the same
 * sums and count, and every row laid out by an output's template exactly as
 * laying out the rows in memory does, whatever their text.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { Ids } from "../src/Amounts.js"
import * as CoinTracking from "../src/formats/CoinTracking.js"
import * as Csv from "../src/formats/Csv.js"
import * as Json from "../src/formats/Json.js"
import * as Koinly from "../src/formats/Koinly.js"
import * as Markdown from "../src/formats/Markdown.js"
import * as Table from "../src/formats/Table.js"
import { sourceConstants, textOf } from "../src/formats/text.js"
import type { AssetInfo, EpochRows } from "../src/Report.js"
import { inThread, type RowCollector, type Rows } from "../src/RowCollector.js"
import { compareRows, type RowFields } from "../src/RowOrder.js"
import { type Resolve, RowSpill } from "../src/RowStore.js"
import type { RowTemplate } from "../src/RowTemplate.js"
import { threaded } from "../src/RowThread.js"
import { SUMS_PART } from "../src/internal/rowsWorker.js"
import { epochStart, hex, random, rewardOf, shuffled } from "./support/rows.js"
import { sampleReport } from "./support/sample.js"

const assets: ReadonlyArray<AssetInfo> = [
  { id: hex(0xa1), symbol: "VEGA", name: "Vega", decimals: 18 },
  { id: hex(0xa2), symbol: "USDT", name: "Tether", decimals: 6 },
  // text a slot is made of, in a symbol
  { id: hex(0xa3), symbol: 'ODD,"\u0001a1\u0002\u00e9', name: "odd \u0001", decimals: 0 },
  // symbols a table's line ends in spaces after (trimmed): one ending in a control character, none
  { id: hex(0xa4), symbol: "SP\u0007", name: "ends in a control", decimals: 2 },
  { id: hex(0xa5), symbol: "", name: "no symbol", decimals: 4 }
]

/** Text that a line, a CSV field or a slot could be split by, and lone surrogates (which UTF-8 cannot hold). */
const allOddTexts = [
  "",
  "plain",
  "tab\there",
  "line\nend",
  "back\\slash",
  "\u0001",
  "\u0001a0\u0002",
  'q"uo,te',
  "\u00e9\u{1F600}",
  "lone \ud800",
  "\udc00"
]

/**
 * Rows of `epochs` epochs, with repeated keys, odd text in every free-text field (or, `plain`,
 * none: then only an asset's symbol is odd, and the thread sorts a window's lines as text) and
 * missing games.
 */
const world = (epochs: number, parties: number, seed: number, plain = false): Array<RowFields> => {
  const next = random(seed)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]
  const oddTexts = plain ? ["", "plain"] : allOddTexts
  const rows: Array<RowFields> = []
  for (let e = 1n; e <= BigInt(epochs); e++) {
    for (let p = 1; p <= parties; p++) {
      const payouts = Math.floor(next() * 3)
      for (let i = 0; i < payouts; i++) {
        rows.push({
          epoch: e,
          // payouts of an epoch a little apart, so ordering by time shows
          receivedAt: epochStart(e) + BigInt(Math.floor(next() * 5)),
          partyId: hex(p),
          assetId: pick(assets).id,
          rewardType: next() < 0.8 ? "ACCOUNT_TYPE_GLOBAL_REWARD" : pick(oddTexts),
          // equal amounts too: rows equal in every field must still get distinct ids; negative
          // ones (never paid) only with odd text, the rows as the node sends them otherwise
          amount: BigInt(Math.floor(next() * 4) - (plain ? 0 : 1)) * 10n ** BigInt(Math.floor(next() * 30)),
          percentageOfTotal: pick(["5e-05", "33.333333333333336", "100"]),
          lockedUntilEpoch: e + 30n,
          gameId: next() < 0.3 ? undefined : pick(oddTexts),
          teamId: next() < 0.5 ? undefined : pick(oddTexts)
        })
      }
    }
  }
  return rows
}

const aliases = new Map<string, string>([
  [hex(1), 'Alice, "the" \u0001 staker'],
  [hex(2), "=formula"],
  [hex(3), "\u0001c0\u0002"]
])
const resolve: Resolve = {
  asset: (id) => assets.find((a) => a.id === id)!,
  alias: (partyId) => aliases.get(partyId)
}

/** Windows of `width` epochs, each in the node's unspecified order. */
const windows = (rows: ReadonlyArray<RowFields>, width: bigint, seed: number): Array<Array<RowFields>> => {
  const last = rows.reduce((max, r) => (r.epoch > max ? r.epoch : max), 0n)
  const result: Array<Array<RowFields>> = []
  for (let lo = 1n; lo <= last; lo += width) {
    result.push(
      shuffled(
        rows.filter((r) => r.epoch >= lo && r.epoch < lo + width),
        seed + Number(lo)
      )
    )
  }
  return result
}

/** Puts the windows through a collector, a seal each, as a read does. */
const collect = (collector: RowCollector, parts: ReadonlyArray<ReadonlyArray<RowFields>>) =>
  Effect.gen(function* () {
    for (const part of parts) {
      collector.add(part.map(rewardOf))
      yield* collector.seal
    }
    return yield* collector.result
  })

const onThread = (
  parts: ReadonlyArray<ReadonlyArray<RowFields>>,
  template: RowTemplate,
  options: { types?: ReadonlySet<string>; known?: ReadonlyArray<AssetInfo>; described?: Array<string> } = {}
) =>
  Effect.gen(function* () {
    const known = options.known ?? assets
    const collector = yield* threaded({
      ids: new Ids(),
      types: options.types ?? new Set(),
      template,
      assets: new Map(known.map((a) => [a.id, a])),
      describeAsset: (id) =>
        Effect.sync(() => {
          options.described?.push(id)
          return assets.find((a) => a.id === id)!
        })
    })
    return yield* collect(collector, parts)
  })

/** The same windows through the reading thread's collector, every row kept in a row file. */
const inMemory = (parts: ReadonlyArray<ReadonlyArray<RowFields>>, types: ReadonlySet<string> = new Set()) => {
  // the row file numbers ids as the read does
  const ids = new Ids()
  return Effect.acquireRelease(
    Effect.sync(() => new RowSpill(ids)),
    (spill) => Effect.sync(() => spill.close())
  ).pipe(Effect.flatMap((spill) => collect(inThread(ids, types, spill), parts)))
}

/** Every output that lays its rows out by a template, and how it writes them. */
const outputs: ReadonlyArray<readonly [RowTemplate, (rows: EpochRows) => string]> = [
  [
    Csv.epochTemplate,
    (rows) => textOf(rows.render(Csv.epochTemplate, { constants: [`,"node \u0001c0\u0002",1–2\r\n`] }))
  ],
  [Json.epochTemplate, (rows) => textOf(rows.render(Json.epochTemplate, { constants: [] }))],
  [Markdown.epochTemplate, (rows) => textOf(rows.render(Markdown.epochTemplate, { constants: [] }))],
  [
    Koinly.rowTemplate,
    (rows) => textOf(rows.render(Koinly.rowTemplate, { constants: sourceConstants('read from "a", b\u0001a0\u0002') }))
  ],
  [
    CoinTracking.rowTemplate,
    (rows) => textOf(rows.render(CoinTracking.rowTemplate, { constants: sourceConstants("read from a") }))
  ],
  // the table sizes its columns from the rows' widest cells, gathered where the rows were laid out
  [Table.epochTemplate, (rows) => Table.render({ ...sampleReport, view: "epochs", epochs: rows })]
]

/** What an output writes of the rows, as the UTF-8 it is written as (a lone surrogate cannot be written). */
const written = (rows: Rows, template: RowTemplate) =>
  Buffer.from(outputs.find(([t]) => t === template)![1](rows.kept!.rows(resolve))).toString("hex")

const sums = (rows: Rows) => [...rows.sums].map((s) => `${s.partyId}|${s.assetId}|${s.amount}`).sort()

describe("rows handed to their own thread", () => {
  it.scoped(
    "are laid out by each output's template as the rows in memory are, with the same sums",
    () =>
      Effect.gen(function* () {
        for (const [epochs, parties, width, seed, plain] of [
          [1, 1, 1n, 1, false],
          [12, 40, 3n, 2, false],
          [30, 300, 7n, 3, false],
          [12, 40, 3n, 8, true]
        ] as const) {
          const parts = windows(world(epochs, parties, seed, plain), width, seed)
          const memoryRows = yield* inMemory(parts)
          for (const [template] of outputs) {
            const threadRows = yield* onThread(parts, template)
            expect(threadRows.count).toBe(memoryRows.count)
            expect(sums(threadRows)).toEqual(sums(memoryRows))
            expect(written(threadRows, template), template.name).toBe(written(memoryRows, template))
          }
        }
      }),
    // a thread started for each output and world (about a second each from the sources)
    120_000
  )

  it.scoped("say, as the rows in memory do, when payout times go back and the rows cannot be listed by time", () =>
    Effect.gen(function* () {
      // epoch 5 paid before epoch 4
      const rows = world(8, 20, 9).map((row) => (row.epoch === 5n ? { ...row, receivedAt: epochStart(3n) + 10n } : row))
      const parts = windows(rows, 1n, 9)
      const memory = (yield* inMemory(parts)).kept!.rows(resolve)
      const thread = (yield* onThread(parts, Koinly.rowTemplate)).kept!.rows(resolve)
      expect(thread.notInTimeOrder()).toMatch(/payout times go back/)
      expect(thread.notInTimeOrder()).toBe(memory.notInTimeOrder())
      const ordered = (yield* onThread(windows(world(8, 20, 9), 1n, 9), Koinly.rowTemplate)).kept!
      expect(ordered.rows(resolve).notInTimeOrder()).toBeUndefined()
    })
  )

  it.scoped("keep lone surrogates of the node's text as they are, for the JSON to write them escaped", () =>
    Effect.gen(function* () {
      const rows = world(2, 3, 10, true).map((row, i) => ({ ...row, gameId: i % 2 === 0 ? "lone \ud800" : "\udc00" }))
      const threadRows = yield* onThread([rows], Json.epochTemplate)
      const json = JSON.parse(
        `{"rows": [${textOf(threadRows.kept!.rows(resolve).render(Json.epochTemplate, { constants: [] })).slice(1)}]}`
      )
      expect(json.rows.map((row: { gameId: string }) => row.gameId)).toEqual(
        [...rows].sort(compareRows).map((row) => row.gameId)
      )
    })
  )

  it.scoped("hand over sums of more pairs than one message holds, every pair once", () =>
    Effect.gen(function* () {
      const parts = windows(world(1, 30_000, 11, true), 1n, 11)
      const memoryRows = yield* inMemory(parts)
      expect(memoryRows.sums.size).toBeGreaterThan(SUMS_PART)
      const threadRows = yield* onThread(parts, Csv.epochTemplate)
      expect(threadRows.sums.size).toBe(memoryRows.sums.size)
      expect(sums(threadRows)).toEqual(sums(memoryRows))
    })
  )

  it.scoped("are counted and added up only for the types asked for", () =>
    Effect.gen(function* () {
      const parts = windows(world(10, 50, 4), 2n, 4)
      const types = new Set(["ACCOUNT_TYPE_GLOBAL_REWARD", "tab\there"])
      const threadRows = yield* onThread(parts, Csv.epochTemplate, { types })
      const memoryRows = yield* inMemory(parts, types)
      const all = yield* onThread(parts, Csv.epochTemplate)
      expect(threadRows.count).toBe(memoryRows.count)
      expect(threadRows.count).toBeLessThan(all.count)
      expect(sums(threadRows)).toEqual(sums(memoryRows))
      expect(threadRows.kept!.rows(resolve).length).toBe(memoryRows.count)
    })
  )

  it.scoped("describe an asset not known when the read starts before its first row goes over", () =>
    Effect.gen(function* () {
      const parts = windows(world(6, 30, 6), 2n, 6)
      const described: Array<string> = []
      const threadRows = yield* onThread(parts, Csv.epochTemplate, { known: [assets[0]], described })
      const memoryRows = yield* inMemory(parts)
      expect(described.sort()).toEqual(assets.slice(1).map((a) => a.id))
      expect(written(threadRows, Csv.epochTemplate)).toBe(written(memoryRows, Csv.epochTemplate))
    })
  )

  it.scoped("fail the read when a window comes before the rows already read", () =>
    Effect.gen(function* () {
      const parts = windows(world(6, 30, 7), 2n, 7)
      const exit = yield* Effect.exit(onThread([parts[1], parts[0]], Csv.epochTemplate))
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toMatch(/came after rows that follow them/)
    })
  )
})
