/**
 * Every published tarball as a registry would hold it: publint finds nothing to warn about, and
 * arethetypeswrong resolves types for every public subpath under node16 (CommonJS and ESM) and
 * bundler resolution, while `internal/*` stays closed.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { describe, expect, inject, it } from "vitest"
import { type Packed, root } from "../src/Pack.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>
const libraries = packed.filter((p) => p.manifest.exports !== undefined)

/** `.` and one subpath per public module (`src/<Module>.ts`), as the `./*` export maps them. */
const entrypoints = (p: Packed) => [
  ".",
  ...readdirSync(join(p.dir, "src"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => `./${file.slice(0, -3)}`)
]

interface AttwProblem {
  readonly kind: string
  readonly entrypoint?: string
  readonly resolutionKind?: string
}

const attw = (p: Packed, entries: ReadonlyArray<string>): ReadonlyArray<AttwProblem> => {
  const bin = join(import.meta.dirname, "..", "node_modules", ".bin", "attw")
  const args = [p.tarball, "--profile", "node16", "--format", "json", "--entrypoints", ...entries]
  let output: string
  try {
    output = execFileSync(bin, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  } catch (error) {
    output = (error as { stdout: string }).stdout // attw exits 1 when it finds problems
  }
  const report = JSON.parse(output) as { analysis: { problems?: ReadonlyArray<AttwProblem> } }
  // the JSON lists every resolution; the node16 profile leaves out node10's (no `exports` support)
  return (report.analysis.problems ?? []).filter((problem) => problem.resolutionKind !== "node10")
}

const rootLicense = readFileSync(join(root, "LICENSE"), "utf8")

/** The tarball's files with their sizes, from `tar -tvzf` (size is the third column). */
const contents = (tarball: string) =>
  execFileSync("tar", ["-tvzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const columns = line.trim().split(/\s+/)
      return { size: Number(columns[2]), path: columns[columns.length - 1] }
    })

describe.each(packed.map((p) => [p.manifest.name, p] as const))("%s", (name, p) => {
  it("ships the repository's LICENSE and names its source (git+https, its folder); prints its size", () => {
    const files = contents(p.tarball)
    const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`
    const unpacked = files.reduce((sum, f) => sum + f.size, 0)
    console.log(`${name}: ${kB(statSync(p.tarball).size)} packed, ${kB(unpacked)} unpacked, ${files.length} files`)
    expect(execFileSync("tar", ["-xzOf", p.tarball, "package/LICENSE"], { encoding: "utf8" })).toBe(rootLicense)
    const repository = p.manifest.repository as { type: string; url: string; directory: string }
    expect(repository.url).toMatch(/^git\+https:\/\//)
    expect(join(root, repository.directory)).toBe(p.dir)
    expect(p.manifest.license).toBe("MIT")
    expect(p.manifest.engines).toEqual({ node: ">=20" })
  })

  it("publint: no errors, warnings or suggestions", async () => {
    const tarball = readFileSync(p.tarball)
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true
    })
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([])
  })
})

describe.each(libraries.map((p) => [p.manifest.name, p] as const))("%s", (_name, p) => {
  it("arethetypeswrong (node16 from CJS and ESM, bundler): every public subpath resolves with types", () => {
    const entries = entrypoints(p)
    expect(entries.length).toBeGreaterThan(1)
    expect(attw(p, entries)).toEqual([])
  })

  it("arethetypeswrong: internal modules, present in the tarball, are not importable", () => {
    const internal = readdirSync(join(p.dir, "src", "internal")).filter((file) => file.endsWith(".ts"))
    expect(internal.length).toBeGreaterThan(0)
    const entry = `./internal/${internal[0].slice(0, -3)}`
    expect(attw(p, [entry])).toContainEqual(expect.objectContaining({ kind: "NoResolution", entrypoint: entry }))
  })
})
