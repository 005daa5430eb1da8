/**
 * The `vega-reward-report` command: arguments to {@link RunOptions}, every mistake named at once.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import { DurationText, Ids, Integer, Reward } from "@vega-effect/schema"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as DataNode from "./DataNode.js"
import { type Format, formatOfPath, formats } from "./Format.js"
import { Progress, silent } from "./Progress.js"
import * as RequestEstimate from "./RequestEstimate.js"
import { type SortOrder, sortOrders, type View, views } from "./Report.js"
import { type Outcome, run, type RunOptions } from "./Run.js"
import { UsageProblem } from "./UsageProblem.js"

/** The per-epoch rows did not add up to the summaries (the report, with the differences, was written). */
export class CrossCheckFailed extends Data.TaggedError("CrossCheckFailed")<{
  readonly mismatches: number
  readonly destination: string
}> {
  override get message(): string {
    return `cross-check failed: ${this.mismatches} party and asset totals differ from the sum of their per-epoch rows (listed in the report, ${this.destination})`
  }
}

export const env = { nodes: DataNode.URLS, maxRequests: RequestEstimate.ENV } as const

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

const symbol = /^[A-Za-z0-9._-]{1,32}$/
const uint = /^\d{1,20}$/
const rewardTypePattern = /^ACCOUNT_TYPE_[A-Z_]+$/
const knownRewardTypes: ReadonlyArray<string> = Reward.RewardType.names.filter((n) => n !== "ACCOUNT_TYPE_UNSPECIFIED")

const parseEpoch = (problems: Array<string>, flag: string, text: string | undefined): bigint | undefined => {
  if (text === undefined) return undefined
  if (uint.test(text.trim()) && BigInt(text.trim()) <= Integer.UINT64_MAX) return BigInt(text.trim())
  problems.push(`${flag} ${JSON.stringify(text)}: expected an epoch number (0 or more)`)
  return undefined
}

const parseTimeout = (problems: Array<string>, text: string | undefined): Duration.Duration | undefined => {
  if (text === undefined) return undefined
  const timeout = DurationText.parse(text)
  if (Option.isNone(timeout)) problems.push(`--timeout ${JSON.stringify(text)}: expected ${DurationText.EXPECTED}`)
  else if (Duration.lessThanOrEqualTo(timeout.value, Duration.zero)) {
    problems.push(`--timeout ${JSON.stringify(text)}: expected a duration greater than zero`)
  }
  return Option.getOrUndefined(timeout)
}

const parseMaxRequests = (problems: Array<string>, given: Arguments["maxRequests"]): number | undefined => {
  if (given === undefined) return undefined
  const text = given.text.trim()
  if (/^\d{1,15}$/.test(text) && Number(text) >= 1) return Number(text)
  problems.push(`${given.from} ${JSON.stringify(given.text)}: expected a number of requests, 1 or more`)
  return undefined
}

const isUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/**
 * The options of a run, or every problem with the arguments, and with the client's environment
 * variables (`VEGA_DATANODE_TIMEOUT`, `VEGA_DATANODE_RETRIES`).
 */
