// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The cross-check of the rows' sums against the summaries (`crossCheck` in src/Build.ts, over the
// tables of src/Amounts.ts), with the tests of the report's figures.
export default mutationConfig({
  mutate: ["src/Build.ts:171-204", "src/Amounts.ts"],
  tests: ["test/Report.test.ts", "test/Amounts.test.ts"]
})
