// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The transport: routing, the pool's choice (lag, speed, rests and bans), pacing, and the reading
// of answers (statuses, Retry-After). Measured: the pool, the pacer and the reading of answers,
// with their own tests (test/Transport.test.ts), which call them directly and run in a few
// seconds. The tests that reach them through a client (`RetrySchedule`, `FailureText`,
// `Resilience`) are left out: a mutant reruns every test that covers it, and those take seconds to
// a minute each. `src/internal/transport.ts` is not in it yet: every test of the client reaches
// it, and the tests that do (without the long reads against the simulator) made a run of over an
// hour; measured once against the fastest of them only, its survivors not judged (README).
export default mutationConfig({
  mutate: ["src/internal/pool.ts", "src/internal/pacer.ts", "src/internal/answer.ts"],
  tests: ["test/Transport.test.ts"]
})
