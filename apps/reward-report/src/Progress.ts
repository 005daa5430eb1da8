/**
 * Progress while reading: a one-line bar on stderr, redrawn at most ten times a second, and only
 * when stderr is a terminal (a pipe or a CI log gets nothing, so outputs stay clean). Notes (what a
 * long read will cost, say) are lines on stderr in every case, the bar drawn again below them.
 */
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface Service {
  /** A new step: its label and, when known, how many units of work it has. */
  readonly step: (label: string, total?: number) => Effect.Effect<void>
  /** Units of the current step done so far (absolute, not an increment). */
  readonly update: (done: number) => Effect.Effect<void>
  /** Clears the bar. */
  readonly finish: Effect.Effect<void>
  /** A line on stderr, whether a bar is drawn or not. */
  readonly note: (line: string) => Effect.Effect<void>
}

export class Progress extends Context.Tag("@vega-effect/reward-report/Progress")<Progress, Service>() {}

/** Draws no bar; notes still go to stderr. */
export const silent: Service = {
  step: () => Effect.void,
  update: () => Effect.void,
  finish: Effect.void,
  note: (line) => Console.error(line)
}

const WIDTH = 24

/** The bar as text: `[#########---------------]  37% reading per-epoch rows`. */
export const renderBar = (label: string, done: number, total: number | undefined): string => {
  if (total === undefined || total <= 0) return done === 0 ? `${label}…` : `${label}… ${done.toLocaleString("en-US")}`
  const ratio = Math.min(1, Math.max(0, done / total))
  const filled = Math.round(ratio * WIDTH)
  const percent = String(Math.floor(ratio * 100)).padStart(3, " ")
  return `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${percent}% ${label}`
}

/** A bar drawn on `stream` with carriage returns. */
export const terminal = (stream: NodeJS.WriteStream): Service => {
  let label = ""
  let total: number | undefined
  let done = 0
  let lastDraw = 0
  let drawn = false
  const draw = (force: boolean) => {
    const now = Date.now()
    if (!force && now - lastDraw < 100) return
    lastDraw = now
    // a terminal that does not say its width (0) is taken as 80 columns
    const columns = stream.columns > 0 ? stream.columns : 80
    const line = renderBar(label, done, total).slice(0, Math.max(20, columns - 1))
    stream.write(`\r\u001b[2K${line}`)
    drawn = true
  }
  return {
    step: (next, nextTotal) =>
      Effect.sync(() => {
        label = next
        total = nextTotal
        done = 0
        draw(true)
      }),
    update: (n) =>
      Effect.sync(() => {
        done = n
        draw(false)
      }),
    finish: Effect.sync(() => {
      if (drawn) stream.write("\r\u001b[2K")
      drawn = false
    }),
    note: (line) =>
      Effect.sync(() => {
        stream.write(drawn ? `\r\u001b[2K${line}\n` : `${line}\n`)
        if (drawn) draw(true)
      })
  }
}

/** The bar on stderr when it is a terminal, nothing otherwise. */
export const layerStderr: Layer.Layer<Progress> = Layer.sync(Progress, () =>
  process.stderr.isTTY ? terminal(process.stderr) : silent
)

export const layerSilent: Layer.Layer<Progress> = Layer.succeed(Progress, silent)
