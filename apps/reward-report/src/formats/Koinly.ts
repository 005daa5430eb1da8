/**
 * The per-epoch rewards as a Koinly "universal" CSV import (tax-export-formats.md §1 and §3): one
 * Received-only row labelled `reward` per payout, oldest first.
 */
import type { Report } from "../Report.js"
import { csvLine, sourceText, taxRows, utcSeconds } from "./text.js"

export const header =
  "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash"

/** The CSV text in pieces, one record each. */
export function* chunks(report: Report): Generator<string> {
  const rows = taxRows(report, "Koinly").byReceivedAt("oldest")
  const source = sourceText(report.provenance)
  yield `${header}\r\n`
  for (const row of rows) {
    yield csvLine([
      utcSeconds(row),
      "",
      "",
      // The exact amount, not staketaxcsv's 9-decimal rounding of amounts below 0.001: that
      // rounding turns rewards under 1e-9 into 0, so the import would no longer add up to the
      // totals this report states (and to what the chain paid).
      row.units,
      row.asset.symbol,
      "",
      "",
      "",
      "",
      "reward",
      `Vega epoch ${row.epoch} ${row.rewardType} to ${row.partyId}; ${source}`,
      row.rowId
    ])
  }
}

export const render = (report: Report): string => [...chunks(report)].join("")
