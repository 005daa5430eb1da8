// Sums the vitest JSON reports of every package and prints "N passed, N failed".
// A failed step that left no failing test behind (install, type-check, lint, a crash) counts as
// one failure, so the line never reads as green when the run was not.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const [testsExit = "1", otherExit = "0"] = process.argv.slice(2)
let passed = 0
let failed = 0
for (const group of ["packages", "apps"]) {
  if (!existsSync(group)) continue
  for (const name of readdirSync(group)) {
    const report = join(group, name, "test-results.json")
    if (!existsSync(report)) continue
    const { numPassedTests = 0, numFailedTests = 0 } = JSON.parse(readFileSync(report, "utf8"))
    passed += numPassedTests
    failed += numFailedTests
  }
}
if (testsExit !== "0" && failed === 0) failed = 1
if (otherExit !== "0") failed += 1
console.log(`${passed} passed, ${failed} failed`)
