/**
 * The native addon a user's install downloads ready-built. better-sqlite3 (under the watcher) runs
 * `prebuild-install`, which fetches `better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`
 * from the project's GitHub releases, and compiles SQLite from source only when that fails. This
 * machine reaches no GitHub, so every fresh install here would compile it (about two minutes of
 * CPU each); the workspace's own build of the same version, packed under that name, stands in for
 * the download. prebuild-install looks for it in the folder `prebuild-install_local-prebuilds`
 * names (an `rc` variable of its own, which npm neither reads nor warns of). Another version than
 * the workspace's finds nothing there and is compiled, as before.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { root } from "./Pack.js"

/** The variable prebuild-install reads its local-prebuilds folder from. */
export const LOCAL_PREBUILDS = "prebuild-install_local-prebuilds"

/**
 * Packs the workspace's better-sqlite3 addon into `dir` as its release asset is named; the folder
 * to give prebuild-install, or undefined when the workspace has no build of it.
 */
export const packBetterSqlite3 = (dir: string): string | undefined => {
  const require = createRequire(join(root, "apps", "watcher", "package.json"))
  const packageDir = dirname(require.resolve("better-sqlite3/package.json"))
  const addon = join("build", "Release", "better_sqlite3.node")
  if (!existsSync(join(packageDir, addon))) return undefined
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  mkdirSync(dir, { recursive: true })
  execFileSync("tar", ["-czf", join(dir, name), "-C", packageDir, addon])
  return dir
}
