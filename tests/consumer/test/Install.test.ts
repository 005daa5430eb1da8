/**
 * The install from a clone, for as long as the packages are not on the npm registry: the root
 * README's Install commands run verbatim in a copy of the repository (its files as git sees them:
 * no node_modules, no builds; the copy stands for the `git clone` line), a library installed into a
 * fresh project beside it and the commands into a global prefix of this run's own. That project's
 * registry for the `@vega-effect` scope answers 404 to everything, as the public one does today,
 * so the tarballs alone must do. And what every README says about the registry is what the
 * registry says.
 */
import { execFile, execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { npmEnv } from "../src/NpmEnv.js"
import { type Packed, root } from "../src/Pack.js"
import * as Project from "../src/Project.js"
import * as Readme from "../src/Readme.js"
import * as Registry from "../src/Registry.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>
const scratch = inject("scratch")

const rootReadme = Readme.read(join(root, "README.md"))
const readmes = [
  { name: "the root README", path: join(root, "README.md") },
  ...packed.map((p) => ({ name: `${p.manifest.name}'s README`, path: join(p.dir, "README.md") }))
]

/** The Install block that starts from a clone: its `git clone` line, then the commands run in the clone. */
const fromClone = (() => {
  const block = Readme.shellBlocks(rootReadme, "Install").find((lines) => lines[0].startsWith("git clone "))
  return { clone: block?.[0] ?? "", commands: block?.slice(1) ?? [] }
})()

const notYet = /not\s+on\s+the\s+npm\s+registry\s+yet/i

/** Whether the registry npm is configured with has the package (any version): E404 is no. */
const onRegistry = (name: string): Promise<boolean> =>
  new Promise((done, fail) =>
    execFile(
      "npm",
      ["view", name, "version", "--json"],
      { cwd: root, encoding: "utf8", env: npmEnv() },
      (error, stdout, stderr) => {
        if (error === null) return done(true)
        if (/E404/.test(stdout + stderr)) return done(false)
        fail(new Error(`npm view ${name} failed:\n${stdout}${stderr}`))
      }
    )
  )

describe("what the READMEs say about the registry", () => {
  it("says the packages are not on the npm registry yet exactly while the registry does not have them", async () => {
    const missing = new Set<string>()
    for (const p of packed) if (!(await onRegistry(p.manifest.name))) missing.add(p.manifest.name)
    const says = (path: string) => notYet.test(Readme.sectionText(Readme.read(path), "Install"))
    const wrong = [
      ...(says(join(root, "README.md")) === missing.size > 0 ? [] : ["the root README"]),
      ...packed
        .filter((p) => says(join(p.dir, "README.md")) !== missing.has(p.manifest.name))
        .map((p) => p.manifest.name)
    ]
    const registry = packed.map((p) => `${p.manifest.name} ${missing.has(p.manifest.name) ? "missing" : "there"}`)
    if (wrong.length > 0)
      expect.fail(
        `the Install section of ${wrong.join(", ")} says otherwise than the registry (${registry.join(", ")}): ` +
          'a README says "not on the npm registry yet" while its package is not there, and only then'
      )
  })

  it.each(packed.map((p) => [p.manifest.name, p] as const))(
    "%s README: its Install section points to the root README's install from a clone",
    (_name, p) => {
      const install = Readme.sectionText(Readme.read(join(p.dir, "README.md")), "Install")
      expect(install).toContain("](../../README.md#install)")
      expect(install).toContain("pack:install")
    }
  )

  it("shows only pack:install commands that the root README's Install runs, and a published install that CI runs", () => {
    for (const readme of readmes)
      for (const command of Readme.packInstallCommands(Readme.read(readme.path)))
        // the script named, with no arguments, is no command to run
        if (command !== "npx -y pnpm@10 pack:install")
          expect(fromClone.commands, `${readme.name} shows ${command}`).toContain(command)
    // its install once released is one a package README has, which the README tests run
    const run = packed.flatMap((p) =>
      Readme.installCommands(Readme.read(join(p.dir, "README.md"))).map((c) => c.join(" "))
    )
    const published = Readme.installCommands(rootReadme).map((c) => c.join(" "))
    expect(published.length).toBeGreaterThan(0)
    for (const command of published) expect(run).toContain(command)
  })

  it("the root README's Install has a block that starts from a clone, the repository package.json names", () => {
    expect(fromClone.commands.filter((c) => c.includes("pack:install")).length).toBeGreaterThan(0)
    const repository = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).repository.url.replace(/^git\+/, "")
    const match = /^git clone (\S+) && cd (\S+)$/.exec(fromClone.clone)
    expect(match?.slice(1)).toEqual([repository, basename(repository, ".git")])
  })
})

