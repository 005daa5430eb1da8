/**
 * The commands (`vega-sim`, `vega-watcher`, `vega-reward-report`) as a user without a clone gets
 * them: `npx <package> --help` straight from the registry, then installed with npm into a fresh
 * project, `--version` equal to the package's version, and a first run against the simulated
 * network each starts when no node is given. Prints the install and first-run times.
 */
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import type { Packed } from "../src/Pack.js"
import * as Project from "../src/Project.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>
const registry = inject("registry")
const scratch = inject("scratch")

const binsOf = (p: Packed): ReadonlyArray<string> =>
  typeof p.manifest.bin === "string" ? [p.manifest.name.split("/")[1]] : Object.keys(p.manifest.bin ?? {})

/** A first run of each command: bounded, against the simulator it starts itself. */
const firstRuns: Record<string, (project: Project.Project) => Promise<string>> = {
  "vega-sim": async (project) => {
    const { match, stop } = await Project.startUntil(project, ["npx", "vega-sim", "--port", "0"], /node-1 (http:\S+)/)
    try {
      const response = await fetch(`${match[1]}/blockchain/height`)
      expect(response.status).toBe(200)
      return `${match[0]}, /blockchain/height ${JSON.stringify(await response.json())}`
    } finally {
      await stop()
    }
  },
  "vega-watcher": (project) => Project.exec(project, ["npx", "vega-watcher", "--once"]),
  "vega-reward-report": (project) => Project.exec(project, ["npx", "vega-reward-report", "--top", "3"])
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const commands = packed.filter((p) => binsOf(p).length > 0)

describe.each(commands.map((p) => [p.manifest.name, p] as const))("%s", (name, p) => {
  it("npx runs it from the registry with no project: --help", async () => {
    const empty = Project.create(join(scratch, `npx-${binsOf(p)[0]}`), "esm", registry)
    const started = performance.now()
    // npx keeps what it installed by name and version in its cache; the version is the same every run
    const cache = join(scratch, "npx-cache")
    const help = await Project.exec(empty, ["npx", "-y", name, "--help"], { env: { npm_config_cache: cache } })
    console.log(`npx ${name} --help: ${seconds(started)}`)
    expect(help).toMatch(/USAGE|Usage|usage/)
  })

  it("installs into a fresh project; --version is the package's; a first run works", async () => {
    const project = Project.create(join(scratch, `install-${binsOf(p)[0]}`), "esm", registry)
    let started = performance.now()
    await Project.install(project, ["npm", "install", name])
    console.log(`npm install ${name}: ${seconds(started)}`)
    for (const bin of binsOf(p)) {
      expect((await Project.exec(project, ["npx", bin, "--version"])).trim()).toContain(p.manifest.version)
      const firstRun = firstRuns[bin]
      if (firstRun === undefined) expect.fail(`no first run defined for ${bin}`)
      started = performance.now()
      const output = await firstRun(project)
      console.log(`${bin} first run: ${seconds(started)}\n${output.split("\n").slice(0, 3).join("\n")}`)
      expect(output.trim()).not.toBe("")
    }
  })
})
