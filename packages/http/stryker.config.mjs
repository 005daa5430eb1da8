// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The transport: routing, the pool's choice (lag, speed, rests and bans), pacing, and the reading
// of answers (statuses, Retry-After).
export default mutationConfig({
  mutate: ["src/internal/transport.ts", "src/internal/pool.ts", "src/internal/pacer.ts", "src/internal/answer.ts"]
})
