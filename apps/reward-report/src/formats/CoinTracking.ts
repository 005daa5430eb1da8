/**
 * The per-epoch rewards as a CoinTracking CSV import (tax-export-formats.md §2 and §3): one Buy-only
 * row per payout, newest first, with the row id as the duplicate-check key.
 */
import type { Piece, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import { csvField, fieldEndingInSource, sourceConstants, sourceText, taxRows, textOf, utcSeconds } from "./text.js"

export const header =
  "Type,Buy Amount,Buy Currency,Sell Amount,Sell Currency,Fee,Fee Currency,Exchange,Trade-Group,Comment,Date,Tx-ID,Buy Value in Account Currency,Sell Value in Account Currency,Liquidity pool"

/** Validator and infrastructure-fee rewards count as staking; the metric-based rewards as bonuses (a choice, §3). */
const stakingTypes: ReadonlySet<string> = new Set(["ACCOUNT_TYPE_GLOBAL_REWARD", "ACCOUNT_TYPE_FEES_INFRASTRUCTURE"])

/**
 * A payout as a record: its type, Buy Amount and Currency, the exchange, the party as the trade
 * group, a comment ending in where the payout was read (constants of {@link sourceConstants}), the
 * date and the id.
 */
export const rowTemplate: RowTemplate = {
  name: "cointracking",
  withIds: true,
  listing: "newest",
  row: (row, out) => {
    const type = stakingTypes.has(row.rewardType) ? "Staking" : "Reward / Bonus"
    // the exact amount, not staketaxcsv's rounding (see Koinly.ts)
    out.text(`${type},${csvField(row.units)},${csvField(row.asset.symbol)},,,,,Vega,${csvField(row.partyId)},`)
    fieldEndingInSource(out, `Vega epoch ${row.epoch} ${row.rewardType} ${row.rowId}; `)
    // staketaxcsv's `<txid>.<received currency>.<sent currency>`, with nothing sent
    out.text(`,${csvField(utcSeconds(row))},${csvField(`${row.rowId}.${row.asset.symbol}.`)},,,\r\n`)
  },
  alias: () => ""
}

/** The CSV text in pieces: the header, then the rows. */
export function* chunks(report: Report): Generator<Piece> {
  const rows = taxRows(report, "CoinTracking")
  yield `${header}\r\n`
  yield* rows.render(rowTemplate, { constants: sourceConstants(sourceText(report.provenance)) })
}

export const render = (report: Report): string => textOf(chunks(report))
