/**
 * The per-epoch rewards as a Koinly "universal" CSV import (tax-export-formats.md §1 and §3): one
 * Received-only row labelled `reward` per payout, oldest first.
 */
import type { Piece, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import { csvField, fieldEndingInSource, sourceConstants, sourceText, taxRows, textOf, utcSeconds } from "./text.js"

export const header =
  "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash"

/**
 * A payout as a record: Date, Received Amount and Currency, the label, a description ending in where
 * the payout was read (constants of {@link sourceConstants}), and its id as the TxHash.
 */
export const rowTemplate: RowTemplate = {
  name: "koinly",
  withIds: true,
  listing: "oldest",
  row: (row, out) => {
    // The exact amount, not staketaxcsv's 9-decimal rounding of amounts below 0.001: that
    // rounding turns rewards under 1e-9 into 0, so the import would no longer add up to the
    // totals this report states (and to what the chain paid).
    out.text(`${csvField(utcSeconds(row))},,,${csvField(row.units)},${csvField(row.asset.symbol)},,,,,reward,`)
    fieldEndingInSource(out, `Vega epoch ${row.epoch} ${row.rewardType} to ${row.partyId}; `)
    out.text(`,${csvField(row.rowId)}\r\n`)
  },
  alias: () => ""
}

/** The CSV text in pieces: the header, then the rows. */
export function* chunks(report: Report): Generator<Piece> {
  const rows = taxRows(report, "Koinly")
  yield `${header}\r\n`
  yield* rows.render(rowTemplate, { constants: sourceConstants(sourceText(report.provenance)) })
}

export const render = (report: Report): string => textOf(chunks(report))
