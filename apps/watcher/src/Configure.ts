/**
 * The configuration a parsed command line makes with the environment and the `--config` file, and
 * what the command does with it: print it (`--check`) or run the watcher. Loaded only once the
 * command runs, so that `--help` and usage errors need none of it (see `cli.ts`).
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import { DurationText, Ids } from "@vega-effect/schema"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Parsed } from "./cli.js"
import { databaseForDisplay, type WatcherConfig } from "./Config.js"
import { type ConfigProblem, loadConfigFile } from "./ConfigFile.js"
import * as DataNode from "./DataNode.js"
import { type Given, resolveConfig, tokenGiven } from "./ResolveConfig.js"
import { filteredBy } from "./ResourceCatalog.js"
import { type ResourceName, resourceNames } from "./Resources.js"
import * as Secrets from "./Secrets.js"
import * as Settings from "./Settings.js"
import { env, type Sourced } from "./Settings.js"

const partyFiltered = filteredBy("parties")
const marketFiltered = filteredBy("markets")

/** Where the options that map onto one setting go. */
const paths = {
  nodes: ["nodes"],
  database: ["database"],
  interval: ["interval"],
  mode: ["mode"],
  reconcileEvery: ["live", "reconcileEvery"],
  lease: ["lease"],
  host: ["host"],
  file: ["sinks", "file"],
  webhook: ["sinks", "webhook", "url"],
  nats: ["sinks", "jetstream", "servers"],
  seed: ["simulator", "seed"],
  blockInterval: ["simulator", "blockInterval"]
} as const satisfies Partial<Record<keyof Parsed, ReadonlyArray<string>>>

const givenAt = (path: ReadonlyArray<string>, sourced: Option.Option<Sourced<unknown>>): ReadonlyArray<Given> =>
  Option.match(sourced, { onNone: () => [], onSome: ({ origin, value }) => [{ path, value, origin }] })

/** The port: a number from `--port`, text from the environment (checked here, as a number has to be). */
const portGiven = (port: Parsed["port"], problems: Array<string>): ReadonlyArray<Given> => {
  if (Option.isNone(port) || typeof port.value.value === "number") return givenAt(["port"], port)
  const { origin, value } = port.value
  if (/^\d+$/.test(value)) return [{ path: ["port"], value: Number(value), origin }]
  problems.push(`${origin}: expected a port number, got ${JSON.stringify(value)}`)
  return []
}

/** The reconciliation budget: a positive number of requests per second. */
const budgetGiven = (budget: Parsed["reconcileBudget"], problems: Array<string>): ReadonlyArray<Given> => {
  if (Option.isNone(budget)) return []
  const { origin, value } = budget.value
  const number = Number(value)
  if (/^\d+(\.\d+)?$/.test(value) && number > 0) return [{ path: ["live", "reconcileBudget"], value: number, origin }]
  problems.push(`${origin}: expected requests per second above 0, got ${JSON.stringify(value)}`)
  return []
}

/** Ids given once for several resources: checked here, once, rather than at each path they are copied to. */
const idsGiven = (
  ids: Option.Option<Sourced<ReadonlyArray<string>>>,
  resources: ReadonlyArray<ResourceName>,
  field: string,
  problems: Array<string>
): ReadonlyArray<Given> => {
  if (Option.isNone(ids)) return []
  const { origin, value } = ids.value
  const bad = value.filter((id) => !Ids.isVegaId(id))
  for (const id of bad) problems.push(`${origin}: expected a 64-character hex id, got ${JSON.stringify(id)}`)
  return bad.length > 0 ? [] : resources.map((resource) => ({ path: ["watch", resource, field], value, origin }))
}

const switchesGiven = (parsed: Parsed): ReadonlyArray<Given> => [
  ...Option.match(parsed.stdout, {
    onNone: () => [],
    onSome: (on) => [{ path: ["sinks", "stdout"], value: on, origin: on ? "--stdout" : "--no-stdout" }]
  }),
  ...(parsed.console ? [{ path: ["sinks", "console"], value: true, origin: "--console" }] : []),
  ...(parsed.initialEvents ? [{ path: ["initialEvents"], value: true, origin: "--initial-events" }] : []),
  ...(parsed.resetState ? [{ path: ["resetState"], value: true, origin: "--reset-state" }] : []),
  ...(parsed.only.length === 0
    ? []
    : resourceNames.map((resource) => ({
        path: ["watch", resource, "enabled"],
        value: parsed.only.includes(resource),
        origin: "--only"
      })))
]

/** What the flags and the environment give, where it goes, and what was wrong with it already. */
export const givenBy = (parsed: Parsed, token: Option.Option<Sourced<string>>) => {
  const problems: Array<string> = []
  const given: ReadonlyArray<Given> = [
    ...Object.entries(paths).flatMap(([key, path]) => givenAt(path, parsed[key as keyof typeof paths])),
    ...portGiven(parsed.port, problems),
    ...budgetGiven(parsed.reconcileBudget, problems),
    ...switchesGiven(parsed),
    ...idsGiven(parsed.parties, partyFiltered, "parties", problems),
    ...idsGiven(parsed.markets, marketFiltered, "markets", problems),
    ...Option.match(token, { onNone: () => [], onSome: ({ origin, value }) => [tokenGiven(value, origin)] })
  ]
  return { given, problems }
}

/** The bearer token for the webhook: environment only, so that it is never on a command line. */
const webhookToken = Config.option(Settings.variable(env.webhookToken)).pipe(
  Effect.orElseSucceed(() => Option.none<Sourced<string>>())
)

/** The configuration of a parsed command line and a parsed file, with the environment (the current ConfigProvider). */
export const resolveParsed = (
  parsed: Parsed,
  file: { readonly file?: unknown; readonly fileName?: string | undefined }
): Effect.Effect<WatcherConfig, ConfigProblem> =>
  Effect.gen(function* () {
    const { given, problems } = givenBy(parsed, yield* webhookToken)
    const client = yield* DataNode.check
    return yield* resolveConfig({ ...file, given, problems: [...problems, ...client] })
  })

/** The configuration of a parsed command line, its `--config` file read. */
export const configOf = (parsed: Parsed): Effect.Effect<WatcherConfig, ConfigProblem, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fileName = Option.getOrUndefined(parsed.config)
    const file = fileName === undefined ? undefined : yield* loadConfigFile(fileName)
    return yield* resolveParsed(parsed, { file, fileName })
  })

/** A configuration value as the file writes it: durations as text, secrets as `<redacted>`. */
const displayed = (value: unknown): unknown => {
  if (Duration.isDuration(value)) return DurationText.format(value)
  if (Redacted.isRedacted(value)) return Secrets.REDACTED
  if (Array.isArray(value)) return value.map(displayed)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, displayed(field)]))
}

/** The configuration as JSON shaped like the configuration file: durations as text, secrets as `<redacted>`. */
export const renderConfig = (config: WatcherConfig): string =>
  JSON.stringify(displayed({ ...config, database: databaseForDisplay(config.database) }), null, 2)

/** What the command does: prints the configuration with `--check`, else runs the watcher. */
export const execute = (parsed: Parsed) =>
  Effect.gen(function* () {
    const config = yield* configOf(parsed)
    if (parsed.check) return yield* Console.log(renderConfig(config))
    // loaded only to run: checking a configuration does not need the watcher
    const { run } = yield* Effect.promise(() => import("./Watcher.js"))
    yield* run(config, { once: parsed.once })
  })
