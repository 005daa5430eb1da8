/**
 * The watcher as a separate process, the way it runs in production: bundled once per test run (so
 * that twenty restarts do not pay twenty TypeScript compilations), started with flags, killed at will.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { HEAP_CAP_MB } from "../../src/internal/heapCap.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const bundleFile = join(root, "build", "test-bin", "watcher.mjs")
let built: Promise<string> | undefined

/**
 * Bundles `src/bin.ts` into `outfile` (inside the app, where better-sqlite3 resolves) with the
 * script that makes the published `dist/bin.js`.
 */
export const bundleTo = async (outfile: string): Promise<string> => {
  await promisify(execFile)(
    process.execPath,
    [join(root, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", outfile],
    {
      cwd: root
    }
  )
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
  // under the published command's heap cap, given here so that it runs in this process, which the
  // tests signal and kill (see src/internal/heapCap.ts)
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_CAP_MB}`, file, ...args], {
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
