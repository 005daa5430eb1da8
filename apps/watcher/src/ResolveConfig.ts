/**
 * The configuration the sources make together. Precedence, highest first: flags, the environment
 * (the two already combined by `Settings.ts`), the `--config` file, the defaults of `WatcherConfig`.
 * Flags and variables are laid over the file setting by setting (a section keeps the file's other
 * settings), and the whole is decoded with the schema, every error at once: each problem names the
 * setting's path, what was expected, and where the bad value came from (the flag, the variable, or
 * the file). Secrets are never quoted.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { databasePassword, SIMULATED_STATE, WatcherConfig } from "./Config.js"
import { ConfigProblem, isRecord, withoutRenamed } from "./ConfigFile.js"
import * as Secrets from "./Secrets.js"
import { env } from "./Settings.js"

/** A flag's or a variable's value, where it goes in the configuration (in the file's shape). */
export interface Given {
  readonly path: ReadonlyArray<string>
  /** As the source wrote it; decoded with the rest. */
  readonly value: unknown
  /** The flag or variable. */
  readonly origin: string
}

export interface ConfigInput {
  /** The parsed `--config` file, if any. */
  readonly file?: unknown
  /** Its name, to say where a problem with one of its values is. */
  readonly fileName?: string | undefined
  /** What the flags and the environment give. */
  readonly given?: ReadonlyArray<Given>
  /** Problems found before (an id that is not one, say). */
  readonly problems?: ReadonlyArray<string>
}

const TOKEN_PATH = ["sinks", "webhook", "headers", "authorization"]

/** `value` at `path` in `target`, making the sections on the way (a copy of each section touched). */
const setIn = (
  target: Record<string, unknown>,
  path: ReadonlyArray<string>,
  value: unknown
): Record<string, unknown> => {
  const [key, ...rest] = path
  if (rest.length === 0) return { ...target, [key]: value }
  const section = target[key]
  return { ...target, [key]: setIn(isRecord(section) ? section : {}, rest, value) }
}

