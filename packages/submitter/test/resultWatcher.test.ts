import { describe, expect, it } from "@effect/vitest"
import type { DataNodeClient } from "@vega-effect/http"
import type { TransactionResult } from "@vega-effect/schema"
import {
  Chunk,
  Deferred,
  Duration,
  Effect,
  HashMap,
  Logger,
  LogLevel,
  Option,
  Queue,
  Random,
  Stream,
  Take,
  TestClock
} from "effect"
import { makeResultWatcher, RECENT, RECONNECT } from "../src/internal/resultWatcher.js"

const PARTY = "cd".repeat(32)

const resultOf = (hash: string) =>
  ({ partyId: PARTY, status: true, hash }) as unknown as TransactionResult.TransactionResult

/** The i-th of a run of distinct lowercase hashes. */
const hashOf = (i: number) => i.toString(16).padStart(64, "0")

/**
 * A node whose results stream gives what `send` puts in one queue: each subscription reads on from
 * where the last one stopped, until `close` ends it or `fail` fails it.
 */
const fakeNode = Effect.gen(function* () {
  const queue = yield* Queue.unbounded<Take.Take<TransactionResult.TransactionResult, unknown>>()
  const filters: Array<DataNodeClient.TransactionResultsFilter | undefined> = []
  const client = {
    observeTransactionResults: (filter?: DataNodeClient.TransactionResultsFilter) =>
      Stream.suspend(() => {
        filters.push(filter)
        return Stream.flattenTake(Stream.fromQueue(queue))
      })
  } as unknown as DataNodeClient.Service
  return {
    client,
    filters,
    send: (...hashes: ReadonlyArray<string>) =>
      Queue.offer(queue, Take.chunk(Chunk.fromIterable(hashes.map(resultOf)))),
    close: Queue.offer(queue, Take.end),
    fail: (error: unknown) => Queue.offer(queue, Take.fail(error))
  }
})

describe("resultWatcher", () => {
  it.scoped("subscribes once to the results of the key's party", () =>
    Effect.gen(function* () {
      const node = yield* fakeNode
      const watcher = yield* makeResultWatcher(node.client, PARTY)
      const waiter = yield* watcher.expect(hashOf(1))
      yield* node.send(hashOf(1))
      yield* Deferred.await(waiter)
      expect(node.filters).toEqual([{ partyIds: [PARTY] }])
      expect(watcher.connections()).toBe(1)
    })
  )

  it.scoped("matches results to waiters, and answers seen, whatever the case of either hash", () =>
    Effect.gen(function* () {
      const node = yield* fakeNode
      const watcher = yield* makeResultWatcher(node.client, PARTY)
      const upper = "ab".repeat(32).toUpperCase()
      const lower = "ef".repeat(32)
      const first = yield* watcher.expect(upper.toLowerCase())
      const second = yield* watcher.expect(lower.toUpperCase())
      // a second wait for the same hash, in any case, shares the first one's waiter
      expect(yield* watcher.expect(lower)).toBe(second)
      expect(watcher.seen(upper)).toBe(false)
      yield* node.send(upper, lower)
      expect((yield* Deferred.await(first)).hash).toBe(upper)
      expect((yield* Deferred.await(second)).hash).toBe(lower)
      for (const hash of [upper, lower]) {
        expect(watcher.seen(hash.toLowerCase())).toBe(true)
        expect(watcher.seen(hash.toUpperCase())).toBe(true)
      }
    })
  )

  it.scoped("forgets a waiter, in any case: a later wait gets a new one and the old one gets nothing", () =>
    Effect.gen(function* () {
      const node = yield* fakeNode
      const watcher = yield* makeResultWatcher(node.client, PARTY)
      const hash = "ab".repeat(32)
      const forgotten = yield* watcher.expect(hash)
      yield* watcher.forget(hash.toUpperCase())
      const waiter = yield* watcher.expect(hash)
      expect(waiter).not.toBe(forgotten)
      yield* node.send(hash)
      yield* Deferred.await(waiter)
      expect(yield* Deferred.poll(forgotten)).toEqual(Option.none())
    })
  )

  it.scoped(`remembers the last ${RECENT} hashes, waited for or not`, () =>
    Effect.gen(function* () {
      const node = yield* fakeNode
      const watcher = yield* makeResultWatcher(node.client, PARTY)
      const last = yield* watcher.expect(hashOf(RECENT - 1))
      yield* node.send(...Array.from({ length: RECENT }, (_, i) => hashOf(i)))
      yield* Deferred.await(last)
      expect(watcher.seen(hashOf(0))).toBe(true)
      // one more: the oldest goes, the others stay
      const more = yield* watcher.expect(hashOf(RECENT))
      yield* node.send(hashOf(RECENT))
      yield* Deferred.await(more)
      expect(watcher.seen(hashOf(0))).toBe(false)
      expect(watcher.seen(hashOf(1))).toBe(true)
      expect(watcher.seen(hashOf(RECENT))).toBe(true)
    })
  )

  it.scoped(
    "reconnects when the node closes the stream or it fails, counting each connection, and says why at debug",
    () =>
      Effect.gen(function* () {
        const logs: Array<{ level: string; message: string; error: unknown }> = []
        const capture = Logger.make(({ annotations, logLevel, message }) => {
          const text = Array.isArray(message) ? message.join(" ") : String(message)
          logs.push({
            level: logLevel.label,
            message: text,
            error: Option.getOrUndefined(HashMap.get(annotations, "error"))
          })
        })
        const node = yield* fakeNode
        const watcher = yield* makeResultWatcher(node.client, PARTY).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
          Logger.withMinimumLogLevel(LogLevel.Debug),
          // the jitter draws its largest factor: each wait is its ceiling
          Effect.withRandom(Random.fixed([1]))
        )
        const waiter = yield* watcher.expect(hashOf(1))
        yield* node.send(hashOf(0))
        yield* node.close
        // the first reconnection waits the backoff's base, the second twice that
        const base = Duration.toMillis(RECONNECT.base)
        yield* TestClock.adjust(base - 1)
        expect(watcher.connections()).toBe(1)
        yield* TestClock.adjust(1)
        expect(watcher.connections()).toBe(2)
        const failure = { _tag: "UnavailableError" }
        yield* node.fail(failure)
        yield* TestClock.adjust(2 * base - 1)
        expect(watcher.connections()).toBe(2)
        yield* TestClock.adjust(1)
        yield* node.send(hashOf(1))
        yield* Deferred.await(waiter)
        expect(watcher.connections()).toBe(3)
        expect(node.filters).toEqual([{ partyIds: [PARTY] }, { partyIds: [PARTY] }, { partyIds: [PARTY] }])
        const reconnecting = "transaction results stream interrupted; reconnecting"
        // (the stream's own fibers log at debug too)
        expect(logs.filter((log) => log.message === reconnecting)).toEqual([
          { level: "DEBUG", message: reconnecting, error: "closed" },
          { level: "DEBUG", message: reconnecting, error: failure }
        ])
      })
  )
})
