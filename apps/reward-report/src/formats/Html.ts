/**
 * The report as one self-contained HTML page: inline styles, no scripts, no external resources, a
 * bar chart per asset as inline SVG. It opens offline and prints. Everything from the chain is escaped.
 */
import type { AssetInfo, CrossCheck, EpochRow, PartyLine, Report } from "../Report.js"
import { groupDigits, oneLine, partyLabel, provenanceEntries, runs, shortId, textOf, unitsOf } from "./text.js"

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Text made safe for element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c])

/** The chart's fixed geometry, in CSS pixels, so that tests can measure the drawing. */
export const chart = {
  /** Left of the bars: the party labels, right-aligned. */
  labelWidth: 280,
  /** The longest bar of an asset. */
  barWidth: 600,
  rowHeight: 24,
  barHeight: 16,
  /** Bars per asset at most (the best by rank). */
  maxBars: 20,
  /** Bar fills by asset index (in `totals` order), repeating; used nowhere else on the page. */
  palette: ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777", "#4d7c0f"]
} as const

/** Rows of the per-epoch table at most: a page of a million rows would not open. */
export const epochRowLimit = 1000

export const barColour = (assetIndex: number): string => chart.palette[assetIndex % chart.palette.length]

const amountText = (units: string, asset: AssetInfo): string => `${groupDigits(units)} ${oneLine(asset.symbol)}`
const count = (n: number): string => groupDigits(String(n))
const plural = (n: number, one: string, many: string): string => `${count(n)} ${n === 1 ? one : many}`

