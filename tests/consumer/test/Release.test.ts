/**
 * Releasing as `.github/workflows/release.yml` does it, as far as that can be checked off GitHub.
 * `changeset publish` publishes every package of the workspace that is not private, each with
 * `pnpm publish` in its folder; here each is published with the same flags and `--dry-run`, its
 * `prepack` build included, and what it would ship is checked. The workflow: valid YAML, run on a
 * push to the base branch, with the permissions, setup, secrets and provenance a release needs, and
 * the root scripts it calls there.
 */
import { execFile, execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { parseDocument } from "yaml"
import { npmEnv } from "../src/NpmEnv.js"
import { type Packed, published, root } from "../src/Pack.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>

const readJson = (path: string): any => JSON.parse(readFileSync(path, "utf8"))
const changesets = readJson(join(root, ".changeset", "config.json"))
const rootManifest = readJson(join(root, "package.json"))

/** Every package of the workspace as pnpm (and so changesets) sees it. */
const workspace = (): ReadonlyArray<{ name: string; path: string; private: boolean }> =>
  JSON.parse(
    execFileSync("npx", ["-y", "pnpm@10", "ls", "-r", "--depth", "-1", "--json"], {
      cwd: root,
      encoding: "utf8",
      env: npmEnv()
    })
  )

describe("what changeset publish publishes", () => {
  it("is every package the consumer tests pack: the libraries and the commands, public, with provenance", () => {
    const publishable = workspace()
      .filter((w) => !w.private)
      .map((w) => w.name)
      .sort()
    expect(publishable).toEqual(packed.map((p) => p.manifest.name).sort())
    expect(publishable).toEqual(expect.arrayContaining(["@vega-effect/watcher", "@vega-effect/reward-report"]))
    // a package with a command is published, not kept private, and changesets versions it
    for (const w of published()) if (w.manifest.bin !== undefined) expect(w.manifest.private).toBeUndefined()
    expect(changesets.access).toBe("public")
    expect(changesets.ignore.filter((name: string) => publishable.includes(name))).toEqual([])
    for (const p of packed)
      expect([p.manifest.name, p.manifest.publishConfig]).toEqual([
        p.manifest.name,
        { access: "public", provenance: true }
      ])
  })
})

interface DryRun {
  readonly id: string
  readonly name: string
  readonly version: string
  readonly files: ReadonlyArray<{ readonly path: string }>
}

/** `pnpm publish` as `changeset publish` runs it (`--access`, `--tag`, `--no-git-checks`, `--json`), dry. */
const dryRun = (p: Packed): Promise<DryRun> =>
  new Promise((resolve, reject) => {
    const args = ["-y", "pnpm@10", "publish", "--access", changesets.access, "--tag", "latest", "--no-git-checks"]
    execFile(
      "npx",
      [...args, "--json", "--dry-run"],
      { cwd: p.dir, encoding: "utf8", env: { ...npmEnv(), NPM_CONFIG_PROVENANCE: "true" }, timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`pnpm publish --dry-run failed in ${p.dir}:\n${stdout}${stderr}`))
        // the prepack build prints first; npm's report is the JSON object that ends the output
        const report = JSON.parse(stdout.slice(stdout.search(/^\{$/m)))
        // npm 11 keys the report by package name, npm 10 does not
        resolve(report.id === undefined ? report[p.manifest.name] : report)
      }
    )
  })

/** The files a manifest's entry points name: main, module, types, bin, and `exports` but the source condition. */
const entryPoints = (manifest: Packed["manifest"]): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (value: unknown, key: string): void => {
    if (key === "@vega-effect/source") return
    if (typeof value === "string" && !value.includes("*")) found.push(value.replace(/^\.\//, ""))
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k)
  }
  for (const field of ["main", "module", "types", "bin", "exports"]) walk(manifest[field], field)
  return found
}

/** Never in a package: tests, benchmarks, examples, generated docs, configs, build and test leftovers. */
const unwanted = [
  /(^|\/)(test|tests|bench|examples|docs|coverage|node_modules|\.turbo|reports|\.stryker-tmp)\//,
  /\.test\.ts$/,
  /(^|\/)tsconfig[^/]*\.json$/,
  /\.tsbuildinfo$/,
  /(^|\/)(vitest\.config\.ts|stryker\.config\.mjs|docgen\.json|test-results\.json)$/,
  /\.tgz$/
]

