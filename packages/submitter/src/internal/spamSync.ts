/**
 * Learns what the node counted for the key (`/statistics/spam/{party}`): the heights it used and
 * how many transactions each, so that another process's use of the key is respected, and a ban.
 */
import type { DataNodeClient } from "@vega-effect/http"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Errors from "../SubmitError.js"
import type { HeadError, Heads } from "./chainHead.js"

export const syncSpamStatistics = (
  client: DataNodeClient.Service,
  heads: Heads,
  partyId: string
): Effect.Effect<void, Errors.KeyBanned | HeadError> =>
  Effect.gen(function* () {
    const response = yield* client.getSpamStatistics({ partyId })
    const statistic = response.statistics?.pow
    if (statistic === undefined) return
    const nowNanos = BigInt(yield* Clock.currentTimeMillis) * 1_000_000n
    if (statistic.bannedUntil !== undefined && statistic.bannedUntil > nowNanos) {
      return yield* new Errors.KeyBanned({ partyId, until: statistic.bannedUntil })
    }
    const budget = heads.budgetFor(yield* heads.current)
    for (const state of statistic.blockStates) {
      // no expected difficulty: the node allows nothing more at that height
      const seen = state.expectedDifficulty === undefined ? Number.MAX_SAFE_INTEGER : Number(state.transactionsSeen)
      budget.learn(state.blockHeight, state.blockHash, seen)
    }
  })
