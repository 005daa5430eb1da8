/**
 * The `vega-watcher` command: its options, and the configuration they make with the environment
 * and the `--config` file.
 *
 * Precedence, highest first: flags, environment, the `--config` JSON file, the defaults of
 * `WatcherConfig`. A flag falls back to its environment variable as the command line is parsed
 * (`Settings.ts`); the file is read once the command runs, and everything is decoded together
 * (`ResolveConfig.ts`), so every mistake is reported at once with its path and its source:
 * `sinks.webhook.url: an http(s) URL (set by VEGA_WATCHER_WEBHOOK_URL)`.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import type * as FileSystem from "@effect/platform/FileSystem"
import { DurationText, Ids } from "@vega-effect/schema"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { databaseForDisplay, type WatcherConfig } from "./Config.js"
import { type ConfigProblem, loadConfigFile } from "./ConfigFile.js"
import * as DataNode from "./DataNode.js"
import { type Given, resolveConfig, tokenGiven } from "./ResolveConfig.js"
import type { SharedFilter } from "./ResourceDefinition.js"
import { allDefinitions, type ResourceName, resourceNames } from "./Resources.js"
import * as Secrets from "./Secrets.js"
import * as Settings from "./Settings.js"
import { env, type Sourced } from "./Settings.js"

/** `--stdout` / `--no-stdout`, or neither (then the configuration decides). */
const stdoutFlag = Options.all({
  on: Options.boolean("stdout").pipe(Options.withDescription("write events as JSON Lines on stdout")),
  off: Options.boolean("no-stdout").pipe(Options.withDescription("do not write events on stdout"))
}).pipe(
  Options.mapEffect(({ off, on }) =>
    on && off
      ? Effect.fail(ValidationError.invalidValue(HelpDoc.p("--stdout and --no-stdout cannot both be given")))
      : Effect.succeed(on ? Option.some(true) : off ? Option.some(false) : Option.none<boolean>())
  )
)

/** The resources a shared filter flag (`--party`, `--market`) applies to: those whose definition lists the field. */
const filteredBy = (field: SharedFilter): ReadonlyArray<ResourceName> =>
  allDefinitions.filter((definition) => definition.sharedFilters.includes(field)).map((definition) => definition.name)

const partyFiltered = filteredBy("parties")
const marketFiltered = filteredBy("markets")

/** Names as a sentence: "a, b and c". */
const listed = (names: ReadonlyArray<string>): string =>
  names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`

const flag = (name: string, description: string) => Options.boolean(name).pipe(Options.withDescription(description))

export const options = {
  config: Options.file("config").pipe(
    Options.withPseudoName("file.json"),
    Options.withDescription("JSON configuration file (shaped like the --check output)"),
    Options.optional
  ),
  nodes: Settings.list("node", {
    pseudo: "url",
    description: `data-node URL, repeatable (env ${env.nodes}, comma-separated); none: a simulator started here`,
    variable: env.nodes
  }),
  database: Settings.text("database", {
    pseudo: "path|url",
    description: `SQLite file, or postgres:// URL shared by several watchers, holding state and outbox (env ${env.database})`,
    variable: env.database
  }),
  lease: Settings.text("lease", {
    pseudo: "duration",
    description: `how long a watcher's hold on a slice of the work lasts unrenewed, e.g. 15s (env ${env.lease})`,
    variable: env.lease
  }),
  mode: Settings.text("mode", {
    pseudo: "live|poll",
    description: `live: follow the node's streams (default); poll: read everything each interval (env ${env.mode})`,
    variable: env.mode
  }),
  interval: Settings.text("interval", {
    pseudo: "duration",
    description: `time between polls in poll mode, e.g. 2s or 500ms (env ${env.interval})`,
    variable: env.interval
  }),
  reconcileEvery: Settings.text("reconcile-every", {
    pseudo: "duration",
    description: `live mode: read every resource again this often, e.g. 10m (env ${env.reconcileEvery})`,
    variable: env.reconcileEvery
  }),
  reconcileBudget: Settings.text("reconcile-budget", {
    pseudo: "requests/s",
    description: `live mode: requests per second reconciliations may use, default 5 (env ${env.reconcileBudget})`,
    variable: env.reconcileBudget
  }),
  port: Settings.integer("port", {
    pseudo: "port",
    description: `operations endpoint port, 0 disables it (env ${env.port})`,
    variable: env.port
  }),
  host: Settings.text("host", { pseudo: "host", description: "operations endpoint address" }),
  stdout: stdoutFlag,
  console: flag("console", "write a readable line per event on stdout"),
  file: Settings.text("file", {
    pseudo: "path",
    description: `append events as JSON Lines to this file (env ${env.file})`,
    variable: env.file
  }),
  webhook: Settings.text("webhook", {
    pseudo: "url",
    description: `POST events to this URL (env ${env.webhookUrl}; ${env.webhookToken} adds a bearer token)`,
    variable: env.webhookUrl
  }),
  nats: Settings.list("nats", {
    pseudo: "url",
    description: `publish events to NATS JetStream at this server, repeatable (env ${env.nats}, comma-separated)`,
    variable: env.nats
  }),
  parties: Settings.list("party", {
    pseudo: "id",
    description: `watch only this party, repeatable (filters ${listed(partyFiltered)})`
  }),
  markets: Settings.list("market", {
    pseudo: "id",
    description: `watch only this market, repeatable (filters ${listed(marketFiltered)})`
  }),
  only: Options.choice("only", resourceNames).pipe(
    Options.repeated,
    Options.withDescription("watch only this resource, repeatable")
  ),
  seed: Settings.integer("seed", {
    pseudo: "n",
    description: "seed of the simulated network watched when no node is given"
  }),
  blockInterval: Settings.text("block-interval", {
    pseudo: "duration",
    description: "time between simulated blocks, e.g. 1s"
  }),
  initialEvents: flag(
    "initial-events",
    "on the first sync of an empty state, report every row found (default: only record them)"
  ),
  resetState: flag(
    "reset-state",
    "a state recorded for another chain than the nodes': clear it and start over (default: refuse it)"
  ),
  once: flag("once", "run one cycle, deliver its events, and exit"),
  check: flag("check", "validate the configuration, print it resolved (secrets redacted), and exit")
}

export type Parsed = {
  readonly [K in keyof typeof options]: (typeof options)[K] extends Options.Options<infer A> ? A : never
}

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

export const command = Command.make("vega-watcher", options, (parsed) =>
  Effect.gen(function* () {
    const config = yield* configOf(parsed)
    if (parsed.check) return yield* Console.log(renderConfig(config))
    // loaded only to run: checking a configuration does not need the watcher
    const { run } = yield* Effect.promise(() => import("./Watcher.js"))
    yield* run(config, { once: parsed.once })
  })
).pipe(
  Command.withDescription(
    "Watches a Vega data node (or a simulated one) and reports every change in " +
      `${listed(allDefinitions.map((definition) => definition.label))}. ` +
      `The data-node client also reads ${DataNode.PREFIX}TIMEOUT and ${DataNode.PREFIX}RETRIES.`
  )
)
