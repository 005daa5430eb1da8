import { createHash } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { SpamStatistics, TransactionResult } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Either, Fiber, Option, Schedule, Schema, type Scope, Stream } from "effect"
import { raw } from "./support.js"

const A = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const B = "7f2c3f0e1d9a8b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
const C = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
const MARKET = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
const FAILURE = "margin < required & more"

const hashOf = (n: number): string => createHash("sha256").update(`tx-${n}`).digest("hex")

const decodeResult = Schema.decodeUnknownSync(TransactionResult.TransactionResult)

/** The result of an order cancellation of `partyId` (transaction `n`), succeeded or failed. */
const resultOf = (partyId: string, n: number, ok: boolean): TransactionResult.TransactionResult =>
  decodeResult({
    partyId,
    status: ok,
    hash: hashOf(n),
    statusDetail: ok ? "STATUS_SUCCESS" : "STATUS_FAILURE",
    orderCancellation: { orderId: "", marketId: MARKET },
    // no keyed errors: the stream form leaves an empty `errors` out
    ...(ok ? { success: {} } : { failure: { error: FAILURE } })
  })

/** `resultOf` as the core includes it in a block at `height`. */
const included = (partyId: string, n: number, ok: boolean, height: number) => {
  const result = resultOf(partyId, n, ok)
  return {
    transaction: {
      hash: result.hash,
      partyId,
      command: { _tag: "orderCancellation", value: { orderId: "", marketId: MARKET } } as const,
      signature: "ab".repeat(64),
      height,
      index: n
    },
    result
  }
}

/**
 * Publishes a block with these results for the chain's next height, then advances the chain to it
 * (a block published after the advance would come after the core's own block for that height, and
 * the node would treat it as history). Returns the results, as the client should decode them.
 */
const nextBlock = (results: ReadonlyArray<readonly [partyId: string, n: number, ok: boolean]>) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.Simulator
    const height = sim.world.height + 1
    const block = results.map(([partyId, n, ok]) => included(partyId, n, ok, height))
    sim.feed.publish({
      height,
      blockHash: sim.world.chain.blockHash(height),
      timeMicros: sim.world.chain.blockTime(height),
      results: block
    })
    yield* sim.advance(1)
    return block.map((r) => r.result)
  })

/** The first `n` results of a stream, collected in the background. */
const firstOf = <A, E>(stream: Stream.Stream<A, E>, n: number) =>
  Stream.take(stream, n).pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray), Effect.forkScoped)

/**
 * Waits until `streams` results streams listen at the node, so no block is made before they reach
 * it (the node keeps no history for a stream).
 */
const connected = (streams = 1) =>
  Effect.flatMap(Simulator.Simulator, (sim) =>
    Effect.repeat(Effect.sync(sim.feed.listeners), {
      until: (listening) => listening >= streams,
      schedule: Schedule.spaced("5 millis")
    })
  ).pipe(Effect.timeout("10 seconds"))

const join = <A, E>(fiber: Fiber.Fiber<A, E>) => Fiber.join(fiber).pipe(Effect.timeout("5 seconds"))

/** A simulator of a v0.79 node (results with `statusDetail`), blocks advanced by hand, and a client over its node. */
const withSimulator = <A, E>(
  body: Effect.Effect<A, E, Simulator.Simulator | DataNodeClient.DataNodeClient | Scope.Scope>
): Effect.Effect<A, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ seed: 11, blockInterval: "manual", nodeVersion: "v0.79" })
    const client = yield* DataNodeClient.make({ urls: sim.urls }).pipe(Effect.provide(FetchHttpClient.layer))
    return yield* body.pipe(
      Effect.provideService(Simulator.Simulator, sim),
      Effect.provideService(DataNodeClient.DataNodeClient, client)
    )
  })

