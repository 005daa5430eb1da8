import { describe, expect, it } from "vitest"
import * as Readme from "../src/Readme.js"

const markdown = [
  "# pkg",
  "## Install",
  "```sh",
  "npm install a b@^1 # a comment",
  "npm ci",
  "```",
  "## Usage",
  "```sh",
  "npm install not-from-install-section",
  "```",
  "```ts runnable",
  'console.log("x")',
  "```",
  "It prints:",
  "```text output",
  "id 1 at …",
  "```",
  "```ts check",
  "export const y = 1",
  "```",
  "```ts",
  "not an example",
  "```"
].join("\n")

describe("README reading", () => {
  it("takes the npm install lines of the Install section only, without comments", () => {
    expect(Readme.installCommands(markdown)).toEqual([["npm", "install", "a", "b@^1"]])
  })

  it("takes runnable examples with their output, and type-check-only snippets", () => {
    expect(Readme.examples(markdown)).toEqual([
      { code: 'console.log("x")\n', runs: true, output: ["id 1 at …"] },
      { code: "export const y = 1\n", runs: false, output: undefined }
    ])
  })

  it("takes the sh blocks of a section verbatim, and the text of a section", () => {
    expect(Readme.shellBlocks(markdown, "Install")).toEqual([["npm install a b@^1 # a comment", "npm ci"]])
    expect(Readme.shellBlocks(markdown, "Usage")).toEqual([["npm install not-from-install-section"]])
    expect(Readme.sectionText(markdown, "Install")).toBe("```sh\nnpm install a b@^1 # a comment\nnpm ci\n```")
    expect(Readme.sectionText(markdown, "Missing")).toBe("")
  })

  it("finds pack:install commands in blocks and in running text, wrapped or not", () => {
    const text = [
      "## Install",
      "Install it with `npx -y pnpm@10 pack:install -g",
      "@vega-effect/watcher`, or `npx -y pnpm@10 start`.",
      "```sh",
      "npx -y pnpm@10 install",
      "npx -y pnpm@10 pack:install --prefix ../app @vega-effect/http # a library",
      "```"
    ].join("\n")
    expect(Readme.packInstallCommands(text)).toEqual([
      "npx -y pnpm@10 pack:install --prefix ../app @vega-effect/http",
      "npx -y pnpm@10 pack:install -g @vega-effect/watcher"
    ])
  })

  it("compares output line by line, … matching any text within a line", () => {
    expect(Readme.matches(["id 1 at …"], "id 1 at 12:00\n")).toBe(true)
    expect(Readme.matches(["id 1 at …"], "id 2 at 12:00\n")).toBe(false)
    expect(Readme.matches(["id 1 at …"], "id 1 at 12:00\nmore\n")).toBe(false)
    expect(Readme.matches(["a.b"], "axb")).toBe(false)
  })
})
