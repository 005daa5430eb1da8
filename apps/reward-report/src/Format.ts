/**
 * The output formats, by name, and which file extensions choose them.
 */
import * as CoinTracking from "./formats/CoinTracking.js"
import * as Csv from "./formats/Csv.js"
import * as Html from "./formats/Html.js"
import * as Json from "./formats/Json.js"
import * as Koinly from "./formats/Koinly.js"
import * as Markdown from "./formats/Markdown.js"
import * as Table from "./formats/Table.js"
import type { Format } from "./FormatNames.js"
import type { Piece, Report } from "./Report.js"

export { type Format, formatOfPath, formats, needsEpochRows } from "./FormatNames.js"

/**
 * Formats that can list a million per-epoch rows write them piece by piece, reading the rows as
 * they go (HTML shows at most a thousand, but lists every line of the assets and parties views).
 */
const renderers: Record<Format, (report: Report) => Iterable<Piece>> = {
  table: Table.chunks,
  csv: Csv.chunks,
  json: Json.chunks,
  markdown: Markdown.chunks,
  html: Html.chunks,
  koinly: Koinly.chunks,
  cointracking: CoinTracking.chunks
}

/** The report in `format`, as pieces to write one after another. */
export const chunks = (report: Report, format: Format): Iterable<Piece> => renderers[format](report)
