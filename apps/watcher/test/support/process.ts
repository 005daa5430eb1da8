/**
 * The watcher as a separate process, the way it runs in production: bundled once per test run (so
 * that twenty restarts do not pay twenty TypeScript compilations), started with flags, killed at will.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const bundleFile = join(root, "build", "test-bin", "watcher.mjs")
let built: Promise<string> | undefined

/** Bundles `src/bin.ts` into `outfile` (workspace packages from source); the native SQLite binding stays outside. */
export const bundleTo = async (outfile: string): Promise<string> => {
  const esbuild = await import("esbuild")
  const require = createRequire(import.meta.url)
  const sqlite = createRequire(require.resolve("@effect/sql-sqlite-node")).resolve("better-sqlite3")
  mkdirSync(dirname(outfile), { recursive: true })
  await esbuild.build({
    entryPoints: [join(root, "src", "bin.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@vega-effect/source"],
    logLevel: "error",
    // optional parts of pg that the watcher never loads
    external: ["pg-native", "cloudflare:sockets"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [
      {
        name: "native-sqlite",
        setup(build) {
          build.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }))
        }
      }
    ]
  })
  return outfile
}

/** The tests' bundle, made once per test run. */
export const bundle = (): Promise<string> => (built ??= bundleTo(bundleFile))

export interface WatcherProcess {
  readonly child: ChildProcess
  /** Everything written to stdout so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

export const startWatcher = async (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): Promise<WatcherProcess> => {
  const file = await bundle()
  const child = spawn(process.execPath, [file, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env }
  })
  let out = ""
  let err = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  return { child, stdout: () => out, stderr: () => err, exited }
}
