/**
 * The `vega-watcher` command: where the configuration comes from and how the sources combine.
 *
 * Precedence, highest first: flags, environment, the `--config` JSON file, the defaults of
 * `WatcherConfig`. The merged input is decoded with that schema, so every mistake is reported with
 * its path (`sinks.webhook.url: an http(s) URL`) and, when a flag or variable set it, its source.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as FileSystem from "@effect/platform/FileSystem"
import { DurationText, Ids } from "@vega-effect/schema"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { databaseForDisplay, WatcherConfig } from "./Config.js"
import { type ResourceName, resourceNames } from "./Event.js"
import * as Secrets from "./Secrets.js"

/** Everything wrong with a configuration, one line per problem. */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{ readonly problems: ReadonlyArray<string> }> {
  override get message(): string {
    return this.problems.join("\n")
  }
}

/** What the flags say; an absent field leaves the lower sources in charge. */
export interface Flags {
  readonly nodes?: ReadonlyArray<string> | undefined
  readonly database?: string | undefined
  /** A duration such as `2s`, `500ms` or `1m`. */
  readonly interval?: string | undefined
  readonly port?: number | undefined
  readonly host?: string | undefined
  readonly stdout?: boolean | undefined
  readonly console?: boolean | undefined
  readonly initialEvents?: boolean | undefined
  readonly file?: string | undefined
  readonly webhook?: string | undefined
  /** NATS servers for the JetStream sink. */
  readonly nats?: ReadonlyArray<string> | undefined
  /** How long a hold on a slice lasts without renewal, a duration like `interval`. */
  readonly lease?: string | undefined
  /** Applied to every resource that filters by party. */
  readonly parties?: ReadonlyArray<string> | undefined
  /** Applied to every resource that filters by market. */
  readonly markets?: ReadonlyArray<string> | undefined
  /** Only these resources are watched. */
  readonly only?: ReadonlyArray<string> | undefined
  readonly seed?: number | undefined
  /** The simulator's block interval, a duration like `interval`. */
  readonly blockInterval?: string | undefined
}

export interface ConfigInput {
  /** The parsed `--config` file, if any. */
  readonly file?: unknown
  /** Its name, to say where a problem with its shape is. */
  readonly fileName?: string | undefined
  readonly env: Readonly<Record<string, string | undefined>>
  readonly flags: Flags
}

export const env = {
  nodes: "VEGA_WATCHER_NODES",
  database: "VEGA_WATCHER_DATABASE",
  interval: "VEGA_WATCHER_INTERVAL",
  port: "VEGA_WATCHER_PORT",
  file: "VEGA_WATCHER_FILE",
  webhookUrl: "VEGA_WATCHER_WEBHOOK_URL",
  webhookToken: "VEGA_WATCHER_WEBHOOK_TOKEN",
  nats: "VEGA_WATCHER_NATS",
  lease: "VEGA_WATCHER_LEASE"
} as const

const partyFiltered = [
  "positions",
  "stake",
  "liquidity",
  "profiles",
  "rewards"
] as const satisfies ReadonlyArray<ResourceName>
const marketFiltered = ["positions", "liquidity"] as const satisfies ReadonlyArray<ResourceName>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** `overlay` over `base`: objects merge key by key, anything else (arrays included) replaces. */
const merge = (base: unknown, overlay: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = isRecord(base) ? { ...base } : {}
  for (const [key, value] of Object.entries(overlay)) {
    out[key] = isRecord(value) ? merge(out[key], value) : value
  }
  return out
}

/** One source's settings, as a partial encoded `WatcherConfig`, remembering which flag or variable set what. */
class Source {
  readonly values: Record<string, unknown> = {}
  constructor(private readonly origins: Map<string, string>) {}

