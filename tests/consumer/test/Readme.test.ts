/**
 * Each package README, followed as written by a new user: a fresh project, the Install section's
 * commands run verbatim against the registry, the examples type-checked strictly and run, their
 * output compared with what the README shows. ESM gets one project per README (so each README's
 * install stands alone); CommonJS and bundler resolution share one install of every README's
 * packages.
 */
import { basename, join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import type { Packed } from "../src/Pack.js"
import * as Project from "../src/Project.js"
import * as Readme from "../src/Readme.js"

const packed = JSON.parse(inject("packed")) as ReadonlyArray<Packed>
const registry = inject("registry")
const scratch = inject("scratch")

interface Guide {
  readonly name: string
  readonly install: ReadonlyArray<ReadonlyArray<string>>
  readonly examples: ReadonlyArray<Readme.Example & { readonly file: string }>
}

const guides: ReadonlyArray<Guide> = packed
  .filter((p) => p.manifest.exports !== undefined)
  .map((p) => {
    const markdown = Readme.read(join(p.dir, "README.md"))
    const short = basename(p.dir)
    return {
      name: p.manifest.name,
      install: Readme.installCommands(markdown),
      examples: Readme.examples(markdown).map((e, i) => ({ ...e, file: `${short}${i + 1}` }))
    }
  })

const setUp = async (project: Project.Project, guides: ReadonlyArray<Guide>) => {
  for (const guide of guides) for (const e of guide.examples) Project.addSource(project, e.file, e.code)
  await Project.compile(project)
}

const runAll = async (project: Project.Project, guide: Guide) => {
  for (const example of guide.examples.filter((e) => e.runs)) {
    const stdout = await Project.start(project, example.file)
    if (example.output !== undefined && !Readme.matches(example.output, stdout)) {
      expect.fail(`${guide.name} ${example.file} printed:\n${stdout}\nits README shows:\n${example.output.join("\n")}`)
    }
  }
}

describe.each(guides.map((g) => [g.name, g] as const))("%s README", (_name, guide) => {
  it("has an Install section with an npm install command and at least one runnable example", () => {
    expect(guide.install.length).toBeGreaterThan(0)
    expect(guide.examples.filter((e) => e.runs).length).toBeGreaterThan(0)
  })

  it("ESM (nodenext): installs as written without warnings, type-checks strictly, runs and prints what it shows", async () => {
    const project = Project.create(join(scratch, `esm-${basename(guide.name)}`), "esm", registry)
    for (const command of guide.install) expect(await Project.install(project, command)).toEqual([])
    await Project.install(project, Project.toolingInstall)
    await setUp(project, [guide])
    await runAll(project, guide)
  })
})

describe("every README in one project", () => {
  const union = Project.create(join(scratch, "union"), "esm", registry)

  it("installs every README's packages together", async () => {
    for (const command of guides.flatMap((g) => g.install)) await Project.install(union, command)
    await Project.install(union, Project.toolingInstall)
  })

  it.each(["cjs", "bundler"] as const)(
    "%s: type-checks strictly, runs and prints what each README shows",
    async (kind) => {
      const project = Project.create(join(scratch, kind), kind, registry, union)
      await setUp(project, guides)
      for (const guide of guides) await runAll(project, guide)
    }
  )
})
