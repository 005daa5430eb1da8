// Builds the package in the current directory into publishable ESM + CJS + .d.ts:
//   dist/esm  tsc output (ES modules, declarations, source maps)
//   dist/cjs  the same modules transformed to CommonJS, with their declarations
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"

const require = createRequire(import.meta.url)
const esbuild = require("esbuild")

const root = process.cwd()
const dist = join(root, "dist")
const esm = join(dist, "esm")
const cjs = join(dist, "cjs")

rmSync(dist, { recursive: true, force: true })
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  stdio: "inherit"
})

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

for (const file of walk(esm)) {
  const target = join(cjs, relative(esm, file))
  mkdirSync(dirname(target), { recursive: true })
  if (file.endsWith(".js")) {
    const { code } = esbuild.transformSync(readFileSync(file, "utf8"), {
      format: "cjs",
      platform: "node",
      target: "node20",
      sourcefile: relative(root, file)
    })
    writeFileSync(target, code)
  } else if (file.endsWith(".d.ts") || file.endsWith(".d.ts.map")) {
    cpSync(file, target)
  }
}
writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }, null, 2) + "\n")
console.log(`built ${relative(root, esm)} and ${relative(root, cjs)}`)
