// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// Proof of work: the solver and its worker pool.
export default mutationConfig({ mutate: ["src/ProofOfWork.ts", "src/internal/powPool.ts"] })
