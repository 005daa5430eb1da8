/**
 * The published command is `dist/bin.js` (with `dist/rowsWorker.js` beside it), made by
 * `scripts/bundle-app.mjs` at the repository root.
 * Here it is made again and run the way an installed package runs it: with plain node, from a
 * directory outside the workspace with no node_modules (the package has no dependencies to install).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"

const app = fileURLToPath(new URL("..", import.meta.url))
const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
  readonly version: string
  readonly bin: Record<string, string>
  readonly dependencies?: Record<string, string>
}
const [name] = Object.keys(pkg.bin)

let dir = ""
let bin = ""

const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 })

describe("the bundled command", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vega-reward-report-bundle-"))
    bin = join(dir, "bin.js")
    execFileSync(process.execPath, [join(app, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", bin], {
      cwd: app
    })
  }, 60_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("needs nothing installed beside it", () => {
    expect(pkg.dependencies).toBeUndefined()
  })

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
    expect(result.stdout).toContain("--format")
  })

  it("lays out the per-epoch payouts on the thread it ships beside it", () => {
    expect(existsSync(join(dir, "rowsWorker.js"))).toBe(true)
    const result = run(["--view", "epochs", "--format", "csv"])
    expect(result.status, result.stderr).toBe(0)
    const [header, ...rows] = result.stdout.trimEnd().split("\r\n")
    expect(header.startsWith("epoch,received_at,party_id,alias,")).toBe(true)
    expect(rows.length).toBeGreaterThan(100)
  })

  it("reports on the embedded simulator, naming its version", () => {
    const result = run(["--top", "1", "--format", "json"])
    expect(result.status, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout) as { readonly provenance: { readonly generator: string } }
    expect(report.provenance.generator).toBe(`vega-effect reward-report ${pkg.version}`)
  })
})
