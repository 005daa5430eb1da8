/**
 * The command's memory bound without a V8 flag from the operator: V8 sizes a heap when the process
 * starts, and with the default limit (a quarter of the machine's memory, gigabytes) it lets garbage
 * pile up long before collecting, so a watcher holding some 50 MB of live data grows to 400 MB of
 * RSS. The published command therefore starts itself again, once, with `--max-old-space-size`
 * ({@link HEAP_CAP_MB}), unless the operator gave one (on the command line or in `NODE_OPTIONS`)
 * or the sources run through a loader (a development run with `tsx`). The first process only
 * waits: the terminal, the standard streams and the exit code are the second's, and the signals it
 * receives are passed on. If the first process dies (SIGKILL), the second stops too.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"

/** The old-space cap, MB: the watcher's live heap stays under 70 MB at 1,000,000 positions. */
export const HEAP_CAP_MB = 160

/** Set in the second process, so that it does not start a third. */
const RELAUNCHED = "VEGA_WATCHER_RELAUNCHED"

const capGiven = (flags: ReadonlyArray<string>): boolean =>
  flags.some((flag) => flag.startsWith("--max-old-space-size") || flag.startsWith("--max_old_space_size"))

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const

/**
 * Resolves `false` at once when this process is to run the command itself; otherwise runs it again
 * under the heap cap and, once that run ends, exits as it did (the promise never resolves).
 */
export const relaunchedWithCap = async (): Promise<boolean> => {
  if (process.env[RELAUNCHED] === "1") {
    // the first process is gone when the channel to it closes: stop with it
    process.channel?.unref()
    process.on("disconnect", () => process.exit(1))
    return false
  }
  const loader = process.execArgv.some((flag) => /^--(import|loader|experimental-loader)\b/.test(flag))
  if (loader || capGiven(process.execArgv) || capGiven((process.env.NODE_OPTIONS ?? "").split(/\s+/))) return false
  const child = spawn(
    process.execPath,
    [...process.execArgv, `--max-old-space-size=${HEAP_CAP_MB}`, process.argv[1]!, ...process.argv.slice(2)],
    { stdio: ["inherit", "inherit", "inherit", "ipc"], env: { ...process.env, [RELAUNCHED]: "1" } }
  )
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal)
  const handlers = SIGNALS.map((signal) => [signal, forward(signal)] as const)
  for (const [signal, handler] of handlers) process.on(signal, handler)
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null]
  for (const [name, handler] of handlers) process.off(name, handler)
  // end as the command ended: by the same signal, or with its exit code
  if (signal !== null) process.kill(process.pid, signal)
  process.exit(code ?? 1)
}
