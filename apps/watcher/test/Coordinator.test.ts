import { SqlError } from "@effect/sql/SqlError"
import { describe, it } from "@effect/vitest"
import { type Duration, Effect, Exit, Metric, Scope } from "effect"
import { expect } from "vitest"
import * as Coordinator from "../src/Coordinator.js"
import { shareOf } from "../src/Leases.js"
import * as Metrics from "../src/Metrics.js"
import * as Prometheus from "../src/Prometheus.js"
import { engines, stateAt } from "./support/database.js"

const slices = Array.from({ length: 37 }, (_, i) => `slice:${String(i).padStart(2, "0")}`)

/**
 * A watcher's coordinator over `database`, in a scope of its own (closing it is the watcher
 * stopping), its leases lasting `ttl`: short where a test waits for them to run out.
 */
const watcher = (database: string, lost: Array<string> = [], ttl: Duration.DurationInput = "400 millis") =>
  Effect.gen(function* () {
    const state = yield* stateAt(database, ttl)
    const scope = yield* Scope.make()
    // a stalled watcher (a long pause, a network cut): its renewals do not get through
    let stalled = false
    const leases = {
      ...state.leases,
      renew: Effect.suspend(() =>
        stalled ? Effect.fail(new SqlError({ cause: "stalled", message: "stalled" })) : state.leases.renew
      )
    }
    const coordinator = yield* Coordinator.make(leases, {
      slices,
      onLost: (gone) => Effect.sync(() => void lost.push(...gone))
    }).pipe(Scope.extend(scope))
    const held = new Set<string>()
    /** Balances and keeps track of what it holds, as the watcher does with its works. */
    const balance = Effect.gen(function* () {
      const changes = yield* coordinator.balance
      for (const slice of changes.dropped) held.delete(slice)
      for (const slice of changes.acquired) held.add(slice)
      return changes
    })
    return {
      state,
      coordinator,
      balance,
      held,
      stall: (on: boolean) => Effect.sync(() => void (stalled = on)),
      stop: Effect.zipRight(Scope.close(scope, Exit.void), Scope.close(state.scope, Exit.void))
    }
  })

/** Every watcher balances, twice: the first round frees slices, the second takes them. */
const settle = (watchers: ReadonlyArray<{ readonly balance: Effect.Effect<unknown, unknown> }>) =>
  Effect.forEach([1, 2], () => Effect.forEach(watchers, (w) => w.balance), { discard: true })

const assertCovered = (watchers: ReadonlyArray<{ readonly held: ReadonlySet<string> }>) => {
  const all = watchers.flatMap((w) => [...w.held])
  expect(new Set(all).size).toBe(all.length) // no slice twice
  expect(all.sort()).toEqual(slices)
}

it("shares: as even as can be, the first members taking one more each while some are left over", () => {
  expect([0, 1, 2].map((index) => shareOf(37, 3, index))).toEqual([13, 12, 12])
  expect([0, 1, 2, 3, 4].map((index) => shareOf(37, 5, index))).toEqual([8, 8, 7, 7, 7])
  expect([0, 1].map((index) => shareOf(36, 2, index))).toEqual([18, 18])
})

for (const engine of engines) {
  describe.skipIf(!engine.available)(`Coordinator (${engine.name})`, () => {
    it.scopedLive(
      "watchers share the slices evenly; a watcher that joins gets its share, one that stops is replaced",
      () =>
        Effect.gen(function* () {
          const database = yield* engine.fresh
          // no lease runs out here, however slowly a loaded machine runs the rounds
          const lasting = (w: string) => watcher(w, [], "1 minute")
          const a = yield* lasting(database)
          yield* settle([a])
          expect(a.held.size).toBe(37)
          const b = yield* lasting(database)
          const c = yield* lasting(database)
          yield* settle([a, b, c])
          assertCovered([a, b, c])
          expect([a, b, c].map((w) => w.held.size).sort()).toEqual([12, 12, 13])
          // what the store says agrees with what each holds
          const holders = yield* a.state.leases.holders
          for (const w of [a, b, c]) for (const slice of w.held) expect(holders.get(slice)).toBe(w.state.leases.owner)

          // c stops cleanly: its leases are free at once
          yield* c.stop
          yield* settle([a, b])
          assertCovered([a, b])
          expect([a, b].map((w) => w.held.size).sort()).toEqual([18, 19])
          yield* a.stop
          yield* b.stop
        })
    )

    it.scopedLive("a slice found lost just after a balance took it back is given up, not kept unworked forever", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const a = yield* watcher(database)
        const b = yield* watcher(database)
        yield* settle([a, b])
        // a commit of an earlier cycle saw the lease of one of a's slices free (it has since taken it
        // back): the watcher drops the slice, as it does for any LeaseLost
        const slice = [...a.held][0]
        yield* a.coordinator.lose(slice)
        a.held.delete(slice)
        const holders = yield* a.state.leases.holders
        expect(holders.get(slice)).toBeUndefined()
        // so the next balance hands it out again, and every slice is worked
        yield* settle([a, b])
        assertCovered([a, b])
        yield* a.stop
        yield* b.stop
      })
    )

    it.scopedLive("a watcher whose slices were taken over is told, drops them, and gets its share back", () =>
      Effect.gen(function* () {
        const database = yield* engine.fresh
        const lostByA: Array<string> = []
        const a = yield* watcher(database, lostByA)
        const b = yield* watcher(database)
        yield* settle([a, b])
        assertCovered([a, b])
        const aHeld = [...a.held].sort()
        // a stalls: its leases expire and b takes them over
        yield* a.stall(true)
        yield* Effect.sleep("600 millis")
        const before = (yield* Metric.value(Metrics.leaseTakeoversTotal)).count
        const { acquired: taken } = yield* b.balance
        expect([...taken].sort()).toEqual(aHeld)
        // /metrics shows the takeovers and the slices held
        expect((yield* Metric.value(Metrics.leaseTakeoversTotal)).count - before).toBe(aHeld.length)
        const scraped = yield* Prometheus.scrape
        expect(scraped).toContain("vega_watcher_slices_held 37")
        expect(scraped).toContain(`vega_watcher_slice_held{slice="${aHeld[0]}"} 1`)
        expect(scraped).toContain("vega_watcher_members 1") // a stalled: no heartbeat either
        const takeovers = yield* b.state.sql<{ n: number | string }>`SELECT SUM(takeovers) AS n FROM watcher_lease`
        expect(Number(takeovers[0].n)).toBe(aHeld.length)
        // a's renewal gets through again, finds them gone and says so at once
        yield* a.stall(false)
        yield* Effect.sleep("300 millis")
        expect(lostByA.sort()).toEqual(aHeld)
        const { acquired, dropped } = yield* a.balance
        expect([...dropped].sort()).toEqual(aHeld)
        // b holds everything, and gives the surplus up at its next balance; a takes it
        expect(acquired).toEqual([])
        yield* settle([b, a])
        assertCovered([a, b])
        expect([a.held.size, b.held.size].sort()).toEqual([18, 19])
        yield* a.stop
        yield* b.stop
      })
    )
  })
}
