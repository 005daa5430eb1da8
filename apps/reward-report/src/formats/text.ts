/**
 * Text pieces the formats share, so that every format describes the same report the same way.
 */
// the module alone: the thread that lays out rows loads no more of the schema than it needs
import * as Timestamp from "@vega-effect/schema/Timestamp"
import type { EpochRow, EpochRows, Filters, Piece, Provenance, Report } from "../Report.js"
import type { RowWriter } from "../RowTemplate.js"

/** `a1a1a1a1…a1a1`: enough of an id to tell parties apart on screen (full ids are in CSV and JSON). */
export const shortId = (id: string): string => (id.length <= 14 ? id : `${id.slice(0, 8)}…${id.slice(-4)}`)

/**
 * Free text from the chain (aliases) on one line: control characters, including the escape that
 * starts terminal sequences, become spaces.
 */
// eslint-disable-next-line no-control-regex
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")

/** A party as people read it: its alias with a short id, or the short id alone. */
export const partyLabel = (partyId: string, alias: string | undefined): string =>
  alias === undefined ? shortId(partyId) : `${oneLine(alias)} (${shortId(partyId)})`

/**
 * `1234567.5` as `1,234,567.5`, `-1234` as `-1,234` (exact: digits are only regrouped). Sliced
 * rather than matched with a look-ahead: tables call it twice for each of millions of rows.
 */
export const groupDigits = (units: string): string => {
  const point = units.indexOf(".")
  const end = point < 0 ? units.length : point
  const start = units.startsWith("-") ? 1 : 0
  let at = start + ((end - start) % 3 || 3)
  let grouped = units.slice(0, at)
  for (; at < end; at += 3) grouped += `,${units.slice(at, at + 3)}`
  return point < 0 ? grouped : grouped + units.slice(point)
}

const list = (values: ReadonlyArray<string>, none: string): string => (values.length === 0 ? none : values.join(", "))

const epochRange = (filters: Filters): string =>
  filters.fromEpoch === undefined && filters.toEpoch === undefined
    ? "all"
    : `${filters.fromEpoch ?? "first"} to ${filters.toEpoch ?? "last"}`

/** The filters as `name: value` pairs, in a fixed order. */
export const filterEntries = (filters: Filters): ReadonlyArray<readonly [string, string]> => [
  ["parties", list(filters.parties, "all")],
  ["assets", list(filters.assets, "all")],
  ["epochs", epochRange(filters)],
  ["reward types", list(filters.rewardTypes, "all")],
  ["top", filters.top === undefined ? "all" : String(filters.top)],
  ["sort", filters.sort]
]

/** The filters on one line: `parties: all; assets: all; epochs: all; reward types: all; top: all; sort: amount`. */
export const describeFilters = (filters: Filters): string =>
  filterEntries(filters)
    .map(([name, value]) => `${name}: ${value}`)
    .join("; ")

/** The height read, as `1234567` or, when answers came from several blocks, `1234566–1234567`. */
export const heightText = (provenance: Provenance): string =>
  provenance.lowestHeight === provenance.height
    ? String(provenance.height)
    : `${provenance.lowestHeight}–${provenance.height}`

/** The provenance as `name: value` pairs, in a fixed order. */
export const provenanceEntries = (provenance: Provenance): ReadonlyArray<readonly [string, string]> => [
  ["node", provenance.nodes.join(", ")],
  ["block height", heightText(provenance)],
  ["block time", provenance.blockTime],
  ["filters", describeFilters(provenance.filters)],
  ["generated at", provenance.generatedAt],
  ["generator", provenance.generator]
]

/** Unix nanoseconds as ISO 8601 UTC: microseconds (what the node keeps), or nanoseconds when it has them. */
export const isoOfNanos = (nanos: bigint): string => {
  const iso = Timestamp.vegaTimeToIsoString(Timestamp.vegaTimestamp(nanos))
  return iso.endsWith("000Z") ? `${iso.slice(0, -4)}Z` : iso
}

/** A row's payout time as tax tools want it: `YYYY-MM-DD HH:MM:SS`, UTC, no zone suffix. */
export const utcSeconds = (row: Pick<EpochRow, "receivedAtIso">): string =>
  row.receivedAtIso.slice(0, 19).replace("T", " ")

/**
 * Base units as exact asset units: `unitsOf(1500000123n, 6)` is `"1500.000123"`. Plain decimal,
 * trailing zeros trimmed, negative allowed, never exponent notation.
 */
