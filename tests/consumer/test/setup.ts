/**
 * Once per run: pack the published packages, serve them from a local registry, make a scratch
 * folder outside the repository for the fresh projects (`CONSUMER_KEEP=1` keeps it), and put
 * better-sqlite3's prebuilt addon where their installs look for a download of it (see
 * Prebuilds.ts; taken away after the run).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { pack } from "../src/Pack.js"
import { defaultNpmCache, seedBetterSqlite3 } from "../src/Prebuilds.js"
import { NPX_CACHE } from "../src/Project.js"
import * as Registry from "../src/Registry.js"

declare module "vitest" {
  export interface ProvidedContext {
    readonly registry: string
    readonly scratch: string
    readonly packed: string
  }
}

export default async function setup(project: TestProject) {
  const scratch = mkdtempSync(join(tmpdir(), "vega-effect-consumer-"))
  const packed = pack(join(scratch, "tarballs"))
  // in npm's own cache, which the projects' installs use, and in the one npx is given
  const unseed = seedBetterSqlite3([defaultNpmCache(), join(scratch, NPX_CACHE)])
  const registry = await Registry.start(packed)
  project.provide("registry", registry.url)
  project.provide("scratch", scratch)
  project.provide("packed", JSON.stringify(packed))
  return async () => {
    await registry.close()
    unseed()
    if (process.env.CONSUMER_KEEP !== "1") rmSync(scratch, { recursive: true, force: true })
    else console.log(`consumer projects kept in ${scratch}`)
  }
}
