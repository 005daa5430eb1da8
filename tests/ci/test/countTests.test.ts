import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const countTests = join(root, ".ci", "count-tests.mjs")
const vitestBin = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs")

const workspaces: Array<string> = []
afterEach(() => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const workspace = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "count-tests-"))
  workspaces.push(dir)
  return dir
}

const report = (dir: string, pkg: string, passed: number, failed: number): void => {
  mkdirSync(join(dir, pkg), { recursive: true })
  writeFileSync(join(dir, pkg, "test-results.json"), JSON.stringify({ numPassedTests: passed, numFailedTests: failed }))
}

const count = (dir: string, ...exitCodes: Array<string>) => {
  const run = spawnSync(process.execPath, [countTests, ...exitCodes], { cwd: dir, encoding: "utf8" })
  return { status: run.status, line: run.stdout.trim().split("\n").at(-1) }
}

describe(".ci/count-tests.mjs", () => {
  it("exits non-zero after a real vitest run with a deliberately failing test", () => {
    const dir = workspace()
    const pkg = join(dir, "packages", "demo")
    mkdirSync(join(pkg, "test"), { recursive: true })
    writeFileSync(
      join(pkg, "test", "demo.test.js"),
      'test("passes", () => expect(1).toBe(1))\ntest("fails on purpose", () => expect(1).toBe(2))\n'
    )
    const tests = spawnSync(
      process.execPath,
      [vitestBin, "run", "--globals", "--reporter=json", "--outputFile=test-results.json"],
      { cwd: pkg, encoding: "utf8", env: { ...process.env, CI: "1", FORCE_COLOR: "0" } }
    )
    expect(tests.status).not.toBe(0)
    expect(JSON.parse(readFileSync(join(pkg, "test-results.json"), "utf8")).numFailedTests).toBe(1)

    expect(count(dir, String(tests.status), "0", "0")).toEqual({ status: 1, line: "1 passed, 1 failed" })
  })

  it("exits 0 when every report passed and every step succeeded", () => {
    const dir = workspace()
    report(dir, "packages/a", 3, 0)
    report(dir, "apps/b", 2, 0)
    report(dir, "tests/consumer", 4, 0)
    expect(count(dir, "0", "0", "0")).toEqual({ status: 0, line: "9 passed, 0 failed" })
  })

  it("exits non-zero for a failing consumer test", () => {
    const dir = workspace()
    report(dir, "packages/a", 3, 0)
    report(dir, "tests/consumer", 4, 2)
    expect(count(dir, "0", "0", "1")).toEqual({ status: 1, line: "7 passed, 2 failed" })
  })

  it("counts a failed step that left no failing test as one failure", () => {
    const dir = workspace()
    report(dir, "packages/a", 3, 0)
    expect(count(dir, "1", "0", "0")).toEqual({ status: 1, line: "3 passed, 1 failed" })
    expect(count(dir, "0", "1", "0")).toEqual({ status: 1, line: "3 passed, 1 failed" })
    expect(count(dir, "0", "0", "1")).toEqual({ status: 1, line: "3 passed, 1 failed" })
  })

  it("counts the test command's failures once, whichever workspace folder wrote them", () => {
    const dir = workspace()
    report(dir, "tests/ci", 1, 1)
    report(dir, "tests/consumer", 2, 0)
    expect(count(dir, "1", "0", "0")).toEqual({ status: 1, line: "3 passed, 1 failed" })
  })

  it("exits non-zero when a report cannot be read", () => {
    const dir = workspace()
    mkdirSync(join(dir, "packages", "a"), { recursive: true })
    writeFileSync(join(dir, "packages", "a", "test-results.json"), "{ not json")
    expect(count(dir, "0", "0", "0").status).not.toBe(0)
  })

  it("is the last command of .ci/run, so its exit code is the run's", () => {
    const lines = readFileSync(join(root, ".ci", "run"), "utf8")
      .trim()
      .split("\n")
    expect(lines.at(-1)).toMatch(/^node \.ci\/count-tests\.mjs "\$tests" "\$other" "\$consumer"$/)
  })
})
