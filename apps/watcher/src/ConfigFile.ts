/**
 * The `--config` file: JSON shaped like the `--check` output, below the environment and the flags.
 * Reading it names the file (and the line and column of bad JSON); settings renamed since earlier
 * versions (the `*Millis` integers, now durations) are named with what replaced them.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { DurationText } from "@vega-effect/schema"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** Everything wrong with a configuration, one line per problem. */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{ readonly problems: ReadonlyArray<string> }> {
  override get message(): string {
    return this.problems.join("\n")
  }
}

export const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Reads a JSON configuration file; a missing file or bad JSON is a problem naming the file (and the position). */
export const loadConfigFile = (path: string): Effect.Effect<unknown, ConfigProblem, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError(
        (error) =>
          new ConfigProblem({
            problems: [
              error._tag === "SystemError" && error.reason === "NotFound"
                ? `${path}: no such configuration file`
                : `${path}: cannot read the configuration file: ${error.message}`
            ]
          })
      )
    )
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new ConfigProblem({ problems: [`${path}: ${describeJsonError(text, error)}`] })
    })
  })

/** Node says "... in JSON at position 42"; people want a line and a column. */
const describeJsonError = (text: string, error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  const position = /at position (\d+)/.exec(message)
  const reason = message.replace(/\s*in JSON at position \d+.*$/, "")
  if (position === null) return `invalid JSON: ${reason}`
  const before = text.slice(0, Number(position[1]))
  const line = before.split("\n").length
  const column = before.length - before.lastIndexOf("\n")
  return `invalid JSON at line ${line}, column ${column}: ${reason}`
}

/** Integer milliseconds that became durations: where each was, and its new name beside it. */
const renamed: ReadonlyArray<readonly [path: ReadonlyArray<string>, old: string, now: string]> = [
  [[], "intervalMillis", "interval"],
  [[], "leaseMillis", "lease"],
  [["sinks", "webhook"], "timeoutMillis", "timeout"],
  [["sinks", "webhook"], "minBackoffMillis", "minBackoff"],
  [["sinks", "webhook"], "maxBackoffMillis", "maxBackoff"],
  [["sinks", "jetstream"], "duplicateWindowMillis", "duplicateWindow"],
  [["sinks", "jetstream"], "timeoutMillis", "timeout"],
  [["simulator"], "blockIntervalMillis", "blockInterval"]
]

const sectionAt = (file: unknown, path: ReadonlyArray<string>): Record<string, unknown> | undefined =>
  path.reduce<unknown>((section, key) => (isRecord(section) ? section[key] : undefined), file) as
    Record<string, unknown> | undefined

/** What to write instead: the same time as duration text when the old value was a number of milliseconds. */
const suggestion = (now: string, value: unknown): string =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0
    ? `write "${now}": "${DurationText.format(Duration.millis(value))}"`
    : `a duration such as "2s" or "500ms"`

/**
 * The file without its renamed settings, and a problem for each: `intervalMillis: renamed to
 * interval, a duration: write "interval": "2s"`.
 */
export const withoutRenamed = (file: unknown): { readonly file: unknown; readonly problems: ReadonlyArray<string> } => {
  const problems: Array<string> = []
  const copy: unknown = structuredClone(file)
  for (const [path, old, now] of renamed) {
    const section = sectionAt(copy, path)
    if (!isRecord(section) || !(old in section)) continue
    const where = [...path, old].join(".")
    problems.push(`${where}: renamed to ${[...path, now].join(".")}, a duration: ${suggestion(now, section[old])}`)
    delete section[old]
  }
  return { file: copy, problems }
}