export const unitsOf = (amount: bigint, decimals: number): string => {
  const sign = amount < 0n ? "-" : ""
  const digits = (amount < 0n ? -amount : amount).toString()
  if (decimals <= 0) return `${sign}${digits}`
  const padded = digits.padStart(decimals + 1, "0")
  const whole = padded.slice(0, -decimals)
  const fraction = padded.slice(-decimals).replace(/0+$/, "")
  return fraction === "" ? `${sign}${whole}` : `${sign}${whole}.${fraction}`
}

/**
 * A decimal the node wrote as a Go float (`"5e-05"`) as plain decimal text (`"0.00005"`), exactly:
 * only the digits are moved. Text without an exponent, or that is not a number, is returned as is.
 */
export const plainDecimal = (text: string): string => {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text)
  if (match === null || (match[2] === "" && (match[3] ?? "") === "")) return text
  const [, sign, whole, fraction = "", exponent] = match
  const digits = whole + fraction
  const point = whole.length + Number(exponent)
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0")
  const at = Math.max(point, 1)
  const intPart = padded.slice(0, at).replace(/^0+(?=\d)/, "")
  const fracPart = padded.slice(at).replace(/0+$/, "")
  const result = fracPart === "" ? intPart : `${intPart}.${fracPart}`
  return sign === "-" && /[1-9]/.test(result) ? `-${result}` : result
}

/** One CSV field (RFC 4180): quoted, with quotes doubled, only when it holds a comma, a quote, CR or LF. */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

/** One CSV record with its CRLF line end. */
export const csvLine = (fields: ReadonlyArray<string>): string => `${fields.map(csvField).join(",")}\r\n`

/**
 * Free text for a spreadsheet cell: text starting with `=`, `+`, `-`, `@`, tab or CR gets a leading
 * `'` so a spreadsheet shows it instead of running it as a formula (OWASP "CSV injection").
 */
export const formulaSafe = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)

/** The per-epoch rows a tax export is made of, or an error when the report was made without them. */
export const taxRows = (report: Report, format: string): EpochRows => {
  if (report.epochs === undefined) {
    throw new Error(`The ${format} export needs the per-epoch reward rows, but the report was made without them`)
  }
  return report.epochs
}

/** Where a tax export row came from: `read from <nodes> at block <height> (<block time>), generated <time>`. */
export const sourceText = (provenance: Provenance): string =>
  `read from ${provenance.nodes.join(", ")} at block ${heightText(provenance)} (${provenance.blockTime}), ` +
  `generated ${provenance.generatedAt}`

/**
 * The constants a tax export's rows end a field with (see {@link fieldEndingInSource}): made once
 * the read is over, from {@link sourceText}.
 */
export const sourceConstants = (source: string): ReadonlyArray<string> => {
  const quoted = source.replace(/"/g, '""')
  const special = csvField(source) !== source
  return [special ? '"' : "", special ? `${quoted}"` : source, `${quoted}"`]
}

/**
 * Writes the CSV field `prefix` followed by the export's source text ({@link sourceConstants},
 * known only once the read is over): quoted when either holds a comma, quote or line end, as
 * {@link csvField} of the whole field would be.
 */
export const fieldEndingInSource = (out: RowWriter, prefix: string): void => {
  const field = csvField(prefix)
  if (field !== prefix) {
    // quoted whatever the source: the prefix's quotes doubled, its closing quote after the source
    out.text(field.slice(0, -1))
    out.constant(2)
  } else {
    out.constant(0)
    out.text(prefix)
    out.constant(1)
  }
}

const decoder = new TextDecoder()

/** An output's pieces as one text (each piece whole characters). */
export const textOf = (pieces: Iterable<Piece>): string => {
  let text = ""
  for (const piece of pieces) text += typeof piece === "string" ? piece : decoder.decode(piece)
  return text
}

/** `1 summary`, `6 summaries`. */
export const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`

/** Runs of consecutive items with the same key, in order (the report's lines come grouped). */
export const runs = <A>(items: ReadonlyArray<A>, key: (a: A) => string): ReadonlyArray<ReadonlyArray<A>> => {
  const result: Array<Array<A>> = []
  for (const item of items) {
    const last = result[result.length - 1]
    if (last !== undefined && key(last[0]) === key(item)) last.push(item)
    else result.push([item])
  }
  return result
}
