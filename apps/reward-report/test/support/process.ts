/**
 * The command as a separate process, the way people run it: bundled once per test run (so each run
 * does not pay a TypeScript compilation), then started with arguments.
 */
import { execFile, spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const bundleFile = join(root, "build", "test-bin", "reward-report.mjs")
let built: Promise<string> | undefined

/** Bundles `src/bin.ts` into `build/test-bin`, once, with the script that makes the published `dist/bin.js`. */
export const bundle = (): Promise<string> =>
  (built ??= promisify(execFile)(
    process.execPath,
    [join(root, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", bundleFile],
    { cwd: root }
  ).then(() => bundleFile))

export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `vega-reward-report args…` to the end. */
export const runReport = async (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly cwd?: string } = {}
): Promise<Result> => {
  const file = await bundle()
  const child = spawn(process.execPath, [file, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: options.cwd,
    env: { ...process.env, ...options.env }
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)))
  return { code, stdout, stderr }
}
