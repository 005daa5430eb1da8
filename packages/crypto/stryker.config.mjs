// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// Proof of work: the solver and its worker pool. The run is kept to the tests that call them.
export default mutationConfig({
  mutate: ["src/ProofOfWork.ts", "src/internal/powPool.ts"],
  tests: ["test/ProofOfWork.test.ts", "test/BadInput.test.ts"]
})
