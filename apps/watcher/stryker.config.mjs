// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// A cycle (never backwards), the store, the leases that share the work, and the file sink.
export default mutationConfig({
  mutate: ["src/Cycle.ts", "src/Store.ts", "src/Leases.ts", "src/sinks/FileSink.ts"],
  timeoutMS: 30_000
})
