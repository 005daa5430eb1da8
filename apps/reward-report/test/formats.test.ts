/**
 * The text formats: byte-exact goldens of the sample report in every format and view, and checks
 * that read the outputs back (a strict CSV parser, JSON.parse) and compare them with the model.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as CoinTracking from "../src/formats/CoinTracking.js"
import * as Csv from "../src/formats/Csv.js"
import * as Html from "../src/formats/Html.js"
import * as Json from "../src/formats/Json.js"
import * as Koinly from "../src/formats/Koinly.js"
import * as Markdown from "../src/formats/Markdown.js"
import * as Table from "../src/formats/Table.js"
import {
  csvField,
  csvLine,
  fieldEndingInSource,
  formulaSafe,
  groupDigits,
  oneLine,
  partyLabel,
  plainDecimal,
  sourceConstants,
  unitsOf,
  utcSeconds
} from "../src/formats/text.js"
import type { EpochRow, EpochRows, PartyLine, Report } from "../src/Report.js"
import { listOf } from "../src/RowStore.js"
import { renderRow, renderRows, type RowTemplate } from "../src/RowTemplate.js"
import { aliases, parties, sampleReport, sampleRows, USDT, VEGA } from "./support/sample.js"

// --- variants of the sample ----------------------------------------------------------------------

const line = (lines: ReadonlyArray<PartyLine>, party: string, assetId: string): PartyLine =>
  lines.find((l) => l.partyId === party && l.asset.id === assetId)!

/** The sample's lines as the `parties` view orders them: grouped by party, assets in totals order. */
const partiesReport: Report = {
  ...sampleReport,
  view: "parties",
  lines: [
    line(sampleReport.lines, parties.alice, USDT.id),
    line(sampleReport.lines, parties.alice, VEGA.id),
    line(sampleReport.lines, parties.bob, USDT.id),
    line(sampleReport.lines, parties.bob, VEGA.id),
    line(sampleReport.lines, parties.carol, VEGA.id),
    line(sampleReport.lines, parties.dave, VEGA.id)
  ]
}
const totalsReport: Report = { ...sampleReport, view: "totals", lines: [] }
const epochsReport: Report = { ...sampleReport, view: "epochs" }
const passedReport: Report = { ...sampleReport, crossCheck: { status: "passed", pairs: 6, rows: 4 } }
/** One block height, an epoch range and a skipped cross-check. */
const skippedReport: Report = {
  ...sampleReport,
  provenance: {
    ...sampleReport.provenance,
    nodes: ["http://127.0.0.1:3008"],
    lowestHeight: sampleReport.provenance.height,
    filters: { ...sampleReport.provenance.filters, fromEpoch: 41n, toEpoch: 42n, top: 3, parties: [parties.alice] }
  },
  crossCheck: { status: "skipped", reason: "the rows were limited to epochs 41 to 42" }
}
const noEpochsReport: Report = { ...sampleReport, view: "epochs", epochs: undefined, crossCheck: undefined }

const reports = {
  "sample.assets": sampleReport,
  "sample.parties": partiesReport,
  "sample.totals": totalsReport,
  "sample.epochs": epochsReport,
  "sample.passed": passedReport,
  "sample.skipped": skippedReport,
  noepochs: noEpochsReport
} satisfies Record<string, Report>

type Name = keyof typeof reports

const goldens: ReadonlyArray<readonly [file: string, render: (report: Report) => string, report: Name]> = [
  ["sample.assets.csv", Csv.render, "sample.assets"],
  ["sample.parties.csv", Csv.render, "sample.parties"],
  ["sample.totals.csv", Csv.render, "sample.totals"],
  ["sample.epochs.csv", Csv.render, "sample.epochs"],
  ["noepochs.epochs.csv", Csv.render, "noepochs"],
  ["sample.json", Json.render, "sample.assets"],
  ["sample.skipped.json", Json.render, "sample.skipped"],
  ["noepochs.json", Json.render, "noepochs"],
  ["sample.assets.md", Markdown.render, "sample.assets"],
  ["sample.parties.md", Markdown.render, "sample.parties"],
  ["sample.totals.md", Markdown.render, "sample.totals"],
  ["sample.epochs.md", Markdown.render, "sample.epochs"],
  ["sample.passed.md", Markdown.render, "sample.passed"],
  ["sample.skipped.md", Markdown.render, "sample.skipped"],
  ["sample.assets.txt", Table.render, "sample.assets"],
  ["sample.parties.txt", Table.render, "sample.parties"],
  ["sample.totals.txt", Table.render, "sample.totals"],
  ["sample.epochs.txt", Table.render, "sample.epochs"],
  ["sample.passed.txt", Table.render, "sample.passed"],
  ["sample.skipped.txt", Table.render, "sample.skipped"],
  ["noepochs.epochs.txt", Table.render, "noepochs"],
  ["sample.parties.html", Html.render, "sample.parties"],
  ["sample.totals.html", Html.render, "sample.totals"],
  ["sample.epochs.html", Html.render, "sample.epochs"],
  ["sample.skipped.html", Html.render, "sample.skipped"],
  ["noepochs.epochs.html", Html.render, "noepochs"],
  ["sample.koinly.csv", Koinly.render, "sample.assets"],
  ["sample.cointracking.csv", CoinTracking.render, "sample.assets"]
]

