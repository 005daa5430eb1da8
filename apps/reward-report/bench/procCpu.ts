/**
 * CPU time used so far by a process or one of its threads, and how long a thread waited for a
 * core, from `/proc` (Linux; undefined elsewhere). User and system times are fields 14 and 15 of a
 * `stat`, in ticks of 1/100 s (`USER_HZ` is 100 on every architecture Linux runs Node on).
 */
import { readFileSync } from "node:fs"

/** A file of `/proc`, or undefined where there is none (not Linux, or the process has ended). */
const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}

/** A file about this process's main thread (a thread's id is the process's id for its first thread). */
const mainThread = (file: string): string | undefined => read(`/proc/self/task/${process.pid}/${file}`)

const millisOf = (stat: string | undefined): number | undefined => {
  if (stat === undefined) return undefined
  // the name (field 2) may hold spaces: fields are counted after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** A process's CPU, all its threads, in milliseconds. */
export const processCpuMillis = (pid: number | undefined): number | undefined =>
  pid === undefined ? undefined : millisOf(read(`/proc/${pid}/stat`))

/** This process's main thread's own CPU, in milliseconds: the thread that reads. */
export const mainThreadCpuMillis = (): number | undefined => millisOf(mainThread("stat"))

/**
 * How long this process's main thread has waited for a core while it had work to do (ready to run,
 * not running), in milliseconds: the second field of its `schedstat`, in nanoseconds (Linux with
 * scheduler statistics; undefined elsewhere).
 */
export const mainThreadCoreWaitMillis = (): number | undefined => {
  const waiting = Number(mainThread("schedstat")?.split(" ")[1])
  return Number.isFinite(waiting) ? Math.round(waiting / 1e6) : undefined
}
