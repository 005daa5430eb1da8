// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// Delivery of a transaction, the probing of a node's answer, and the watching of results. The run
// leaves out test/RateLimit.test.ts (real-time pacing against the simulator's rate limit, which a
// loaded machine can fail in the initial run) and test/OfficialPackages.test.ts (encoding).
export default mutationConfig({
  mutate: ["src/internal/deliver.ts", "src/internal/offer.ts", "src/internal/resultWatcher.ts"],
  tests: [
    "test/deliver.test.ts",
    "test/resultWatcher.test.ts",
    "test/Submitter.test.ts",
    "test/Ambiguous.test.ts",
    "test/BadInput.test.ts",
    "test/SpamBudget.test.ts",
    "test/SpamRules.test.ts"
  ]
})
