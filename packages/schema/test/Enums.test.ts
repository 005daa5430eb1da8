/**
 * Every enum of the package against `proto.json`: each value we know has the spec's number (so a
 * stream's numbers read as the right names); the widest enum of each proto name, the one the
 * generated schemas use, knows every value of the v0.75.0 spec (a request's enum takes only known
 * names); a value we know that v0.75.0 lacks is one a later release added.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "@vega-effect/schema"

interface ProtoEnum {
  readonly fullName: string
  readonly values: ReadonlyArray<{ readonly name: string; readonly number: string }>
}

/** The text of the generated modules, to tell the enums they use. */
const generated = ["Vega", "VegaData", "VegaEvents", "CoreApi", "DataNode", "Endpoints"]
  .map((m) => readFileSync(new URL(`../src/generated/${m}.ts`, import.meta.url), "utf8"))
  .join("\n")

const protoEnums = (version: string): ReadonlyMap<string, ProtoEnum> =>
  new Map(
    JSON.parse(readFileSync(new URL(`../spec/openapi/${version}/proto.json`, import.meta.url), "utf8")).files.flatMap(
      (file: { enums: ReadonlyArray<ProtoEnum> }) => file.enums.map((e) => [e.fullName, e] as const)
    )
  )

const names = new Map<Schema.Enum.OpenEnum<string>, string>()
const exportName = (e: Schema.Enum.OpenEnum<string>): string => names.get(e) ?? ""

/** Every open enum the package exports, by proto name. */
const ours = (): ReadonlyMap<string, ReadonlyArray<Schema.Enum.OpenEnum<string>>> => {
  const found = new Map<string, Array<Schema.Enum.OpenEnum<string>>>()
  for (const module of Object.values(Schema) as Array<Record<string, unknown>>)
    for (const [name, value] of Object.entries(module)) {
      const e = value as Schema.Enum.OpenEnum<string> | undefined
      if (typeof e === "function" && typeof e.protoName === "string" && Array.isArray(e.names)) {
        found.set(e.protoName, [...(found.get(e.protoName) ?? []), e])
        names.set(e, name)
      }
    }
  return found
}

describe("enums", () => {
  const spec = protoEnums("v0.75.0")
  const all = ours()

  const later = protoEnums("v0.79.0")

  for (const [protoName, enums] of all) {
    const declared = spec.get(protoName) ?? later.get(protoName)
    if (declared === undefined) continue
    const numbers = new Map(
      [...(later.get(protoName)?.values ?? []), ...declared.values].map((v) => [v.name, Number(v.number)])
    )
    it(`${protoName}: each value we know with the spec's number, the widest one complete`, () => {
      for (const e of enums)
        for (const name of e.names) expect([name, e.values[name]]).toEqual([name, numbers.get(name)])
      // a hand-written enum the generated code does not use may list only what its module reads
      const widest = enums.reduce((a, b) => (b.names.length > a.names.length ? b : a))
      const used = generated.includes(`"${protoName}"`) || enums.some((e) => generated.includes(`.${exportName(e)}`))
      if (used) for (const value of (spec.get(protoName) ?? declared).values) expect(widest.names).toContain(value.name)
    })
  }
})
