/**
 * The report as RFC 4180 CSV for spreadsheets and scripts: one row per line of the view, full ids,
 * exact amounts (asset units and base units), and the provenance repeated on every row so it
 * survives sorting and filtering.
 */
import type { Piece, Report } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import { csvField, csvLine, describeFilters, formulaSafe, heightText, textOf } from "./text.js"

const provenanceHeader = ["node", "block_height", "block_time", "generated_at", "filters"] as const

const lineHeader = ["rank", "party_id", "alias", "asset_id", "asset_symbol", "amount", "amount_raw", "share_percent"]

const totalsHeader = ["asset_id", "asset_symbol", "asset_name", "decimals", "parties", "amount", "amount_raw"]

const epochsHeader = [
  "epoch",
  "received_at",
  "party_id",
  "alias",
  "asset_id",
  "asset_symbol",
  "reward_type",
  "amount",
  "amount_raw",
  "percentage_of_total",
  "locked_until_epoch",
  "game_id",
  "team_id",
  "row_id"
]

const alias = (text: string | undefined): string => (text === undefined ? "" : formulaSafe(text))

/** The header, then one record per line of the view (not for the epochs view: see {@link epochLine}). */
function* records(report: Report): Generator<ReadonlyArray<string>> {
  switch (report.view) {
    case "assets":
    case "parties":
      yield lineHeader
      yield* report.lines.map((line) => [
        String(line.rank),
        line.partyId,
        alias(line.alias),
        line.asset.id,
        line.asset.symbol,
        line.units,
        String(line.amount),
        line.share
      ])
      return
    case "epochs":
      // written row by row by `chunks`
      return
    case "totals":
      yield totalsHeader
      yield* report.totals.map((total) => [
        total.asset.id,
        total.asset.symbol,
        total.asset.name,
        String(total.asset.decimals),
        String(total.parties),
        total.units,
        String(total.amount)
      ])
  }
}

/**
 * A per-epoch row, written out field by field (a million rows are typical), then the provenance
 * (constant 0: the same on every row). Ids (checked hex when read), integers, amounts and the time
 * never need quoting; the other fields go through {@link csvField}.
 */
export const epochTemplate: RowTemplate = {
  name: "csv",
  withIds: true,
  listing: "report",
  row: (row, out) => {
    out.text(`${row.epoch},${row.receivedAtIso},${row.partyId},`)
    out.alias()
    out.text(
      `,${row.asset.id},${csvField(row.asset.symbol)},${csvField(row.rewardType)},${row.units},${row.amount},` +
        `${csvField(row.percentageOfTotal)},${row.lockedUntilEpoch},${csvField(row.gameId ?? "")},` +
        `${csvField(row.teamId ?? "")},${row.rowId}`
    )
    out.constant(0)
  },
  alias: (_, text) => csvField(alias(text))
}

/** The CSV text in pieces, one record each. */
export function* chunks(report: Report): Generator<Piece> {
  const { provenance } = report
  const provenanceFields = [
    provenance.nodes.join(" "),
    heightText(provenance),
    provenance.blockTime,
    provenance.generatedAt,
    describeFilters(provenance.filters)
  ]
  // the same on every row: made once (a million rows are typical)
  const tail = `,${provenanceFields.map(csvField).join(",")}\r\n`
  if (report.view === "epochs") {
    yield csvLine([...epochsHeader, ...provenanceHeader])
    if (report.epochs !== undefined) yield* report.epochs.render(epochTemplate, { constants: [tail] })
    return
  }
  let header = true
  for (const record of records(report)) {
    yield header ? csvLine([...record, ...provenanceHeader]) : `${record.map(csvField).join(",")}${tail}`
    header = false
  }
}

export const render = (report: Report): string => textOf(chunks(report))
