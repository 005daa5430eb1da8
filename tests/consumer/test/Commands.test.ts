/**
 * The commands (`vega-sim`, `vega-watcher`, `vega-reward-report`) as a user without a clone runs
 * them: `npx <package>` straight from the registry, with no project. `--help`, then `--version`
 * (the package's version), then a first run against the simulated network each starts when no
 * node is given. The install (the first npx, native builds included) prints no warnings of ours.
 * Prints the install and first-run times.
 */
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import type { Packed } from "../src/Pack.js"
import * as Project from "../src/Project.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>
const registry = inject("registry")
const scratch = inject("scratch")

// npx keeps what it installed by name and version in its cache, and the version is the same on
// every run: a cache of this run's own
const npx = (name: string, args: ReadonlyArray<string>) => ["npx", "-y", name, ...args] as const
const env = { npm_config_cache: join(scratch, Project.NPX_CACHE) }

/** A first run of each command: bounded, against the simulator it starts itself. */
const firstRuns: Record<string, (project: Project.Project, name: string) => Promise<string>> = {
  "@vega-effect/simulator": async (project, name) => {
    const command = npx(name, ["--port", "0"])
    const { match, stop } = await Project.startUntil(project, command, /node-1 (http:\S+)/, { env })
    try {
      const response = await fetch(`${match[1]}/blockchain/height`)
      expect(response.status).toBe(200)
      return `${match[0]}, /blockchain/height ${JSON.stringify(await response.json())}`
    } finally {
      await stop()
    }
  },
  // one cycle, reporting what it finds as events (JSON Lines on stdout); --port 0: any free port for /metrics
  "@vega-effect/watcher": (project, name) =>
    Project.exec(project, npx(name, ["--once", "--initial-events", "--port", "0"]), { env }),
  // with the per-epoch payouts: they are added up on the thread the package ships beside the command
  "@vega-effect/reward-report": (project, name) => Project.exec(project, npx(name, ["--top", "3", "--epochs"]), { env })
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const commands = packed.filter((p) => p.manifest.bin !== undefined)

describe.each(commands.map((p) => [p.manifest.name, p] as const))("%s", (name, p) => {
  it("npx from the registry, no project: installs without warnings, --help, --version, a first run", async () => {
    const empty = Project.create(join(scratch, `npx-${name.split("/")[1]}`), "esm", registry)
    let started = performance.now()
    const help = await Project.execWithWarnings(empty, npx(name, ["--help"]), { env })
    console.log(`npx ${name} --help, installing it: ${seconds(started)}`)
    expect(help.warnings).toEqual([])
    expect(help.stdout).toMatch(/USAGE/)
    expect((await Project.exec(empty, npx(name, ["--version"]), { env })).trim()).toContain(p.manifest.version)
    const firstRun = firstRuns[name]
    if (firstRun === undefined) expect.fail(`no first run defined for ${name}`)
    started = performance.now()
    const output = await firstRun(empty, name)
    console.log(`${name} first run: ${seconds(started)}\n${output.split("\n").slice(0, 2).join("\n").slice(0, 400)}`)
    expect(output.trim()).not.toBe("")
  })
})