const goldenDir = new URL("./golden/", import.meta.url)

describe("goldens", () => {
  for (const [file, render, name] of goldens) {
    it(file, () => {
      const actual = render(reports[name])
      const path = new URL(file, goldenDir)
      if (process.env.UPDATE_GOLDEN === "1") {
        mkdirSync(goldenDir, { recursive: true })
        writeFileSync(path, actual, "utf8")
      }
      expect(existsSync(path), `missing golden ${file}; run with UPDATE_GOLDEN=1`).toBe(true)
      // Node's utf8 decoding keeps CR and LF as they are, so this compares byte for byte
      expect(actual).toBe(readFileSync(path, "utf8"))
      expect(
        readFileSync(path)
          .subarray(0, 3)
          .equals(Buffer.from([0xef, 0xbb, 0xbf]))
      ).toBe(false)
      expect(actual.endsWith("\n")).toBe(true)
    })
  }
})

// --- a strict RFC 4180 reader ---------------------------------------------------------------------

/**
 * Records of RFC 4180 text. Strict: every record ends with CRLF, a bare CR or LF outside quotes is
 * an error, a quote inside an unquoted field is an error, and (to check the writers quote only when
 * needed) so is a quoted field that holds no comma, quote, CR or LF.
 */
const parseCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let i = 0
  while (i < text.length) {
    const record: Array<string> = []
    for (;;) {
      let field = ""
      if (text[i] === '"') {
        i++
        for (;;) {
          if (i >= text.length) throw new Error("unterminated quoted field")
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"'
              i += 2
            } else {
              i++
              break
            }
          } else field += text[i++]
        }
        if (!/[",\r\n]/.test(field)) throw new Error(`needless quotes around ${JSON.stringify(field)}`)
      } else {
        while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
          if (text[i] === '"') throw new Error(`quote in unquoted field at ${i}`)
          field += text[i++]
        }
      }
      record.push(field)
      if (text[i] === ",") {
        i++
        continue
      }
      if (text.startsWith("\r\n", i)) {
        i += 2
        break
      }
      throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`)
    }
    records.push(record)
  }
  return records
}

/** The records as objects keyed by the header; every record has the header's width. */
const parseTable = (text: string): { header: Array<string>; rows: Array<Record<string, string>> } => {
  const [header, ...records] = parseCsv(text)
  for (const record of records) expect(record.length).toBe(header.length)
  return { header, rows: records.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i]]))) }
}

describe("the CSV reader used by these tests", () => {
  it("reads quoted fields and rejects broken or over-quoted CSV", () => {
    expect(parseCsv('a,"b,c","d""e","f\r\ng"\r\n,\r\n')).toEqual([
      ["a", "b,c", 'd"e', "f\r\ng"],
      ["", ""]
    ])
    expect(() => parseCsv("a,b\n")).toThrow()
    expect(() => parseCsv("a,b")).toThrow()
    expect(() => parseCsv('a"b\r\n')).toThrow()
    expect(() => parseCsv('"ab"\r\n')).toThrow()
    expect(() => parseCsv('"a,b\r\n')).toThrow()
  })
})

// --- CSV ----------------------------------------------------------------------------------------

const provenanceColumns = ["node", "block_height", "block_time", "generated_at", "filters"]
const sampleProvenance = {
  node: "http://127.0.0.1:3008 http://127.0.0.1:3009",
  block_height: "1234566–1234567",
  block_time: "2024-04-02T10:20:30.123456Z",
  generated_at: "2026-11-22T08:00:00.000Z",
  filters: "parties: all; assets: all; epochs: all; reward types: all; top: all; sort: amount"
}

describe("Csv", () => {
  it("writes one row per line with the exact model values and the provenance on every row", () => {
    for (const report of [sampleReport, partiesReport]) {
      const text = Csv.render(report)
      expect(text.endsWith("\r\n")).toBe(true)
      expect(text.replace(/\r\n/g, "")).not.toMatch(/^[^"]*\n/) // no bare LF outside the quoted alias
      const { header, rows } = parseTable(text)
      expect(header).toEqual([
        "rank",
        "party_id",
        "alias",
        "asset_id",
        "asset_symbol",
        "amount",
        "amount_raw",
        "share_percent",
        ...provenanceColumns
      ])
      expect(rows).toEqual(
        report.lines.map((l) => ({
          rank: String(l.rank),
          party_id: l.partyId,
          alias: l.alias ?? "",
          asset_id: l.asset.id,
          asset_symbol: l.asset.symbol,
          amount: l.units,
          amount_raw: l.amount.toString(),
          share_percent: l.share,
          ...sampleProvenance
        }))
      )
    }
  })

  it("round-trips aliases with a comma, quotes and a newline", () => {
    const aliasesRead = parseTable(Csv.render(sampleReport)).rows.map((row) => row.alias)
    expect(aliasesRead).toContain('Alice, "the" staker')
    expect(aliasesRead).toContain("Carol\nsecond line")
    expect(aliasesRead).toContain("<b>Bob</b> & | co")
    expect(Csv.render(sampleReport)).toContain('"Alice, ""the"" staker"')
  })

  it("writes the totals view, one row per asset", () => {
    const { header, rows } = parseTable(Csv.render(totalsReport))
    expect(header.slice(0, 7)).toEqual([
      "asset_id",
      "asset_symbol",
      "asset_name",
      "decimals",
      "parties",
      "amount",
      "amount_raw"
    ])
    expect(rows.map((r) => [r.asset_symbol, r.asset_name, r.decimals, r.parties, r.amount, r.amount_raw])).toEqual([
      ["USDT", "Tether USD", "6", "2", "1500.000123", "1500000123"],
      ["VEGA", "Vega", "18", "4", "3.731250000000000123", "3731250000000000123"]
    ])
    expect(rows.every((r) => r.filters === sampleProvenance.filters)).toBe(true)
  })

  it("writes the epochs view, one row per payout, and only the header when the rows were not read", () => {
    const { header, rows } = parseTable(Csv.render(epochsReport))
    expect(header).toEqual([
      "epoch",
      "received_at",
      "party_id",
      "alias",
      "asset_id",
      "asset_symbol",
      "reward_type",
      "amount",
      "amount_raw",
      "percentage_of_total",
      "locked_until_epoch",
      "game_id",
      "team_id",
      "row_id",
      ...provenanceColumns
    ])
    expect(rows).toEqual(
      sampleRows.map((r) => ({
        epoch: String(r.epoch),
        received_at: r.receivedAtIso,
        party_id: r.partyId,
        alias: r.alias ?? "",
        asset_id: r.asset.id,
        asset_symbol: r.asset.symbol,
        reward_type: r.rewardType,
        amount: r.units,
        amount_raw: r.amount.toString(),
        percentage_of_total: r.percentageOfTotal,
        locked_until_epoch: String(r.lockedUntilEpoch),
        game_id: "",
        team_id: "",
        row_id: r.rowId,
        ...sampleProvenance
      }))
    )
    expect(parseCsv(Csv.render(noEpochsReport))).toHaveLength(1)
  })

  it("quotes every free-text field of a per-epoch row that needs it, and reads back as written", () => {
    const odd = 'a,b "c"\r\nd'
    const row: EpochRow = {
      ...sampleRows[0],
      asset: { ...sampleRows[0].asset, symbol: `S${odd}` },
      rewardType: `T${odd}`,
      percentageOfTotal: `P${odd}`,
      gameId: `G${odd}`,
      teamId: `M${odd}`
    }
    const [read] = parseTable(Csv.render({ ...epochsReport, epochs: listOf([row]) })).rows
    expect(read).toMatchObject({
      asset_symbol: `S${odd}`,
      reward_type: `T${odd}`,
      percentage_of_total: `P${odd}`,
      game_id: `G${odd}`,
      team_id: `M${odd}`,
      row_id: row.rowId
    })
  })

  it("prefixes aliases a spreadsheet would run as a formula with a quote", () => {
    const risky = ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]
    const safe = ["a=b", "1+1", "'quoted"]
    const all = [...risky, ...safe]
    const report: Report = {
      ...sampleReport,
      lines: all.map((alias, i) => ({ ...sampleReport.lines[0], rank: i + 1, alias })),
      epochs: listOf(all.map((alias) => ({ ...sampleRows[0], alias })))
    }
    const expected = [...risky.map((a) => `'${a}`), ...safe]
    expect(parseTable(Csv.render(report)).rows.map((r) => r.alias)).toEqual(expected)
    expect(parseTable(Csv.render({ ...report, view: "epochs" })).rows.map((r) => r.alias)).toEqual(expected)
  })
})

