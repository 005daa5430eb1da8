// @ts-check
/**
 * Mutation testing, package by package: `pnpm mutation` runs StrykerJS in every package that has a
 * `stryker.config.mjs`, one after the other; `pnpm mutation pagination schema` (or
 * `pnpm mutation -- --package pagination`) only in those. Never part of `pnpm test` or CI: a run
 * takes minutes per module. `STRYKER_CONCURRENCY=n` runs n test processes (default 1); options
 * starting with `--` go to Stryker (`pnpm mutation schema --force`: every mutant again, not only
 * those whose code or tests changed).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
// a root devDependency; its bin is not among the package's exports
const stryker = join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js")

const all = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group))
    .filter((name) => existsSync(join(root, group, name, "stryker.config.mjs")))
    .map((name) => ({ name, dir: join(root, group, name) }))
)

const args = process.argv.slice(2).filter((arg) => arg !== "--" && arg !== "--package")
// options for Stryker itself, e.g. --force (every mutant again, ignoring the incremental file)
const options = args.filter((arg) => arg.startsWith("--"))
const asked = args.filter((arg) => !arg.startsWith("--"))
const unknown = asked.filter((name) => !all.some((p) => p.name === name))
if (unknown.length > 0) {
  console.error(`no mutation testing set up in: ${unknown.join(", ")} (set up: ${all.map((p) => p.name).join(", ")})`)
  process.exit(2)
}

let failed = false
for (const { dir, name } of asked.length === 0 ? all : all.filter((p) => asked.includes(p.name))) {
  console.log(`\n== mutation testing: ${name}`)
  const run = spawnSync(process.execPath, [stryker, "run", ...options], { cwd: dir, stdio: "inherit" })
  if (run.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
