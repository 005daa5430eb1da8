// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// Delivery of a transaction, the probing of a node's answer, and the watching of results.
export default mutationConfig({
  mutate: ["src/internal/deliver.ts", "src/internal/offer.ts", "src/internal/resultWatcher.ts"]
})