describe("the root README's install from a clone, run verbatim", () => {
  const base = join(scratch, "from-clone")
  const clone = join(base, /&& cd (\S+)$/.exec(fromClone.clone)?.[1] ?? "vega-effect")
  // `-g` installs go to this prefix (npm takes the global prefix from PREFIX)
  const global = join(base, "global")
  const prefixes = [...new Set(fromClone.commands.flatMap((c) => [...(/--prefix (\S+)/.exec(c) ?? [])].slice(1)))]
  const projects = prefixes.map((prefix) => resolve(clone, prefix))
  let none: Registry.Registry

  beforeAll(async () => {
    // the files a clone has: tracked ones and new ones not ignored, as they are in the working tree
    mkdirSync(clone, { recursive: true })
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8"
    })
      .split("\0")
      .filter((file) => file !== "" && existsSync(join(root, file)))
    execFileSync("tar", ["-cf", join(base, "clone.tar"), "--null", "-T", "-"], { cwd: root, input: files.join("\0") })
    execFileSync("tar", ["-xf", join(base, "clone.tar")], { cwd: clone })
    // the library's project: fresh, its @vega-effect registry one that has nothing
    none = await Registry.start([])
    for (const dir of projects) {
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-app", private: true, type: "module" }))
      writeFileSync(join(dir, ".npmrc"), `@vega-effect:registry=${none.url}\n`)
    }
  })

  afterAll(() => none?.close())

  it.each(fromClone.commands.map((command) => [command] as const))(
    "%s: runs in the clone, npm printing no warnings",
    async (command) => {
      const started = performance.now()
      const { stderr, warnings } = await Project.execWithWarnings({ dir: clone, kind: "esm" }, ["sh", "-c", command], {
        timeout: 900_000,
        env: { PREFIX: global }
      })
      console.log(`${command}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
      expect(warnings).toEqual([])
      // npm ran with the user's configuration, not with the settings pnpm hands its scripts
      expect(stderr).not.toMatch(/Unknown env config "(catalog|overrides|verify-deps-before-run|npm-globalconfig)"/)
    },
    1_000_000
  )

  it("packed every published package into packed/", () => {
    const expected = packed.map((p) => basename(p.tarball)).sort()
    expect(readdirSync(join(clone, "packed")).sort()).toEqual(expected)
  })

  it("installed each library named into its project with its siblings, as file: dependencies, importable and requirable", () => {
    const named = fromClone.commands
      .filter((c) => /--prefix /.test(c))
      .flatMap((c) => c.split(/\s+/).filter((arg) => arg.startsWith("@vega-effect/")))
    expect(named.length).toBeGreaterThan(0)
    for (const dir of projects) {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
      for (const name of named) {
        const p = packed.find((q) => q.manifest.name === name)!
        // it and the @vega-effect packages it depends on, from their tarballs
        const siblings = Object.keys(p.manifest.dependencies ?? {}).filter((d) => d.startsWith("@vega-effect/"))
        for (const dependency of [name, ...siblings]) expect(manifest.dependencies[dependency]).toMatch(/^file:/)
        const code = [
          `const m = require(${JSON.stringify(name)}); if (Object.keys(m).length === 0) process.exit(1);`,
          `import(${JSON.stringify(name)}).then((e) => { if (Object.keys(e).length === 0) process.exit(1) });`,
          `console.log(require(${JSON.stringify(`${name}/package.json`)}).version)`
        ].join(" ")
        expect(execFileSync(process.execPath, ["-e", code], { cwd: dir, encoding: "utf8" }).trim()).toBe(
          p.manifest.version
        )
      }
    }
  })

  it("installed each command named globally: --version prints the package's version", () => {
    const named = fromClone.commands
      .filter((c) => / -g /.test(` ${c} `))
      .flatMap((c) => c.split(/\s+/).filter((arg) => arg.startsWith("@vega-effect/")))
    expect(named.length).toBeGreaterThan(0)
    for (const name of named) {
      const p = packed.find((q) => q.manifest.name === name)!
      const bins = Object.keys(p.manifest.bin as Record<string, string>)
      expect(bins.length).toBeGreaterThan(0)
      for (const bin of bins) {
        const version = execFileSync(join(global, "bin", bin), ["--version"], { encoding: "utf8", timeout: 60_000 })
        expect(version.trim()).toContain(p.manifest.version)
      }
    }
  })
})
