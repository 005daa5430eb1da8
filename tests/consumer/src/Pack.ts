/**
 * The workspace's published packages, packed as `pnpm publish` would pack them (`workspace:`
 * ranges turned into versions). Their builds come first (`pnpm build`): packing runs no scripts.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { npmEnv } from "./NpmEnv.js"

export const root = join(import.meta.dirname, "..", "..", "..")

export interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly bin?: string | Record<string, string>
  readonly [key: string]: unknown
}

export interface Workspace {
  /** The package's folder in the repository. */
  readonly dir: string
  readonly manifest: Manifest
}

export interface Packed extends Workspace {
  readonly tarball: string
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"))

/** Every package under `packages/` and `apps/` that is published (not private). */
export const published = (): ReadonlyArray<Workspace> =>
  ["packages", "apps"].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => existsSync(join(dir, "package.json")))
      .map((dir) => ({ dir, manifest: readJson(join(dir, "package.json")) as Manifest }))
      .filter(({ manifest }) => manifest.private !== true)
  )

/** Packs the published packages into `destination`. */
export const pack = (destination: string): ReadonlyArray<Packed> => {
  const workspaces = published()
  const filters = workspaces.flatMap((w) => ["--filter", w.manifest.name])
  const output = execFileSync(
    "npx",
    [
      "-y",
      "pnpm@10",
      "-r",
      ...filters,
      "pack",
      "--pack-destination",
      destination,
      "--json",
      "--config.ignore-scripts=true"
    ],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: npmEnv() }
  )
  const tarballs = new Map(
    (JSON.parse(output) as ReadonlyArray<{ name: string; filename: string }>).map((p) => [p.name, p.filename])
  )
  return workspaces.map((w) => {
    const tarball = tarballs.get(w.manifest.name)
    if (tarball === undefined) throw new Error(`pnpm pack did not pack ${w.manifest.name}`)
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }))
    return { dir: w.dir, manifest, tarball }
  })
}
