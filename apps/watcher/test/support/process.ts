/**
 * The watcher as a separate process, the way it runs in production: the bundle (made once per test
 * run, see bundles.ts), started with flags, killed at will.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { runArgs, watcherBundle } from "./bundles.js"

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
  const child = spawn(process.execPath, runArgs(watcherBundle, args), {
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
