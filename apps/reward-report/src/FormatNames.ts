/**
 * The report's formats by name, and which one a file name implies: what the command line needs of
 * them, without their renderers (see `Format.ts`).
 */
export type Format = "table" | "csv" | "json" | "markdown" | "html" | "koinly" | "cointracking"
export const formats: ReadonlyArray<Format> = ["table", "csv", "json", "markdown", "html", "koinly", "cointracking"]

/** Tax-tool imports list payouts, so they need the per-epoch rows. */
export const needsEpochRows = (format: Format): boolean => format === "koinly" || format === "cointracking"

const byExtension: Record<string, Format> = {
  txt: "table",
  csv: "csv",
  json: "json",
  md: "markdown",
  markdown: "markdown",
  html: "html",
  htm: "html"
}

/** The format a file name implies (`report.csv` → csv); none for other names. */
export const formatOfPath = (path: string): Format | undefined => {
  const match = /\.([a-z]+)$/i.exec(path)
  return match === null ? undefined : byExtension[match[1].toLowerCase()]
}
