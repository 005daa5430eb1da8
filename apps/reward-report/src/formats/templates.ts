/**
 * The outputs whose per-epoch rows can be laid out while they are read (see `RowTemplate.ts`), by
 * the name of their template: the thread that lays them out is told the name.
 */
import type { Format } from "../Format.js"
import type { View } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import * as CoinTracking from "./CoinTracking.js"
import * as Csv from "./Csv.js"
import * as Json from "./Json.js"
import * as Koinly from "./Koinly.js"
import * as Markdown from "./Markdown.js"
import * as Table from "./Table.js"

export const templates: ReadonlyArray<RowTemplate> = [
  Csv.epochTemplate,
  Json.epochTemplate,
  Markdown.epochTemplate,
  Koinly.rowTemplate,
  CoinTracking.rowTemplate,
  Table.epochTemplate
]

/** The template named `name`. */
export const templateNamed = (name: string): RowTemplate => {
  const template = templates.find((t) => t.name === name)
  if (template === undefined) throw new Error(`no row template is named ${name}`)
  return template
}

/** The template `format` lays out the per-epoch rows of `view` by, if it lists them with one. */
export const templateFor = (format: Format, view: View): RowTemplate | undefined => {
  switch (format) {
    case "csv":
      return view === "epochs" ? Csv.epochTemplate : undefined
    case "markdown":
      return view === "epochs" ? Markdown.epochTemplate : undefined
    // JSON lists the rows whenever they were read
    case "json":
      return Json.epochTemplate
    case "koinly":
      return Koinly.rowTemplate
    case "cointracking":
      return CoinTracking.rowTemplate
    case "table":
      return view === "epochs" ? Table.epochTemplate : undefined
    case "html":
      return undefined
  }
}
