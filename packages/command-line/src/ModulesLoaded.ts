/**
 * The modules a command loads, for tests that hold a command's `--help` to what it needs: the
 * command is run from its sources (`node --import tsx`, as the apps' tests run it) with a module
 * hook that writes down the URL of every module loaded, builtins aside.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

// the hooks run in a thread of their own: they append to the file named in their data
const HOOKS = `import { appendFileSync } from "node:fs"
let file
export const initialize = (data) => { file = data.file }
export const load = async (url, context, next) => {
  if (!url.startsWith("node:")) appendFileSync(file, url + "\\n")
  return next(url, context)
}
`

const REGISTER = (hooks: string, file: string) => `import { register } from "node:module"
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { file: ${JSON.stringify(file)} } })
`

export interface Loaded {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
  /** The file URLs of the modules loaded, in order. */
  readonly modules: ReadonlyArray<string>
}

/** Runs `entry` (a TypeScript file of an app, from `dir`) with `args`; what it printed and the modules it loaded. */
export const modulesLoaded = (dir: string, entry: string, args: ReadonlyArray<string>): Loaded => {
  const scratch = mkdtempSync(join(tmpdir(), "modules-loaded-"))
  try {
    const hooks = join(scratch, "hooks.mjs")
    const register = join(scratch, "register.mjs")
    const file = join(scratch, "modules.txt")
    writeFileSync(hooks, HOOKS)
    writeFileSync(register, REGISTER(hooks, file))
    writeFileSync(file, "")
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--import", pathToFileURL(register).href, "--conditions=@vega-effect/source", entry, ...args],
      { cwd: dir, encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } }
    )
    const modules = readFileSync(file, "utf8").split("\n").filter(Boolean)
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, modules }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
