#!/usr/bin/env node
/**
 * Bundles the application in the current directory (`src/bin.ts`) into an ESM file run with plain
 * `node`: `dist/bin.js`, or the path given with `--outfile` (somewhere its dependencies resolve).
 * The published package is that file and the chunks beside it, so it needs only what cannot be
 * bundled, and those are exactly the package.json `dependencies` (better-sqlite3: a native addon),
 * left as imports. Everything else, the workspace packages from their sources included, is in the
 * bundle.
 *
 * What the entry imports dynamically (`import("./Watcher.js")`) goes to chunks of its own, in
 * `chunks/` beside the entry's file, loaded only when the import runs: `--help` then parses and
 * evaluates only what the command line needs, not the whole application.
 *
 *   node ../../scripts/bundle-app.mjs [--outfile path] [--entry file]
 *
 * `--entry` bundles another entry point of the app the same way (its benchmark, for one).
 *
 * Scripts the app starts as threads (`worker_threads`) are listed in its package.json as
 * `"vegaEffect": { "workers": ["src/…/name.ts"] }`; each is bundled the same way beside the entry's
 * bundle as `name.js`, where the app finds it (`new URL("./name.js", import.meta.url)`), and belongs
 * in the package's `files`.
 *
 * The version `--version` prints is written in as `VEGA_EFFECT_APP_VERSION` (see the app's
 * `src/internal/version.ts`): in an installed package no sources sit beside the bundle to read it.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, extname, join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"

const esbuild = createRequire(import.meta.url)("esbuild")

/**
 * Optional native accelerators that dependencies load inside `try` (pg's native client, ws's
 * buffer and UTF-8 helpers): absent from an install, and the pure-JavaScript paths are used.
 */
const optional = ["pg-native", "bufferutil", "utf-8-validate"]

const root = process.cwd()
const { values } = parseArgs({ options: { outfile: { type: "string" }, entry: { type: "string" } } })
const outfile = resolve(values.outfile ?? join("dist", "bin.js"))
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))

mkdirSync(dirname(outfile), { recursive: true })
const workers = pkg.vegaEffect?.workers ?? []
const bundles = [
  [resolve(values.entry ?? join("src", "bin.ts")), outfile],
  ...workers.map((worker) => [resolve(worker), join(dirname(outfile), `${basename(worker).replace(/\.ts$/, "")}.js`)])
]
// the chunks of an earlier build would be shipped too
rmSync(join(dirname(outfile), "chunks"), { recursive: true, force: true })
for (const [entry, out] of bundles) await bundle(entry, out)
chmodSync(outfile, 0o755)
console.log(`bundled ${relative(root, outfile)} (${pkg.name} ${pkg.version})`)

async function bundle(entry, out) {
  await esbuild.build({
    // `outdir` rather than `outfile`, which splitting needs: the entry is named as `out` says
    entryPoints: [{ in: entry, out: basename(out, extname(out)) }],
    outdir: dirname(out),
    outExtension: { ".js": extname(out) },
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@vega-effect/source"],
    external: [...Object.keys(pkg.dependencies ?? {}), ...optional],
    // the CommonJS modules inside an ESM bundle still call `require` (after the entry's shebang)
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    define: { VEGA_EFFECT_APP_VERSION: JSON.stringify(pkg.version) },
    // names kept: errors and logs show class and function names
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: "none",
    logLevel: "warning"
  })
}
