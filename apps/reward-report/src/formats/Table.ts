/**
 * The report as a plain-text table for a terminal: the provenance, then one block per group of the
 * view, with amounts right-aligned on their decimal point, and the cross-check. No colours; text
 * from the chain goes through `oneLine` so it cannot move the cursor or inject escape sequences.
 */
import type { AssetTotal, CrossCheck, EpochRows, PartyLine, Piece, Report, UnidentifiedRow } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import {
  groupDigits,
  oneLine,
  partyLabel,
  plural,
  provenanceEntries,
  runs,
  textOf,
  unitsOf,
  utcSeconds
} from "./text.js"

/** Width in code points, so `…` and `—` count as one (only text with surrogate pairs needs counting). */
const width = (text: string): number => (/[\uD800-\uDFFF]/.test(text) ? [...text].length : text.length)

const padLeft = (text: string, to: number): string => " ".repeat(Math.max(0, to - width(text))) + text
const padRight = (text: string, to: number): string => text + " ".repeat(Math.max(0, to - width(text)))

/** An exact decimal and what follows it (` VEGA`, `%`). */
interface Num {
  readonly units: string
  readonly suffix: string
}

type Column<A> =
  | { readonly header: string; readonly align: "left" | "right"; readonly cell: (row: A) => string }
  | { readonly header: string; readonly align: "number"; readonly cell: (row: A) => Num }

const left = <A>(header: string, cell: (row: A) => string): Column<A> => ({ header, align: "left", cell })
const right = <A>(header: string, cell: (row: A) => string): Column<A> => ({ header, align: "right", cell })
const numbers = <A>(header: string, cell: (row: A) => Num): Column<A> => ({ header, align: "number", cell })

/** Suffixes on one line: a few (asset symbols, `%`) recur on every row of a table. */
const suffixes = new Map<string, string>()
const suffixOf = (suffix: string): string => {
  let line = suffixes.get(suffix)
  if (line === undefined) {
    if (suffixes.size >= 1_000) suffixes.clear()
    suffixes.set(suffix, (line = oneLine(suffix)))
  }
  return line
}

/** A number cell's parts: integer part (grouped), fraction with its point, suffix. */
const partsOf = ({ suffix, units }: Num) => {
  const grouped = groupDigits(units)
  const point = grouped.indexOf(".")
  return {
    whole: point < 0 ? grouped : grouped.slice(0, point),
    fraction: point < 0 ? "" : grouped.slice(point),
    suffix: suffixOf(suffix)
  }
}

/** How wide a column's cells are: text cells whole; numbers by part, so decimal points line up. */
class Widths {
  text = 0
  whole = 0
  fraction = 0
  suffix = 0

  get numbers(): number {
    return this.whole + this.fraction + this.suffix
  }
}

const measure = <A>(columns: ReadonlyArray<Column<A>>, rows: Iterable<A>): ReadonlyArray<Widths> => {
  const widths = columns.map(() => new Widths())
  for (const row of rows) {
    columns.forEach((column, i) => {
      const w = widths[i]
      if (column.align !== "number") w.text = Math.max(w.text, width(oneLine(column.cell(row))))
      else {
        const p = partsOf(column.cell(row))
        w.whole = Math.max(w.whole, width(p.whole))
        w.fraction = Math.max(w.fraction, width(p.fraction))
        w.suffix = Math.max(w.suffix, width(p.suffix))
      }
    })
  }
  return widths
}

/** The columns' widths: their cells' by part (numbers) and whole, headers included. */
const layoutOf = <A>(columns: ReadonlyArray<Column<A>>, measured: Iterable<A>) => {
  const widths = measure(columns, measured)
  const sizes = columns.map((column, i) =>
    Math.max(width(column.header), column.align === "number" ? widths[i].numbers : widths[i].text)
  )
  return { widths, sizes }
}

/** A line of cells two spaces apart, each padded to its column's size; no trailing spaces. */
const lineOf =
  <A>(columns: ReadonlyArray<Column<A>>, sizes: ReadonlyArray<number>) =>
  (cells: ReadonlyArray<string>): string =>
    cells
      .map((cell, i) => (columns[i].align === "left" ? padRight : padLeft)(cell, sizes[i]))
      .join("  ")
      .trimEnd()

/**
 * Columns two spaces apart, a header row and a dashed rule; no trailing spaces. Numbers are laid
 * out so their decimal points share one column: integer parts padded on the left, fractions padded
 * on the right, then the suffixes padded to one width. Widths come from `measured`: the rows
 * themselves (gone through twice, so a million of them need not be held), or rows holding the
 * widest cells of each column; the lines come one piece each.
 */
function* table<A>(
  columns: ReadonlyArray<Column<A>>,
  rows: Iterable<A>,
  measured: Iterable<A> = rows
): Generator<string> {
  const { sizes, widths } = layoutOf(columns, measured)
  const line = lineOf(columns, sizes)
  yield line(columns.map((column) => column.header))
  yield `\n${line(sizes.map((size) => "-".repeat(size)))}`
  for (const row of rows) {
    const cells = columns.map((column, i) => {
      if (column.align !== "number") return oneLine(column.cell(row))
      const p = partsOf(column.cell(row))
      const w = widths[i]
      return padLeft(p.whole, w.whole) + padRight(p.fraction, w.fraction) + padRight(p.suffix, w.suffix)
    })
    yield `\n${line(cells)}`
  }
}

