// Sums the vitest JSON reports, prints "N passed, N failed" and exits 1 when anything failed (0
// otherwise), so that whatever gates on CI's exit code sees the same verdict as the line.
// Arguments: the exit codes of the test command, of the other steps (type-check, lint) and of the
// consumer test. A failed command that left no failing test behind in its own reports (install,
// build, a crash, an unhandled error) counts as one failure, so the line never reads as green when
// the run was not. Reports are read relative to the working directory.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const [testsExit = "1", otherExit = "0", consumerExit = "0"] = process.argv.slice(2)

// the consumer step's reports; every other package's report is the test command's
const consumerReport = join("tests", "consumer", "test-results.json")

const reports = ["packages", "apps", "examples", "tests"].flatMap((group) =>
  existsSync(group)
    ? readdirSync(group)
        .map((name) => join(group, name, "test-results.json"))
        .filter((report) => existsSync(report))
    : []
)

const count = (files) => {
  let passed = 0
  let failed = 0
  for (const report of files) {
    const { numPassedTests = 0, numFailedTests = 0 } = JSON.parse(readFileSync(report, "utf8"))
    passed += numPassedTests
    failed += numFailedTests
  }
  return { passed, failed }
}

// The failed tests by name, printed just above the verdict so that a log's tail says which failed
const failures = (files) =>
  files.flatMap((report) => {
    const { testResults = [] } = JSON.parse(readFileSync(report, "utf8"))
    const firstLine = (text) =>
      String(text ?? "")
        .split("\n")[0]
        .slice(0, 300)
    return testResults.flatMap((file) => {
      const where = file.name.startsWith(process.cwd()) ? file.name.slice(process.cwd().length + 1) : file.name
      const tests = (file.assertionResults ?? []).filter((test) => test.status === "failed")
      // a file that failed with no failed test in it did not load or broke outside its tests
      if (tests.length === 0) return file.status === "failed" ? [`FAILED ${where}\n  ${firstLine(file.message)}`] : []
      return tests.map((test) => `FAILED ${where} > ${test.fullName}\n  ${firstLine(test.failureMessages?.[0])}`)
    })
  })

const unit = count(reports.filter((report) => report !== consumerReport))
const consumer = count(reports.filter((report) => report === consumerReport))
let failed = unit.failed + consumer.failed
if (testsExit !== "0" && unit.failed === 0) failed += 1
if (consumerExit !== "0" && consumer.failed === 0) failed += 1
if (otherExit !== "0") failed += 1
for (const line of failures(reports)) console.log(line)
console.log(`${unit.passed + consumer.passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