const tarballFiles = (tarball: string) =>
  execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((path) => path.replace(/^package\//, ""))
    .sort()

describe.each(packed.map((p) => [p.manifest.name, p] as const))("%s", (name, p) => {
  it("pnpm publish --dry-run, as changeset publish runs it: its name, version and the files it ships", async () => {
    const report = await dryRun(p)
    const files = report.files.map((f) => f.path).sort()
    console.log(`${report.id}: ${files.length} files`)
    expect([report.id, report.name, report.version]).toEqual([
      `${name}@${p.manifest.version}`,
      name,
      p.manifest.version
    ])
    expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE"]))
    expect(files).toEqual(expect.arrayContaining([...entryPoints(p.manifest)]))
    // only what `files` lists, and none of the rest
    const listed = p.manifest.files as ReadonlyArray<string>
    const always = ["package.json", "README.md", "LICENSE"]
    expect(files.filter((f) => !always.includes(f) && !listed.some((l) => f === l || f.startsWith(`${l}/`)))).toEqual(
      []
    )
    expect(files.filter((f) => unwanted.some((pattern) => pattern.test(f)))).toEqual([])
    if (p.manifest.exports === undefined) {
      // a command ships its bundle, not its sources
      expect(files.filter((f) => f.startsWith("src/"))).toEqual([])
    } else {
      // a library's sources ship beside its build (its declaration and source maps point into
      // them), and every public module is built as ESM and CommonJS, with types
      const modules = files.filter((f) => /^src\/[^/]+\.ts$/.test(f)).map((f) => f.slice(4, -3))
      expect(modules).toContain("index")
      const built = modules.flatMap((m) =>
        ["esm", "cjs"].flatMap((kind) => [`dist/${kind}/${m}.js`, `dist/${kind}/${m}.d.ts`])
      )
      expect(files).toEqual(expect.arrayContaining(built))
    }
    // what is published is what the consumer tests install
    expect(files).toEqual(tarballFiles(p.tarball))
  })
})

interface Step {
  readonly uses?: string
  readonly run?: string
  readonly with?: Record<string, unknown>
  readonly env?: Record<string, unknown>
}

const workflowPath = join(root, ".github", "workflows", "release.yml")

const readWorkflow = () => {
  const document = parseDocument(readFileSync(workflowPath, "utf8"), { uniqueKeys: true, prettyErrors: true })
  expect([...document.errors, ...document.warnings].map((e) => e.message)).toEqual([])
  return document.toJS() as {
    on: { push: { branches: ReadonlyArray<string> } }
    permissions?: Record<string, string>
    jobs: Record<string, { permissions?: Record<string, string>; steps: ReadonlyArray<Step> }>
  }
}

/** The root scripts a command calls: `pnpm <script>` (a pnpm command of its own is not a script). */
const scriptsCalled = (command: string): ReadonlyArray<string> =>
  [...command.matchAll(/(?:^|&&|;|\|\|)\s*(?:npx -y )?pnpm(?:@\d+)?\s+(?:run\s+)?([\w:-]+)/g)]
    .map((m) => m[1])
    .filter((name) => !["install", "exec", "dlx", "publish", "add"].includes(name))

describe(".github/workflows/release.yml", () => {
  it("is valid YAML, run on every push to the base branch, with the permissions a release with provenance needs", () => {
    const workflow = readWorkflow()
    expect(workflow.on.push.branches).toContain(changesets.baseBranch)
    const jobs = Object.values(workflow.jobs)
    expect(jobs).toHaveLength(1)
    const permissions = { ...workflow.permissions, ...jobs[0].permissions }
    expect(permissions).toMatchObject({ contents: "write", "pull-requests": "write", "id-token": "write" })
  })

  it("sets up package.json's pnpm and Node.js 20 for the npm registry, installs as locked, then runs changesets", () => {
    const steps = readWorkflow().jobs.release.steps
    const at = (uses: string) => steps.findIndex((s) => s.uses?.startsWith(`${uses}@`))
    const [checkout, pnpm, node, changesetsAction] = [
      "actions/checkout",
      "pnpm/action-setup",
      "actions/setup-node",
      "changesets/action"
    ].map(at)
    const install = steps.findIndex((s) => s.run?.trim() === "pnpm install --frozen-lockfile")
    expect([checkout, pnpm, node, install, changesetsAction].every((i) => i >= 0)).toBe(true)
    // in that order: setup-node caches pnpm's store, so pnpm comes first
    expect([checkout, pnpm, node, install, changesetsAction]).toEqual(
      [...[checkout, pnpm, node, install, changesetsAction]].sort((a, b) => a - b)
    )
    // no version of its own: pnpm/action-setup reads packageManager (and fails on a different one)
    expect(steps[pnpm].with?.version).toBeUndefined()
    expect(rootManifest.packageManager).toMatch(/^pnpm@10\./)
    const setupNode = steps[node].with ?? {}
    expect(String(setupNode["node-version"])).toBe("20")
    expect(rootManifest.engines.node).toBe(">=20")
    expect(setupNode["registry-url"]).toBe("https://registry.npmjs.org")
  })

  it("versions and publishes through the root scripts, with the npm token and provenance", () => {
    const step = readWorkflow().jobs.release.steps.find((s) => s.uses?.startsWith("changesets/action@"))!
    const version = String(step.with?.version)
    const publish = String(step.with?.publish)
    expect(scriptsCalled(version)).toEqual(["changeset-version"])
    expect(scriptsCalled(publish)).toEqual(["changeset-publish"])
    const scripts = rootManifest.scripts as Record<string, string>
    expect(scripts["changeset-version"]).toMatch(/^changeset version(\s|$)/)
    // built before it is published, and published last
    expect(scripts["changeset-publish"]).toMatch(/\bbuild\b.*&& changeset publish$/)
    expect(step.env).toMatchObject({
      GITHUB_TOKEN: "${{ secrets.GITHUB_TOKEN }}",
      NPM_TOKEN: "${{ secrets.NPM_TOKEN }}",
      NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}"
    })
    expect(String(step.env?.NPM_CONFIG_PROVENANCE)).toBe("true")
  })

  it("calls only root scripts that exist", () => {
    const steps = Object.values(readWorkflow().jobs).flatMap((job) => job.steps)
    const commands = steps.flatMap((s) => [s.run ?? "", ...Object.values(s.with ?? {}).map(String)])
    const called = commands.flatMap(scriptsCalled)
    expect(called.length).toBeGreaterThan(0)
    expect(called.filter((name) => !(name in rootManifest.scripts))).toEqual([])
  })
})
