import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const vitestBin = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs")

const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** What `.ci/env` exports, as bash sources it. */
const ciEnv = (): Record<string, string> => {
  const sourced = spawnSync("bash", ["-c", ". .ci/env && env -0"], { cwd: root, encoding: "utf8", env: {} })
  expect(sourced.status, sourced.stderr).toBe(0)
  const entries = sourced.stdout
    .split("\0")
    .filter((entry) => entry.includes("="))
    .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)] as const)
  return Object.fromEntries(entries.filter(([key]) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(key)))
}

/** The machine's environment without what decides colour, as a CI machine may have it. */
const machineEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !["NO_COLOR", "FORCE_COLOR", "CI", "TERM"].includes(key))
)

describe(".ci/env", () => {
  it("is what .ci/run sources before its first step", () => {
    const run = spawnSync("bash", ["-c", "grep -n '^\\. \\.ci/env$' .ci/run"], { cwd: root, encoding: "utf8" })
    expect(run.stdout.trim()).not.toBe("")
  })

  it("keeps colour codes out of a vitest run's output (vitest colours any FORCE_COLOR, and CI)", () => {
    const dir = mkdtempSync(join(tmpdir(), "ci-env-"))
    dirs.push(dir)
    mkdirSync(join(dir, "test"))
    writeFileSync(join(dir, "package.json"), "{}")
    writeFileSync(join(dir, "test", "demo.test.js"), 'test("passes", () => expect(1).toBe(1))\n')
    const tests = spawnSync(process.execPath, [vitestBin, "run", "--globals"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...machineEnv, ...ciEnv() }
    })
    expect(tests.status, tests.stderr).toBe(0)
    expect(tests.stdout).toContain("1 passed")
    expect(tests.stdout + tests.stderr).not.toContain("\x1b[")
  })
})
