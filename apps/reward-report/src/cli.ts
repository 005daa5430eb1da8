/**
 * The `vega-reward-report` command: its options, and a handler that loads the rest (`Execute.ts`:
 * the arguments checked, the report read and written) only once the command runs, so that `--help`
 * and usage errors load neither the schemas nor the client nor the formats.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { type Format, formats } from "./FormatNames.js"
import { type SortOrder, sortOrders, type View, views } from "./Report.js"
import * as Variables from "./Variables.js"

export const env = { nodes: `${Variables.DATANODE_PREFIX}URLS`, maxRequests: Variables.MAX_REQUESTS } as const

/** What the command line says, before checking. */
export interface Arguments {
  readonly nodes: ReadonlyArray<string>
  /** Where the nodes came from: `--node` (the default) or `VEGA_DATANODE_URLS`. */
  readonly nodesFrom?: string
  readonly parties: ReadonlyArray<string>
  readonly assets: ReadonlyArray<string>
  readonly view: View
  readonly sort: SortOrder
  readonly top: number | undefined
  readonly format: Format | undefined
  readonly output: string | undefined
  readonly epochs: boolean
  readonly fromEpoch: string | undefined
  readonly toEpoch: string | undefined
  readonly rewardTypes: ReadonlyArray<string>
  readonly seed: number
  /** `--timeout`, if given; else `VEGA_DATANODE_TIMEOUT`, else 60 s. */
  readonly timeout: string | undefined
  /** `--max-requests`, else `VEGA_REPORT_MAX_REQUESTS`; `from` names which, for problems. */
  readonly maxRequests?: { readonly text: string; readonly from: string } | undefined
}

/** A repeatable option, none given by default: optional as well, so that the usage line shows it in brackets. */
const repeated = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(
    Options.withPseudoName(pseudo),
    Options.repeated,
    Options.optional,
    Options.map(Option.getOrElse((): ReadonlyArray<string> => [])),
    Options.withDescription(description)
  )

/** "a, b,,c" as ["a", "b", "c"]. */
const commaList = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

/** The nodes of `VEGA_DATANODE_URLS`; unset or blank is missing. */
const nodesVariable = Config.mapOrFail(Config.string(env.nodes), (text) =>
  commaList(text).length === 0
    ? Either.left(ConfigError.MissingData([env.nodes], `${env.nodes} is blank`))
    : Either.right({ nodes: commaList(text), from: env.nodes })
)

/** `--node`, repeatable, else `VEGA_DATANODE_URLS` (`Options.withFallbackConfig`), else none. */
const nodesOption = repeated(
  "node",
  "url",
  `data-node URL, repeatable for failover (env ${env.nodes}, comma-separated); none: a simulator started here`
).pipe(
  // none given is a missing value, so that the variable is read
  Options.mapEffect((nodes) =>
    nodes.length === 0
      ? Effect.fail(ValidationError.missingValue(HelpDoc.p("--node is not given")))
      : Effect.succeed({ nodes: nodes as ReadonlyArray<string>, from: "--node" })
  ),
  Options.withFallbackConfig(nodesVariable),
  Options.withDefault({ nodes: [] as ReadonlyArray<string>, from: "--node" })
)

