/**
 * A fresh npm project outside the repository, as a user would start one: `package.json`, a strict
 * `tsconfig.json` (`skipLibCheck: false`, so every installed declaration is checked too) and an
 * `.npmrc` that sends the `@vega-effect` scope to the local registry. Three kinds:
 * - `esm`: `"type": "module"`, `nodenext`, compiled by tsc and run by node;
 * - `cjs`: `"type": "commonjs"`, `nodenext` (so tsc emits `require`), compiled and run;
 * - `bundler`: `moduleResolution: "bundler"`, type-checked by tsc, bundled by esbuild and run.
 */
import { execFile, spawn } from "node:child_process"
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { npmEnv } from "./NpmEnv.js"
import { root } from "./Pack.js"

export type Kind = "esm" | "cjs" | "bundler"

export interface Project {
  readonly dir: string
  readonly kind: Kind
}

// The user's own tools: any TypeScript of the supported line and any esbuild; the repository's.
const require = createRequire(join(root, "package.json"))
const tsc = require.resolve("typescript/bin/tsc")
const esbuild = join(root, "node_modules", ".bin", "esbuild")

/** The npm cache npx is given, in the scratch folder (see Commands.test.ts). */
export const NPX_CACHE = "npx-cache"

/** The user's tooling for type-checking: TypeScript finds `console` and `process` in @types/node. */
export const toolingInstall = ["npm", "install", "--save-dev", "@types/node@^20"]

const compilerOptions = (kind: Kind) => ({
  strict: true,
  skipLibCheck: false,
  target: "es2022",
  types: ["node"],
  ...(kind === "bundler"
    ? { module: "preserve", moduleResolution: "bundler", noEmit: true }
    : { module: "nodenext", moduleResolution: "nodenext", outDir: "dist", rootDir: "src" })
})

export class CommandError extends Error {
  constructor(
    readonly command: ReadonlyArray<string>,
    readonly dir: string,
    readonly output: string
  ) {
    super(`${command.join(" ")} failed in ${dir}:\n${output}`)
  }
}

// npm without its update notice, funding and audit chatter (nor pnpm's settings, see NpmEnv.ts);
// the registry's documents revalidated on every install, as the packages are repacked under the
// same version on every run
const env = {
  ...npmEnv(),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
  npm_config_prefer_online: "true"
}

// Asynchronous, so that the test worker keeps answering its runner while npm or an example runs.
const run = (
  dir: string,
  command: ReadonlyArray<string>,
  timeout = 300_000,
  extraEnv: Record<string, string> = {}
): Promise<{ readonly stdout: string; readonly stderr: string }> =>
  new Promise((resolve, reject) => {
    execFile(
      command[0],
      command.slice(1),
      { cwd: dir, encoding: "utf8", timeout, env: { ...env, ...extraEnv }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        error === null
          ? resolve({ stdout, stderr })
          : reject(new CommandError(command, dir, `${stdout}${stderr}${error.message}`))
    )
  })

const stdoutOf = (output: Promise<{ readonly stdout: string }>) => output.then(({ stdout }) => stdout)

/**
 * Packages whose install scripts npm (11.19 and later) names in an `install-scripts` notice, and
 * why each is expected: native code, built or downloaded on install.
 */
const expectedInstallScripts: Record<string, string> = {
  "better-sqlite3": "the watcher's SQLite store (its one dependency outside the bundle)",
  "msgpackr-extract": "an optional accelerator of msgpackr, a dependency of @effect/platform",
  "@parcel/watcher": "a dependency of @effect/platform-node, which the simulator serves with"
}

/**
 * The warnings npm printed that the packages could have caused: every `npm warn` line but the
 * machine's own configuration notices (`Unknown user config ...`) and the `install-scripts` notice
 * for the packages above; a package that notice names outside them is a warning.
 */
export const warnings = (stderr: string): ReadonlyArray<string> =>
  stderr.split("\n").filter((line) => {
    if (!/^npm warn/i.test(line) || /^npm warn Unknown (user|env|project|global) config/i.test(line)) return false
    if (!/^npm warn install-scripts/i.test(line)) return true
    const named = /^npm warn install-scripts\s+(@?[^@\s]+)@\S+ \(/i.exec(line)
    return named !== null && !(named[1] in expectedInstallScripts)
  })

/**
 * Creates the project in `dir`, its packages not yet installed, or installed in `sharing`'s
 * `node_modules` (what npm installs does not depend on the module kind).
 */
export const create = (dir: string, kind: Kind, registry: string, sharing?: Project): Project => {
  mkdirSync(join(dir, "src"), { recursive: true })
  const type = kind === "cjs" ? "commonjs" : "module"
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `consumer-${kind}`, private: true, type }, null, 2))
  writeFileSync(join(dir, ".npmrc"), `@vega-effect:registry=${registry}\n`)
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: compilerOptions(kind), include: ["src"] })
  )
  if (sharing !== undefined) symlinkSync(join(sharing.dir, "node_modules"), join(dir, "node_modules"), "dir")
  return { dir, kind }
}

