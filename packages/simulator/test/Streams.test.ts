import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { EventBus, StreamForm, TransactionResult } from "@vega-effect/schema"
import { Effect, Schedule, Schema } from "effect"
import { Simulator } from "@vega-effect/simulator"
import { StreamControls } from "../src/internal/api/streamControls.js"
import { makeRoutes, type StreamNode, type StreamTiming } from "../src/internal/api/streams.js"
import { type BlockResults, type IncludedResult, makeResultFeed } from "../src/internal/core/contract.js"
import { makeHandler } from "../src/internal/http/handler.js"
import { listen } from "../src/internal/http/listen.js"
import { World } from "../src/World.js"
import { request } from "./support/http.js"
import { connect, openHttpStream, sleep, within } from "./support/streams.js"

const A = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const B = "7f2c3f0e1d9a8b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
const C = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
const MARKET = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
const OTHER_MARKET = "f00d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e40000"
const FAILURE = "margin < required & more"

const hashOf = (n: number): string => createHash("sha256").update(`tx-${n}`).digest("hex")

const decodeResult = Schema.decodeUnknownSync(TransactionResult.TransactionResult)

/** An included order cancellation of `partyId` (transaction `n`), succeeded or failed. */
const included = (partyId: string, n: number, ok: boolean, marketId = MARKET): IncludedResult => {
  const hash = hashOf(n)
  const value = { orderId: "", marketId }
  return {
    transaction: {
      hash,
      partyId,
      command: { _tag: "orderCancellation", value },
      signature: "ab".repeat(64),
      height: 0,
      index: n
    },
    result: decodeResult({
      partyId,
      status: ok,
      hash,
      statusDetail: ok ? "STATUS_SUCCESS" : "STATUS_FAILURE",
      orderCancellation: value,
      ...(ok ? { success: {} } : { failure: { error: FAILURE, errors: [] } })
    })
  }
}

/** The stream form of a result built by {@link included}, as a v0.75 node writes it (no `statusDetail`). */
const resultJson = (partyId: string, n: number, ok: boolean, marketId = MARKET): string =>
  ok
    ? `{"partyId":"${partyId}","status":true,"hash":"${hashOf(n)}","orderCancellation":{"marketId":"${marketId}"},"success":{}}`
    : `{"partyId":"${partyId}","hash":"${hashOf(n)}","orderCancellation":{"marketId":"${marketId}"},"failure":{"error":"margin \\u003c required \\u0026 more"}}`

const blockOf = (world: World, height: number, results: ReadonlyArray<IncludedResult>): BlockResults => ({
  height,
  blockHash: world.chain.blockHash(height),
  timeMicros: world.chain.blockTime(height),
  results
})

/** Publishes a block for the chain's next height, then advances the chain to it. */
const nextBlock = (sim: Simulator.Service, results: ReadonlyArray<IncludedResult>) =>
  Effect.gen(function* () {
    const height = sim.world.height + 1
    sim.feed.publish(blockOf(sim.world, height, results))
    yield* sim.advance(1)
    return height
  })

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const hashesIn = (line: string): Array<string> =>
  (JSON.parse(line) as { result: { transactionResults: Array<{ hash: string }> } }).result.transactionResults.map(
    (r) => r.hash
  )

/** Waits until `streams` results streams listen on the simulator's feed: their requests reached a node. */
const listening = (sim: Simulator.Service, streams: number) =>
  Effect.repeat(
    Effect.sync(() => sim.feed.listeners()),
    { until: (count) => count >= streams, schedule: Schedule.spaced("5 millis") }
  ).pipe(Effect.timeout("10 seconds"))