/** A node stand-in on 127.0.0.1 answering every request with these NDJSON lines; records the URLs asked. */
const fakeNode = (lines: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly asked: Array<string>; readonly server: http.Server }>((resume) => {
      const asked: Array<string> = []
      const server = http.createServer((req, res) => {
        asked.push(req.url ?? "")
        res.writeHead(200, { "Content-Type": "application/json" })
        for (const line of lines) res.write(line + "\n")
        res.end()
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, asked, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** Every result a fake node's stream yields, then how the stream ended (`Right` when it completed). */
const drain = (lines: ReadonlyArray<string>, filter?: DataNodeClient.TransactionResultsFilter) =>
  Effect.gen(function* () {
    const node = yield* fakeNode(lines)
    const client = yield* DataNodeClient.make({ urls: node.url, retries: 0 }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const items = Chunk.toReadonlyArray(
      yield* Stream.runCollect(Stream.either(client.observeTransactionResults(filter)))
    )
    const results = items.filter(Either.isRight).map((e) => e.right)
    const error = items.filter(Either.isLeft).map((e) => e.left)
    return { asked: node.asked, results, error: error.length === 0 ? undefined : error[0] }
  })

/** The stream form of `resultOf(A, n, true)`, as the node writes it. */
const resultLine = (n: number) =>
  `{"result":{"transactionResults":[{"partyId":"${A}","status":true,"hash":"${hashOf(n)}","statusDetail":1,"orderCancellation":{"marketId":"${MARKET}"},"success":{}}]}}`

describe("observeTransactionResults against the simulator", () => {
  it.scopedLive("yields the decoded results of the parties asked for, block after block, in order", () =>
    withSimulator(
      Effect.gen(function* () {
        const dn = yield* DataNodeClient.DataNodeClient
        const fiber = yield* firstOf(dn.observeTransactionResults({ partyIds: [A, C] }), 4)
        yield* connected()
        // the request is still open: the node sends its headers with the first message
        expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
        const first = yield* nextBlock([
          [A, 1, true],
          [B, 2, false],
          [C, 3, false]
        ])
        // a block with only other parties' results sends nothing
        yield* nextBlock([[B, 4, true]])
        const third = yield* nextBlock([
          [C, 5, true],
          [A, 6, true]
        ])
        const results = yield* join(fiber)
        expect(results).toEqual([first[0], first[2], third[0], third[1]])
        expect(results.map((r) => r.hash)).toEqual([hashOf(1), hashOf(3), hashOf(5), hashOf(6)])
        expect(results[1].failure?.error).toBe(FAILURE)
        expect(results[1].statusDetail).toBe("STATUS_FAILURE")
      })
    )
  )

  it.scopedLive("filters by hash, lowercasing the hashes given", () =>
    withSimulator(
      Effect.gen(function* () {
        const dn = yield* DataNodeClient.DataNodeClient
        const fiber = yield* firstOf(
          dn.observeTransactionResults({ hashes: [hashOf(2).toUpperCase(), hashOf(5).toUpperCase()] }),
          2
        )
        yield* connected()
        const first = yield* nextBlock([
          [A, 1, true],
          [B, 2, false],
          [C, 3, true]
        ])
        yield* nextBlock([[A, 4, true]])
        const third = yield* nextBlock([[C, 5, true]])
        expect(yield* join(fiber)).toEqual([first[1], third[0]])
      })
    )
  )

  it.scopedLive("filters by status, alone or with parties", () =>
    withSimulator(
      Effect.gen(function* () {
        const dn = yield* DataNodeClient.DataNodeClient
        const failed = yield* firstOf(dn.observeTransactionResults({ status: false }), 2)
        const succeeded = yield* firstOf(dn.observeTransactionResults({ status: true }), 3)
        const failedOfB = yield* firstOf(dn.observeTransactionResults({ partyIds: [B], status: false }), 1)
        yield* connected(3)
        const first = yield* nextBlock([
          [A, 1, true],
          [B, 2, true],
          [C, 3, false]
        ])
        const second = yield* nextBlock([
          [B, 4, false],
          [A, 5, true]
        ])
        expect(yield* join(failed)).toEqual([first[2], second[0]])
        expect(yield* join(succeeded)).toEqual([first[0], first[1], second[1]])
        expect(yield* join(failedOfB)).toEqual([second[0]])
        expect((yield* join(failed)).every((r) => r.status === false)).toBe(true)
      })
    )
  )

  it.scopedLive("delivers nothing from before it connected", () =>
    withSimulator(
      Effect.gen(function* () {
        const dn = yield* DataNodeClient.DataNodeClient
        yield* nextBlock([[A, 1, true]])
        const fiber = yield* firstOf(dn.observeTransactionResults({ partyIds: [A] }), 1)
        yield* connected()
        const later = yield* nextBlock([[A, 2, true]])
        expect(yield* join(fiber)).toEqual(later)
      })
    )
  )

  it.scopedLive("a quiet stream is not cut by the client's request timeout", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11, blockInterval: "manual", nodeVersion: "v0.79" })
      const client = yield* DataNodeClient.make({ urls: sim.urls, timeout: "300 millis" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const fiber = yield* firstOf(client.observeTransactionResults({ partyIds: [A] }), 1)
      // longer than the timeout with nothing to send: the node has not even sent its headers
      yield* Effect.sleep("900 millis")
      const published = yield* nextBlock([[A, 1, true]]).pipe(Effect.provideService(Simulator.Simulator, sim))
      expect(yield* join(fiber)).toEqual(published)
    })
  )
})

describe("observeTransactionResults framing", () => {
  it.scopedLive("sends the filters as query parameters and decodes each result line", () =>
    Effect.gen(function* () {
      const { asked, error, results } = yield* drain([resultLine(1), "", resultLine(2)], {
        partyIds: [A, B],
        hashes: [hashOf(1).toUpperCase()],
        status: true
      })
      expect(asked).toEqual([
        `/api/v2/stream/transaction-results?partyIds=${A}&partyIds=${B}&hashes=${hashOf(1)}&status=true`
      ])
      expect(error).toBeUndefined()
      expect(results).toEqual([resultOf(A, 1, true), resultOf(A, 2, true)])
    })
  )

  it.scopedLive("an error frame ends the stream with InternalError", () =>
    Effect.gen(function* () {
      const { error, results } = yield* drain([
        resultLine(1),
        '{"error":{"code":13,"message":"Internal error"}}',
        resultLine(2)
      ])
      expect(results).toEqual([resultOf(A, 1, true)])
      expect(error?._tag).toBe("InternalError")
      if (error?._tag === "InternalError") {
        expect(error.code).toBe(13)
        expect(error.status).toBe(200)
        expect(error.path).toBe("/api/v2/stream/transaction-results")
        expect(error.description).toBe("the node ended the stream: Internal error")
      }
    })
  )

  it.scopedLive("a line that is not JSON is a TransportError", () =>
    Effect.gen(function* () {
      const { error, results } = yield* drain([resultLine(1), "<html>502 Bad Gateway</html>", resultLine(2)])
      expect(results).toEqual([resultOf(A, 1, true)])
      expect(error?._tag).toBe("TransportError")
      expect(error?.message).toContain("a stream message is not JSON: <html>502 Bad Gateway</html>")
    })
  )

  it.scopedLive("a frame that does not decode is a DecodeError", () =>
    Effect.gen(function* () {
      const bad = `{"result":{"transactionResults":[{"partyId":"${A}","hash":42}]}}`
      const { error, results } = yield* drain([bad, resultLine(2)])
      expect(results).toEqual([])
      expect(error?._tag).toBe("DecodeError")
      if (error?._tag === "DecodeError") {
        expect(error.pathInBody).toBe("result.transactionResults.0.hash")
        expect(error.excerpt).toBe(bad)
      }
      const other = yield* drain(['{"something":"else"}'])
      expect(other.error?._tag).toBe("DecodeError")
    })
  )
})

describe("getSpamStatistics against the simulator", () => {
  it.scopedLive("decodes the simulator's statistics for a party", () =>
    withSimulator(
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* DataNodeClient.DataNodeClient
        yield* sim.advance(3)
        const answer = yield* dn.getSpamStatistics({ partyId: A.toUpperCase() })
        expect(answer).toEqual(
          Schema.decodeUnknownSync(SpamStatistics.GetSpamStatisticsResponse)(yield* raw(`/statistics/spam/${A}`))
        )
        expect(answer.chainId).toBe(sim.world.chain.chainId)
        const spam = yield* sim.spamParameters
        expect(answer.statistics?.pow?.numberOfPastBlocks).toBe(BigInt(spam.numberOfPastBlocks))
        // a party that sent nothing has seen no transaction at any height of the window
        const states = answer.statistics?.pow?.blockStates ?? []
        expect(states.length).toBeGreaterThan(0)
        for (const state of states) {
          expect(state.transactionsSeen).toBe(0n)
          expect(state.difficulty).toBe(BigInt(spam.difficulty))
          expect(state.txPerBlock).toBe(BigInt(spam.numberOfTxPerBlock))
        }
        expect(answer.statistics?.epochSeq).toBeGreaterThan(0n)
        const invalid = yield* Effect.flip(dn.getSpamStatistics({ partyId: "not-a-party" }))
        expect(invalid._tag).toBe("InvalidRequestError")
      })
    )
  )
})