describe("csvField and csvLine", () => {
  it("quote only fields with a comma, quote, CR or LF", () => {
    expect(csvField("plain text; – ok")).toBe("plain text; – ok")
    expect(csvField("a,b")).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField("a\rb")).toBe('"a\rb"')
    expect(csvField("a\nb")).toBe('"a\nb"')
    expect(csvField("")).toBe("")
    expect(csvLine(["a", "b,c", ""])).toBe('a,"b,c",\r\n')
  })

  it("formulaSafe prefixes exactly the risky first characters", () => {
    expect(["=", "+", "-", "@", "\t", "\r"].map((c) => formulaSafe(`${c}x`))).toEqual(
      ["=", "+", "-", "@", "\t", "\r"].map((c) => `'${c}x`)
    )
    expect(formulaSafe("x=1")).toBe("x=1")
    expect(formulaSafe("")).toBe("")
  })
})

// --- tax exports --------------------------------------------------------------------------------

const dateShape = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe("Koinly", () => {
  const text = Koinly.render(sampleReport)
  const { rows } = parseTable(text)

  it("starts with the exact universal header and uses CRLF", () => {
    expect(text.split("\r\n")[0]).toBe(
      "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash"
    )
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/)
  })

  it("writes one Received-only reward row per payout, oldest first, with exact amounts", () => {
    const epochs = sampleRows
    expect(rows.map((r) => r.TxHash)).toEqual(epochs.map((r) => r.rowId))
    const reversed: Report = { ...sampleReport, epochs: listOf([...epochs].reverse()) }
    // oldest first whatever the input order; rows of one block keep their order
    expect(parseTable(Koinly.render(reversed)).rows.map((r) => r.TxHash)).toEqual([
      epochs[1].rowId,
      epochs[0].rowId,
      epochs[3].rowId,
      epochs[2].rowId
    ])
    for (const [i, row] of rows.entries()) {
      expect(row.Date).toMatch(dateShape)
      expect(row["Received Amount"]).toBe(epochs[i].units)
      expect(row["Received Currency"]).toBe(epochs[i].asset.symbol)
      expect(row.Label).toBe("reward")
      for (const empty of ["Sent Amount", "Sent Currency", "Fee Amount", "Fee Currency", "Net Worth Amount"]) {
        expect(row[empty]).toBe("")
      }
    }
    expect(rows[0].Date).toBe("2024-04-02 09:26:40")
    expect(rows.map((r) => r["Received Amount"])).toContain("0.000000000000000123")
    expect(rows[0].Description).toBe(
      `Vega epoch 41 ACCOUNT_TYPE_GLOBAL_REWARD to ${parties.alice}; read from http://127.0.0.1:3008, ` +
        "http://127.0.0.1:3009 at block 1234566–1234567 (2024-04-02T10:20:30.123456Z), generated 2026-11-22T08:00:00.000Z"
    )
  })

  it("refuses a report without per-epoch rows", () => {
    expect(() => Koinly.render(noEpochsReport)).toThrow(/per-epoch/)
  })
})

