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
import * as Help from "./internal/help.js"
import { packageVersion } from "./internal/version.js"

const app = { name: "vega-sim", version: packageVersion(import.meta.url, "@vega-effect/simulator") }
const cli = Command.run(command, app)

// help as @effect/cli lays it out, but plain off a terminal and without its filler (see help.ts)
const program = Help.requested(process.argv.slice(2)) ? Help.print(command, app) : cli(process.argv)

program.pipe(Effect.scoped, Effect.provide(NodeContext.layer), NodeRuntime.runMain)
