#!/usr/bin/env node
/**
 * `vega-sim`: serves a simulated Vega network over HTTP until SIGINT or SIGTERM.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import { command } from "./internal/cli.js"
import { packageVersion } from "./internal/version.js"

const cli = Command.run(command, {
  name: "vega-sim",
  version: packageVersion(import.meta.url, "@vega-effect/simulator")
})

cli(process.argv).pipe(Effect.scoped, Effect.provide(NodeContext.layer), NodeRuntime.runMain)
