/**
 * Bundles the `vega-watcher` command into one ESM file, `dist/bin.js` (or the path given as the
 * first argument), run with plain `node`: loading the sources through tsx costs some 80 MB of
 * resident memory that a deployed watcher does not need (the latency benchmark measures the
 * bundle). better-sqlite3 stays outside: it is a native addon, loaded from node_modules.
 */
import { build } from "esbuild"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))

await build({
  entryPoints: [join(root, "src", "bin.ts")],
  // another path (inside the app, where node_modules resolve) for a test's throwaway bundle
  outfile: process.argv[2] ?? join(root, "dist", "bin.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@vega-effect/source"],
  external: ["better-sqlite3", "pg-native"],
  // the CommonJS dependencies inside an ESM bundle still call `require`
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  // the version `--version` prints (src/internal/version.ts), from package.json
  define: { VEGA_WATCHER_VERSION: JSON.stringify(version) },
  legalComments: "none",
  logLevel: "warning"
})
