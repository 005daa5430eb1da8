/**
 * The report as a plain-text table for a terminal: the provenance, then one block per group of the
 * view, with amounts right-aligned on their decimal point, and the cross-check. No colours; text
 * from the chain goes through `oneLine` so it cannot move the cursor or inject escape sequences.
 */
import type { CrossCheck, EpochRow, PartyLine, Report } from "../Report.js"
import { groupDigits, oneLine, partyLabel, plural, provenanceEntries, runs, unitsOf, utcSeconds } from "./text.js"

/** Width in code points, so `…` and `—` count as one. */
const width = (text: string): number => [...text].length

/** The widest of `texts` (a loop: a million rows are too many arguments for `Math.max`). */
const widest = (texts: Iterable<string>, least = 0): number => {
  let max = least
  for (const text of texts) max = Math.max(max, width(text))
  return max
}
const padLeft = (text: string, to: number): string => " ".repeat(Math.max(0, to - width(text))) + text
const padRight = (text: string, to: number): string => text + " ".repeat(Math.max(0, to - width(text)))

/** An exact decimal and what follows it (` VEGA`, `%`). */
interface Num {
  readonly units: string
  readonly suffix: string
}

type Column =
  | { readonly header: string; readonly align: "left" | "right"; readonly cells: ReadonlyArray<string> }
  | { readonly header: string; readonly align: "number"; readonly cells: ReadonlyArray<Num> }

const left = <A>(header: string, rows: ReadonlyArray<A>, cell: (row: A) => string): Column => ({
  header,
  align: "left",
  cells: rows.map(cell)
})
const right = <A>(header: string, rows: ReadonlyArray<A>, cell: (row: A) => string): Column => ({
  header,
  align: "right",
  cells: rows.map(cell)
})
const numbers = <A>(header: string, rows: ReadonlyArray<A>, cell: (row: A) => Num): Column => ({
  header,
  align: "number",
  cells: rows.map(cell)
})

/**
 * Numbers laid out so their decimal points share one column: integer parts (grouped) padded on the
 * left, fractions padded with spaces on the right, then the suffixes padded to one width.
 */
const alignNumbers = (cells: ReadonlyArray<Num>): ReadonlyArray<string> => {
  const parts = cells.map(({ suffix, units }) => {
    const [whole, fraction] = groupDigits(units).split(".")
    return { whole, fraction: fraction === undefined ? "" : `.${fraction}`, suffix: oneLine(suffix) }
  })
  const wholeWidth = widest(parts.map((p) => p.whole))
  const fractionWidth = widest(parts.map((p) => p.fraction))
  const suffixWidth = widest(parts.map((p) => p.suffix))
  return parts.map(
    (p) => padLeft(p.whole, wholeWidth) + padRight(p.fraction, fractionWidth) + padRight(p.suffix, suffixWidth)
  )
}

/** Columns two spaces apart, a header row and a dashed rule; no trailing spaces. */
const table = (columns: ReadonlyArray<Column>): string => {
  const laid = columns.map((column) => {
    const cells = column.align === "number" ? alignNumbers(column.cells) : column.cells.map(oneLine)
    const size = widest(cells, width(column.header))
    const pad = column.align === "left" ? padRight : padLeft
    return { header: pad(column.header, size), rule: "-".repeat(size), cells: cells.map((cell) => pad(cell, size)) }
  })
  const rowCount = columns[0]?.cells.length ?? 0
  const rows = [
    laid.map((c) => c.header),
    laid.map((c) => c.rule),
    ...Array.from({ length: rowCount }, (_, i) => laid.map((c) => c.cells[i]))
  ]
  return rows.map((row) => row.join("  ").trimEnd()).join("\n")
}

const symbolOf = (symbol: string): string => ` ${oneLine(symbol)}`

