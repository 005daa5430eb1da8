/**
 * The package's version, read from its package.json at run time: the one place it is written.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * The version in the nearest package.json named `name` above a module (its `import.meta.url`).
 * Walking up finds it from the sources (`src/bin.ts`) and from the build (`dist/esm/bin.js`)
 * alike; the build's `dist/cjs/package.json` has no name and is passed over.
 */
export const packageVersion = (moduleUrl: string | URL, name: string): string => {
  let dir = dirname(fileURLToPath(moduleUrl))
  for (;;) {
    const manifest = readManifest(join(dir, "package.json"))
    if (manifest?.name === name && typeof manifest.version === "string") return manifest.version
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no package.json of ${name} above ${String(moduleUrl)}`)
    dir = parent
  }
}

const readManifest = (path: string): { readonly name?: unknown; readonly version?: unknown } | undefined => {
  try {
    return JSON.parse(readFileSync(path, "utf8"))
  } catch {
    return undefined
  }
}
