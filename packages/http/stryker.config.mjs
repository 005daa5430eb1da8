// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The transport: routing, the pool's choice (lag, speed, rests and bans), pacing, and the reading
// of answers (statuses, Retry-After). Measured so far: the pool and the pacer, with their own tests
// (test/Transport.test.ts). `src/internal/answer.ts` and `src/internal/transport.ts` are still to
// be measured: every test of the client reaches them, and the tests that do (without the long
// reads against the simulator) made a run of over an hour.
export default mutationConfig({
  mutate: ["src/internal/pool.ts", "src/internal/pacer.ts"],
  tests: ["test/Transport.test.ts"]
})