export const resolve = (args: Arguments): Effect.Effect<RunOptions, UsageProblem> =>
  Effect.gen(function* () {
    const problems: Array<string> = []
    for (const node of args.nodes) {
      if (!isUrl(node)) {
        problems.push(`${args.nodesFrom ?? "--node"} ${JSON.stringify(node)}: expected an http(s) URL of a data node`)
      }
    }
    for (const party of args.parties) {
      if (!Ids.isVegaId(party)) problems.push(`--party ${JSON.stringify(party)}: expected a 64-character hex party id`)
    }
    for (const asset of args.assets) {
      if (!Ids.isVegaId(asset) && !symbol.test(asset)) {
        problems.push(`--asset ${JSON.stringify(asset)}: expected a 64-character hex asset id or a symbol such as VEGA`)
      }
    }
    if (args.top !== undefined && args.top < 1) problems.push(`--top ${args.top}: expected 1 or more`)
    const fromEpoch = parseEpoch(problems, "--from-epoch", args.fromEpoch)
    const toEpoch = parseEpoch(problems, "--to-epoch", args.toEpoch)
    if (fromEpoch !== undefined && toEpoch !== undefined && fromEpoch > toEpoch) {
      problems.push(`--from-epoch ${fromEpoch} is after --to-epoch ${toEpoch}`)
    }
    for (const type of args.rewardTypes) {
      if (!rewardTypePattern.test(type)) {
        problems.push(
          `--reward-type ${JSON.stringify(type)}: expected a reward account type such as ${knownRewardTypes.slice(0, 2).join(" or ")} (known: ${knownRewardTypes.join(", ")})`
        )
      }
    }
    const timeout = parseTimeout(problems, args.timeout)
    const maxRequests = parseMaxRequests(problems, args.maxRequests)
    problems.push(...(yield* DataNode.check(timeout)))
    if (args.output !== undefined && args.output.trim() === "") problems.push("--output: expected a file name")
    const extension = args.output === undefined ? undefined : /\.([^./\\]+)$/.exec(args.output)?.[1]
    const implied = args.output === undefined ? undefined : formatOfPath(args.output)
    if (args.format === undefined && extension !== undefined && implied === undefined) {
      problems.push(
        `--output ${JSON.stringify(args.output)}: the extension .${extension} says no format; give --format (${formats.join(", ")})`
      )
    }
    const format = args.format ?? implied ?? "table"
    if (problems.length > 0) return yield* new UsageProblem({ problems })
    return {
      nodes: args.nodes,
      seed: args.seed,
      view: args.view,
      filters: {
        parties: [...new Set(args.parties.map((p) => p.toLowerCase()))],
        assets: [...new Set(args.assets.map((a) => (Ids.isVegaId(a) ? a.toLowerCase() : a)))],
        fromEpoch,
        toEpoch,
        rewardTypes: [...new Set(args.rewardTypes)],
        top: args.top,
        sort: args.sort
      },
      format,
      output: args.output,
      epochs: args.epochs,
      timeout,
      maxRequests
    } satisfies RunOptions
  })

const repeated = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.repeated, Options.withDescription(description))

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

const options = {
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
      `per request, e.g. 30s, 1.5m or 500ms (default: ${DataNode.PREFIX}TIMEOUT, else ${Duration.toSeconds(DataNode.DEFAULT_TIMEOUT)}s)`
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

export const command = Command.make("vega-reward-report", options, (parsed) =>
  Effect.gen(function* () {
    const runOptions = yield* resolve({
      nodes: parsed.nodes.nodes,
      nodesFrom: parsed.nodes.from,
      parties: parsed.parties,
      assets: parsed.assets,
      view: parsed.view,
      sort: parsed.sort,
      top: Option.getOrUndefined(parsed.top),
      format: Option.getOrUndefined(parsed.format),
      output: Option.getOrUndefined(parsed.output),
      epochs: parsed.epochs,
      fromEpoch: Option.getOrUndefined(parsed.fromEpoch),
      toEpoch: Option.getOrUndefined(parsed.toEpoch),
      rewardTypes: parsed.rewardTypes,
      seed: parsed.seed,
      timeout: Option.getOrUndefined(parsed.timeout),
      maxRequests: Option.getOrUndefined(parsed.maxRequests)
    })
    const outcome: Outcome = parsed.noProgress
      ? yield* run(runOptions).pipe(Effect.provideService(Progress, silent))
      : yield* run(runOptions)
    if (outcome.destination !== "stdout") {
      const { provenance } = outcome.report
      yield* Effect.sync(() =>
        process.stderr.write(
          `vega-reward-report: wrote ${outcome.destination} (${runOptions.format}) from ${provenance.nodes.join(", ")} at block ${provenance.height}\n`
        )
      )
    }
    const check = outcome.crossCheck
    if (check !== undefined && check.status === "failed") {
      return yield* new CrossCheckFailed({ mismatches: check.mismatches.length, destination: outcome.destination })
    }
  })
).pipe(
  Command.withDescription(
    "Reports the rewards paid on a Vega network: exact totals per party and asset from a data node " +
      "(/api/v2/rewards/summaries, scaled with each asset's decimals), ranked, with shares, aliases from profiles, " +
      "and optionally the per-epoch rows (/api/v2/rewards), cross-checked against the totals. " +
      `The client reads ${DataNode.PREFIX}URLS, ${DataNode.PREFIX}TIMEOUT and ${DataNode.PREFIX}RETRIES. ` +
      "Exit codes: 0 done, 1 read or write failure (nothing written), 2 bad arguments, 3 cross-check failed (report written), " +
      "4 a read would need more requests than --max-requests (nothing written)."
  )
)
