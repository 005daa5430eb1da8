/**
 * The commands the tests run, bundled as they are published (`scripts/bundle-app.mjs`, which makes
 * `dist/bin.js`): once per test run, before any test file, by {@link setup} (vitest's global
 * setup), so that no run of a command pays a TypeScript compilation of its sources.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { HEAP_CAP_MB } from "../../src/internal/heapCap.js"

const app = fileURLToPath(new URL("../..", import.meta.url))
const reportApp = fileURLToPath(new URL("../../../reward-report", import.meta.url))

/** Each bundle is made inside its app, where its native dependencies (better-sqlite3) resolve. */
const bundleFile = (dir: string, name: string) => join(dir, "build", "test-bin", name)

/** `vega-watcher`, bundled. */
export const watcherBundle = bundleFile(app, "watcher.mjs")
/** `vega-reward-report`, bundled. */
export const reportBundle = bundleFile(reportApp, "report.mjs")

/**
 * Node's arguments to run `bundle` with `args` under the published command's heap cap, given here
 * so that the command runs in the process started, which the tests signal and kill, not in a child
 * it relaunches (see src/internal/heapCap.ts).
 */
export const runArgs = (bundle: string, args: ReadonlyArray<string>): Array<string> => [
  `--max-old-space-size=${HEAP_CAP_MB}`,
  bundle,
  ...args
]

/** Bundles the app in `dir` (the watcher by default) into `outfile`, somewhere its dependencies resolve. */
export const bundleTo = (outfile: string, dir: string = app): string => {
  execFileSync(process.execPath, [join(app, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", outfile], {
    cwd: dir
  })
  return outfile
}

export default function setup() {
  bundleTo(watcherBundle)
  bundleTo(reportBundle, reportApp)
}
