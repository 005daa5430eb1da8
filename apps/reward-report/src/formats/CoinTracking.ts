/**
 * The per-epoch rewards as a CoinTracking CSV import (tax-export-formats.md §2 and §3): one Buy-only
 * row per payout, newest first, with the row id as the duplicate-check key.
 */
import type { Report } from "../Report.js"
import { csvLine, sourceText, taxRows, utcSeconds } from "./text.js"

export const header =
  "Type,Buy Amount,Buy Currency,Sell Amount,Sell Currency,Fee,Fee Currency,Exchange,Trade-Group,Comment,Date,Tx-ID,Buy Value in Account Currency,Sell Value in Account Currency,Liquidity pool"

/** Validator and infrastructure-fee rewards count as staking; the metric-based rewards as bonuses (a choice, §3). */
const stakingTypes: ReadonlySet<string> = new Set(["ACCOUNT_TYPE_GLOBAL_REWARD", "ACCOUNT_TYPE_FEES_INFRASTRUCTURE"])

/** The CSV text in pieces, one record each. */
export function* chunks(report: Report): Generator<string> {
  const rows = taxRows(report, "CoinTracking").byReceivedAt("newest")
  const source = sourceText(report.provenance)
  yield `${header}\r\n`
  for (const row of rows) {
    yield csvLine([
      stakingTypes.has(row.rewardType) ? "Staking" : "Reward / Bonus",
      // the exact amount, not staketaxcsv's rounding (see Koinly.ts)
      row.units,
      row.asset.symbol,
      "",
      "",
      "",
      "",
      "Vega",
      row.partyId,
      `Vega epoch ${row.epoch} ${row.rewardType} ${row.rowId}; ${source}`,
      utcSeconds(row),
      // staketaxcsv's `<txid>.<received currency>.<sent currency>`, with nothing sent
      `${row.rowId}.${row.asset.symbol}.`,
      "",
      "",
      ""
    ])
  }
}

export const render = (report: Report): string => [...chunks(report)].join("")
