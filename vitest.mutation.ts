import type { Reporter } from "vitest/reporters"
import { defineConfig } from "vitest/config"
import shared from "./vitest.shared.js"

type TestFile = Parameters<NonNullable<Reporter["onFinished"]>>[0][number]

/**
 * A test file that fails to load (a mutant that makes a module throw as it is imported) holds no
 * test, and Stryker's vitest runner builds its verdict from the tests it finds: no failed test, so
 * the mutant would count as survived (stryker-js#6150). This reporter gives such a file one failed
 * test carrying its load error, so that the mutant counts as killed, which it is.
 */
const unloadableFileFails: Reporter = {
  onFinished: (files: ReadonlyArray<TestFile> = []) => {
    for (const file of files) {
      if (file.result?.state !== "fail" || file.tasks.length > 0) continue
      file.tasks.push({
        type: "test",
        id: `${file.id}_load`,
        name: "loads",
        mode: "run",
        file,
        suite: file,
        meta: {},
        result: { state: "fail", errors: file.result.errors ?? [] }
      } as unknown as TestFile["tasks"][number])
    }
  }
}

/**
 * The test settings of a mutation testing run (stryker.shared.mjs): the workspace's own, with the
 * test files narrowed to those a package's run names (`VEGA_MUTATION_TESTS`, comma-separated),
 * when it names any, and a test file that cannot load counted as a failed test.
 */
const tests = process.env.VEGA_MUTATION_TESTS

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    ...(tests === undefined || tests === "" ? {} : { include: tests.split(",") }),
    reporters: [...(shared.test?.reporters as Array<unknown>), unloadableFileFails] as never
  }
})