describe("CoinTracking", () => {
  const text = CoinTracking.render(sampleReport)
  const { rows } = parseTable(text)
  const epochs = sampleRows

  it("starts with the exact import header and uses CRLF", () => {
    expect(text.split("\r\n")[0]).toBe(
      "Type,Buy Amount,Buy Currency,Sell Amount,Sell Currency,Fee,Fee Currency,Exchange,Trade-Group,Comment,Date,Tx-ID,Buy Value in Account Currency,Sell Value in Account Currency,Liquidity pool"
    )
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/)
  })

  it("writes one row per payout, newest first, with exact amounts and unique Tx-IDs", () => {
    // newest block first; rows of one block keep the report's order
    const expectedOrder = [epochs[2], epochs[3], epochs[0], epochs[1]]
    expect(rows.map((r) => r["Tx-ID"])).toEqual(expectedOrder.map((r) => `${r.rowId}.${r.asset.symbol}.`))
    expect(new Set(rows.map((r) => r["Tx-ID"])).size).toBe(rows.length)
    for (const [i, row] of rows.entries()) {
      const source = expectedOrder[i]
      expect(row.Date).toMatch(dateShape)
      expect(row["Buy Amount"]).toBe(source.units)
      expect(row["Buy Currency"]).toBe(source.asset.symbol)
      expect(row.Exchange).toBe("Vega")
      expect(row["Trade-Group"]).toBe(source.partyId)
      expect(
        row.Comment.startsWith(`Vega epoch ${source.epoch} ${source.rewardType} ${source.rowId}; read from `)
      ).toBe(true)
      for (const empty of ["Sell Amount", "Sell Currency", "Fee", "Fee Currency", "Liquidity pool"]) {
        expect(row[empty]).toBe("")
      }
    }
    expect(rows.map((r) => r["Buy Amount"])).toContain("0.000000000000000123")
    expect(rows[0].Date).toBe("2024-04-02 10:26:40")
  })

  it("types validator and infrastructure rewards as Staking and the rest as Reward / Bonus", () => {
    const types = [
      "ACCOUNT_TYPE_GLOBAL_REWARD",
      "ACCOUNT_TYPE_FEES_INFRASTRUCTURE",
      "ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES"
    ]
    const report: Report = {
      ...sampleReport,
      epochs: listOf(types.map((rewardType): EpochRow => ({ ...epochs[0], rewardType })))
    }
    expect(parseTable(CoinTracking.render(report)).rows.map((r) => r.Type)).toEqual([
      "Staking",
      "Staking",
      "Reward / Bonus"
    ])
  })

  it("refuses a report without per-epoch rows", () => {
    expect(() => CoinTracking.render(noEpochsReport)).toThrow(/per-epoch/)
  })
})

// --- JSON ---------------------------------------------------------------------------------------