  set(path: ReadonlyArray<string>, value: unknown, origin: string): void {
    let target = this.values
    for (const key of path.slice(0, -1)) {
      const next = target[key]
      target = isRecord(next) ? next : (target[key] = {})
    }
    target[path[path.length - 1]] = value
    this.origins.set(path.join("."), origin)
  }
}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`),
    ""
  )

/** The flag or variable that set `path` or the object holding it, if one did. */
const originOf = (origins: ReadonlyMap<string, string>, path: ReadonlyArray<PropertyKey>): string | undefined => {
  const keys = path.filter((key): key is string => typeof key === "string")
  for (let n = keys.length; n > 0; n--) {
    const origin = origins.get(keys.slice(0, n).join("."))
    if (origin !== undefined) return origin
  }
  return undefined
}

const describeIssue = (issue: ParseResult.ArrayFormatterIssue, origins: ReadonlyMap<string, string>): string => {
  const message = issue._tag === "Unexpected" ? "unknown setting" : issue.message
  const origin = originOf(origins, issue.path)
  return `${issue.path.length === 0 ? "configuration" : formatPath(issue.path)}: ${message}${origin === undefined ? "" : ` (set by ${origin})`}`
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

/** The header values of the webhook: secrets, which a problem must not quote. */
const secretsIn = (input: Record<string, unknown>): ReadonlyArray<string> => {
  const sinks = input["sinks"]
  const webhook = isRecord(sinks) ? sinks["webhook"] : undefined
  const headers = isRecord(webhook) ? webhook["headers"] : undefined
  if (!isRecord(headers)) return []
  return Object.values(headers).filter((value): value is string => typeof value === "string" && value !== "")
}

const scrub = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.reduce((out, secret) => out.split(secret).join("<redacted>"), text)

/** Where the settings of the environment and the flags go, and what was wrong with them. */
interface Collector {
  readonly problems: Array<string>
  readonly origins: Map<string, string>
}

/** "a, b,,c" as ["a", "b", "c"]. */
const commaList = (text: string): Array<string> =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

const fromEnvironment = (c: Collector, variables: ConfigInput["env"]): Source => {
  const source = new Source(c.origins)
  const variable = (name: string): string | undefined => {
    const value = variables[name]
    return value === undefined || value.trim() === "" ? undefined : value.trim()
  }
  const nodes = variable(env.nodes)
  if (nodes !== undefined) source.set(["nodes"], commaList(nodes), env.nodes)
  const database = variable(env.database)
  if (database !== undefined) source.set(["database"], database, env.database)
  const interval = variable(env.interval)
  if (interval !== undefined) source.set(["interval"], interval, env.interval)
  const lease = variable(env.lease)
  if (lease !== undefined) source.set(["lease"], lease, env.lease)
  const nats = variable(env.nats)
  if (nats !== undefined) source.set(["sinks", "jetstream", "servers"], commaList(nats), env.nats)
  const port = variable(env.port)
  if (port !== undefined) {
    if (/^\d+$/.test(port)) source.set(["port"], Number(port), env.port)
    else c.problems.push(`${env.port}: expected a port number, got ${JSON.stringify(port)}`)
  }
  const file = variable(env.file)
  if (file !== undefined) source.set(["sinks", "file"], file, env.file)
  const webhookUrl = variable(env.webhookUrl)
  if (webhookUrl !== undefined) source.set(["sinks", "webhook", "url"], webhookUrl, env.webhookUrl)
  const token = variable(env.webhookToken)
  if (token !== undefined) {
    source.set(["sinks", "webhook", "headers", "authorization"], `Bearer ${token}`, env.webhookToken)
  }
  return source
}

const fromFlags = (c: Collector, flags: Flags): Source => {
  const source = new Source(c.origins)
  if (flags.nodes !== undefined) source.set(["nodes"], flags.nodes, "--node")
  if (flags.database !== undefined) source.set(["database"], flags.database, "--database")
  if (flags.interval !== undefined) source.set(["interval"], flags.interval, "--interval")
  if (flags.port !== undefined) source.set(["port"], flags.port, "--port")
  if (flags.host !== undefined) source.set(["host"], flags.host, "--host")
  if (flags.stdout !== undefined) {
    source.set(["sinks", "stdout"], flags.stdout, flags.stdout ? "--stdout" : "--no-stdout")
  }
  if (flags.console !== undefined) source.set(["sinks", "console"], flags.console, "--console")
  if (flags.initialEvents !== undefined) source.set(["initialEvents"], flags.initialEvents, "--initial-events")
  if (flags.file !== undefined) source.set(["sinks", "file"], flags.file, "--file")
  if (flags.webhook !== undefined) source.set(["sinks", "webhook", "url"], flags.webhook, "--webhook")
  if (flags.nats !== undefined) source.set(["sinks", "jetstream", "servers"], flags.nats, "--nats")
  if (flags.lease !== undefined) source.set(["lease"], flags.lease, "--lease")
  // an id is checked here, once, rather than as the path of each resource it is copied to
  const ids = (values: ReadonlyArray<string>, flag: string): ReadonlyArray<string> | undefined => {
    const bad = values.filter((id) => !Ids.isVegaId(id))
    for (const id of bad) c.problems.push(`${flag}: expected a 64-character hex id, got ${JSON.stringify(id)}`)
    return bad.length === 0 ? values : undefined
  }
  const parties = flags.parties === undefined ? undefined : ids(flags.parties, "--party")
  if (parties !== undefined) {
    for (const resource of partyFiltered) source.set(["watch", resource, "parties"], parties, "--party")
  }
  const markets = flags.markets === undefined ? undefined : ids(flags.markets, "--market")
  if (markets !== undefined) {
    for (const resource of marketFiltered) source.set(["watch", resource, "markets"], markets, "--market")
  }
  if (flags.only !== undefined) {
    const only = flags.only
    const unknown = only.filter((name) => !(resourceNames as ReadonlyArray<string>).includes(name))
    for (const name of unknown) {
      c.problems.push(`--only: unknown resource ${JSON.stringify(name)}, expected one of ${resourceNames.join(", ")}`)
    }
    if (unknown.length === 0) {
      for (const resource of resourceNames)
        source.set(["watch", resource, "enabled"], only.includes(resource), "--only")
    }
  }
  if (flags.seed !== undefined) source.set(["simulator", "seed"], flags.seed, "--seed")
  if (flags.blockInterval !== undefined) {
    source.set(["simulator", "blockInterval"], flags.blockInterval, "--block-interval")
  }
  return source
}

/**
 * The configuration the sources make together, or every problem with them. Unknown settings are
 * problems too: a misspelt key would otherwise be silently ignored.
 */
export const resolveConfig = (input: ConfigInput): Effect.Effect<WatcherConfig, ConfigProblem> =>
  Effect.suspend(() => {
    const c: Collector = { problems: [], origins: new Map() }
    if (input.file !== undefined && !isRecord(input.file)) {
      c.problems.push(`${input.fileName ?? "configuration file"}: expected a JSON object`)
    }
    const file = isRecord(input.file) ? input.file : {}
    const merged = merge(merge(file, fromEnvironment(c, input.env).values), fromFlags(c, input.flags).values)

    const sinks = merged["sinks"]
    const webhook = isRecord(sinks) ? sinks["webhook"] : undefined
    if (c.origins.has("sinks.webhook.headers.authorization") && !(isRecord(webhook) && webhook["url"] !== undefined)) {
      c.problems.push(
        `${env.webhookToken}: set, but no webhook is configured (--webhook, ${env.webhookUrl} or sinks.webhook.url)`
      )
    }

    const decoded = Schema.decodeUnknownEither(WatcherConfig)(merged, { errors: "all", onExcessProperty: "error" })
    if (Either.isLeft(decoded)) {
      const secrets = secretsIn(merged)
      for (const issue of mostSpecific(ParseResult.ArrayFormatter.formatErrorSync(decoded.left))) {
        c.problems.push(scrub(describeIssue(issue, c.origins), secrets))
      }
    }
    return c.problems.length === 0 && Either.isRight(decoded)
      ? Effect.succeed(decoded.right)
      : Effect.fail(new ConfigProblem({ problems: Array.from(new Set(c.problems)) }))
  })

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

const repeatedText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.repeated, Options.withDescription(description))

const optionalText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.withDescription(description), Options.optional)

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

const options = {
  config: Options.file("config").pipe(
    Options.withPseudoName("file.json"),
    Options.withDescription("JSON configuration file (shaped like the --check output)"),
    Options.optional
  ),
  nodes: repeatedText("node", "url", `data-node URL, repeatable (env ${env.nodes}, comma-separated)`),
  database: optionalText(
    "database",
    "path|url",
    `SQLite file, or postgres:// URL shared by several watchers, holding state and outbox (env ${env.database})`
  ),
  lease: optionalText(
    "lease",
    "duration",
    `how long a watcher's hold on a slice of the work lasts unrenewed, e.g. 15s (env ${env.lease})`
  ),
  interval: optionalText("interval", "duration", `time between polls, e.g. 2s or 500ms (env ${env.interval})`),
  port: Options.integer("port").pipe(
    Options.withDescription(`operations endpoint port, 0 disables it (env ${env.port})`),
    Options.optional
  ),
  host: optionalText("host", "host", "operations endpoint address"),
  stdout: stdoutFlag,
  console: Options.boolean("console").pipe(Options.withDescription("write a readable line per event on stdout")),
  file: optionalText("file", "path", `append events as JSON Lines to this file (env ${env.file})`),
  webhook: optionalText(
    "webhook",
    "url",
    `POST events to this URL (env ${env.webhookUrl}; ${env.webhookToken} adds a bearer token)`
  ),
  nats: repeatedText(
    "nats",
    "url",
    `publish events to NATS JetStream at this server, repeatable (env ${env.nats}, comma-separated)`
  ),
  parties: repeatedText("party", "id", "watch only this party, repeatable (every resource filtered by party)"),
  markets: repeatedText("market", "id", "watch only this market, repeatable (every resource filtered by market)"),
  only: Options.choice("only", resourceNames).pipe(
    Options.repeated,
    Options.withDescription("watch only this resource, repeatable")
  ),
  seed: Options.integer("seed").pipe(
    Options.withDescription("seed of the simulated network watched when no node is given"),
    Options.optional
  ),
  blockInterval: optionalText("block-interval", "duration", "time between simulated blocks, e.g. 1s"),
  initialEvents: Options.boolean("initial-events").pipe(
    Options.withDescription("on the first sync of an empty state, report every row found (default: only record them)")
  ),
  once: Options.boolean("once").pipe(Options.withDescription("run one cycle, deliver its events, and exit")),
  check: Options.boolean("check").pipe(
    Options.withDescription("validate the configuration, print it resolved (secrets redacted), and exit")
  )
}