export const options = {
  nodes: nodesOption,
  parties: repeated("party", "id", "only this party (64 hex), repeatable; default every party"),
  assets: repeated(
    "asset",
    "id|symbol",
    "only this asset, by id or symbol (e.g. VEGA), repeatable; default every asset"
  ),
  view: Options.choice("view", views).pipe(
    Options.withDescription(
      "assets: each asset's parties ranked; parties: each party's assets; totals: one line per asset; epochs: the per-epoch rows"
    ),
    Options.withDefault("assets" as View)
  ),
  sort: Options.choice("sort", sortOrders).pipe(
    Options.withDescription("order within a group: amount (largest first), amount-asc, party (id) or alias"),
    Options.withDefault("amount" as SortOrder)
  ),
  top: Options.integer("top").pipe(
    Options.withPseudoName("n"),
    Options.withDescription("only the best n parties of each asset"),
    Options.optional
  ),
  format: Options.choice("format", formats).pipe(
    Options.withDescription(
      "table (terminal), csv (RFC 4180), json, markdown, html (page with charts), koinly or cointracking (tax-tool CSV of the per-epoch rows); default from the --output extension, else table"
    ),
    Options.optional
  ),
  output: Options.text("output").pipe(
    Options.withAlias("o"),
    Options.withPseudoName("file"),
    Options.withDescription("write the report to this file (whole or not at all); default stdout"),
    Options.optional
  ),
  epochs: Options.boolean("epochs").pipe(
    Options.withDescription(
      "also read the per-epoch rows and check that they add up to the totals (implied by --view epochs, koinly, cointracking and the epoch filters)"
    )
  ),
  fromEpoch: Options.text("from-epoch").pipe(
    Options.withPseudoName("epoch"),
    Options.withDescription("per-epoch rows from this epoch (inclusive); the totals are then the sums of those rows"),
    Options.optional
  ),
  toEpoch: Options.text("to-epoch").pipe(
    Options.withPseudoName("epoch"),
    Options.withDescription("per-epoch rows up to this epoch (inclusive)"),
    Options.optional
  ),
  rewardTypes: repeated(
    "reward-type",
    "type",
    "only per-epoch rows of this type, e.g. ACCOUNT_TYPE_GLOBAL_REWARD, repeatable"
  ),
  seed: Options.integer("seed").pipe(
    Options.withDescription("seed of the simulated network read when no node is given"),
    Options.withDefault(1)
  ),
  timeout: Options.text("timeout").pipe(
    Options.withPseudoName("duration"),
    Options.withDescription(
      `per request, e.g. 30s, 1.5m or 500ms (default: ${Variables.DATANODE_PREFIX}TIMEOUT, else ${Duration.toSeconds(Variables.DEFAULT_TIMEOUT)}s)`
    ),
    Options.optional
  ),
  maxRequests: Options.text("max-requests").pipe(
    Options.withPseudoName("n"),
    Options.withDescription(
      `refuse (exit 4, nothing written) a per-epoch read split party by party that needs more than n requests (env ${env.maxRequests})`
    ),
    Options.map((text) => ({ text, from: "--max-requests" })),
    Options.withFallbackConfig(Config.map(Config.string(env.maxRequests), (text) => ({ text, from: env.maxRequests }))),
    Options.optional
  ),
  noProgress: Options.boolean("no-progress").pipe(
    Options.withDescription("no progress bar (it is only drawn when stderr is a terminal anyway)")
  )
}

/** The options as parsed. */
export type Parsed = {
  readonly [K in keyof typeof options]: (typeof options)[K] extends Options.Options<infer A> ? A : never
}

export const command = Command.make("vega-reward-report", options, (parsed) =>
  // loaded only to run: help and usage errors need none of it
  Effect.flatMap(
    Effect.promise(() => import("./Execute.js")),
    ({ execute }) => execute(parsed)
  )
).pipe(
  Command.withDescription(
    "Reports the rewards paid on a Vega network: exact totals per party and asset from a data node " +
      "(/api/v2/rewards/summaries, scaled with each asset's decimals), ranked, with shares, aliases from profiles, " +
      "and optionally the per-epoch rows (/api/v2/rewards), cross-checked against the totals. " +
      `The client reads ${env.nodes}, ${Variables.DATANODE_PREFIX}TIMEOUT and ${Variables.DATANODE_PREFIX}RETRIES. ` +
      "Exit codes: 0 done, 1 read or write failure (nothing written), 2 bad arguments, 3 cross-check failed (report written), " +
      "4 a read would need more requests than --max-requests (nothing written)."
  )
)