/** Runs an install command (`npm install …`) in the project; returns the {@link warnings} it printed. */
export const install = async (project: Project, command: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  warnings((await run(project.dir, command)).stderr)

/** Writes `src/<name>.ts`. */
export const addSource = (project: Project, name: string, code: string): void =>
  writeFileSync(join(project.dir, "src", `${name}.ts`), code)

/** Type-checks (and, for esm and cjs, compiles) every source; throws tsc's report on an error. */
export const compile = (project: Project): Promise<string> =>
  stdoutOf(run(project.dir, [process.execPath, tsc, "-p", "."]))

/** Runs `src/<name>.ts` as the project's kind would ship it; returns stdout. */
export const start = async (project: Project, name: string, timeout = 120_000): Promise<string> => {
  if (project.kind !== "bundler")
    return stdoutOf(run(project.dir, [process.execPath, join("dist", `${name}.js`)], timeout))
  const bundle = join("dist", `${name}.mjs`)
  await run(project.dir, [
    esbuild,
    join("src", `${name}.ts`),
    "--bundle",
    "--platform=node",
    "--format=esm",
    `--outfile=${bundle}`,
    // CommonJS dependencies inside an ES module bundle still call require
    "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    "--log-level=error"
  ])
  return stdoutOf(run(project.dir, [process.execPath, bundle], timeout))
}

/** Runs a command in the project (`npx vega-sim --help`, say); returns stdout. */
export const exec = (
  project: Project,
  command: ReadonlyArray<string>,
  options: { readonly timeout?: number; readonly env?: Record<string, string> } = {}
): Promise<string> => stdoutOf(run(project.dir, command, options.timeout, options.env))

/** {@link exec}, with stderr and the {@link warnings} npm printed (an `npx` that installs first, say). */
export const execWithWarnings = async (
  project: Project,
  command: ReadonlyArray<string>,
  options: { readonly timeout?: number; readonly env?: Record<string, string> } = {}
): Promise<{ readonly stdout: string; readonly stderr: string; readonly warnings: ReadonlyArray<string> }> => {
  const { stderr, stdout } = await run(project.dir, command, options.timeout, options.env)
  return { stdout, stderr, warnings: warnings(stderr) }
}

/**
 * Starts a long-running command and waits until its output matches `pattern`; returns the match
 * and a way to stop it (the whole process group: `npx` runs the command as its child). Fails if it
 * exits or `timeout` passes first.
 */
export const startUntil = (
  project: Project,
  command: ReadonlyArray<string>,
  pattern: RegExp,
  options: { readonly timeout?: number; readonly env?: Record<string, string> } = {}
): Promise<{ readonly match: RegExpMatchArray; readonly stop: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const timeout = options.timeout ?? 120_000
    const child = spawn(command[0], command.slice(1), {
      cwd: project.dir,
      env: { ...env, ...options.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const stop = () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM")
      return exited
    }
    let output = ""
    const timer = setTimeout(() => {
      void stop()
      reject(new CommandError(command, project.dir, `${output}(no output matched ${pattern} in ${timeout} ms)`))
    }, timeout)
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      const match = pattern.exec(output)
      if (match !== null) {
        clearTimeout(timer)
        resolve({ match, stop })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(
        new CommandError(command, project.dir, `${output}(exited with ${code} before its output matched ${pattern})`)
      )
    })
  })