/** An asset symbol after an amount (made one line with the amount's other parts). */
const symbolOf = (symbol: string): string => ` ${symbol}`

/** A block of the output: its pieces, made as they are written. */
type Block = Iterable<Piece>

function* titled(title: string, pieces: Iterable<string>): Generator<string> {
  yield `${title}\n\n`
  yield* pieces
}

const assetBlocks = (report: Report): ReadonlyArray<Block> =>
  runs(report.lines, (line) => line.asset.id).map((group) => {
    const asset = group[0].asset
    const symbol = oneLine(asset.symbol)
    const total = report.totals.find((t) => t.asset.id === asset.id)
    const title =
      total === undefined
        ? symbol
        : `${symbol} — total ${groupDigits(total.units)} ${symbol} over ${plural(total.parties, "party", "parties")}`
    return titled(
      title,
      table<PartyLine>(
        [
          right("Rank", (line) => String(line.rank)),
          left("Party", (line) => partyLabel(line.partyId, line.alias)),
          numbers("Amount", (line) => ({ units: line.units, suffix: symbolOf(line.asset.symbol) })),
          numbers("Share", (line) => ({ units: line.share, suffix: "%" }))
        ],
        group
      )
    )
  })

const partyBlocks = (lines: ReadonlyArray<PartyLine>): ReadonlyArray<Block> =>
  runs(lines, (line) => line.partyId).map((group) =>
    titled(
      partyLabel(group[0].partyId, group[0].alias),
      table<PartyLine>(
        [
          left("Asset", (line) => line.asset.symbol),
          right("Rank", (line) => String(line.rank)),
          numbers("Amount", (line) => ({ units: line.units, suffix: symbolOf(line.asset.symbol) })),
          numbers("Share", (line) => ({ units: line.share, suffix: "%" }))
        ],
        group
      )
    )
  )

const totalsBlock = (report: Report): Block => [
  "Totals per asset\n\n",
  ...table<AssetTotal>(
    [
      left("Asset", (t) => t.asset.symbol),
      left("Name", (t) => t.asset.name),
      right("Parties", (t) => String(t.parties)),
      numbers("Total", (t) => ({ units: t.units, suffix: symbolOf(t.asset.symbol) }))
    ],
    report.totals
  )
]

const epochColumns: ReadonlyArray<Column<UnidentifiedRow>> = [
  right("Epoch", (row) => String(row.epoch)),
  left("Received (UTC)", utcSeconds),
  left("Party", (row) => partyLabel(row.partyId, row.alias)),
  left("Type", (row) => row.rewardType),
  numbers("Amount", (row) => ({ units: row.units, suffix: symbolOf(row.asset.symbol) }))
]

/**
 * A per-epoch row as a line of the epochs view's table, as {@link table} lays it out, its padding
 * slots filled from the columns' sizes (layout widths: the sizes of the epoch, time, party and type
 * columns; then what the amount's integer part is padded to, counting the padding of the whole
 * cell, and the fractions' width). The amount is the last cell: the line ends after its suffix, or
 * after its number where the suffix is only spaces (as trimmed).
 */
export const epochTemplate: RowTemplate = {
  name: "table",
  withIds: false,
  listing: "report",
  measured: true,
  row: (row, out) => {
    const epoch = String(row.epoch)
    const time = utcSeconds(row)
    const type = oneLine(row.rewardType)
    const amount = partsOf({ units: row.units, suffix: symbolOf(row.asset.symbol) })
    const suffix = amount.suffix.trimEnd()
    out.text("\n")
    out.pad(0, width(epoch))
    out.text(`${epoch}  ${time}`)
    out.pad(1, width(time))
    out.text("  ")
    out.alias()
    out.text(`  ${type}`)
    out.pad(3, width(type))
    out.text("  ")
    out.pad(4, width(amount.whole))
    out.text(amount.whole + amount.fraction)
    if (suffix !== "") {
      out.pad(5, width(amount.fraction))
      out.text(suffix)
    }
  },
  alias: (partyId, alias, layout) => padRight(oneLine(partyLabel(partyId, alias)), layout.widths?.[2] ?? 0)
}

/** Streamed: the rows are read once, as the block is written, where their widest cells are known. */
function* epochsBlock(epochs: EpochRows): Generator<Piece> {
  yield "Rewards per epoch\n\n"
  const { sizes, widths } = layoutOf(epochColumns, epochs.widest?.() ?? epochs.withoutIds())
  const line = lineOf(epochColumns, sizes)
  yield line(epochColumns.map((column) => column.header))
  yield `\n${line(sizes.map((size) => "-".repeat(size)))}`
  const amount = widths[4]
  yield* epochs.render(epochTemplate, {
    constants: [],
    widths: [...sizes.slice(0, 4), sizes[4] - amount.fraction - amount.suffix, amount.fraction]
  })
}

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

const blocks = (report: Report): ReadonlyArray<Block> => {
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

/** The text in pieces: blocks two lines apart, a line end at the end. */
export function* chunks(report: Report): Generator<Piece> {
  yield provenanceEntries(report.provenance)
    .map(([name, value]) => `${name}: ${oneLine(value)}`)
    .join("\n")
  for (const block of blocks(report)) {
    yield "\n\n"
    yield* block
  }
  if (report.crossCheck !== undefined) yield `\n\n${crossCheckLines(report.crossCheck)}`
  yield "\n"
}

export const render = (report: Report): string => textOf(chunks(report))
