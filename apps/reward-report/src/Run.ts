/**
 * One report from start to finish: connect (to the given nodes, or to a simulator started in this
 * process), read, build, render and write. The command line (`cli.ts`) only turns arguments into
 * {@link RunOptions} and outcomes into exit codes.
 */
import { DataNodeClient, FailureText } from "@vega-effect/http"
import { Ids } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { build } from "./Build.js"
import * as DataNode from "./DataNode.js"
import { chunks, type Format, needsEpochRows } from "./Format.js"
import * as Html from "./formats/Html.js"
import { templateFor } from "./formats/templates.js"
import { writeFileAtomically, writeStream, type WriteError } from "./Output.js"
import type { Progress } from "./Progress.js"
import { read } from "./Read.js"
import { ReadError } from "./ReadError.js"
import type { TooManyRequests } from "./RequestEstimate.js"
import type { RowKeeping } from "./RowStore.js"
import { UsageProblem } from "./UsageProblem.js"
import type { CrossCheck, Filters, Report, View } from "./Report.js"
import { VERSION } from "./internal/version.js"

/** The program named in every report's provenance, with the version `--version` prints. */
export const GENERATOR = `vega-effect reward-report ${VERSION}`

export interface RunOptions {
  /** Data-node base URLs; empty = a simulator started in this process. */
  readonly nodes: ReadonlyArray<string>
  /** Seed of that simulator. */
  readonly seed: number
  readonly view: View
  /** Asset filters may be symbols here (`VEGA`); they are resolved to ids before reading. */
  readonly filters: Filters
  readonly format: Format
  /** A file to write; undefined = stdout. */
  readonly output: string | undefined
  /** Read the per-epoch rows (and cross-check them) even when the view, format and filters do not need them. */
  readonly epochs: boolean
  /** Per request: `--timeout`, if given (else `VEGA_DATANODE_TIMEOUT`, else 60 s; see `DataNode.ts`). */
  readonly timeout: Duration.Duration | undefined
  /** `--max-requests` (else `VEGA_REPORT_MAX_REQUESTS`): a per-epoch read split party by party needing more is refused. */
  readonly maxRequests?: number | undefined
}

export interface Outcome {
  readonly report: Report
  /** Where it went: a file name, or `stdout`. */
  readonly destination: string
  readonly crossCheck: CrossCheck | undefined
}

/** Asset filters given as symbols become ids; an unknown or ambiguous symbol is a usage problem naming the known ones. */
const resolveAssets = (given: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (given.every((a) => Ids.isVegaId(a))) return given
    const client = yield* DataNodeClient.DataNodeClient
    const assets = yield* client.assets().pipe(
      Stream.runCollect,
      Effect.mapError(
        (error) => new ReadError({ reason: `reading assets failed: ${FailureText.ofError(error)}`, cause: error })
      )
    )
    const all = [...assets].map(({ node }) => node)
    return yield* Effect.forEach(given, (wanted) => {
      if (Ids.isVegaId(wanted)) return Effect.succeed(wanted)
      const matches = all.filter((a) => a.details.symbol.toLowerCase() === wanted.toLowerCase())
      if (matches.length === 1) return Effect.succeed(matches[0].id)
      const known = [...new Set(all.map((a) => a.details.symbol))].sort().join(", ")
      return Effect.fail(
        new UsageProblem({
          problems: [
            matches.length === 0
              ? `--asset ${wanted}: no asset has this symbol (known: ${known})`
              : `--asset ${wanted}: ${matches.length} assets have this symbol (${matches.map((a) => a.id).join(", ")}); give the id`
          ]
        })
      )
    })
  })

const writeReport = (report: Report, options: RunOptions): Effect.Effect<string, WriteError> => {
  const pieces = chunks(report, options.format)
  return options.output === undefined
    ? Effect.as(writeStream(process.stdout, pieces), "stdout")
    : Effect.as(writeFileAtomically(options.output, pieces), options.output)
}

/**
 * Which per-epoch rows the output lists: all of them (laid out by its template), only the first
 * (the HTML page of the epochs view), or none (then only their sums are kept, for the cross-check).
 */
export const rowKeeping = (view: View, format: Format): RowKeeping | undefined => {
  const template = templateFor(format, view)
  if (template !== undefined) return { template }
  return format === "html" && view === "epochs" ? { first: Html.epochRowLimit } : undefined
}

/** The report, read with a client already provided; its per-epoch rows can be read until the scope closes. */
export const makeReport = (
  options: RunOptions,
  describeNode: (url: string) => string = (url) => url
): Effect.Effect<
  Report,
  ReadError | TooManyRequests | UsageProblem,
  DataNodeClient.DataNodeClient | Progress | Scope.Scope
> =>
  Effect.gen(function* () {
    const assets = yield* resolveAssets(options.filters.assets)
    const filters: Filters = { ...options.filters, assets }
    const limited = filters.fromEpoch !== undefined || filters.toEpoch !== undefined || filters.rewardTypes.length > 0
    const wantRows = options.epochs || limited || options.view === "epochs" || needsEpochRows(options.format)
    const snapshot = yield* read({
      parties: filters.parties,
      assets,
      epochs: wantRows
        ? {
            fromEpoch: filters.fromEpoch,
            toEpoch: filters.toEpoch,
            rewardTypes: filters.rewardTypes,
            keep: rowKeeping(options.view, options.format)
          }
        : undefined,
      maxRequests: options.maxRequests
    })
    const now = yield* Clock.currentTimeMillis
    const report = build(
      { ...snapshot, provenance: { ...snapshot.provenance, nodes: snapshot.provenance.nodes.map(describeNode) } },
      { view: options.view, filters, generatedAt: new Date(now).toISOString(), generator: GENERATOR }
    )
    // tax imports list the rows by payout time: a node whose times cannot be ordered fails the read
    const unordered = needsEpochRows(options.format) ? report.epochs?.notInTimeOrder() : undefined
    if (unordered !== undefined) return yield* new ReadError({ reason: unordered })
    return report
  })

/** The data-node client over undici; `paced` = the node's rate limits kept (off for a simulator in this process). */
export const clientLayer = (urls: ReadonlyArray<string>, timeout: Duration.Duration | undefined, paced: boolean) =>
  DataNode.layer({ urls, timeout }, paced).pipe(
    // `resolve` has checked the variables already
    Layer.mapError((error) => new ReadError({ reason: `data-node client configuration: ${String(error)}` }))
  )

/** Reads from the nodes (or a simulator started here), writes the report, and says what came of it. */
export const run = (
  options: RunOptions
): Effect.Effect<Outcome, ReadError | TooManyRequests | UsageProblem | WriteError, Progress> =>
  Effect.scoped(
    Effect.gen(function* () {
      let report: Report
      if (options.nodes.length > 0) {
        report = yield* makeReport(options).pipe(Effect.provide(clientLayer(options.nodes, options.timeout, true)))
      } else {
        const sim = yield* Simulator.make({ seed: options.seed, blockInterval: "manual" }).pipe(
          Effect.mapError((error) => new ReadError({ reason: `cannot start the simulator: ${error.message}` }))
        )
        yield* Effect.logDebug(`no node given: reading a simulator started here at ${sim.url}`)
        const describe = (url: string) => `${url} (simulator in this process, seed ${options.seed})`
        report = yield* makeReport(options, describe).pipe(
          Effect.provide(clientLayer([sim.url], options.timeout, false))
        )
      }
      const destination = yield* writeReport(report, options)
      return { report, destination, crossCheck: report.crossCheck }
    })
  )
