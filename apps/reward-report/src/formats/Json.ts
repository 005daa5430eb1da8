/**
 * The report as JSON for programs: a plain object with a fixed key order, every bigint and every
 * amount as an exact decimal string (JSON numbers would lose digits in most readers).
 */
import type { AssetInfo, CrossCheck, EpochRow, Mismatch, PartyLine, Provenance, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import { unitsOf } from "./text.js"

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

const lineJson = (line: PartyLine) => ({
  rank: line.rank,
  partyId: line.partyId,
  alias: line.alias ?? null,
  assetId: line.asset.id,
  assetSymbol: line.asset.symbol,
  amount: line.units,
  amountRaw: String(line.amount),
  sharePercent: line.share
})

/** A per-epoch row's members; its alias given apart (null where the row's is a slot). */
const epochJson = (row: EpochRow, alias: string | null = row.alias ?? null) => ({
  epoch: String(row.epoch),
  receivedAt: String(row.receivedAt),
  receivedAtIso: row.receivedAtIso,
  partyId: row.partyId,
  alias,
  assetId: row.asset.id,
  assetSymbol: row.asset.symbol,
  rewardType: row.rewardType,
  amount: row.units,
  amountRaw: String(row.amount),
  percentageOfTotal: row.percentageOfTotal,
  lockedUntilEpoch: String(row.lockedUntilEpoch),
  gameId: row.gameId ?? null,
  teamId: row.teamId ?? null,
  rowId: row.rowId
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

/** Where a member's element starts and ends in `{"_":[element]}` laid out by `JSON.stringify(…, null, 2)`. */
const ELEMENT_START = '{\n  "_": [\n    '.length
const ELEMENT_END = "\n  ]\n}".length

/**
 * An element of an array of a top-level member, after the comma that ends the element before it
 * (the first one's is left out by {@link array}). Elements sit 4 spaces in: each is laid out inside
 * such a member and cut out (rather than laid out alone and every line indented again).
 */
const element = (json: unknown): string => {
  const member = JSON.stringify({ _: [json] }, null, 2)
  return `,\n    ${member.slice(ELEMENT_START, member.length - ELEMENT_END)}`
}

/** An array of a top-level member from its elements' pieces ({@link element}s, a piece holding one or more). */
function* array(pieces: Iterable<string>): Generator<string> {
  let first = true
  for (const piece of pieces) {
    // the comma before the first element is left out
    yield first ? `[${piece.slice(1)}` : piece
    first = false
  }
  yield first ? "[]" : "\n  ]"
}

/** The alias's member of a per-epoch row: where the row is cut for its alias slot. */
const ALIAS_MEMBER = '"alias": null'

/**
 * A per-epoch row as an {@link element}, its alias a slot. The members before the alias hold only
 * digits, an ISO time and an id, so the first `"alias": null` is the alias's own.
 */
export const epochTemplate: RowTemplate = {
  name: "json",
  withIds: true,
  listing: "report",
  row: (row, out) => {
    const text = element(epochJson(row, null))
    const at = text.indexOf(ALIAS_MEMBER) + ALIAS_MEMBER.length - "null".length
    out.text(text.slice(0, at))
    out.alias()
    out.text(text.slice(at + "null".length))
  },
  alias: (_, alias) => JSON.stringify(alias ?? null)
}

/**
 * The JSON text in pieces: everything but the lines and per-epoch rows at once, then each line
 * and row (hundreds of thousands of lines and millions of rows would not fit in one string). The
 * pieces join to exactly `JSON.stringify(…, null, 2)`.
 */
export function* chunks(report: Report): Generator<string> {
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
      for (const line of report.lines) yield element(lineJson(line))
    })()
  )
  const rest = skeleton.slice(linesAt + JSON.stringify(LINES).length)
  const rowsAt = rest.indexOf(JSON.stringify(ROWS))
  if (report.epochs === undefined || rowsAt < 0) {
    yield rest
    return
  }
  yield rest.slice(0, rowsAt)
  yield* array(report.epochs.render(epochTemplate, []))
  yield rest.slice(rowsAt + JSON.stringify(ROWS).length)
}

export const render = (report: Report): string => [...chunks(report)].join("")
