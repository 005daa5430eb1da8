// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The cross-check of the rows' sums against the summaries (`crossCheck` in src/Build.ts), with the
// tests of the report's figures.
export default mutationConfig({ mutate: ["src/Build.ts:231-255"], tests: ["test/Report.test.ts"] })