describe("Json", () => {
  it("parses, and gives every amount as the model's exact string", () => {
    const json = JSON.parse(Json.render(sampleReport))
    expect(json.format).toBe("vega-effect/reward-report@1")
    expect(Object.keys(json)).toEqual(["format", "provenance", "view", "totals", "lines", "epochs", "crossCheck"])
    expect(json.provenance.height).toBe("1234567")
    expect(json.provenance.lowestHeight).toBe("1234566")
    expect(json.provenance.filters).toEqual({
      parties: [],
      assets: [],
      fromEpoch: null,
      toEpoch: null,
      rewardTypes: [],
      top: null,
      sort: "amount"
    })
    expect(json.totals.map((t: any) => [t.amount, t.amountRaw])).toEqual(
      sampleReport.totals.map((t) => [t.units, t.amount.toString()])
    )
    expect(json.lines).toEqual(
      sampleReport.lines.map((l) => ({
        rank: l.rank,
        partyId: l.partyId,
        alias: l.alias ?? null,
        assetId: l.asset.id,
        assetSymbol: l.asset.symbol,
        amount: l.units,
        amountRaw: l.amount.toString(),
        sharePercent: l.share
      }))
    )
    expect(json.epochs.map((e: any) => [e.epoch, e.receivedAt, e.amount, e.amountRaw, e.gameId])).toEqual(
      sampleRows.map((e) => [String(e.epoch), String(e.receivedAt), e.units, e.amount.toString(), null])
    )
    expect(json.crossCheck).toEqual({
      status: "failed",
      pairs: 6,
      rows: 4,
      mismatches: [
        {
          partyId: parties.bob,
          assetId: USDT.id,
          assetSymbol: "USDT",
          summary: "1000",
          summaryRaw: "1000000000",
          rows: "0",
          rowsRaw: "0",
          difference: "-1000",
          differenceRaw: "-1000000000"
        }
      ]
    })
  })

  it("writes null for what was not read and the filters as strings", () => {
    const json = JSON.parse(Json.render(noEpochsReport))
    expect(json.epochs).toBeNull()
    expect(json.crossCheck).toBeNull()
    const skipped = JSON.parse(Json.render(skippedReport))
    expect(skipped.provenance.filters.fromEpoch).toBe("41")
    expect(skipped.provenance.filters.toEpoch).toBe("42")
    expect(skipped.provenance.filters.top).toBe(3)
    expect(skipped.crossCheck).toEqual({ status: "skipped", reason: "the rows were limited to epochs 41 to 42" })
  })

  it("writes the lines and rows piece by piece, joining to exactly what one JSON.stringify gives", () => {
    const reports = [sampleReport, { ...sampleReport, epochs: listOf([]), lines: [] }, noEpochsReport]
    for (const report of reports) {
      const pieces = [...Json.chunks(report)]
      const text = pieces.join("")
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + "\n")
      // an array's pieces: one per element and its end, or "[]"
      const array = (length: number) => (length === 0 ? 1 : length + 1)
      const around = report.epochs === undefined ? 2 : 3 + array(report.epochs.length)
      expect(pieces.length).toBe(around + array(report.lines.length))
    }
    expect(JSON.parse(Json.render({ ...sampleReport, epochs: listOf([]) })).epochs).toEqual([])
  })

  it("lays out any text of the lines and rows exactly as JSON.stringify does", () => {
    // every code unit: quotes, backslashes, controls, lone and paired surrogates, and plain text
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.constantFrom(0x22, 0x5c, 0x7f),
      fc.integer({ min: 0, max: 0xffff })
    )
    const text = fc.array(unit, { maxLength: 12 }).map((units) => String.fromCharCode(...units))
    const optional = fc.option(text, { nil: undefined })
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            alias: optional,
            rewardType: text,
            percentage: text,
            gameId: optional,
            teamId: optional,
            symbol: text
          }),
          {
            maxLength: 4
          }
        ),
        fc.array(fc.record({ alias: optional, rank: fc.integer({ min: 1, max: 2 ** 31 }) }), { maxLength: 4 }),
        (rows, lines) => {
          const report: Report = {
            ...sampleReport,
            lines: lines.map((l, i) => ({ ...sampleReport.lines[i % sampleReport.lines.length], ...l })),
            epochs: listOf(
              rows.map((r, i) => ({
                ...sampleRows[i % sampleRows.length],
                alias: r.alias,
                rewardType: r.rewardType,
                percentageOfTotal: r.percentage,
                gameId: r.gameId,
                teamId: r.teamId,
                asset: { ...USDT, symbol: r.symbol }
              }))
            )
          }
          const written = Json.render(report)
          expect(written).toBe(JSON.stringify(JSON.parse(written), null, 2) + "\n")
          const parsed = JSON.parse(written)
          // every member read back as it was (rows laid out by hand, not by JSON.stringify)
          expect(parsed.epochs).toEqual(
            [...report.epochs!].map((r) => ({
              epoch: String(r.epoch),
              receivedAt: String(r.receivedAt),
              receivedAtIso: r.receivedAtIso,
              partyId: r.partyId,
              alias: r.alias ?? null,
              assetId: r.asset.id,
              assetSymbol: r.asset.symbol,
              rewardType: r.rewardType,
              amount: r.units,
              amountRaw: String(r.amount),
              percentageOfTotal: r.percentageOfTotal,
              lockedUntilEpoch: String(r.lockedUntilEpoch),
              gameId: r.gameId ?? null,
              teamId: r.teamId ?? null,
              rowId: r.rowId
            }))
          )
          expect(parsed.lines).toEqual(
            report.lines.map((l) => ({
              rank: l.rank,
              partyId: l.partyId,
              alias: l.alias ?? null,
              assetId: l.asset.id,
              assetSymbol: l.asset.symbol,
              amount: l.units,
              amountRaw: String(l.amount),
              sharePercent: l.share
            }))
          )
        }
      ),
      { numRuns: 300 }
    )
  })
})

// --- every format -------------------------------------------------------------------------------

