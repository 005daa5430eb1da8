/**
 * What a program ships: two small programs bundled with esbuild as an application would bundle
 * them (see `test/bundleSize.ts`), measured in the same run, with how many of their bytes come from
 * `packages/schema` and from its generated modules:
 *
 * - `positions only`: `DataNodeClient` over `NodeHttpClient.layerUndici`, reading every position
 *   of a market with `client.positions(...)`;
 * - `every endpoint`: the same program, and a reference to every route of the table
 *   (`Object.values(DataNodeApi)`), so that none of them can be left out.
 *
 * The difference between the two is what tree-shaking leaves out of the first. Prints the figures,
 * and writes them into this package's README, between the `bench:bundle` markers.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/http bench:bundle
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"
import { bundle, everyEndpoint, positionsOnly } from "../test/bundleSize.js"

const bytes = (n: number) => n.toLocaleString("en-US")

const positions = await bundle(positionsOnly)
const every = await bundle(everyEndpoint)

const row = (name: string, f: typeof positions) =>
  `${name.padEnd(14)} ${bytes(f.total).padStart(10)} ${bytes(f.schema).padStart(16)} ${bytes(f.generated).padStart(19)}`
const lines = [
  `esbuild ${esbuild.version}, minified, platform node, ESM (node ${process.version})`,
  "",
  `${"program".padEnd(14)} ${"bundle".padStart(10)} ${"packages/schema".padStart(16)} ${"of it, generated".padStart(19)}`,
  row("positions only", positions),
  row("every endpoint", every),
  "",
  `tree-shaking leaves ${bytes(every.total - positions.total)} bytes out of the positions-only program, ` +
    `${bytes(every.schema - positions.schema)} of them from packages/schema`,
  `generated modules in it: ${positions.generatedModules.join(", ") || "none"}`
]
for (const line of lines) console.log(line)

const readme = fileURLToPath(new URL("../README.md", import.meta.url))
const START = "<!-- bench:bundle:start -->"
const END = "<!-- bench:bundle:end -->"
const text = readFileSync(readme, "utf8")
const from = text.indexOf(START)
const to = text.indexOf(END)
if (from === -1 || to < from) throw new Error(`${readme}: no ${START} ... ${END} markers`)
writeFileSync(
  readme,
  `${text.slice(0, from + START.length)}\n\n\`\`\`\n${lines.join("\n")}\n\`\`\`\n\n${text.slice(to)}`
)
console.log("written into packages/http/README.md")