describe("/api/v2/stream/transaction-results", () => {
  it.scopedLive("streams each block's results as chunked JSON lines, once the node reaches the block", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const stream = openHttpStream(sim.url, "/api/v2/stream/transaction-results")
      yield* listening(sim, 1)
      // grpc-gateway writes the status and headers with the first message
      expect(stream.responded()).toBe(false)
      const height = sim.world.height + 1
      sim.feed.publish(blockOf(sim.world, height, [included(A, 1, true), included(B, 2, false)]))
      yield* promise(() => sleep(150))
      expect(stream.responded()).toBe(false)
      yield* sim.advance(1)
      const response = yield* promise(() => stream.response)
      expect(response.statusCode).toBe(200)
      expect(response.headers["content-type"]).toBe("application/json")
      expect(response.headers["transfer-encoding"]).toBe("chunked")
      expect(response.headers["x-block-height"]).toBeUndefined()
      const line = yield* promise(() => stream.lines.next())
      // enums as numbers, defaults and a false status omitted, Go's escapes of < and &
      expect(line).toBe(`{"result":{"transactionResults":[${resultJson(A, 1, true)},${resultJson(B, 2, false)}]}}`)
      const frame = Schema.decodeUnknownSync(StreamForm.frame(TransactionResult.ObserveTransactionResultsResponse))(
        JSON.parse(line)
      )
      expect("result" in frame && frame.result.transactionResults[1].failure?.error).toBe(FAILURE)

      // a block without results sends nothing; a stream opened now does not replay history
      yield* sim.advance(2)
      const later = openHttpStream(sim.url, "/api/v2/stream/transaction-results")
      yield* listening(sim, 2)
      yield* nextBlock(sim, [included(C, 3, true)])
      expect(yield* promise(() => later.lines.next())).toBe(
        `{"result":{"transactionResults":[${resultJson(C, 3, true)}]}}`
      )
      expect(yield* promise(() => stream.lines.next())).toBe(
        `{"result":{"transactionResults":[${resultJson(C, 3, true)}]}}`
      )
      expect(stream.lines.pending).toEqual([])
      stream.close()
      later.close()
    })
  )

  it.scopedLive("filters by partyIds, hashes and status, exactly", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const open = (query: string) => openHttpStream(sim.url, `/api/v2/stream/transaction-results?${query}`)
      const parties = open(`partyIds=${A}&partyIds=${C}`)
      const hash = open(`hashes=${hashOf(2)}`)
      const upper = open(`hashes=${hashOf(2).toUpperCase()}`)
      const succeeded = open("status=true")
      const failed = open("status=false")
      const snake = open(`party_ids=${B}&status=0`)
      const bad = yield* promise(() => request(sim.url, "/api/v2/stream/transaction-results?status=yes"))
      expect([bad.status, bad.text]).toEqual([
        400,
        '{"code":3,"message":"strconv.ParseBool: parsing \\"yes\\": invalid syntax","details":[]}'
      ])
      yield* listening(sim, 6)
      yield* nextBlock(sim, [included(A, 1, true), included(B, 2, false), included(C, 3, true)])
      yield* nextBlock(sim, [included(B, 4, true)])
      yield* promise(() => sleep(200))
      expect(hashesIn(yield* promise(() => parties.lines.next()))).toEqual([hashOf(1), hashOf(3)])
      expect(parties.lines.pending).toEqual([])
      expect(hashesIn(yield* promise(() => hash.lines.next()))).toEqual([hashOf(2)])
      expect(hash.lines.pending).toEqual([])
      expect(upper.responded()).toBe(false)
      expect(hashesIn(yield* promise(() => succeeded.lines.next()))).toEqual([hashOf(1), hashOf(3)])
      expect(hashesIn(yield* promise(() => succeeded.lines.next()))).toEqual([hashOf(4)])
      expect(hashesIn(yield* promise(() => failed.lines.next()))).toEqual([hashOf(2)])
      expect(failed.lines.pending).toEqual([])
      expect(hashesIn(yield* promise(() => snake.lines.next()))).toEqual([hashOf(2)])
      expect(snake.lines.pending).toEqual([])
      for (const s of [parties, hash, upper, succeeded, failed, snake]) s.close()
    })
  )

  it.scopedLive("serves the same messages over a WebSocket on the same path, one text frame each", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const path = `/api/v2/stream/transaction-results?partyIds=${B}`
      const client = yield* promise(() => connect(sim.url, path, ["Bearer", "x"]))
      // the proxy answers a "Bearer" sub-protocol in kind
      expect(client.ws.protocol).toBe("Bearer")
      const http = openHttpStream(sim.url, path)
      // a server stream ignores what the client sends
      client.send("not json")
      yield* listening(sim, 2)
      yield* nextBlock(sim, [included(A, 1, true), included(B, 2, false)])
      const frame = yield* promise(() => client.frames.next())
      expect(frame).toBe(`{"result":{"transactionResults":[${resultJson(B, 2, false)}]}}`)
      expect(frame).toBe(yield* promise(() => http.lines.next()))
      yield* nextBlock(sim, [included(B, 3, true)])
      expect(hashesIn(yield* promise(() => client.frames.next()))).toEqual([hashOf(3)])
      client.ws.close()
      expect(yield* promise(() => client.closed)).toBe(1005)
      http.close()
    })
  )

  it.scopedLive("delivers late on a lagging node and holds on a frozen one", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({
        seed: 11,
        nodes: [{ name: "leader" }, { name: "behind", lag: 2 }, { name: "stuck", frozen: true }]
      })
      const [leader, behind, stuck] = sim.nodes.map((node) =>
        openHttpStream(node.url, "/api/v2/stream/transaction-results")
      )
      yield* listening(sim, 3)
      const expected = `{"result":{"transactionResults":[${resultJson(A, 1, true)}]}}`
      yield* nextBlock(sim, [included(A, 1, true)])
      expect(yield* promise(() => leader.lines.next())).toBe(expected)
      yield* sim.advance(1)
      yield* promise(() => sleep(150))
      expect(behind.responded()).toBe(false)
      yield* sim.advance(1)
      // the lagging node reaches the block two blocks later
      expect(yield* promise(() => behind.lines.next())).toBe(expected)
      yield* sim.advance(3)
      yield* promise(() => sleep(150))
      expect(stuck.responded()).toBe(false)
      sim.nodes[2].unfreeze()
      // no new block: the node catching up is noticed on its own
      expect(yield* promise(() => stuck.lines.next())).toBe(expected)
      for (const s of [leader, behind, stuck]) s.close()
    })
  )

  it.scopedLive("applies a node's faults to the opening request and the first message", () =>
    Effect.gen(function* () {
      const path = "/api/v2/stream/transaction-results"
      const sim = yield* Simulator.make({
        seed: 11,
        nodes: [
          { faults: { resetRate: 1 } },
          { faults: { truncateRate: 1 } },
          { faults: { errorRate: 1, errorStatuses: [503] } }
        ]
      })
      const reset = openHttpStream(sim.nodes[0].url, path)
      const truncated = openHttpStream(sim.nodes[1].url, path)
      const failing = yield* promise(() => request(sim.nodes[2].url, path))
      expect([failing.status, failing.text]).toEqual([503, '{"code":14,"message":"Unavailable error","details":[]}'])
      yield* listening(sim, 2)
      yield* nextBlock(sim, [included(A, 1, true)])
      const line = `{"result":{"transactionResults":[${resultJson(A, 1, true)}]}}`
      const half = line.slice(0, Math.floor(line.length / 2))
      expect(yield* promise(() => reset.ended)).toBe("aborted")
      expect(reset.body()).toBe(half)
      expect(yield* promise(() => truncated.ended)).toBe("end")
      expect(truncated.body()).toBe(half)
    })
  )

  it.scopedLive("counts the stream's opening request against the rate limit and routes like the gateway", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11, nodes: [{ rateLimit: { burst: 1, rate: 0.01 } }] })
      const first = openHttpStream(sim.url, "/api/v2/stream/transaction-results")
      yield* promise(() => sleep(100))
      const second = yield* promise(() => request(sim.url, "/api/v2/stream/transaction-results"))
      expect([second.status, second.text]).toEqual([
        429,
        '{"code":8,"message":"api request rate limit exceeded","details":[]}'
      ])
      yield* nextBlock(sim, [included(A, 1, true)])
      const response = yield* promise(() => first.response)
      expect(response.headers["ratelimit-limit"]).toBeDefined()
      first.close()
      const post = yield* promise(() =>
        request(sim.url, "/api/v2/stream/transaction-results", { method: "POST", body: "{}" })
      )
      expect([post.status, post.text]).toEqual([501, '{"code":12,"message":"Method Not Allowed","details":[]}'])
    })
  )
})