describe("every format", () => {
  const outputs: ReadonlyArray<readonly [string, string]> = [
    ["csv", Csv.render(sampleReport)],
    ["csv epochs", Csv.render(epochsReport)],
    ["json", Json.render(sampleReport)],
    ["markdown", Markdown.render(sampleReport)],
    ["markdown epochs", Markdown.render(epochsReport)],
    ["table", Table.render(sampleReport)],
    ["table epochs", Table.render(epochsReport)],
    ["koinly", Koinly.render(sampleReport)],
    ["cointracking", CoinTracking.render(sampleReport)]
  ]

  it("keeps every digit of the smallest amount and never uses exponent notation for amounts", () => {
    for (const [name, text] of outputs) {
      expect(text, name).toContain("0.000000000000000123")
      expect(text, name).not.toMatch(/\d(\.\d+)?e[+-]?\d+ (VEGA|USDT)/i)
      expect(text, name).not.toMatch(/1\.23e-16/i)
    }
    for (const [name, text] of outputs.filter(([name]) => name.includes("epochs"))) {
      expect(text, name).toMatch(/500\.000123/)
    }
  })
})

// --- Markdown -----------------------------------------------------------------------------------

describe("Markdown", () => {
  const text = Markdown.render(sampleReport)

  it("escapes table pipes, HTML and emphasis in aliases", () => {
    expect(text).toContain("&lt;b&gt;Bob&lt;/b&gt; &amp; \\| co")
    expect(text).not.toContain("<b>")
    expect(text).toContain("Carol<br>second line")
    // every table row has as many cells as its header
    const tableLines = text.split("\n").filter((l) => l.startsWith("|"))
    const cells = (l: string) => l.replace(/\\\|/g, "").split("|").length
    for (const block of text.split("\n\n").filter((b) => b.startsWith("|"))) {
      const lines = block.split("\n").filter((l) => l !== "")
      for (const l of lines) expect(cells(l)).toBe(cells(lines[0]))
    }
    expect(tableLines.length).toBeGreaterThan(0)
  })

  it("escapes every Markdown and HTML special character", () => {
    expect(Markdown.escape("a\\b|c*d_e`f[g]h<i>j&k\nl\r\nm")).toBe(
      "a\\\\b\\|c\\*d\\_e\\`f\\[g\\]h&lt;i&gt;j&amp;k<br>l<br>m"
    )
  })

  it("leaves as it is only text without a character that escaping changes", () => {
    // text with an `&` is always escaped in full, so each character shows what escaping does to it
    const changedInFull = (c: string) => Markdown.escape(`&${c}`) !== `&amp;${c}`
    for (let code = 0; code < 0x3000; code++) {
      const c = String.fromCharCode(code)
      expect(Markdown.escape(c) !== c, `U+${code.toString(16)}`).toBe(changedInFull(c))
    }
    expect(Markdown.escape("alice (a1a1a1a1…a1a1) 12.5 VEGA")).toBe("alice (a1a1a1a1…a1a1) 12.5 VEGA")
  })

  it("right-aligns number columns and writes the cross-check", () => {
    expect(text).toContain("| Rank | Party | Alias | Amount | Share |\n| ---: | --- | --- | ---: | ---: |")
    expect(Markdown.render(passedReport)).toContain("4 per-epoch rows add up to the 6 summaries.")
    expect(Markdown.render(skippedReport)).toContain("the rows were limited to epochs 41 to 42")
    expect(text).toContain("-1000 USDT")
  })
})

// --- Table --------------------------------------------------------------------------------------

/** The blocks of a table output: runs of lines from a header row through its last data row. */
const tableBlocks = (text: string): Array<Array<string>> =>
  text
    .split("\n\n")
    .map((block) => block.split("\n"))
    .filter((lines) => lines.length >= 2 && /^[- ]+$/.test(lines[1]))

/** The code point column where the integer part of each amount in `line` ends. */
const amountPoint = (line: string): number | undefined => {
  const match = /(\d[\d,]*)(\.\d+)? +(USDT|VEGA)\b/.exec(line)
  return match === null ? undefined : [...line.slice(0, match.index + match[1].length)].length
}

