import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// npm installs from the registry and runs of every example: one file at a time, generous limits.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ["test/setup.ts"],
      fileParallelism: false,
      testTimeout: 600_000,
      hookTimeout: 600_000
    }
  })
)
