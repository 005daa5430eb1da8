import { defineConfig } from "vitest/config"
import shared from "./vitest.shared.js"

/**
 * The test settings of a mutation testing run (stryker.shared.mjs): the workspace's own, with the
 * test files narrowed to those a package's run names (`VEGA_MUTATION_TESTS`, comma-separated),
 * when it names any.
 */
const tests = process.env.VEGA_MUTATION_TESTS

export default tests === undefined || tests === ""
  ? shared
  : defineConfig({ ...shared, test: { ...shared.test, include: tests.split(",") } })
