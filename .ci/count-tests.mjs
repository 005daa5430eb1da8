// Sums the vitest JSON reports and prints "N passed, N failed".
// Arguments: the exit codes of the test command, of the other steps (type-check, lint) and of the
// consumer test. A failed command that left no failing test behind in its own reports (install,
// build, a crash, an unhandled error) counts as one failure, so the line never reads as green when
// the run was not.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const [testsExit = "1", otherExit = "0", consumerExit = "0"] = process.argv.slice(2)

const count = (groups) => {
  let passed = 0
  let failed = 0
  for (const group of groups) {
    if (!existsSync(group)) continue
    for (const name of readdirSync(group)) {
      const report = join(group, name, "test-results.json")
      if (!existsSync(report)) continue
      const { numPassedTests = 0, numFailedTests = 0 } = JSON.parse(readFileSync(report, "utf8"))
      passed += numPassedTests
      failed += numFailedTests
    }
  }
  return { passed, failed }
}

const unit = count(["packages", "apps"])
const consumer = count(["tests"])
let failed = unit.failed + consumer.failed
if (testsExit !== "0" && unit.failed === 0) failed += 1
if (consumerExit !== "0" && consumer.failed === 0) failed += 1
if (otherExit !== "0") failed += 1
console.log(`${unit.passed + consumer.passed} passed, ${failed} failed`)
