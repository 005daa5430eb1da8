// @ts-check
/**
 * Mutation testing (StrykerJS), one run per package: each package's `stryker.config.mjs` names the
 * modules whose promises its tests must guard (`mutate`) and builds its configuration here. Run by
 * `pnpm mutation` (scripts/mutation.mjs); never part of `pnpm test` or CI.
 *
 * A run works in a copy of the package (`.stryker-tmp/`), so the sources are never touched; its
 * tests resolve the package through the same `@vega-effect/source` condition as `pnpm test`.
 * Results are kept in `reports/mutation/` (ignored by git): `incremental.json` lets a rerun test
 * again only the mutants whose code or tests changed, `mutation.html` and `mutation.json` are the
 * report.
 */
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL(".", import.meta.url))

/**
 * The configuration of a package's run.
 *
 * @param {{
 *   readonly mutate: ReadonlyArray<string>,
 *   readonly tests?: ReadonlyArray<string>,
 *   readonly timeoutMS?: number
 * }} options `mutate`: the modules (or line ranges, `src/Build.ts:231-255`) to mutate; `tests`: the
 *   test files to run when not all of the package's (globs, relative to the package)
 * @returns {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export const mutationConfig = (options) => {
  // read by vitest.mutation.ts in the test processes, which inherit the environment
  process.env.VEGA_MUTATION_TESTS = (options.tests ?? []).join(",")
  return {
    // the plugins are root devDependencies: resolved from here, not from the package
    plugins: [
      import.meta.resolve("@stryker-mutator/vitest-runner"),
      import.meta.resolve("@stryker-mutator/typescript-checker")
    ],
    // a mutant the compiler refuses is no gap in the tests: it is counted as a compile error and
    // never run (the package's tsconfig.json, sources and tests, with its references)
    checkers: ["typescript"],
    tsconfigFile: "tsconfig.json",
    testRunner: "vitest",
    // the workspace's shared settings (source condition, setup file, test/**/*.test.ts) from their
    // place in the repository: the package's own vitest.config.ts re-exports them by a relative
    // import that does not resolve from the copy
    vitest: { configFile: `${root}vitest.mutation.ts`, related: false },
    coverageAnalysis: "perTest",
    mutate: [...options.mutate],
    // the machine is shared: one test process unless asked (STRYKER_CONCURRENCY=n)
    concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
    incremental: true,
    incrementalFile: "reports/mutation/incremental.json",
    reporters: ["clear-text", "progress", "html", "json"],
    htmlReporter: { fileName: "reports/mutation/mutation.html" },
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
    timeoutMS: options.timeoutMS ?? 10_000,
    thresholds: { high: 90, low: 75, break: null },
    tempDirName: ".stryker-tmp",
    cleanTempDir: true
  }
}
