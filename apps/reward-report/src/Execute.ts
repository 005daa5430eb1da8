/**
 * What the command does once its options are parsed: the arguments checked into {@link RunOptions}
 * (every mistake named at once), the report read and written. Loaded only once the command runs
 * (see `cli.ts`).
 */
import { DurationText, Ids, Integer, Reward } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Arguments, Parsed } from "./cli.js"
import { CrossCheckFailed } from "./CrossCheckFailed.js"
import * as DataNode from "./DataNode.js"
import { formatOfPath, formats } from "./Format.js"
import { Progress, silent } from "./Progress.js"
import { type Outcome, run, type RunOptions } from "./Run.js"
import { UsageProblem } from "./UsageProblem.js"

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

export const execute = (parsed: Parsed) =>
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