/** The file with every given value laid over it, and which flag or variable set each path. */
const overlay = (file: Record<string, unknown>, given: ReadonlyArray<Given>) => ({
  merged: given.reduce((out, { path, value }) => setIn(out, path, value), file),
  origins: new Map(given.map(({ origin, path }) => [path.join("."), origin]))
})

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`),
    ""
  )

/**
 * The input with the state in memory when neither a node nor a database is given: the simulator
 * then started in this process is a new chain at every run (see `SIMULATED_STATE`).
 */
const withStateDefault = (merged: Record<string, unknown>): Record<string, unknown> => {
  const nodes = merged["nodes"]
  const simulated = nodes === undefined || (Array.isArray(nodes) && nodes.length === 0)
  return merged["database"] === undefined && simulated ? { ...merged, database: SIMULATED_STATE } : merged
}

/** The flag or variable that set `path` or the section holding it, if one did. */
const originOf = (origins: ReadonlyMap<string, string>, path: ReadonlyArray<PropertyKey>): string | undefined => {
  const keys = path.filter((key): key is string => typeof key === "string")
  for (let n = keys.length; n > 0; n--) {
    const origin = origins.get(keys.slice(0, n).join("."))
    if (origin !== undefined) return origin
  }
  return undefined
}

const isPrefix = (prefix: ReadonlyArray<PropertyKey>, path: ReadonlyArray<PropertyKey>): boolean =>
  prefix.length < path.length && prefix.every((key, i) => key === path[i])

const samePath = (a: ReadonlyArray<PropertyKey>, b: ReadonlyArray<PropertyKey>): boolean =>
  a.length === b.length && a.every((key, i) => key === b[i])

/**
 * The issues another one does not say better. An optional field that fails also fails its "or
 * undefined" alternative, which only adds "Expected undefined, actual <the whole value>" at its
 * path and at every enclosing one.
 */
const mostSpecific = (
  issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>
): ReadonlyArray<ParseResult.ArrayFormatterIssue> =>
  issues.filter(
    (issue) =>
      !issues.some(
        (other) =>
          isPrefix(issue.path, other.path) ||
          (other !== issue &&
            samePath(issue.path, other.path) &&
            issue.message.startsWith("Expected undefined") &&
            !other.message.startsWith("Expected undefined"))
      )
  )

/** Every string in a value, however deep (a secret of the wrong type is quoted in a problem all the same). */
const stringsIn = (value: unknown): ReadonlyArray<string> =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value) || isRecord(value)
      ? Object.values(value).flatMap(stringsIn)
      : []

/** The secrets in a configuration, which no problem may quote. */
const secretsIn = (input: Record<string, unknown>): ReadonlyArray<string> => {
  const section = (value: unknown, key: string) => (isRecord(value) ? value[key] : undefined)
  const sinks = input["sinks"]
  const jetstream = section(sinks, "jetstream")
  return Secrets.valuesOf([
    ...stringsIn(section(section(sinks, "webhook"), "headers")),
    ...stringsIn(section(jetstream, "password")),
    ...stringsIn(section(jetstream, "token")),
    ...stringsIn(input["database"]).map(databasePassword)
  ])
}

/** The schema's objections to the merged input, each naming its path and source. */
const decodeProblems = (
  merged: Record<string, unknown>,
  origins: ReadonlyMap<string, string>,
  fileName: string | undefined
): Either.Either<WatcherConfig, ReadonlyArray<string>> =>
  Schema.decodeUnknownEither(WatcherConfig)(merged, { errors: "all", onExcessProperty: "error" }).pipe(
    Either.mapLeft((error) =>
      mostSpecific(ParseResult.ArrayFormatter.formatErrorSync(error)).map((issue) => {
        const message = issue._tag === "Unexpected" ? "unknown setting" : issue.message
        const origin = originOf(origins, issue.path)
        const source = origin !== undefined ? ` (set by ${origin})` : fileName !== undefined ? ` (in ${fileName})` : ""
        return `${issue.path.length === 0 ? "configuration" : formatPath(issue.path)}: ${message}${source}`
      })
    )
  )

/** The file's own problems (not an object, renamed settings), and what of it can be decoded. */
const fileProblems = (input: ConfigInput) => {
  if (input.file === undefined) return { file: {}, problems: [] }
  if (!isRecord(input.file)) {
    return { file: {}, problems: [`${input.fileName ?? "configuration file"}: expected a JSON object`] }
  }
  const { file, problems } = withoutRenamed(input.file)
  const where = input.fileName === undefined ? "" : ` (in ${input.fileName})`
  return { file: file as Record<string, unknown>, problems: problems.map((problem) => problem + where) }
}

/**
 * The configuration the sources make together, or every problem with them. Unknown settings are
 * problems too: a misspelt key would otherwise be silently ignored.
 */
export const resolveConfig = (input: ConfigInput): Effect.Effect<WatcherConfig, ConfigProblem> =>
  Effect.suspend(() => {
    const file = fileProblems(input)
    const { merged, origins } = overlay(file.file, input.given ?? [])
    const problems = [...(input.problems ?? []), ...file.problems]
    const webhook = isRecord(merged["sinks"]) ? merged["sinks"]["webhook"] : undefined
    if (origins.has(TOKEN_PATH.join(".")) && !(isRecord(webhook) && webhook["url"] !== undefined)) {
      problems.push(
        `${env.webhookToken}: set, but no webhook is configured (--webhook, ${env.webhookUrl} or sinks.webhook.url)`
      )
    }
    const decoded = decodeProblems(withStateDefault(merged), origins, input.fileName)
    if (Either.isLeft(decoded))
      problems.push(...decoded.left.map((problem) => Secrets.scrub(problem, secretsIn(merged))))
    return problems.length === 0 && Either.isRight(decoded)
      ? Effect.succeed(decoded.right)
      : Effect.fail(new ConfigProblem({ problems: Array.from(new Set(problems)) }))
  })

/** Where the webhook token goes: a bearer `authorization` header. */
export const tokenGiven = (token: string, origin: string): Given => ({
  path: TOKEN_PATH,
  value: `Bearer ${token}`,
  origin
})
