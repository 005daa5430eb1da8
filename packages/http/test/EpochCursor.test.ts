/**
 * The check that a reward page read from a cursor continues the pages before it, on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { Reward } from "@vega-effect/schema"
import { Effect, Schema } from "effect"
import * as Errors from "../src/DataNodeError.js"
import { makeRestarts, readEpoch, rowKey, verdict } from "../src/internal/epochCursor.js"

const row = (party: string, amount: string): Reward.Reward =>
  Schema.decodeUnknownSync(Reward.Reward)({
    assetId: "a".repeat(64),
    partyId: party.repeat(64),
    epoch: "7",
    amount,
    percentageOfTotal: "0.5",
    receivedAt: "1700000000000000000",
    marketId: "",
    rewardType: "ACCOUNT_TYPE_GLOBAL_REWARD",
    lockedUntilEpoch: "7",
    quantumAmount: "0"
  })

type Page = Reward.ListRewardsResponse["rewards"]

/** A page of `rows` (cursors are opaque to the check, so any text does). */
const page = (rows: ReadonlyArray<Reward.Reward>, hasNextPage: boolean, endCursor = `c${rows.length}`): Page =>
  ({
    edges: rows.map((node, i) => ({ node, cursor: `c${i}` })),
    pageInfo: { hasNextPage, hasPreviousPage: false, startCursor: "", endCursor }
  }) as unknown as Page

describe("epochCursor", () => {
  const [r1, r2, r3, r4] = [row("1", "10"), row("2", "20"), row("3", "30"), row("4", "40")]

  it("a page continues when it brings only rows not delivered yet; a repeated row is a restart", () => {
    const seen = new Set([r1, r2].map(rowKey))
    expect(verdict(seen, page([r3, r4], false))).toBe("continues")
    expect(verdict(seen, page([r1, r2], true)), "back at the epoch's first row").toBe("restarts")
    expect(verdict(seen, page([r2, r3], false)), "the first row dropped, the second again").toBe("restarts")
    expect(verdict(seen, page([], true))).toBe("stalls")
    expect(verdict(seen, page([], false))).toBe("continues")
    // rows differing in any field are different rows
    expect(verdict(seen, page([row("1", "11")], false))).toBe("continues")
  })

  it.effect("reads the epoch to its end, or fails with no row and remembers the node", () =>
    Effect.gen(function* () {
      const restarts = makeRestarts()
      const requests: Array<string> = []
      const read = (pages: ReadonlyArray<Page>, node: string) => ({
        endpoint: "ListRewards",
        epoch: 7n,
        fetch: (after: string) => Effect.sync(() => (requests.push(after), pages[requests.length - 1])),
        node: () => node,
        restarts
      })
      const whole = yield* readEpoch(read([page([r3], true, "x"), page([r4], false)], "http://a"), page([r1, r2], true))
      expect(whole).toEqual([r1, r2, r3, r4])
      expect(requests).toEqual(["c2", "x"])

      requests.length = 0
      const restarted = yield* Effect.flip(readEpoch(read([page([r2, r3], true)], "http://b"), page([r1, r2], true)))
      expect(restarted).toBeInstanceOf(Errors.PaginationLoopError)
      expect(restarted.message).toContain("http://b restarted epoch 7 at a cursor")
      expect(restarts.nodes()).toEqual(["http://b"])

      requests.length = 0
      const known = yield* Effect.flip(readEpoch(read([], "http://b"), page([r1, r2], true)))
      expect(known.message).toContain("http://b restarted an epoch at a cursor earlier")
      expect(requests).toEqual([])
      // another node is still asked
      expect(yield* readEpoch(read([page([r3], false)], "http://a"), page([r1], true))).toEqual([r1, r3])
    })
  )
})
