/**
 * The report as JSON for programs: a plain object with a fixed key order, every bigint and every
 * amount as an exact decimal string (JSON numbers would lose digits in most readers).
 */
import type { AssetInfo, CrossCheck, Mismatch, PartyLine, Provenance, Piece, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import { textOf, unitsOf } from "./text.js"

/** The format name and version readers can check before they read on. */
export const format = "vega-effect/reward-report@1"

const provenanceJson = (provenance: Provenance) => ({
  nodes: [...provenance.nodes],
  height: String(provenance.height),
  lowestHeight: String(provenance.lowestHeight),
  blockTime: provenance.blockTime,
  generatedAt: provenance.generatedAt,
  generator: provenance.generator,
  filters: {
    parties: [...provenance.filters.parties],
    assets: [...provenance.filters.assets],
    fromEpoch: provenance.filters.fromEpoch === undefined ? null : String(provenance.filters.fromEpoch),
    toEpoch: provenance.filters.toEpoch === undefined ? null : String(provenance.filters.toEpoch),
    rewardTypes: [...provenance.filters.rewardTypes],
    top: provenance.filters.top ?? null,
    sort: provenance.filters.sort
  }
})

const assetJson = (asset: AssetInfo) => ({
  id: asset.id,
  symbol: asset.symbol,
  name: asset.name,
  decimals: asset.decimals
})

const mismatchJson = (mismatch: Mismatch) => {
  const decimals = mismatch.asset.decimals
  const difference = mismatch.rows - mismatch.summary
  return {
    partyId: mismatch.partyId,
    assetId: mismatch.asset.id,
    assetSymbol: mismatch.asset.symbol,
    summary: unitsOf(mismatch.summary, decimals),
    summaryRaw: String(mismatch.summary),
    rows: unitsOf(mismatch.rows, decimals),
    rowsRaw: String(mismatch.rows),
    difference: unitsOf(difference, decimals),
    differenceRaw: String(difference)
  }
}

const crossCheckJson = (crossCheck: CrossCheck) => {
  switch (crossCheck.status) {
    case "passed":
      return { status: crossCheck.status, pairs: crossCheck.pairs, rows: crossCheck.rows }
    case "failed":
      return {
        status: crossCheck.status,
        pairs: crossCheck.pairs,
        rows: crossCheck.rows,
        mismatches: crossCheck.mismatches.map(mismatchJson)
      }
    case "skipped":
      return { status: crossCheck.status, reason: crossCheck.reason }
  }
}

/** Stand for the lines and rows in the skeleton, which is printed whole; they are printed one by one. */
const LINES = "\u0000lines\u0000"
const ROWS = "\u0000rows\u0000"

/** What `JSON.stringify` escapes in a string: quotes, backslashes, controls and surrogates (lone ones). */
// eslint-disable-next-line no-control-regex
const escaped = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * A string member's value as `JSON.stringify` writes it; `null` for none. Most values (ids, times,
 * names) hold nothing to escape and are only quoted.
 */
const text = (value: string | undefined): string =>
  value === undefined ? "null" : escaped.test(value) ? JSON.stringify(value) : `"${value}"`

/**
 * Before each member of an element of a top-level member's array (which sits 4 spaces in). Elements
 * are laid out by hand, as `JSON.stringify(…, null, 2)` lays out the document (a quarter of the
 * time: millions of rows are typical); text goes through `JSON.stringify`, numbers (digits, a sign,
 * a point) are written as they are.
 */
const MEMBER = "\n      "

/** An element of such an array, after the comma that ends the element before it (see {@link array}). */
const lineElement = (line: PartyLine): string =>
  `,\n    {${MEMBER}"rank": ${line.rank},${MEMBER}"partyId": ${text(line.partyId)},${MEMBER}"alias": ${text(line.alias)},` +
  `${MEMBER}"assetId": ${text(line.asset.id)},${MEMBER}"assetSymbol": ${text(line.asset.symbol)},` +
  `${MEMBER}"amount": "${line.units}",${MEMBER}"amountRaw": "${line.amount}",${MEMBER}"sharePercent": "${line.share}"\n    }`

