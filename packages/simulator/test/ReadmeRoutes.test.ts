/**
 * The README's table of served routes is what the route registry holds (`UPDATE_GOLDEN=1` writes it
 * again).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as prettier from "prettier"
import { BEGIN, END, render } from "./support/routesTable.js"

const readme = new URL("../README.md", import.meta.url)

describe("README", () => {
  it("lists the routes the simulated node serves, and those it does not yet, by domain", async () => {
    const text = readFileSync(readme, "utf8")
    const start = text.indexOf(BEGIN)
    const end = text.indexOf(END)
    expect(start, "the README has the served-routes markers").toBeGreaterThanOrEqual(0)
    const config = await prettier.resolveConfig(readme.pathname)
    const expected = (await prettier.format(render(), { ...config, parser: "markdown" })).trimEnd()
    if (process.env.UPDATE_GOLDEN === "1")
      writeFileSync(readme, text.slice(0, start) + expected + text.slice(end + END.length))
    else expect(text.slice(start, end + END.length)).toBe(expected)
  })
})
