#!/usr/bin/env node
// The `vega-sim` command. The package's bin is this committed file, not the build's entry, so that a
// fresh install of the workspace (nothing built yet) can link it: the published package runs its
// build, a workspace checkout without one runs the sources through tsx.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const built = new URL("../dist/esm/bin.js", import.meta.url)

if (existsSync(built)) {
  await import(built.href)
} else {
  const source = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
  const child = spawn(
    process.execPath,
    ["--conditions=@vega-effect/source", "--import", "tsx", source, ...process.argv.slice(2)],
    { stdio: "inherit" }
  )
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => {
    if (signal !== null) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
}
