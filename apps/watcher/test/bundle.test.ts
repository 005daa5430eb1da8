/**
 * The published command is `dist/bin.js`, made by `scripts/bundle-app.mjs` at the repository root.
 * Here it is made again and run the way an installed package runs it: with plain node, from a
 * directory whose node_modules hold only the package.json `dependencies` (what an install pulls).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"

const app = fileURLToPath(new URL("..", import.meta.url))
const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
  readonly version: string
  readonly bin: Record<string, string>
  readonly dependencies: Record<string, string>
}
const [name] = Object.keys(pkg.bin)

let dir = ""
let bin = ""

const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024
  })

describe("the bundled command", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vega-watcher-bundle-"))
    bin = join(dir, "bin.js")
    execFileSync(process.execPath, [join(app, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", bin], {
      cwd: app
    })
    for (const dependency of Object.keys(pkg.dependencies)) {
      const target = join(dir, "node_modules", dependency)
      mkdirSync(join(target, ".."), { recursive: true })
      symlinkSync(realpathSync(join(app, "node_modules", dependency)), target)
    }
  }, 60_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("is a node script", () => {
    expect(readFileSync(bin, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node")
  })

  it("prints the package.json version", () => {
    const result = run(["--version"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe(pkg.version)
  })

  it("prints its help under the bin's name", () => {
    const result = run(["--help"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain(`$ ${name} `)
    expect(result.stdout).toContain("--once")
  })

  it("watches the embedded simulator for one cycle and exits", () => {
    const result = run(["--once", "--initial-events", "--port", "0", "--database", join(dir, "state.db")])
    expect(result.status, result.stderr).toBe(0)
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { readonly kind: string })
    expect(events.length).toBeGreaterThan(0)
    expect(events.map((event) => event.kind)).toContain("position.opened")
  })
})
