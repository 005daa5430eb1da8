/**
 * The package READMEs are for users: install first, then examples, API and operations. What only
 * a contributor needs, mutation testing above all, is in CONTRIBUTING.md, one section per package,
 * which each README links to.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const read = (path: string): string => readFileSync(join(root, path), "utf8")

const workspaces = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, "package.json")))
    .map((entry) => ({ name: entry.name, dir: `${group}/${entry.name}` }))
)
/** The published ones: a private package has nothing to install. */
const published = workspaces.filter((w) => JSON.parse(read(`${w.dir}/package.json`)).private !== true)
const mutated = workspaces.filter((w) => existsSync(join(root, w.dir, "stryker.config.mjs")))
const contributing = read("CONTRIBUTING.md")

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-")
const anchors = new Set([...contributing.matchAll(/^#+ (.+)$/gm)].map((match) => anchor(match[1])))

describe("the package READMEs", () => {
  it.each(published.map((w) => [w.dir]))("%s: Install is its first section", (dir) => {
    expect(read(`${dir}/README.md`).match(/^## (.+)$/m)?.[1]).toBe("Install")
  })

  it.each(["README.md", ...workspaces.map((w) => `${w.dir}/README.md`)])("%s: no mutation testing", (path) => {
    const readme = read(path)
    expect(readme).not.toMatch(/^#+ Mutation testing/m)
    expect(readme).not.toMatch(/StrykerJS|mutants?\b|survived/)
  })

  it.each(mutated.map((w) => [w.dir, w.name]))("%s: links to its section of CONTRIBUTING.md", (dir, name) => {
    expect(contributing).toMatch(new RegExp(`^### ${name}$`, "m"))
    const links = [...read(`${dir}/README.md`).matchAll(/\]\(\.\.\/\.\.\/CONTRIBUTING\.md#([^)]+)\)/g)]
    expect(links.map((link) => link[1])).toEqual([name])
    expect(anchors.has(name)).toBe(true)
  })

  it("leave the whole of mutation testing to CONTRIBUTING.md, which says how to run it", () => {
    expect(contributing).toMatch(/^## Mutation testing$/m)
    expect(contributing).toContain("npx -y pnpm@10 mutation")
    expect(read("README.md")).toContain("(CONTRIBUTING.md#mutation-testing)")
    expect(anchors.has("mutation-testing")).toBe(true)
  })
})