describe("Table", () => {
  it("lays out the epochs view's rows as cells padded to the widest of their column, two spaces apart, no trailing spaces", () => {
    // the layout by its definition, all rows at once (the report's table lays the rows out one by
    // one with the widths given afterwards)
    const width = (text: string) => [...text].length
    const reference = (rows: ReadonlyArray<EpochRow>): string => {
      const cells = rows.map((r) => {
        const units = groupDigits(r.units)
        const point = units.indexOf(".")
        return [
          String(r.epoch),
          utcSeconds(r),
          oneLine(partyLabel(r.partyId, r.alias)),
          oneLine(r.rewardType),
          point < 0 ? units : units.slice(0, point),
          point < 0 ? "" : units.slice(point),
          oneLine(` ${r.asset.symbol}`)
        ]
      })
      const widest = (i: number) => Math.max(0, ...cells.map((c) => width(c[i])))
      const [whole, fraction, suffix] = [widest(4), widest(5), widest(6)]
      const headers = ["Epoch", "Received (UTC)", "Party", "Type", "Amount"]
      const sizes = [0, 1, 2, 3].map((i) => Math.max(width(headers[i]), widest(i)))
      sizes.push(Math.max(width(headers[4]), whole + fraction + suffix))
      const pad = (text: string, to: number, left: boolean) => {
        const spaces = " ".repeat(Math.max(0, to - width(text)))
        return left ? spaces + text : text + spaces
      }
      const line = (cells: ReadonlyArray<string>) =>
        cells
          .map((cell, i) => pad(cell, sizes[i], i === 0 || i === 4))
          .join("  ")
          .trimEnd()
      return [
        line(headers),
        line(sizes.map((size) => "-".repeat(size))),
        ...cells.map((c) =>
          line([c[0], c[1], c[2], c[3], pad(c[4], whole, true) + pad(c[5], fraction, false) + pad(c[6], suffix, false)])
        )
      ].join("\n")
    }
    const symbols = ["VEGA", "", "ends in spaces  ", "SP\u0007", "\u{1F600}wide", "nbsp\u00a0"]
    const aliases = [undefined, "a rather long alias \u{1F600}", "tab\there", ""]
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            row: fc.nat(sampleRows.length - 1),
            epoch: fc.bigInt({ min: 0n, max: 10n ** 7n }),
            symbol: fc.constantFrom(...symbols),
            alias: fc.constantFrom(...aliases),
            rewardType: fc.constantFrom("ACCOUNT_TYPE_GLOBAL_REWARD", "T\u{1F600}", "x\n"),
            units: fc.constantFrom("0", "1", "-12345.5", "1234567.000001", "0.5", "-1", "98765432109876543210")
          }),
          { minLength: 1, maxLength: 12 }
        ),
        (specs) => {
          const rows = specs.map((spec): EpochRow => ({
            ...sampleRows[spec.row],
            epoch: spec.epoch,
            alias: spec.alias,
            rewardType: spec.rewardType,
            units: spec.units,
            asset: { ...USDT, symbol: spec.symbol }
          }))
          const block = Table.render({ ...epochsReport, epochs: listOf(rows) })
          const start = block.indexOf("Rewards per epoch\n\n") + "Rewards per epoch\n\n".length
          const end = block.indexOf("\n\n", start)
          expect(block.slice(start, end < 0 ? undefined : end)).toBe(reference(rows))
        }
      ),
      { numRuns: 300 }
    )
  })

  const evil: Report = {
    ...sampleReport,
    lines: sampleReport.lines.map((l, i) => (i === 0 ? { ...l, alias: "\u001b[31mred\u001b[0m\u0007\r" } : l))
  }

  it.each([1_000, 300_000])(
    "lays out a block of %i lines to the widest of them, the last (300,000: too many arguments for Math.max)",
    (count) => {
      const line = sampleReport.lines[2]
      const many: Report = {
        ...sampleReport,
        lines: Array.from({ length: count }, (_, i) => ({ ...line, rank: i + 1, units: String(i) }))
      }
      const rows = Table.render(many)
        .split("\n")
        .filter((l) => l.endsWith("VEGA  53.6013%"))
      expect(rows.length).toBe(count)
      const widest = groupDigits(String(count - 1))
      expect(rows[0].endsWith(`  ${" ".repeat(widest.length - 1)}0 VEGA  53.6013%`)).toBe(true)
      expect(rows[count - 1].endsWith(`  ${widest} VEGA  53.6013%`)).toBe(true)
      expect(new Set(rows.map((row) => row.length)).size).toBe(1)
    }
  )

  it("streams the epochs view: a piece per row, the rows read once without ids (twice where their widest cells are not known), never held", () => {
    const rows = Array.from({ length: 10_000 }, (_, i): EpochRow => ({ ...sampleRows[i % 4], epoch: BigInt(i) }))
    // passes over the rows with their ids (a hash each) and without
    let passes = { withIds: 0, withoutIds: 0 }
    const counted: EpochRows = {
      ...listOf(rows),
      [Symbol.iterator]: () => {
        passes.withIds++
        return rows[Symbol.iterator]()
      },
      withoutIds: () => ({
        [Symbol.iterator]: () => {
          passes.withoutIds++
          return rows[Symbol.iterator]()
        }
      }),
      render: (template, layout) => renderRows(counted, template, layout)
    }
    // kept rows know their widest cells: the table reads them once
    const table = [...Table.chunks({ ...epochsReport, epochs: { ...counted, widest: () => rows } })]
    expect(passes).toEqual({ withIds: 0, withoutIds: 1 })
    expect(table.length).toBeGreaterThan(rows.length)
    expect(table.join("")).toBe(Table.render({ ...epochsReport, epochs: listOf(rows) }))
    passes = { withIds: 0, withoutIds: 0 }
    // otherwise it measures them first
    expect([...Table.chunks({ ...epochsReport, epochs: counted })].join("")).toBe(table.join(""))
    expect(passes).toEqual({ withIds: 0, withoutIds: 2 })
    passes = { withIds: 0, withoutIds: 0 }
    const markdown = [...Markdown.chunks({ ...epochsReport, epochs: counted })]
    expect(passes).toEqual({ withIds: 0, withoutIds: 1 })
    expect(markdown.length).toBeGreaterThan(rows.length)
  })

  it("writes no control characters but line ends, whatever the aliases hold", () => {
    for (const report of [sampleReport, partiesReport, totalsReport, epochsReport, evil]) {
      // eslint-disable-next-line no-control-regex
      expect(Table.render(report)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    }
  })

  it("lines up the decimal points of the amounts within a block", () => {
    for (const report of [sampleReport, partiesReport, totalsReport, epochsReport]) {
      const blocks = tableBlocks(Table.render(report))
      expect(blocks.length).toBeGreaterThan(0)
      for (const block of blocks) {
        const points = block.slice(2).map(amountPoint)
        expect(points.every((p) => p !== undefined)).toBe(true)
        expect(new Set(points).size).toBe(1)
        // the rule is as wide as the widest row
        expect(Math.max(...block.map((l) => [...l].length))).toBe([...block[1]].length)
      }
    }
  })

  it("groups integer digits, shows shares with %, and labels parties with alias and short id", () => {
    const text = Table.render(sampleReport)
    expect(text).toContain("USDT — total 1,500.000123 USDT over 2 parties")
    expect(text).toContain("1,000        USDT")
    expect(text).toContain("66.6667%")
    expect(text).toContain(`${aliases[parties.alice]} (a1a1a1a1…a1a1)`)
    expect(text).toContain("Carol second line (c3c3c3c3…c3c3)")
    expect(text).toContain("d4d4d4d4…d4d4")
    expect(text).toContain("cross-check: FAILED — 1 mismatch\n")
    expect(Table.render(passedReport)).toContain("cross-check: passed (4 per-epoch rows add up to the 6 summaries)")
    expect(Table.render(skippedReport)).toContain("cross-check: skipped (the rows were limited to epochs 41 to 42)")
  })
})

