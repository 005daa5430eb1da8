/**
 * Once per run: pack the published packages, serve them from a local registry, and make a
 * scratch folder outside the repository for the fresh projects (with better-sqlite3's prebuilt
 * addon, see Prebuilds.ts). `CONSUMER_KEEP=1` keeps it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { pack } from "../src/Pack.js"
import { LOCAL_PREBUILDS, packBetterSqlite3 } from "../src/Prebuilds.js"
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
  // the test files' workers, and the npm commands they run, inherit it
  const prebuilds = packBetterSqlite3(join(scratch, "prebuilds"))
  if (prebuilds !== undefined) process.env[LOCAL_PREBUILDS] = prebuilds
  const registry = await Registry.start(packed)
  project.provide("registry", registry.url)
  project.provide("scratch", scratch)
  project.provide("packed", JSON.stringify(packed))
  return async () => {
    await registry.close()
    if (process.env.CONSUMER_KEEP !== "1") rmSync(scratch, { recursive: true, force: true })
    else console.log(`consumer projects kept in ${scratch}`)
  }
}
