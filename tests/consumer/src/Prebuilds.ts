/**
 * The native addon a user's install downloads ready-built. better-sqlite3 (under the watcher) runs
 * `prebuild-install`, which fetches `better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`
 * from the project's GitHub releases, and compiles SQLite from source only when that fails. This
 * machine reaches no GitHub, so every fresh install here would compile it (about a minute of CPU
 * each); the workspace's own build of the same version, packed under that name, stands in for the
 * download. prebuild-install keeps each download in npm's cache, in `_prebuilds`, under a name made
 * from its URL, and takes a file found there as downloaded; that is where it is put.
 *
 * (prebuild-install's own `local-prebuilds` setting is no way in: it is read from a variable whose
 * name holds a dash, which the shell npm runs install scripts with drops.)
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, join } from "node:path"
import { npmEnv } from "./NpmEnv.js"
import { root } from "./Pack.js"

interface Addon {
  readonly dir: string
  readonly manifest: { readonly name: string; readonly version: string }
}

/** The workspace's better-sqlite3, when its addon is built. */
const workspaceAddon = (): Addon | undefined => {
  const require = createRequire(join(root, "apps", "watcher", "package.json"))
  const dir = dirname(require.resolve("better-sqlite3/package.json"))
  if (!existsSync(join(dir, "build", "Release", "better_sqlite3.node"))) return undefined
  return { dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Addon["manifest"] }
}

/** The URL prebuild-install downloads the addon from on this machine, as its own `util.js` makes it. */
const downloadUrl = (addon: Addon): string => {
  const util = createRequire(join(addon.dir, "package.json"))("prebuild-install/util") as {
    readonly getDownloadUrl: (opts: object) => string
  }
  return util.getDownloadUrl({
    pkg: addon.manifest,
    runtime: "node",
    abi: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
    libc: "",
    "tag-prefix": "v"
  })
}

/** Where prebuild-install looks for a download of `url` in the npm cache `cache` (`cachedPrebuild` of its util.js, 7.1). */
const cachedAt = (cache: string, url: string): string =>
  join(
    cache,
    "_prebuilds",
    `${createHash("sha512").update(url).digest("hex").slice(0, 6)}-${basename(url).replace(/[^a-zA-Z0-9.]+/g, "-")}`
  )

/** npm's own cache folder, as a user's npm has it. */
export const defaultNpmCache = (): string =>
  execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8", env: npmEnv() }).trim()

/**
 * Puts the workspace's addon in each npm cache given, as a download prebuild-install made; returns
 * what takes away the files put there (none that was there before), or nothing to take away when
 * the workspace has no build of it.
 */
export const seedBetterSqlite3 = (caches: ReadonlyArray<string>): (() => void) => {
  const addon = workspaceAddon()
  if (addon === undefined) return () => {}
  const url = downloadUrl(addon)
  const put = caches
    .map((cache) => cachedAt(cache, url))
    .filter((file) => !existsSync(file))
    .map((file) => {
      mkdirSync(dirname(file), { recursive: true })
      execFileSync("tar", ["-czf", file, "-C", addon.dir, join("build", "Release", "better_sqlite3.node")])
      return file
    })
  return () => {
    for (const file of put) rmSync(file, { force: true })
  }
}
