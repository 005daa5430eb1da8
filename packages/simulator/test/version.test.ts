import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { packageVersion } from "../src/internal/version.js"

const NAME = "@vega-effect/simulator"
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))

describe("vega-sim --version", () => {
  it("is the package.json version, from the sources and from the build's layout", () => {
    expect(packageVersion(new URL("../src/bin.ts", import.meta.url), NAME)).toBe(manifest.version)
    expect(packageVersion(new URL("../dist/esm/bin.js", import.meta.url), NAME)).toBe(manifest.version)
  })

  it("passes over nearer package.json files of other names (dist/cjs has one without a name)", () => {
    const root = mkdtempSync(join(tmpdir(), "vega-sim-version-"))
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: NAME, version: "9.8.7" }))
    mkdirSync(join(root, "dist", "cjs"), { recursive: true })
    writeFileSync(join(root, "dist", "cjs", "package.json"), JSON.stringify({ type: "commonjs" }))
    expect(packageVersion(pathToFileURL(join(root, "dist", "cjs", "bin.js")), NAME)).toBe("9.8.7")
    expect(() => packageVersion(pathToFileURL(join(root, "bin.js")), "another")).toThrow(/no package.json of another/)
  })

  it("the package's bin is a committed launcher, so a fresh install (nothing built) can link it", () => {
    const launcher = manifest.bin["vega-sim"]
    expect(launcher).not.toMatch(/^(\.\/)?dist\//)
    expect(existsSync(fileURLToPath(new URL(`../${launcher}`, import.meta.url)))).toBe(true)
    expect(manifest.files).toContain(launcher.replace(/^\.\//, "").split("/")[0])
    const output = execFileSync(
      process.execPath,
      [fileURLToPath(new URL(`../${launcher}`, import.meta.url)), "--version"],
      {
        encoding: "utf8"
      }
    )
    expect(output.trim()).toBe(manifest.version)
  })

  it("the command prints it", { timeout: 60_000 }, () => {
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
    const output = execFileSync(
      process.execPath,
      ["--conditions=@vega-effect/source", "--import", "tsx", bin, "--version"],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        encoding: "utf8"
      }
    )
    expect(output.trim()).toBe(manifest.version)
  })
})
