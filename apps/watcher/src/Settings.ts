/**
 * Settings a command line can give, each falling back to an environment variable where it has one
 * (`Options.withFallbackConfig`, read through the current `ConfigProvider`): a flag wins over its
 * variable. Values come out as the source wrote them, with that source, and are decoded later with
 * the rest of the configuration (see `ResolveConfig.ts`): a bad value is then reported with the
 * setting's path and the flag or variable that gave it, together with every other problem, instead
 * of stopping the command line at the first one.
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Option from "effect/Option"

/** A value as a source gave it, and that source. */
export interface Sourced<A> {
  readonly value: A
  /** The flag (`--interval`), environment variable (`VEGA_WATCHER_INTERVAL`) or file that gave it. */
  readonly origin: string
}

/**
 * The prefix of the data-node client's variables, `DataNodeClient.ENV_PREFIX` of `@vega-effect/http`
 * written out: the command line's help says them without loading the client (`cli.test.ts`
 * checks the two agree).
 */
export const DATANODE_PREFIX = "VEGA_DATANODE_"

/** The environment variables of the watcher's settings. */
export const env = {
  nodes: `${DATANODE_PREFIX}URLS`,
  database: "VEGA_WATCHER_DATABASE",
  interval: "VEGA_WATCHER_INTERVAL",
  mode: "VEGA_WATCHER_MODE",
  reconcileEvery: "VEGA_WATCHER_RECONCILE_EVERY",
  reconcileBudget: "VEGA_WATCHER_RECONCILE_BUDGET",
  lease: "VEGA_WATCHER_LEASE",
  port: "VEGA_WATCHER_PORT",
  file: "VEGA_WATCHER_FILE",
  webhookUrl: "VEGA_WATCHER_WEBHOOK_URL",
  webhookToken: "VEGA_WATCHER_WEBHOOK_TOKEN",
  nats: "VEGA_WATCHER_NATS"
} as const

/** "a, b,,c" as ["a", "b", "c"]. */
const commaList = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

/** An environment variable's text, trimmed; unset or blank is missing. */
export const variable = (name: string): Config.Config<Sourced<string>> =>
  Config.mapOrFail(Config.string(name), (text) =>
    text.trim() === ""
      ? Either.left(ConfigError.MissingData([name], `${name} is blank`))
      : Either.right({ value: text.trim(), origin: name })
  )

/** A comma-separated list in an environment variable, blanks left out. */
export const variableList = (name: string): Config.Config<Sourced<ReadonlyArray<string>>> =>
  Config.map(variable(name), ({ origin, value }) => ({ value: commaList(value), origin }))

const fromFlag =
  (name: string) =>
  <A>(value: A): Sourced<A> => ({ value, origin: `--${name}` })

/** The option, else the variable (when there is one), else none. */
const withVariable = <A, B>(
  option: Options.Options<Sourced<A>>,
  fallback: Config.Config<Sourced<B>> | undefined
): Options.Options<Option.Option<Sourced<A | B>>> =>
  (fallback === undefined ? option : Options.withFallbackConfig(option, fallback)).pipe(Options.optional)

export interface Described {
  readonly pseudo: string
  readonly description: string
  /** The variable it falls back to. */
  readonly variable?: string
}

/** One `--name value` flag of `kind`, else its variable (read as text: it is checked with the rest). */
const single =
  <A>(kind: (name: string) => Options.Options<A>) =>
  (name: string, described: Described): Options.Options<Option.Option<Sourced<A | string>>> =>
    withVariable(
      kind(name).pipe(
        Options.withPseudoName(described.pseudo),
        Options.withDescription(described.description),
        Options.map(fromFlag(name))
      ),
      described.variable === undefined ? undefined : variable(described.variable)
    )

/** `--name value`, else its variable. */
export const text: (name: string, described: Described) => Options.Options<Option.Option<Sourced<string>>> = single(
  (name) => Options.text(name)
)

/** `--name n`, else its variable. */
export const integer = single((name) => Options.integer(name))

/** `--name value`, repeatable, else its variable (comma-separated). */
export const list = (
  name: string,
  described: Described
): Options.Options<Option.Option<Sourced<ReadonlyArray<string>>>> =>
  withVariable(
    Options.text(name).pipe(
      Options.withPseudoName(described.pseudo),
      Options.withDescription(described.description),
      Options.repeated,
      // none given is a missing value, so that the variable is read
      Options.mapEffect((values) =>
        values.length === 0
          ? Effect.fail(ValidationError.missingValue(HelpDoc.p(`--${name} is not given`)))
          : Effect.succeed(fromFlag(name)<ReadonlyArray<string>>(values))
      )
    ),
    described.variable === undefined ? undefined : variableList(described.variable)
  )
