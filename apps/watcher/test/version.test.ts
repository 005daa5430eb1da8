import { spawnSync } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { VERSION } from "../src/internal/version.js"

const app = fileURLToPath(new URL("..", import.meta.url))
const { version } = JSON.parse(readFileSync(join(app, "package.json"), "utf8"))

const run = (args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, args, { cwd: app, encoding: "utf8", timeout: 120_000 })
  expect(result.status, result.stderr).toBe(0)
  return result.stdout.trim()
}

describe("vega-watcher --version", () => {
  it("is the package.json version", () => {
    expect(VERSION).toBe(version)
  })

  it("the command prints it, from the sources and from the bundle", { timeout: 180_000 }, () => {
    expect(run(["--import", "tsx", "--conditions=@vega-effect/source", "src/bin.ts", "--version"])).toBe(version)
    const bundle = join(app, "dist", `version-test-${process.pid}.js`)
    try {
      run(["scripts/bundle.mjs", bundle])
      // the bundle carries the version itself: the sources' "../../package.json" is no file from dist/
      expect(run([bundle, "--version"])).toBe(version)
    } finally {
      rmSync(bundle, { force: true })
    }
  })
})
