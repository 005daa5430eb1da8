#!/usr/bin/env node
/**
 * `vega-reward-report`: writes one report and exits.
 *
 * Exit codes: 0 done, 1 a read or write failed or the data was partial (nothing written), 2 bad
 * arguments (an unknown asset symbol included), 3 the per-epoch rows did not add up to the totals (the report, listing the
 * differences, was written), 4 a read would need more requests than `--max-requests` allows (refused before it
 * started, nothing written).
 */
// first: it sets how eagerly garbage is collected before anything is allocated
import "./internal/heap.js"
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Help from "@vega-effect/command-line/Help"
import { command } from "./cli.js"
import { CrossCheckFailed } from "./CrossCheckFailed.js"
import * as Progress from "./Progress.js"
import { ReadError } from "./ReadError.js"
import type { TooManyRequests } from "./RequestEstimate.js"
import { UsageProblem } from "./UsageProblem.js"
import { VERSION } from "./internal/version.js"

const app = { name: "vega-reward-report", version: VERSION }
const cli = Command.run(command, app)

const failureOf = (cause: Cause.Cause<unknown>): unknown => Option.getOrUndefined(Cause.failureOption(cause))

/** The command line library prints its own usage errors; everything else gets one clear message. */
const report = (cause: Cause.Cause<unknown>): Effect.Effect<void> => {
  const error = failureOf(cause)
  if (Cause.isInterruptedOnly(cause) || ValidationError.isValidationError(error)) return Effect.void
  if (error instanceof UsageProblem) {
    return Console.error(`vega-reward-report: bad arguments\n${error.problems.map((p) => `  ${p}`).join("\n")}`)
  }
  // one line; the whole cause, stack traces included, only at debug level
  if (error instanceof Error && error.message !== "") {
    return Effect.zipRight(
      Console.error(`vega-reward-report: ${error.message}`),
      Effect.logDebug("the whole cause", error instanceof ReadError && error.cause !== undefined ? error.cause : cause)
    )
  }
  return Console.error(`vega-reward-report: failed\n${Cause.pretty(cause)}`)
}

/** A `TooManyRequests`, told by its tag: `RequestEstimate.ts` is loaded only once the command runs. */
const isTooManyRequests = (error: unknown): error is TooManyRequests =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "TooManyRequests"

const exitCode = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  if (Cause.isInterruptedOnly(exit.cause)) return 130
  const error = failureOf(exit.cause)
  if (ValidationError.isValidationError(error) || error instanceof UsageProblem) return 2
  if (error instanceof CrossCheckFailed) return 3
  if (isTooManyRequests(error)) return 4
  return 1
}

/** Logs go to stderr: stdout may be the report. */
const logToStderr = Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))

/** `VEGA_REPORT_LOG_LEVEL` (`debug`, `info`, `warning`, `error`), default `warning`. */
const LOG_LEVELS: Record<string, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error
}
const logLevel = LOG_LEVELS[process.env.VEGA_REPORT_LOG_LEVEL?.toLowerCase() ?? ""] ?? LogLevel.Warning

// help as @effect/cli lays it out, but plain off a terminal and without its filler (see Help.ts)
const program = Help.requested(process.argv.slice(2)) ? Help.print(command, app) : cli(process.argv)

program.pipe(
  Effect.tapErrorCause(report),
  Logger.withMinimumLogLevel(logLevel),
  Effect.provide([NodeContext.layer, logToStderr, Progress.layerStderr]),
  (program) =>
    NodeRuntime.runMain(program, {
      disableErrorReporting: true,
      disablePrettyLogger: true,
      teardown: (exit, onExit) => onExit(exitCode(exit))
    })
)