/** At most `max` characters (code points), with an ellipsis when cut. */
const truncate = (text: string, max: number): string => {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`
}

const td = (text: string, className?: string, title?: string): string =>
  `<td${className === undefined ? "" : ` class="${className}"`}${title === undefined ? "" : ` title="${escapeHtml(title)}"`}>${escapeHtml(text)}</td>`

const thead = (headings: ReadonlyArray<string>, numeric: ReadonlyArray<string> = []): string =>
  `<thead><tr>${headings.map((h) => (numeric.includes(h) ? `<th class="num">${h}</th>` : `<th>${h}</th>`)).join("")}</tr></thead>`

const assetHeading = (asset: AssetInfo): string =>
  `<h3 title="${escapeHtml(asset.id)}">${escapeHtml(oneLine(asset.symbol))} <span class="name">${escapeHtml(oneLine(asset.name))}</span></h3>`

/** A party cell: its label, with the full id in the tooltip. */
const partyCell = (partyId: string, alias: string | undefined): string =>
  td(partyLabel(partyId, alias), undefined, partyId)

const style = `:root { color-scheme: light; }
body { margin: 24px; color: #111827; background: #ffffff; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 22px; margin: 0 0 12px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid #d1d5db; }
h3 { font-size: 15px; margin: 18px 0 4px; }
.name { font-weight: normal; color: #4b5563; }
.note { color: #4b5563; margin: 4px 0 8px; }
dl.provenance { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0; }
dl.provenance dt { font-weight: 600; color: #374151; }
dl.provenance dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid #d1d5db; padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f3f4f6; }
.num { text-align: right; white-space: nowrap; }
td.num, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 13px; }
td.id { word-break: break-all; }
tr.group th { background: #f9fafb; }
tr.group .id { font-weight: normal; color: #4b5563; margin-left: 8px; }
.passed { color: #15803d; font-weight: 600; }
.failed { color: #b91c1c; font-weight: 600; }
.skipped { color: #92400e; font-weight: 600; }
svg.chart { display: block; max-width: 100%; height: auto; margin: 4px 0 8px; }
svg.chart text { font-size: 12px; fill: #111827; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
svg.chart text.amount { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
@media print {
  body { margin: 0; font-size: 10pt; }
  h2, h3 { break-after: avoid; }
  tr, svg.chart { break-inside: avoid; }
  thead { display: table-header-group; }
  svg.chart, .passed, .failed, .skipped { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}`

const provenanceSection = (report: Report): string =>
  [
    `<dl class="provenance">`,
    ...provenanceEntries(report.provenance).map(
      ([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`
    ),
    `</dl>`
  ].join("\n")

const totalsSection = (report: Report): string =>
  [
    `<section id="totals">`,
    `<h2>Totals per asset</h2>`,
    ...(report.totals.length === 0
      ? [`<p class="note">No rewards were read.</p>`]
      : [
          `<table>`,
          thead(["Asset", "Name", "Asset id", "Parties", "Total"], ["Parties", "Total"]),
          `<tbody>`,
          ...report.totals.map(
            (total) =>
              `<tr>${td(oneLine(total.asset.symbol))}${td(oneLine(total.asset.name))}${td(total.asset.id, "id")}${td(count(total.parties), "num")}${td(amountText(total.units, total.asset), "num")}</tr>`
          ),
          `</tbody>`,
          `</table>`
        ]),
    `</section>`
  ].join("\n")

/** Pixels of a bar: exact bigint proportion of the largest amount, at least 1 for any non-zero amount. */
const barPixels = (amount: bigint, max: bigint): number => {
  if (amount <= 0n || max <= 0n) return 0
  return Math.max(1, Number((amount * BigInt(chart.barWidth)) / max))
}

/** Pixels reserved right of the bars for amounts of `chars` characters (12px monospace is about 7.2px a character). */
const amountAreaWidth = (chars: number): number => Math.ceil(chars * 7.5) + 16

const assetChart = (asset: AssetInfo, assetIndex: number, lines: ReadonlyArray<PartyLine>): string => {
  // best first by rank; equal ranks keep the report's order
  const charted = [...lines].sort((a, b) => a.rank - b.rank).slice(0, chart.maxBars)
  const max = charted.reduce((m, line) => (line.amount > m ? line.amount : m), 0n)
  const amounts = charted.map((line) => amountText(line.units, asset))
  const width =
    chart.labelWidth + chart.barWidth + amountAreaWidth(Math.max(...amounts.map((a) => Array.from(a).length)))
  const height = charted.length * chart.rowHeight
  const fill = barColour(assetIndex)
  const symbol = oneLine(asset.symbol)
  const shown =
    lines.length > charted.length
      ? `The top ${count(charted.length)} of ${plural(lines.length, "party", "parties")}`
      : plural(lines.length, "party", "parties")
  const bars = charted.map((line, i) => {
    const top = i * chart.rowHeight
    const pixels = barPixels(line.amount, max)
    const textY = top + chart.rowHeight / 2 + 4
    const label = partyLabel(line.partyId, line.alias === undefined ? undefined : truncate(line.alias, 28))
    const tooltip = `${line.partyId}${line.alias === undefined ? "" : ` (${oneLine(line.alias)})`}: ${amounts[i]} (${line.amount} base units)`
    return [
      `<g>`,
      `<text class="label" x="${chart.labelWidth - 8}" y="${textY}" text-anchor="end">${escapeHtml(label)}</text>`,
      `<rect class="bar" x="${chart.labelWidth}" y="${top + (chart.rowHeight - chart.barHeight) / 2}" width="${pixels}" height="${chart.barHeight}" fill="${fill}" shape-rendering="crispEdges"><title>${escapeHtml(tooltip)}</title></rect>`,
      `<text class="amount" x="${chart.labelWidth + pixels + 8}" y="${textY}">${escapeHtml(amounts[i])}</text>`,
      `</g>`
    ].join("")
  })
  return [
    assetHeading(asset),
    `<p class="note">${shown}, best first; bar lengths are proportional to the exact amounts.</p>`,
    `<svg class="chart" data-asset="${escapeHtml(asset.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`Top earners in ${symbol}: ${shown.toLowerCase()}, bar lengths proportional to the amounts`)}">`,
    ...bars,
    `</svg>`
  ].join("\n")
}

const chartSection = (report: Report): string => {
  const body =
    report.lines.length === 0
      ? [`<p class="note">The ${report.view} view lists no party totals, so there is no chart.</p>`]
      : report.totals.map((total, index) => {
          const lines = report.lines.filter((line) => line.asset.id === total.asset.id)
          return lines.length === 0
            ? `${assetHeading(total.asset)}\n<p class="note">No parties listed.</p>`
            : assetChart(total.asset, index, lines)
        })
  return [`<section id="chart">`, `<h2>Top earners per asset</h2>`, ...body, `</section>`].join("\n")
}

function* assetsView(report: Report): Generator<string> {
  for (const total of report.totals) {
    const lines = report.lines.filter((line) => line.asset.id === total.asset.id)
    if (lines.length === 0) continue
    yield assetHeading(total.asset)
    yield `<table>`
    yield thead(["Rank", "Party", "Alias", "Amount", "Share %"], ["Rank", "Amount", "Share %"])
    yield `<tbody>`
    for (const line of lines) {
      yield `<tr>${td(String(line.rank), "num")}${td(line.partyId, "id")}${td(line.alias === undefined ? "" : oneLine(line.alias))}${td(amountText(line.units, line.asset), "num")}${td(line.share, "num")}</tr>`
    }
    yield `</tbody>`
    yield `</table>`
  }
}

function* partiesView(report: Report): Generator<string> {
  if (report.lines.length === 0) return
  yield `<table>`
  yield thead(["Asset", "Rank", "Amount", "Share %"], ["Rank", "Amount", "Share %"])
  for (const group of runs(report.lines, (line) => line.partyId)) {
    const { alias, partyId } = group[0]
    yield `<tbody>`
    yield `<tr class="group"><th colspan="4" scope="rowgroup">${escapeHtml(alias === undefined ? shortId(partyId) : oneLine(alias))}<span class="id">${escapeHtml(partyId)}</span></th></tr>`
    for (const line of group) {
      yield `<tr>${td(oneLine(line.asset.symbol), undefined, line.asset.id)}${td(String(line.rank), "num")}${td(amountText(line.units, line.asset), "num")}${td(line.share, "num")}</tr>`
    }
    yield `</tbody>`
  }
  yield `</table>`
}

const epochRowHtml = (row: EpochRow): string =>
  `<tr>${td(String(row.epoch), "num")}${td(row.receivedAtIso, "num")}${partyCell(row.partyId, row.alias)}${td(oneLine(row.asset.symbol), undefined, row.asset.id)}${td(oneLine(row.rewardType))}${td(amountText(row.units, row.asset), "num")}${td(oneLine(row.percentageOfTotal), "num")}</tr>`

const epochsView = (report: Report): ReadonlyArray<string> => {
  const rows = report.epochs
  if (rows === undefined) return [`<p class="note">The per-epoch rows were not read.</p>`]
  if (rows.length === 0) return [`<p class="note">No per-epoch rows match the filters.</p>`]
  const shown = rows.head(epochRowLimit)
  return [
    ...(shown.length < rows.length
      ? [
          `<p class="note">Showing the first ${count(shown.length)} of ${count(rows.length)} rows; the CSV, JSON, Koinly and CoinTracking outputs hold all of them.</p>`
        ]
      : []),
    `<table>`,
    thead(
      ["Epoch", "Received (UTC)", "Party", "Asset", "Type", "Amount", "% of payout"],
      ["Epoch", "Amount", "% of payout"]
    ),
    `<tbody>`,
    ...shown.map(epochRowHtml),
    `</tbody>`,
    `</table>`
  ]
}

/** The view's section, line by line (the assets and parties views list every line: hundreds of thousands on a big network). */
const viewSection = (report: Report): Iterable<string> => {
  switch (report.view) {
    case "totals":
      return []
    case "assets":
      return section(`<h2>Parties per asset</h2>`, assetsView(report))
    case "parties":
      return section(`<h2>Assets per party</h2>`, partiesView(report))
    case "epochs":
      return section(`<h2>Payouts per epoch</h2>`, epochsView(report))
  }
}

function* section(heading: string, body: Iterable<string>): Generator<string> {
  yield `<section id="view">`
  yield heading
  yield* body
  yield `</section>`
}

const crossCheckBody = (check: CrossCheck): ReadonlyArray<string> => {
  switch (check.status) {
    case "passed":
      return [
        `<p><span class="passed">Passed.</span> The ${plural(check.rows, "per-epoch row adds", "per-epoch rows add")} up to the summaries for all ${plural(check.pairs, "party–asset pair", "party–asset pairs")}.</p>`
      ]
    case "skipped":
      return [`<p><span class="skipped">Skipped.</span> ${escapeHtml(check.reason)}</p>`]
    case "failed":
      return [
        `<p><span class="failed">Failed.</span> ${count(check.mismatches.length)} of ${plural(check.pairs, "party–asset pair", "party–asset pairs")} do not add up (${plural(check.rows, "per-epoch row", "per-epoch rows")} read).</p>`,
        `<table>`,
        thead(
          ["Party", "Alias", "Asset", "Summary", "Per-epoch rows", "Difference"],
          ["Summary", "Per-epoch rows", "Difference"]
        ),
        `<tbody>`,
        ...check.mismatches.map(
          (m) =>
            `<tr>${td(m.partyId, "id")}${td(m.alias === undefined ? "" : oneLine(m.alias))}${td(oneLine(m.asset.symbol), undefined, m.asset.id)}${td(amountText(unitsOf(m.summary, m.asset.decimals), m.asset), "num")}${td(amountText(unitsOf(m.rows, m.asset.decimals), m.asset), "num")}${td(amountText(unitsOf(m.rows - m.summary, m.asset.decimals), m.asset), "num")}</tr>`
        ),
        `</tbody>`,
        `</table>`
      ]
  }
}

const crossCheckSection = (report: Report): string =>
  report.crossCheck === undefined
    ? ""
    : [
        `<section id="cross-check">`,
        `<h2>Cross-check: per-epoch rows against summaries</h2>`,
        ...crossCheckBody(report.crossCheck),
        `</section>`
      ].join("\n")

/**
 * The page in pieces, a line each: the view's lines are made as they are written, not joined into
 * one string first (the assets view of a big network is tens of megabytes of text).
 */
export function* chunks(report: Report): Generator<string> {
  const top = [
    `<!doctype html>`,
    `<html lang="en">`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>Vega rewards report</title>`,
    `<style>`,
    style,
    `</style>`,
    `</head>`,
    `<body>`,
    `<h1>Vega rewards report</h1>`,
    provenanceSection(report),
    totalsSection(report),
    chartSection(report)
  ]
  // a section with nothing to show is left out, with its line
  for (const part of top) if (part !== "") yield `${part}\n`
  for (const line of viewSection(report)) yield `${line}\n`
  const crossCheck = crossCheckSection(report)
  if (crossCheck !== "") yield `${crossCheck}\n`
  yield `</body>\n</html>\n`
}

export const render = (report: Report): string => textOf(chunks(report))
