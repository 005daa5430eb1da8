/**
 * The command as a separate process, the way people run it: bundled once per test run (so each run
 * does not pay a TypeScript compilation), then started with arguments.
 */
import { spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const bundleFile = join(root, "build", "test-bin", "reward-report.mjs")
let built: Promise<string> | undefined

/** Bundles `src/bin.ts` (workspace packages from source) into `build/test-bin`, once. */
export const bundle = (): Promise<string> =>
  (built ??= (async () => {
    const esbuild = await import("esbuild")
    mkdirSync(dirname(bundleFile), { recursive: true })
    await esbuild.build({
      entryPoints: [join(root, "src", "bin.ts")],
      outfile: bundleFile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["@vega-effect/source"],
      logLevel: "error",
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
    })
    return bundleFile
  })())

export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `reward-report args…` to the end. */
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
