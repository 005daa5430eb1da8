/**
 * One long-lived subscription to the key's transaction results, shared by every wait: results are
 * matched to waiters by hash (case-insensitively), and the subscription reconnects with backoff
 * when its node closes it or fails. Results of blocks processed while it is down are not
 * delivered by any node; each reconnection is counted so a wait can tell it may have missed one.
 */
import { type DataNodeClient, RetryPolicy } from "@vega-effect/http"
import type { TransactionResult } from "@vega-effect/schema"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

export interface ResultWatcher {
  /** Registers interest in a hash; call before sending so that the result cannot slip by. */
  readonly expect: (txHash: string) => Effect.Effect<Deferred.Deferred<TransactionResult.TransactionResult>>
  readonly forget: (txHash: string) => Effect.Effect<void>
  /** Whether a result for this hash came by (among the last {@link RECENT} results), waited for or not. */
  readonly seen: (txHash: string) => boolean
  /** Times the subscription was (re)opened. */
  readonly connections: () => number
}

/** Reconnection delays: from 100 ms, doubling up to 5 s. */
export const RECONNECT = { base: Duration.millis(100), max: Duration.seconds(5) } as const

/** How many of the key's latest result hashes are remembered. */
export const RECENT = 10_000

export const makeResultWatcher = (
  client: DataNodeClient.Service,
  partyId: string
): Effect.Effect<ResultWatcher, never, Scope.Scope> =>
  Effect.gen(function* () {
    const waiters = new Map<string, Deferred.Deferred<TransactionResult.TransactionResult>>()
    // insertion-ordered: the oldest hash is the first to go
    const recent = new Set<string>()
    let connections = 0
    const once = Effect.suspend(() => {
      connections++
      return client.observeTransactionResults({ partyIds: [partyId] }).pipe(
        Stream.runForEach((result) => {
          const hash = result.hash.toLowerCase()
          recent.add(hash)
          if (recent.size > RECENT) recent.delete(recent.values().next().value!)
          const waiter = waiters.get(hash)
          return waiter === undefined ? Effect.void : Deferred.succeed(waiter, result)
        })
      )
    })
    // a subscription that stayed up a while starts its backoff over
    const backoff = RetryPolicy.backoff(RECONNECT).pipe(Schedule.resetAfter(Duration.seconds(30)))
    // the node closing the stream is a disconnection like any other
    yield* once.pipe(
      Effect.zipRight(Effect.fail("closed" as const)),
      Effect.tapError((error) =>
        Effect.logDebug("transaction results stream interrupted; reconnecting").pipe(Effect.annotateLogs({ error }))
      ),
      Effect.retry(backoff),
      Effect.forkScoped
    )
    return {
      expect: (txHash) =>
        Effect.gen(function* () {
          const key = txHash.toLowerCase()
          const existing = waiters.get(key)
          if (existing !== undefined) return existing
          const deferred = yield* Deferred.make<TransactionResult.TransactionResult>()
          waiters.set(key, deferred)
          return deferred
        }),
      forget: (txHash) => Effect.sync(() => void waiters.delete(txHash.toLowerCase())),
      seen: (txHash) => recent.has(txHash.toLowerCase()),
      connections: () => connections
    }
  })
