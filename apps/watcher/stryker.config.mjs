// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// A cycle (never backwards), the store, the leases that share the work, and the file sink. The run
// is kept to the tests that call them in-process: the store's and the leases' (on SQLite and on
// PostgreSQL), the cycle's, the coordinator's (leases shared out) and the file sink's. It leaves
// out the crash, shared-state, bundle, cli and live tests: they spawn watcher processes and run in
// real time (minutes per mutant), and what they check of these modules is checked here too.
export default mutationConfig({
  mutate: ["src/Cycle.ts", "src/Store.ts", "src/Leases.ts", "src/sinks/FileSink.ts"],
  tests: ["test/Cycle.test.ts", "test/Store.test.ts", "test/Coordinator.test.ts", "test/sinks/FileSink.test.ts"],
  timeoutMS: 30_000
})
