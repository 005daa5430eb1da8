import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { npmEnv } from "../src/NpmEnv.js"
import { warnings } from "../src/Project.js"

describe("npm's warnings on an install", () => {
  it("keeps every warning but the machine's config notices and the expected install-scripts notice", () => {
    const stderr = [
      'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.',
      "npm warn install-scripts 2 packages have install scripts not yet covered by allowScripts:",
      "npm warn install-scripts   @parcel/watcher@2.6.0 (install: node scripts/build-from-source.js)",
      "npm warn install-scripts   msgpackr-extract@3.0.7 (install: node-gyp-build-optional-packages)",
      "npm warn install-scripts   left-pad@1.3.0 (postinstall: node steal.js)",
      "npm warn install-scripts",
      "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
      "npm warn ERESOLVE overriding peer dependency"
    ].join("\n")
    expect(warnings(stderr)).toEqual([
      "npm warn install-scripts   left-pad@1.3.0 (postinstall: node steal.js)",
      "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
      "npm warn ERESOLVE overriding peer dependency"
    ])
  })
})

describe("npm in pnpm's scripts", () => {
  it("prints no Unknown env config warning for the settings pnpm passes to its scripts", () => {
    // what pnpm 10 sets for every script it runs (the consumer tests run as one)
    const asPnpmRunsIt = {
      ...process.env,
      npm_config_verify_deps_before_run: "false",
      npm_config_catalog: '{"effect":"^3.22.4"}',
      npm_config_overrides: "{}"
    }
    const ran = spawnSync("npm", ["config", "get", "fund"], { encoding: "utf8", env: npmEnv(asPnpmRunsIt) })
    expect(ran.status, ran.stderr).toBe(0)
    expect(ran.stderr).not.toMatch(/Unknown env config/)
  })
})
