/**
 * The outputs whose per-epoch rows can be laid out while they are read (see `RowTemplate.ts`), by
 * the name of their template: the thread that lays them out is told the name.
 */
import type { Format } from "../Format.js"
import type { View } from "../Report.js"
import type { RowTemplate } from "../RowTemplate.js"
import * as Csv from "./Csv.js"

export const templates: ReadonlyArray<RowTemplate> = [Csv.epochTemplate]

/** The template named `name`. */
export const templateNamed = (name: string): RowTemplate => {
  const template = templates.find((t) => t.name === name)
  if (template === undefined) throw new Error(`no row template is named ${name}`)
  return template
}

/** The template `format` lays out the per-epoch rows of `view` by, if it lists them with one. */
export const templateFor = (format: Format, view: View): RowTemplate | undefined =>
  format === "csv" && view === "epochs" ? Csv.epochTemplate : undefined
