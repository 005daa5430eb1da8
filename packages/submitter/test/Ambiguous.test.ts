import { describe, expect, it } from "@effect/vitest"
import { Commands } from "@vega-effect/schema"
import { Effect } from "effect"
import { advanceUntil, setup } from "./support.js"

describe("ambiguous failures", () => {
  it.scopedLive(
    "connections reset after the node took the transaction, and 5xx answers, never make two transactions",
    () =>
      Effect.gen(function* () {
        // four requests in ten fail here, and a reset can take several concurrent requests at once:
        // reads get retries enough that none gives up (the submissions' own handling is under test)
        const { sim, submitter } = yield* setup(
          { nodes: [{ faults: { enabled: false, seed: 11, resetRate: 0.3, errorRate: 0.1 } }] },
          { probes: 12 },
          { retries: 30 }
        )
        sim.nodes[0].faults.setEnabled(true)
        const aliases = Array.from({ length: 20 }, (_, i) => `ambiguous-${i}`)
        const accepted = yield* advanceUntil(
          sim,
          Effect.forEach(
            aliases,
            (alias) => submitter.submit(Commands.command("updatePartyProfile", Commands.updatePartyProfile({ alias }))),
            { concurrency: "unbounded" }
          ),
          "30 millis"
        )
        // some answers were lost after the node had the transaction: the same bytes were offered again
        expect(accepted.some((a) => a.alreadyKnown)).toBe(true)
        sim.nodes[0].faults.setEnabled(false)
        yield* sim.advance(2)
        expect(yield* sim.mempoolSize).toBe(0)
        const mine = sim.feed
          .recent()
          .flatMap((block) => block.results)
          .filter((r) => r.transaction.partyId === submitter.partyId)
        // exactly one transaction per submission, each the accepted one
        expect(mine).toHaveLength(aliases.length)
        expect(mine.map((r) => r.transaction.hash).sort()).toEqual(accepted.map((a) => a.txHash).sort())
        expect(mine.map((r) => (r.result as any).updatePartyProfile.alias).sort()).toEqual([...aliases].sort())
      }),
    60_000
  )
})