describe("WebSocket upgrades", () => {
  it.scopedLive("run any request behind the proxy: each body line a frame, then the connection drops", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const missing = yield* promise(() => connect(sim.url, "/api/v2/nothing"))
      expect(yield* promise(() => missing.frames.next())).toBe('{"code":5,"message":"Not Found","details":[]}')
      // no close frame: the client sees an abnormal closure
      expect(yield* promise(() => missing.closed)).toBe(1006)
      const height = yield* promise(() => connect(sim.url, "/blockchain/height"))
      expect(JSON.parse(yield* promise(() => height.frames.next())).height).toBe(String(sim.world.height))
      expect(yield* promise(() => height.closed)).toBe(1006)
      // `?pretty` output has several lines: a frame each
      const pretty = yield* promise(() => connect(sim.url, "/api/v2/nothing?pretty"))
      expect(yield* promise(() => pretty.closed)).toBe(1006)
      expect(pretty.frames.pending.length).toBeGreaterThan(2)
    })
  )
})

// ---------------------------------------------------------------------------------------------
// The event bus
// ---------------------------------------------------------------------------------------------

const TIMING: StreamTiming = { requestTimeout: "300 millis", pollInterval: "20 millis" }

/** A node over its own feed, serving only the streams, with short timeouts. */
const standalone = Effect.gen(function* () {
  const world = new World({ seed: 7 })
  const feed = makeResultFeed()
  let height = world.height
  const node: StreamNode = {
    world,
    get height() {
      return height
    },
    get readableHeight() {
      return height
    },
    feed,
    controls: new StreamControls()
  }
  const { url } = yield* listen(
    makeHandler({
      routes: [],
      streams: makeRoutes(TIMING),
      node,
      block: () => ({ height, timestampNanos: "0" })
    })
  )
  const publish = (results: ReadonlyArray<IncludedResult>): BlockResults => {
    height += 1
    const block = blockOf(world, height, results)
    feed.publish(block)
    return block
  }
  return { url, world, publish }
})

