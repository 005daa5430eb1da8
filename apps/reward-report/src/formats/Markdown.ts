/**
 * The report as GitHub-flavoured Markdown, for issues, pull requests and wikis: the provenance as a
 * list, then one table per group of the view, and the cross-check. Text from the chain is escaped
 * so an alias cannot add markup, links or table cells.
 */
import type { CrossCheck, EpochRows, PartyLine, Piece, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import {
  oneLine,
  partyLabel,
  plainDecimal,
  plural,
  provenanceEntries,
  runs,
  shortId,
  textOf,
  unitsOf,
  utcSeconds
} from "./text.js"

/** What {@link escape} changes: Markdown punctuation, HTML characters, line breaks and other controls. */
// eslint-disable-next-line no-control-regex
const special = /[&<>\\|*_`[\]\u0000-\u001f\u007f-\u009f]/

/** Cell or heading text: Markdown punctuation backslash-escaped, HTML characters as entities, line breaks as `<br>`. */
export const escape = (text: string): string =>
  // most text (ids, symbols, numbers) has nothing to escape: one test instead of six passes, per cell
  !special.test(text)
    ? text
    : oneLine(
        text
          .replace(/&/g, "&amp;")
          .replace(/</g, "&lt;")
          .replace(/>/g, "&gt;")
          .replace(/[\\|*_`[\]]/g, (c) => `\\${c}`)
          .replace(/\r\n|\r|\n/g, "<br>")
      )

/** Ids and enum names as code spans (they hold no backticks, pipes or line breaks; anything else is escaped). */
const code = (text: string): string => (/^[\w.:-]+$/.test(text) ? `\`${text}\`` : escape(text))

type Align = "left" | "right"

/** A table's header and rule. */
const tableHead = (columns: ReadonlyArray<readonly [string, Align]>): string =>
  `| ${columns.map(([name]) => name).join(" | ")} |` +
  `\n| ${columns.map(([, align]) => (align === "right" ? "---:" : "---")).join(" | ")} |`

/** The table's lines, one piece each (a million rows are never one string). */
function* tableLines(
  columns: ReadonlyArray<readonly [string, Align]>,
  rows: Iterable<ReadonlyArray<string>>
): Generator<string> {
  yield tableHead(columns)
  for (const row of rows) yield `\n| ${row.join(" | ")} |`
}

