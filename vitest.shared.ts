import { defineConfig } from "vitest/config"

// Workspace packages export their TypeScript sources under this condition, so tests never need a build.
const sourceCondition = "@vega-effect/source"

export default defineConfig({
  resolve: { conditions: [sourceCondition, "import", "module", "node", "default"] },
  // Vite adds import/require/default itself; vitest passes these to Node as --conditions, where
  // "import" would make require() of a dual package (pg-pool) load its ESM build
  ssr: { resolve: { conditions: [sourceCondition, "module", "node"] } },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: [new URL("./vitest.setup.ts", import.meta.url).pathname],
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
    // vitest's default for a run is one worker fewer than the cores: one on a 2-core CI machine,
    // where most test files spend their time waiting on sockets, child processes and timers; the
    // root `test` script runs one package at a time (turbo --concurrency=1), so that two suites
    // never share the two cores with four workers
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
