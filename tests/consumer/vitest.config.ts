import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// npm installs, native builds (better-sqlite3 under the watcher) and runs of every example: two
// files at a time (one installing while the other compiles or runs), generous limits.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ["test/setup.ts"],
      maxWorkers: 2,
      minWorkers: 1,
      testTimeout: 600_000,
      hookTimeout: 600_000
    }
  })
)
