// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The walk and its loop guard, and the bounded prefetch.
export default mutationConfig({ mutate: ["src/Paginate.ts", "src/internal/prefetch.ts"] })
