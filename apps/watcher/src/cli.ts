/**
 * The `vega-watcher` command: its options, described from what `ResourceCatalog.ts` and
 * `Settings.ts` say, and a handler that loads the rest (`Configure.ts`) only once the command runs:
 * `--help` and usage errors load neither the schemas nor the client nor the watcher.
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
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type CatalogName, entries, filteredBy, names } from "./ResourceCatalog.js"
import * as Settings from "./Settings.js"
import { env } from "./Settings.js"

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
  // optional as well as repeated, so that the usage line shows it in brackets
  only: Options.choice("only", names).pipe(
    Options.repeated,
    Options.optional,
    Options.map(Option.getOrElse((): ReadonlyArray<CatalogName> => [])),
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

export const command = Command.make("vega-watcher", options, (parsed) =>
  // loaded only to run: help and usage errors need none of it
  Effect.flatMap(
    Effect.promise(() => import("./Configure.js")),
    ({ execute }) => execute(parsed)
  )
).pipe(
  Command.withDescription(
    "Watches a Vega data node (or a simulated one) and reports every change in " +
      `${listed(entries.map((entry) => entry.label))}. ` +
      `The data-node client also reads ${Settings.DATANODE_PREFIX}TIMEOUT and ${Settings.DATANODE_PREFIX}RETRIES.`
  )
)
