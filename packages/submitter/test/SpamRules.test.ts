import { describe, expect, it } from "@effect/vitest"
import { Commands } from "@vega-effect/schema"
import { Effect, Fiber } from "effect"
import { advanceUntil, setup } from "./support.js"

const profile = (alias: string) => Commands.command("updatePartyProfile", Commands.updatePartyProfile({ alias }))

/** Hashes of the key's successful results published so far. */
const included = (sim: { feed: { recent: () => ReadonlyArray<any> } }, partyId: string): Array<string> =>
  sim.feed
    .recent()
    .flatMap((block) => block.results)
    .filter((r: any) => r.transaction.partyId === partyId && r.result.status)
    .map((r: any) => r.transaction.hash)

describe("spam rules", () => {
  it.scopedLive(
    "100 parallel submissions from one key all land, never more than the per-height allowance",
    () =>
      Effect.gen(function* () {
        const { sim, submitter } = yield* setup()
        const accepted = yield* advanceUntil(
          sim,
          Effect.forEach(
            Array.from({ length: 100 }, (_, i) => i),
            (i) => submitter.submit(profile(`burst-${i}`)),
            { concurrency: "unbounded" }
          ),
          "15 millis"
        )
        expect(accepted).toHaveLength(100)
        expect(new Set(accepted.map((a) => a.txHash)).size).toBe(100)
        const perHeight = new Map<bigint, number>()
        for (const a of accepted) perHeight.set(a.powHeight, (perHeight.get(a.powHeight) ?? 0) + 1)
        const txPerBlock = (yield* sim.spamParameters).numberOfTxPerBlock
        expect(Math.max(...perHeight.values())).toBeLessThanOrEqual(txPerBlock)
        // every one of them is included: none was skipped for going over the allowance
        yield* advanceUntil(
          sim,
          Effect.repeat(Effect.sleep("20 millis"), {
            until: () => accepted.every((a) => included(sim, submitter.partyId).includes(a.txHash))
          })
        )
        expect(yield* sim.mempoolSize).toBe(0)
      }),
    60_000
  )

  it.scopedLive("with the allowance used and increasing difficulty off, waits for a new block", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const first = yield* Effect.all([submitter.submit(profile("a")), submitter.submit(profile("b"))], {
        concurrency: "unbounded"
      })
      expect(first.map((a) => a.powHeight)).toEqual([first[0].powHeight, first[0].powHeight])
      const third = yield* Effect.fork(submitter.submit(profile("c")))
      yield* Effect.sleep("300 millis")
      expect(third.unsafePoll()).toBeNull() // still waiting: no new block yet
      yield* sim.advance(1)
      const accepted = yield* Fiber.join(third)
      expect(accepted.powHeight).toBe(first[0].powHeight + 1n)
    })
  )

  it.scopedLive("with increasing difficulty on, raises the difficulty instead of waiting, and all are included", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup({ spam: { increasingDifficulty: true } })
      const accepted = yield* Effect.forEach(
        ["a", "b", "c", "d", "e", "f"],
        (alias) => submitter.submit(profile(`raised-${alias}`)),
        { concurrency: "unbounded" }
      )
      // one height: 2 at the base difficulty, 2 at +1, 2 at +2
      expect(new Set(accepted.map((a) => a.powHeight)).size).toBe(1)
      yield* sim.advance(1)
      expect(included(sim, submitter.partyId).sort()).toEqual(accepted.map((a) => a.txHash).sort())
    })
  )
})

describe("proofs of work solved ahead", () => {
  it.scopedLive("fills the pool for free slots and uses it", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup({}, { poolSize: 2 })
      yield* Effect.repeat(Effect.sleep("20 millis"), { until: () => Effect.runSync(submitter.prepared) === 2 })
      const a = yield* submitter.submit(profile("pooled"))
      // the solution was taken (and the slot it was for is spent, so it is not solved again)
      expect(yield* submitter.prepared).toBe(1)
      yield* sim.advance(1)
      // a new block has two free slots: the submitter sees it and tops the pool up to its size
      yield* Effect.repeat(Effect.sleep("20 millis"), {
        until: () => Effect.runSync(submitter.prepared) === 2,
        times: 200
      })
      expect(yield* submitter.prepared).toBe(2)
      expect(a.powHeight).toBeGreaterThan(0n)
    })
  )
})