// --- helpers ------------------------------------------------------------------------------------

describe("unitsOf", () => {
  it("formats base units exactly", () => {
    expect(unitsOf(123n, 18)).toBe("0.000000000000000123")
    expect(unitsOf(1_500_000_123n, 6)).toBe("1500.000123")
    expect(unitsOf(1_000_000_000n, 6)).toBe("1000")
    expect(unitsOf(3_731_250_000_000_000_123n, 18)).toBe("3.731250000000000123")
    expect(unitsOf(10n ** 30n, 18)).toBe("1000000000000")
    expect(unitsOf(120n, 2)).toBe("1.2")
    expect(unitsOf(7n, 0)).toBe("7")
  })

  it("handles zero and negative amounts", () => {
    expect(unitsOf(0n, 18)).toBe("0")
    expect(unitsOf(0n, 0)).toBe("0")
    expect(unitsOf(-5n, 2)).toBe("-0.05")
    expect(unitsOf(-1_000_000_000n, 6)).toBe("-1000")
    expect(unitsOf(-123n, 18)).toBe("-0.000000000000000123")
  })
})

describe("groupDigits", () => {
  it("groups the whole part by thousands, sign and fraction untouched, for every length", () => {
    for (let digits = 1; digits <= 40; digits++) {
      // `digits` digits: 8, 97, 996, …
      const whole = 10n ** BigInt(digits) - 1n - BigInt(digits)
      // an independent reading of the same rule: the locale's grouping of a bigint
      const expected = whole.toLocaleString("en-US")
      expect(groupDigits(String(whole))).toBe(expected)
      expect(groupDigits(`-${whole}`)).toBe(`-${expected}`)
      expect(groupDigits(`${whole}.000123400`)).toBe(`${expected}.000123400`)
      expect(groupDigits(`-${whole}.5`)).toBe(`-${expected}.5`)
    }
    expect(groupDigits("0")).toBe("0")
    expect(groupDigits("0.000000000000000123")).toBe("0.000000000000000123")
    expect(groupDigits("-999.9999")).toBe("-999.9999")
  })
})

describe("plainDecimal", () => {
  it("moves the digits of a Go float exponent, exactly", () => {
    expect(plainDecimal("5e-05")).toBe("0.00005")
    expect(plainDecimal("1.25e-7")).toBe("0.000000125")
    expect(plainDecimal("1.5e+3")).toBe("1500")
    expect(plainDecimal("12.5e-1")).toBe("1.25")
    expect(plainDecimal("-2E-3")).toBe("-0.002")
    expect(plainDecimal("33.333333333333336")).toBe("33.333333333333336")
    expect(plainDecimal("40")).toBe("40")
    expect(plainDecimal("NaN")).toBe("NaN")
  })
})

describe("a tax export's field ending in the source", () => {
  it("is the whole field as csvField makes it, whatever the prefix and the source hold", () => {
    const texts = ["", "plain", "a,comma", 'a "quote"', "line\nend", "cr\rend", '",\r\n"', "\u00e9"]
    for (const prefix of texts) {
      for (const source of texts) {
        const field: RowTemplate = {
          name: "field",
          withIds: false,
          listing: "report",
          row: (_, out) => fieldEndingInSource(out, prefix),
          alias: () => ""
        }
        expect(renderRow(field, sampleRows[0], { constants: sourceConstants(source) })).toBe(csvField(prefix + source))
      }
    }
  })
})
