/**
 * Bundles the `vega-watcher` command into one ESM file, `dist/bin.js`, run with plain `node`:
 * loading the sources through tsx costs some 80 MB of resident memory that a deployed watcher does
 * not need (the latency benchmark measures the bundle). better-sqlite3 stays outside: it is a
 * native addon, loaded from node_modules.
 */
import { build } from "esbuild"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

await build({
  entryPoints: [join(root, "src", "bin.ts")],
  outfile: join(root, "dist", "bin.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@vega-effect/source"],
  external: ["better-sqlite3", "pg-native"],
  // the CommonJS dependencies inside an ESM bundle still call `require`
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning"
})