/** An array of a top-level member from its elements' pieces (each element after a comma, a piece holding one or more). */
function* array(pieces: Iterable<Piece>): Generator<Piece> {
  let first = true
  for (const piece of pieces) {
    // the comma before the first element is left out (its byte where the piece is encoded)
    if (!first) yield piece
    else if (typeof piece === "string") yield `[${piece.slice(1)}`
    else yield* ["[", piece.subarray(1)]
    first = false
  }
  yield first ? "[]" : "\n  ]"
}

/** An asset's members of a per-epoch row, made once per asset (a million rows share a few assets). */
const assetMembers = new WeakMap<AssetInfo, string>()
const assetMembersOf = (asset: AssetInfo): string => {
  let members = assetMembers.get(asset)
  if (members === undefined) {
    members = `,${MEMBER}"assetId": ${text(asset.id)},${MEMBER}"assetSymbol": ${text(asset.symbol)},`
    assetMembers.set(asset, members)
  }
  return members
}

/**
 * A per-epoch row as an element of the `epochs` array (as {@link lineElement}), its alias a slot.
 * Its time in ISO 8601 and its id (SHA-256 hex) are the report's own text, with nothing to escape.
 */
export const epochTemplate: RowTemplate = {
  name: "json",
  withIds: true,
  listing: "report",
  row: (row, out) => {
    out.text(
      `,\n    {${MEMBER}"epoch": "${row.epoch}",${MEMBER}"receivedAt": "${row.receivedAt}",` +
        `${MEMBER}"receivedAtIso": "${row.receivedAtIso}",${MEMBER}"partyId": ${text(row.partyId)},${MEMBER}"alias": `
    )
    out.alias()
    out.text(
      `${assetMembersOf(row.asset)}${MEMBER}"rewardType": ${text(row.rewardType)},${MEMBER}"amount": "${row.units}",` +
        `${MEMBER}"amountRaw": "${row.amount}",${MEMBER}"percentageOfTotal": ${text(row.percentageOfTotal)},` +
        `${MEMBER}"lockedUntilEpoch": "${row.lockedUntilEpoch}",${MEMBER}"gameId": ${text(row.gameId)},` +
        `${MEMBER}"teamId": ${text(row.teamId)},${MEMBER}"rowId": "${row.rowId}"\n    }`
    )
  },
  alias: (_, alias) => text(alias)
}

/**
 * The JSON text in pieces: everything but the lines and per-epoch rows at once, then each line
 * and row (hundreds of thousands of lines and millions of rows would not fit in one string). The
 * pieces join to exactly `JSON.stringify(…, null, 2)`.
 */
export function* chunks(report: Report): Generator<Piece> {
  const skeleton =
    JSON.stringify(
      {
        format,
        provenance: provenanceJson(report.provenance),
        view: report.view,
        totals: report.totals.map((total) => ({
          asset: assetJson(total.asset),
          parties: total.parties,
          amount: total.units,
          amountRaw: String(total.amount)
        })),
        lines: LINES,
        epochs: report.epochs === undefined ? null : ROWS,
        crossCheck: report.crossCheck === undefined ? null : crossCheckJson(report.crossCheck)
      },
      null,
      2
    ) + "\n"
  const linesAt = skeleton.indexOf(JSON.stringify(LINES))
  yield skeleton.slice(0, linesAt)
  yield* array(
    (function* () {
      for (const line of report.lines) yield lineElement(line)
    })()
  )
  const rest = skeleton.slice(linesAt + JSON.stringify(LINES).length)
  const rowsAt = rest.indexOf(JSON.stringify(ROWS))
  if (report.epochs === undefined || rowsAt < 0) {
    yield rest
    return
  }
  yield rest.slice(0, rowsAt)
  yield* array(report.epochs.render(epochTemplate, { constants: [] }))
  yield rest.slice(rowsAt + JSON.stringify(ROWS).length)
}

export const render = (report: Report): string => textOf(chunks(report))
