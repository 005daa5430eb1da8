import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// One file at a time: the process tests (live vs poll, the crash test, shared state) each run
// several watchers and a simulator against real-time windows; two of them side by side on two
// cores have missed those windows (a block not reached in 60 s, a position not yet reconciled).
// The commands the process tests start are bundled once, before any file runs.
export default mergeConfig(
  shared,
  defineConfig({ test: { maxWorkers: 1, minWorkers: 1, globalSetup: ["test/support/bundles.ts"] } })
)