type Parsed = { readonly [K in keyof typeof options]: (typeof options)[K] extends Options.Options<infer A> ? A : never }

const nonEmpty = (values: ReadonlyArray<string>): ReadonlyArray<string> | undefined =>
  values.length === 0 ? undefined : values

/** The parsed command line as `resolveConfig` flags. */
export const toFlags = (parsed: Parsed): Flags => ({
  nodes: nonEmpty(parsed.nodes),
  database: Option.getOrUndefined(parsed.database),
  interval: Option.getOrUndefined(parsed.interval),
  port: Option.getOrUndefined(parsed.port),
  host: Option.getOrUndefined(parsed.host),
  stdout: Option.getOrUndefined(parsed.stdout),
  console: parsed.console ? true : undefined,
  initialEvents: parsed.initialEvents ? true : undefined,
  file: Option.getOrUndefined(parsed.file),
  webhook: Option.getOrUndefined(parsed.webhook),
  nats: nonEmpty(parsed.nats),
  lease: Option.getOrUndefined(parsed.lease),
  parties: nonEmpty(parsed.parties),
  markets: nonEmpty(parsed.markets),
  only: nonEmpty(parsed.only),
  seed: Option.getOrUndefined(parsed.seed),
  blockInterval: Option.getOrUndefined(parsed.blockInterval)
})

export const command = Command.make("vega-watcher", options, (parsed) =>
  Effect.gen(function* () {
    const fileName = Option.getOrUndefined(parsed.config)
    const file = fileName === undefined ? undefined : yield* loadConfigFile(fileName)
    const config = yield* resolveConfig({ file, fileName, env: process.env, flags: toFlags(parsed) })
    if (parsed.check) return yield* Console.log(renderConfig(config))
    // loaded only to run: checking a configuration does not need the watcher
    const { run } = yield* Effect.promise(() => import("./Watcher.js"))
    yield* run(config, { once: parsed.once })
  })
).pipe(
  Command.withDescription(
    "Watches a Vega data node (or a simulated one) and reports every change in positions, stake, liquidity, " +
      "signer bundles, profiles, rewards and referrals."
  )
)
