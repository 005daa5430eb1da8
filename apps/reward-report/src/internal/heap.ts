/**
 * How eagerly the command's garbage is collected. V8 lets the heap grow to up to four times what
 * was live at the last full collection before it collects again (on a machine with memory to
 * spare), and a report allocates its answers at a high rate: with some 60 MB live, the process
 * would peak at half a gigabyte of mostly garbage. Collecting once the heap has grown by half
 * keeps the peak near what is live, for a few percent more time in the collector (which marks
 * concurrently). Imported first by the command, for its side effect; a `--heap-growing-percent`
 * given to node (or in `NODE_OPTIONS`) is kept.
 */
import { setFlagsFromString } from "node:v8"

/** The heap grows by at most this many percent between full collections. */
export const HEAP_GROWING_PERCENT = 50

const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) =>
  /heap[-_]growing[-_]percent/.test(arg)
)
if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
