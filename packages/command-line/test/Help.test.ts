import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import * as Help from "../src/Help.js"

const command = Command.make(
  "demo",
  {
    node: Options.text("node").pipe(
      Options.withPseudoName("url"),
      Options.repeated,
      Options.optional,
      Options.withDescription("a node, repeatable")
    ),
    top: Options.integer("top").pipe(Options.withDefault(5), Options.withDescription("rows per asset")),
    once: Options.boolean("once").pipe(Options.withDescription("one cycle"))
  },
  () => Effect.void
).pipe(Command.withDescription("A demonstration."))

const app = { name: "demo", version: "1.2.3" }

describe("Help.render", () => {
  it("lays the help out as @effect/cli does: title, version, usage, description, options", () => {
    const text = Help.render(command, app, { colours: false })
    expect(text).toMatch(
      /^demo\n\ndemo 1\.2\.3\n\nUSAGE\n\n\$ demo \[--node url\.\.\.\] \[--top integer\] \[--once\]\n/
    )
    expect(text).toContain("DESCRIPTION\n\nA demonstration.")
    expect(text).toContain("--node url...\n\n  a node, repeatable\n")
  })

  it("has no colour codes unless asked for", () => {
    expect(Help.render(command, app, { colours: false })).not.toContain("\x1b[")
    expect(Help.render(command, app, { colours: true })).toContain("\x1b[")
  })

  it("leaves out what @effect/cli says of every option that its usage and description already say", () => {
    const text = Help.render(command, app, { colours: false })
    for (const filler of [
      "A user-defined piece of text.",
      "An integer.",
      "A true or false value.",
      "This setting is optional.",
      "This option may be repeated zero or more times."
    ]) {
      expect(text).not.toContain(filler)
    }
    expect(text).toContain("--top integer\n\n  rows per asset\n\n--once")
  })
})

describe("Help.withoutFiller", () => {
  it("keeps every other paragraph, and a default in fewer words", () => {
    const doc = HelpDoc.blocks([
      HelpDoc.p("This setting is optional."),
      HelpDoc.p("One of the following: a, b"),
      HelpDoc.p("This setting is optional. Defaults to: a")
    ])
    expect(HelpDoc.toAnsiText(Help.withoutFiller(doc)).trim()).toBe("One of the following: a, b\n\nDefault: a")
  })
})

describe("Help.requested", () => {
  it("is --help or -h, wherever it stands", () => {
    expect(Help.requested(["--node", "x", "--help"])).toBe(true)
    expect(Help.requested(["-h"])).toBe(true)
    expect(Help.requested(["--node", "x"])).toBe(false)
  })
})
