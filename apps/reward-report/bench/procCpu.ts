/**
 * CPU time used so far by a process or one of its threads, and how long a thread waited for a
 * core, from `/proc` (Linux; undefined elsewhere). User and system times are fields 14 and 15 of a
 * `stat`, in ticks of 1/100 s (`USER_HZ` is 100 on every architecture Linux runs Node on).
 */
import { readFileSync } from "node:fs"

const millisOf = (statPath: string): number | undefined => {
  try {
    const stat = readFileSync(statPath, "utf8")
    // the name (field 2) may hold spaces: fields are counted after its closing parenthesis
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/** A process's CPU, all its threads, in milliseconds. */
export const processCpuMillis = (pid: number | undefined): number | undefined =>
  pid === undefined ? undefined : millisOf(`/proc/${pid}/stat`)

/**
 * This process's main thread's own CPU, in milliseconds: the thread that reads (a thread's id is
 * the process's id for its first thread).
 */
export const mainThreadCpuMillis = (): number | undefined => millisOf(`/proc/self/task/${process.pid}/stat`)

/**
 * How long this process's main thread has waited for a core while it had work to do (ready to run,
 * not running), in milliseconds: the second field of its `schedstat`, in nanoseconds (Linux with
 * scheduler statistics; undefined elsewhere).
 */
export const mainThreadCoreWaitMillis = (): number | undefined => {
  try {
    const waiting = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[1])
    return Number.isFinite(waiting) ? Math.round(waiting / 1e6) : undefined
  } catch {
    return undefined
  }
}