const eventJson = (block: BlockResults, sequence: number, chainId: string, member: string, type: number, tx = "") =>
  `{"id":"${block.height}-${sequence}","block":"${block.blockHash}","type":${type},${member},"version":1,"chainId":"${chainId}"${tx === "" ? "" : `,"txHash":"${tx}"`}}`

type Events = { result: { events: Array<{ id: string; type: number }> } }
const idsIn = (frame: string): Array<string> => (JSON.parse(frame) as Events).result.events.map((e) => e.id)
/** The ids in (height, sequence) order: across types the node delivers in another order. */
const sortedIds = (frame: string): Array<string> =>
  (JSON.parse(frame) as Events).result.events
    .slice()
    .sort(EventBus.comparePosition)
    .map((e) => e.id)

describe("event bus", () => {
  it.scopedLive("pushes the requested events as they come (both paths, byte for byte)", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const chainId = sim.world.chain.chainId
      const data = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      const core = yield* promise(() => connect(sim.url, "/stream/event/bus"))
      data.send(JSON.stringify({ type: ["BUS_EVENT_TYPE_TRANSACTION_RESULT"], partyId: B, batchSize: 0 }))
      core.send(`{"type":[53],"party_id":"${A}","batchSize":"0"}`)
      yield* promise(() => sleep(100))
      const height = sim.world.height + 1
      const block = blockOf(sim.world, height, [included(A, 1, true), included(B, 2, false)])
      sim.feed.publish(block)
      yield* sim.advance(1)
      const frame = yield* promise(() => data.frames.next())
      expect(frame).toBe(
        `{"result":{"events":[${eventJson(block, 4, chainId, `"transactionResult":${resultJson(B, 2, false)}`, 53, hashOf(2))}]}}`
      )
      const decoded = Schema.decodeUnknownSync(StreamForm.frame(EventBus.ObserveEventBusResponse))(JSON.parse(frame))
      expect("result" in decoded && decoded.result.events[0].type).toBe("BUS_EVENT_TYPE_TRANSACTION_RESULT")
      expect(yield* promise(() => core.frames.next())).toBe(
        `{"result":{"events":[${eventJson(block, 3, chainId, `"transactionResult":${resultJson(A, 1, true)}`, 53, hashOf(1))}]}}`
      )
      // further requests are not read without acks
      data.send("{}")
      yield* nextBlock(sim, [included(B, 3, true)])
      expect(idsIn(yield* promise(() => data.frames.next()))).toEqual([`${height + 1}-3`])
    })
  )

  it.scopedLive("filters by type (ALL leaves out TX_ERROR), party and market (results have no market)", () =>
    Effect.gen(function* () {
      const node = yield* standalone
      const chainId = node.world.chain.chainId
      const subscribe = (request: unknown) =>
        promise(() =>
          connect(node.url, "/api/v2/stream/event/bus").then((client) => {
            client.send(JSON.stringify(request))
            return client
          })
        )
      const time = yield* subscribe({ type: ["BUS_EVENT_TYPE_TIME_UPDATE"] })
      const all = yield* subscribe({ type: ["BUS_EVENT_TYPE_ALL"] })
      const none = yield* subscribe({})
      const errors = yield* subscribe({ type: ["BUS_EVENT_TYPE_TX_ERROR"] })
      const market = yield* subscribe({ type: [1], marketId: OTHER_MARKET })
      const both = yield* subscribe({ type: [53, 201], partyId: B, marketId: MARKET })
      const party = yield* subscribe({ type: [53, 201, 2], partyId: B })
      const other = yield* subscribe({ type: ["BUS_EVENT_TYPE_ORDER"] })
      yield* promise(() => sleep(100))
      const block = node.publish([included(A, 1, true), included(B, 2, false), included(C, 3, true, OTHER_MARKET)])
      const nanos = `${block.timeMicros}000`
      expect(yield* promise(() => time.frames.next())).toBe(
        `{"result":{"events":[${eventJson(block, 2, chainId, `"timeUpdate":{"timestamp":"${nanos}"}`, 2)}]}}`
      )
      // begin, time, the three results, end (TX_ERROR left out)
      const everything = [1, 2, 3, 4, 6, 7].map((s) => `${block.height}-${s}`)
      expect(sortedIds(yield* promise(() => all.frames.next()))).toEqual(everything)
      expect(sortedIds(yield* promise(() => none.frames.next()))).toEqual(everything)
      expect(yield* promise(() => errors.frames.next())).toBe(
        `{"result":{"events":[${eventJson(block, 5, chainId, `"txErrEvent":{"partyId":"${B}","errMsg":"margin \\u003c required \\u0026 more","orderCancellation":{"marketId":"${MARKET}"}}`, 201, hashOf(2))}]}}`
      )
      // IsParty only: kept by a party filter, dropped by a market filter (time updates by both)
      expect(sortedIds(yield* promise(() => party.frames.next()))).toEqual([4, 5].map((s) => `${block.height}-${s}`))
      yield* promise(() => sleep(100))
      expect(other.frames.pending).toEqual([])
      expect(market.frames.pending).toEqual([])
      expect(both.frames.pending).toEqual([])
    })
  )

  it.scopedLive("with batchSize > 0 waits for an ack after each batch, and ends when none comes", () =>
    Effect.gen(function* () {
      const node = yield* standalone
      const client = yield* promise(() => connect(node.url, "/api/v2/stream/event/bus"))
      client.send(JSON.stringify({ type: ["BUS_EVENT_TYPE_TRANSACTION_RESULT"], batchSize: "2" }))
      yield* promise(() => sleep(50))
      const block = node.publish([included(A, 1, true), included(B, 2, true), included(C, 3, true)])
      expect(idsIn(yield* promise(() => client.frames.next()))).toEqual([`${block.height}-3`, `${block.height}-4`])
      yield* promise(() => sleep(150))
      expect(client.frames.pending).toEqual([])
      // the ack may change the batch size
      client.send(JSON.stringify({ batchSize: 1 }))
      expect(idsIn(yield* promise(() => client.frames.next()))).toEqual([`${block.height}-5`])
      const next = node.publish([included(A, 4, true), included(B, 5, true)])
      yield* promise(() => sleep(100))
      expect(client.frames.pending).toEqual([])
      client.send("{}")
      expect(idsIn(yield* promise(() => client.frames.next()))).toEqual([`${next.height}-3`, `${next.height}-4`])
      // no ack within the timeout: the stream fails
      expect(yield* promise(() => client.frames.next(1_000))).toBe(
        '{"error":{"code":4,"message":"context deadline exceeded"}}'
      )
      expect(yield* promise(() => client.closed)).toBe(1006)
    })
  )

  it.scopedLive("gives up on a client that sends no request in time", () =>
    Effect.gen(function* () {
      const node = yield* standalone
      const late = yield* promise(() => connect(node.url, "/api/v2/stream/event/bus"))
      yield* promise(() => sleep(450))
      node.publish([included(A, 1, true)])
      // the handler returned without an error; the proxy notices when it next reads the client
      late.send(JSON.stringify({ type: ["BUS_EVENT_TYPE_ALL"] }))
      expect(yield* promise(() => within(late.closed, 1_000))).toBe(1006)
      expect(late.frames.pending).toEqual([])
      // a request in time is served
      const prompt = yield* promise(() => connect(node.url, "/api/v2/stream/event/bus"))
      yield* promise(() => sleep(150))
      prompt.send(JSON.stringify({ type: ["BUS_EVENT_TYPE_ALL"] }))
      yield* promise(() => sleep(250))
      const block = node.publish([])
      expect(sortedIds(yield* promise(() => prompt.frames.next()))).toEqual(
        [1, 2, 3].map((s) => `${block.height}-${s}`)
      )
    })
  )

  it.scopedLive("ends with no frame when the first message does not decode, as the client's side ending", () =>
    Effect.gen(function* () {
      const node = yield* standalone
      // v0.75.8's generated handler decodes the body in its sending goroutine: a failure is only
      // logged and closes the sending side, the handler reads EOF and returns without a message
      const noFrame = (text: string) =>
        promise(async () => {
          const client = await connect(node.url, "/api/v2/stream/event/bus")
          client.send(text)
          expect(await client.closed).toBe(1006)
          expect(client.frames.pending).toEqual([])
          const http = openHttpStream(node.url, "/api/v2/stream/event/bus", { body: text })
          const response = await http.response
          expect([await http.ended, response.statusCode, http.body()]).toEqual(["end", 200, ""])
        })
      for (const text of ["nope", "[1]", '{"type":["BUS_EVENT_TYPE_NOPE!"]}', '{"batchSize":"1.5"}', '{"partyId":7}'])
        yield* noFrame(text)
      const firstFrame = (text: string) =>
        promise(async () => {
          const client = await connect(node.url, "/api/v2/stream/event/bus")
          client.send(text)
          const frame = await client.frames.next()
          expect(await client.closed).toBe(1006)
          return frame
        })
      // decodes, but the handler refuses the event type
      expect(yield* firstFrame('{"type":["BUS_EVENT_TYPE_UNSPECIFIED"]}')).toBe(
        `{"error":{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"malformed request","inner":"unsupported event"}]}}`
      )
    })
  )

  it.scopedLive("over plain HTTP reads the request body: none ends the stream at once", () =>
    Effect.gen(function* () {
      const node = yield* standalone
      const empty = yield* promise(() => request(node.url, "/api/v2/stream/event/bus"))
      expect([empty.status, empty.text, empty.headers["content-type"]]).toEqual([200, "", undefined])
      const push = openHttpStream(node.url, "/api/v2/stream/event/bus", {
        body: '{"type":["BUS_EVENT_TYPE_TRANSACTION_RESULT"]}'
      })
      const acked = openHttpStream(node.url, "/api/v2/stream/event/bus", {
        body: '{"type":["BUS_EVENT_TYPE_TRANSACTION_RESULT"],"batchSize":1}'
      })
      yield* promise(() => sleep(100))
      const block = node.publish([included(A, 1, true), included(B, 2, true)])
      expect(idsIn(yield* promise(() => push.lines.next()))).toEqual([`${block.height}-3`, `${block.height}-4`])
      expect(idsIn(yield* promise(() => acked.lines.next()))).toEqual([`${block.height}-3`])
      // the body ended: reading the ack fails
      expect(yield* promise(() => acked.lines.next())).toBe('{"error":{"code":2,"message":"EOF"}}')
      expect(yield* promise(() => acked.ended)).toBe("end")
      push.close()
    })
  )
})

