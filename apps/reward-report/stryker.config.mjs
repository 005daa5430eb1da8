// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The cross-check of the rows' sums against the summaries (`crossCheck` in src/Build.ts, over the
// tables of src/Amounts.ts), with their own tests.
export default mutationConfig({
  mutate: ["src/Build.ts:187-208", "src/Amounts.ts"],
  tests: ["test/CrossCheck.test.ts", "test/Amounts.test.ts"]
})
