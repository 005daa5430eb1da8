/**
 * The `vega-watcher` command (started by `bin.ts`): runs until SIGINT or SIGTERM (or one cycle with
 * `--once`).
 *
 * Exit codes: 0 done (or stopped by a signal), 1 failure, 2 bad input: a usage error (an unknown
 * flag, a flag without its value...), an invalid configuration (from flags, the environment or the
 * file, as `vega-reward-report` exits 2 for bad arguments), or a state, or nodes, of another
 * network than the command line's (see `Network.ts`).
 */
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
import type { ConfigProblem } from "./ConfigFile.js"
import { VERSION } from "./internal/version.js"

const app = { name: "vega-watcher", version: VERSION }
const cli = Command.run(command, app)

const isUsageError = (cause: Cause.Cause<unknown>): boolean =>
  Option.exists(Cause.failureOption(cause), ValidationError.isValidationError)

/** The errors of a state or nodes of the wrong network, tagged by `Network.ts` and `ChainIds.ts`. */
const WRONG_NETWORK: ReadonlySet<unknown> = new Set(["OtherNetwork", "SharedReset", "NodesDisagree"])

const isWrongNetwork = (cause: Cause.Cause<unknown>): boolean =>
  Option.exists(
    Cause.failureOption(cause),
    (error) => typeof error === "object" && error !== null && WRONG_NETWORK.has((error as { _tag?: unknown })._tag)
  )

/** A `ConfigProblem`, told by its tag: `ConfigFile.ts` is loaded only once the command runs. */
const isConfigProblem = (error: unknown): error is ConfigProblem =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ConfigProblem"

const isInvalidConfig = (cause: Cause.Cause<unknown>): boolean =>
  Option.exists(Cause.failureOption(cause), isConfigProblem)

/** A short message on stderr: the command line library has already printed its own usage errors. */
const report = (cause: Cause.Cause<unknown>): Effect.Effect<void> => {
  if (Cause.isInterruptedOnly(cause) || isUsageError(cause)) return Effect.void
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isConfigProblem(error)) {
      return Console.error(`vega-watcher: invalid configuration\n${error.problems.map((p) => `  ${p}`).join("\n")}`)
    }
    if (error instanceof Error && error.message !== "") return Console.error(`vega-watcher: ${error.message}`)
  }
  return Console.error(`vega-watcher: failed\n${Cause.pretty(cause)}`)
}

const exitCode = (exit: Exit.Exit<unknown, unknown>): number =>
  Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)
    ? 0
    : isUsageError(exit.cause) || isInvalidConfig(exit.cause) || isWrongNetwork(exit.cause)
      ? 2
      : 1

/** Logs go to stderr: stdout is the stdout sink's, one JSON event per line. */
const logToStderr = Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))

/** `VEGA_WATCHER_LOG_LEVEL` (`debug`, `info`, `warning`, `error`), default `info`. */
const LOG_LEVELS: Record<string, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error
}
const logLevel = Logger.minimumLogLevel(
  LOG_LEVELS[process.env.VEGA_WATCHER_LOG_LEVEL?.toLowerCase() ?? ""] ?? LogLevel.Info
)

// help as @effect/cli lays it out, but plain off a terminal and without its filler (see Help.ts)
const program = Help.requested(process.argv.slice(2)) ? Help.print(command, app) : cli(process.argv)

program.pipe(Effect.tapErrorCause(report), Effect.provide([NodeContext.layer, logToStderr, logLevel]), (program) =>
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => onExit(exitCode(exit))
  })
)