describe("closing the simulator", () => {
  it.live("closes open streams and sockets promptly", () =>
    Effect.gen(function* () {
      const { socket, stream, waiting } = yield* Effect.scoped(
        Effect.gen(function* () {
          const sim = yield* Simulator.make({ seed: 11 })
          const stream = openHttpStream(sim.url, "/api/v2/stream/transaction-results")
          const waiting = openHttpStream(sim.url, "/api/v2/stream/transaction-results?partyIds=nobody")
          const socket = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
          socket.send("{}")
          yield* promise(() => sleep(100))
          yield* nextBlock(sim, [included(A, 1, true)])
          yield* promise(() => stream.lines.next())
          return { socket, stream, waiting }
        })
      )
      expect(yield* promise(() => within(stream.ended, 1_000))).toBe("aborted")
      expect(yield* promise(() => within(waiting.ended, 1_000))).toBe("aborted")
      expect(yield* promise(() => within(socket.closed, 1_000))).toBe(1006)
    })
  )
})

describe("the results feed", () => {
  it("counts its listeners as they subscribe and leave", () => {
    const feed = makeResultFeed()
    expect(feed.listeners()).toBe(0)
    const leaveFirst = feed.subscribe(() => {})
    const leaveSecond = feed.subscribe(() => {})
    expect(feed.listeners()).toBe(2)
    leaveFirst()
    expect(feed.listeners()).toBe(1)
    leaveSecond()
    expect(feed.listeners()).toBe(0)
  })
})
