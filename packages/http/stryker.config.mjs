// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// The transport: routing, the pool's choice (lag, speed, rests and bans), pacing, and the reading
// of answers (statuses, Retry-After). Measured: the pool, the pacer and the reading of answers,
// with their own tests (test/Pacer.test.ts, test/Transport.test.ts), which call them directly,
// and the transport that joins them (`src/internal/transport.ts`), with its own tests over an
// in-memory HTTP client and the test clock (test/TransportRouting.test.ts); each file runs in a
// few seconds. The tests that reach them through a client (`RetrySchedule`, `FailureText`,
// `Resilience`, ...) are left out: a mutant reruns every test that covers it, and those take
// seconds to a minute each (with them, a run of the transport was stopped after over an hour).
export default mutationConfig({
  mutate: ["src/internal/pool.ts", "src/internal/pacer.ts", "src/internal/answer.ts", "src/internal/transport.ts"],
  tests: ["test/Pacer.test.ts", "test/Transport.test.ts", "test/TransportRouting.test.ts"]
})