const table = (columns: ReadonlyArray<readonly [string, Align]>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [...tableLines(columns, rows)].join("")

const amount = (units: string, symbol: string) => `${units} ${escape(symbol)}`

const totalsSection = (report: Report): string =>
  [
    "## Totals per asset",
    table(
      [
        ["Asset", "left"],
        ["Parties", "right"],
        ["Total", "right"]
      ],
      report.totals.map((total) => [
        escape(total.asset.symbol),
        String(total.parties),
        amount(total.units, total.asset.symbol)
      ])
    )
  ].join("\n\n")

/** A section's pieces, made as they are written: its heading paragraphs, then its table. */
function* section(
  paragraphs: ReadonlyArray<string>,
  columns: ReadonlyArray<readonly [string, Align]>,
  rows: Iterable<ReadonlyArray<string>>
): Generator<string> {
  for (const paragraph of paragraphs) yield `${paragraph}\n\n`
  yield* tableLines(columns, rows)
}

function* cells<A>(items: Iterable<A>, cellsOf: (item: A) => ReadonlyArray<string>): Generator<ReadonlyArray<string>> {
  for (const item of items) yield cellsOf(item)
}

const assetSections = (lines: ReadonlyArray<PartyLine>): ReadonlyArray<Iterable<string>> =>
  runs(lines, (line) => line.asset.id).map((group) =>
    section(
      [`## ${escape(group[0].asset.symbol)}`],
      [
        ["Rank", "right"],
        ["Party", "left"],
        ["Alias", "left"],
        ["Amount", "right"],
        ["Share", "right"]
      ],
      cells(group, (line) => [
        String(line.rank),
        code(line.partyId),
        line.alias === undefined ? "" : escape(line.alias),
        amount(line.units, line.asset.symbol),
        `${line.share}%`
      ])
    )
  )

const partySections = (lines: ReadonlyArray<PartyLine>): ReadonlyArray<Iterable<string>> =>
  runs(lines, (line) => line.partyId).map((group) =>
    section(
      [
        `## ${escape(group[0].alias === undefined ? shortId(group[0].partyId) : oneLine(group[0].alias))}`,
        `Party ${code(group[0].partyId)}`
      ],
      [
        ["Asset", "left"],
        ["Rank", "right"],
        ["Amount", "right"],
        ["Share", "right"]
      ],
      cells(group, (line) => [
        escape(line.asset.symbol),
        String(line.rank),
        amount(line.units, line.asset.symbol),
        `${line.share}%`
      ])
    )
  )

const epochColumns: ReadonlyArray<readonly [string, Align]> = [
  ["Epoch", "right"],
  ["Received (UTC)", "left"],
  ["Party", "left"],
  ["Asset", "left"],
  ["Type", "left"],
  ["Amount", "right"],
  ["% of payout", "right"]
]

/** A per-epoch row as a line of the table, the party (its alias and short id) a slot. */
export const epochTemplate: RowTemplate = {
  name: "markdown",
  withIds: false,
  listing: "report",
  row: (row, out) => {
    out.text(`\n| ${row.epoch} | ${utcSeconds(row)} | `)
    out.alias()
    out.text(
      ` | ${escape(row.asset.symbol)} | ${code(row.rewardType)} | ${amount(row.units, row.asset.symbol)} | ` +
        // the node sends a Go float such as "5e-05"; shown as plain decimal, digits unchanged
        `${escape(plainDecimal(row.percentageOfTotal))}% |`
    )
  },
  alias: (partyId, alias) => escape(partyLabel(partyId, alias))
}

/** Streamed: the rows are read as the section is written. */
function* epochsSection(epochs: EpochRows | undefined): Generator<Piece> {
  yield "## Rewards per epoch\n\n"
  if (epochs === undefined) yield "The per-epoch rows were not read."
  else {
    yield tableHead(epochColumns)
    yield* epochs.render(epochTemplate, { constants: [] })
  }
}

const crossCheckSection = (crossCheck: CrossCheck): string => {
  if (crossCheck.status === "skipped") return `## Cross-check\n\nSkipped: ${escape(crossCheck.reason)}`
  const rows = plural(crossCheck.rows, "per-epoch row", "per-epoch rows")
  const summaries = plural(crossCheck.pairs, "summary", "summaries")
  switch (crossCheck.status) {
    case "passed":
      return `## Cross-check\n\nPassed: ${rows} ${crossCheck.rows === 1 ? "adds" : "add"} up to the ${summaries}.`
    case "failed":
      return [
        "## Cross-check",
        `**Failed**: the ${rows} ${crossCheck.rows === 1 ? "does" : "do"} not add up to the ${summaries}; ` +
          `${plural(crossCheck.mismatches.length, "mismatch", "mismatches")}:`,
        table(
          [
            ["Party", "left"],
            ["Asset", "left"],
            ["Summary", "right"],
            ["Per-epoch rows", "right"],
            ["Difference", "right"]
          ],
          crossCheck.mismatches.map((m) => [
            code(m.partyId),
            escape(m.asset.symbol),
            amount(unitsOf(m.summary, m.asset.decimals), m.asset.symbol),
            amount(unitsOf(m.rows, m.asset.decimals), m.asset.symbol),
            amount(unitsOf(m.rows - m.summary, m.asset.decimals), m.asset.symbol)
          ])
        )
      ].join("\n\n")
  }
}

/** The text in pieces: sections a blank line apart, a line end at the end. */
export function* chunks(report: Report): Generator<Piece> {
  const sections: ReadonlyArray<Iterable<Piece>> = [
    ["# Vega rewards report"],
    [
      provenanceEntries(report.provenance)
        .map(([name, value]) => `- **${name}**: ${escape(value)}`)
        .join("\n")
    ],
    [totalsSection(report)],
    ...(report.view === "assets" ? assetSections(report.lines) : []),
    ...(report.view === "parties" ? partySections(report.lines) : []),
    ...(report.view === "epochs" ? [epochsSection(report.epochs)] : []),
    ...(report.crossCheck === undefined ? [] : [[crossCheckSection(report.crossCheck)]])
  ]
  for (const [i, section] of sections.entries()) {
    if (i > 0) yield "\n\n"
    yield* section
  }
  yield "\n"
}

export const render = (report: Report): string => textOf(chunks(report))
