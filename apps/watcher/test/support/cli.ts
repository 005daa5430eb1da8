/**
 * The `vega-watcher` command (and `vega-reward-report`, beside it) run as published: their bundles
 * (see bundles.ts) with plain node, under the published heap cap, with an environment free of the
 * watcher's and the client's variables.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { reportBundle, runArgs, watcherBundle } from "./bundles.js"

const cwd = fileURLToPath(new URL("../..", import.meta.url))
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^VEGA_(WATCHER|REPORT|DATANODE)_/.test(key))
)

export interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const spawnFrom = (bundle: string, args: ReadonlyArray<string>, env: Record<string, string>, where = cwd): Ran => {
  const result = spawnSync(process.execPath, runArgs(bundle, args), {
    cwd: where,
    env: { ...cleanEnv, NO_COLOR: "1", ...env },
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The command, run from `where` (the app's folder by default: a relative state file lands there). */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}, where = cwd): Ran =>
  spawnFrom(watcherBundle, args, env, where)

/** `vega-reward-report`, run the same way: the two commands answer the same bad input alike. */
export const runReport = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Ran =>
  spawnFrom(reportBundle, args, env)

/** {@link runCli} without blocking this process: for a command talking to a simulator running here. */
export const runCliAsync = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, runArgs(watcherBundle, args), {
      cwd,
      env: { ...cleanEnv, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (status) => resolve({ status, stdout, stderr }))
  })

export interface Started {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/** The command started and left running: for a watcher stopped by a signal. */
export const startCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Started => {
  const child = spawn(process.execPath, runArgs(watcherBundle, args), {
    cwd,
    env: { ...cleanEnv, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)))
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}