const assetBlocks = (report: Report): ReadonlyArray<string> =>
  runs(report.lines, (line) => line.asset.id).map((group) => {
    const asset = group[0].asset
    const symbol = oneLine(asset.symbol)
    const total = report.totals.find((t) => t.asset.id === asset.id)
    const title =
      total === undefined
        ? symbol
        : `${symbol} — total ${groupDigits(total.units)} ${symbol} over ${plural(total.parties, "party", "parties")}`
    return `${title}\n\n${table([
      right("Rank", group, (line) => String(line.rank)),
      left("Party", group, (line) => partyLabel(line.partyId, line.alias)),
      numbers("Amount", group, (line) => ({ units: line.units, suffix: symbolOf(line.asset.symbol) })),
      numbers("Share", group, (line) => ({ units: line.share, suffix: "%" }))
    ])}`
  })

const partyBlocks = (lines: ReadonlyArray<PartyLine>): ReadonlyArray<string> =>
  runs(lines, (line) => line.partyId).map(
    (group) =>
      `${partyLabel(group[0].partyId, group[0].alias)}\n\n${table([
        left("Asset", group, (line) => line.asset.symbol),
        right("Rank", group, (line) => String(line.rank)),
        numbers("Amount", group, (line) => ({ units: line.units, suffix: symbolOf(line.asset.symbol) })),
        numbers("Share", group, (line) => ({ units: line.share, suffix: "%" }))
      ])}`
  )

const totalsBlock = (report: Report): string =>
  `Totals per asset\n\n${table([
    left("Asset", report.totals, (t) => t.asset.symbol),
    left("Name", report.totals, (t) => t.asset.name),
    right("Parties", report.totals, (t) => String(t.parties)),
    numbers("Total", report.totals, (t) => ({ units: t.units, suffix: symbolOf(t.asset.symbol) }))
  ])}`

const epochsBlock = (epochs: ReadonlyArray<EpochRow>): string =>
  `Rewards per epoch\n\n${table([
    right("Epoch", epochs, (row) => String(row.epoch)),
    left("Received (UTC)", epochs, utcSeconds),
    left("Party", epochs, (row) => partyLabel(row.partyId, row.alias)),
    left("Type", epochs, (row) => row.rewardType),
    numbers("Amount", epochs, (row) => ({ units: row.units, suffix: symbolOf(row.asset.symbol) }))
  ])}`

const crossCheckLines = (crossCheck: CrossCheck): string => {
  switch (crossCheck.status) {
    case "passed":
      return (
        `cross-check: passed (${plural(crossCheck.rows, "per-epoch row adds", "per-epoch rows add")} up to the ` +
        `${plural(crossCheck.pairs, "summary", "summaries")})`
      )
    case "failed":
      return [
        `cross-check: FAILED — ${plural(crossCheck.mismatches.length, "mismatch", "mismatches")}`,
        ...crossCheck.mismatches.map((m) => {
          const amount = (value: bigint) =>
            `${groupDigits(unitsOf(value, m.asset.decimals))} ${oneLine(m.asset.symbol)}`
          return (
            `  ${m.partyId} ${oneLine(m.asset.symbol)}: summary ${amount(m.summary)}, ` +
            `per-epoch rows ${amount(m.rows)}, difference ${amount(m.rows - m.summary)}`
          )
        })
      ].join("\n")
    case "skipped":
      return `cross-check: skipped (${oneLine(crossCheck.reason)})`
  }
}

const blocks = (report: Report): ReadonlyArray<string> => {
  switch (report.view) {
    case "assets":
      return report.lines.length === 0 ? ["(no rewards)"] : assetBlocks(report)
    case "parties":
      return report.lines.length === 0 ? ["(no rewards)"] : partyBlocks(report.lines)
    case "totals":
      return report.totals.length === 0 ? ["(no rewards)"] : [totalsBlock(report)]
    case "epochs":
      return report.epochs === undefined
        ? ["(per-epoch rows not read)"]
        : report.epochs.length === 0
          ? ["(no rewards)"]
          : [epochsBlock(report.epochs)]
  }
}

export const render = (report: Report): string => {
  const header = provenanceEntries(report.provenance)
    .map(([name, value]) => `${name}: ${oneLine(value)}`)
    .join("\n")
  const sections = [
    header,
    ...blocks(report),
    ...(report.crossCheck === undefined ? [] : [crossCheckLines(report.crossCheck)])
  ]
  return `${sections.join("\n\n")}\n`
}
