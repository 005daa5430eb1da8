import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { VERSION } from "../src/internal/version.js"

const app = fileURLToPath(new URL("..", import.meta.url))
const { version } = JSON.parse(readFileSync(join(app, "package.json"), "utf8"))

describe("vega-reward-report --version", () => {
  it("is the package.json version", () => {
    expect(VERSION).toBe(version)
  })

  it("the command prints it", { timeout: 120_000 }, () => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=@vega-effect/source", "src/bin.ts", "--version"],
      { cwd: app, encoding: "utf8", timeout: 120_000 }
    )
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe(version)
  })
})
