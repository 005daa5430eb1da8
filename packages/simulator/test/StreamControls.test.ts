import { describe, expect, it } from "@effect/vitest"
import * as net from "node:net"
import { Effect, Fiber } from "effect"
import { Simulator } from "@vega-effect/simulator"
import { request } from "./support/http.js"
import { connect, openHttpStream, type SocketClient, sleep, within } from "./support/streams.js"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** Every frame that arrives within `ms`. */
const drain = async (client: SocketClient, ms = 400): Promise<Array<string>> => {
  await sleep(ms)
  const out: Array<string> = []
  while (client.frames.pending.length > 0) out.push(await client.frames.next())
  return out
}

/** Reads the positions snapshot to its last page. */
const readSnapshot = async (client: SocketClient): Promise<void> => {
  for (;;) {
    const frame = JSON.parse(await client.frames.next())
    if (frame.result.snapshot.lastPage === true) return
  }
}

const CHANNEL_CLOSED =
  '{"error":{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10010,"message":"internal stream failure","inner":"channel closed"}]}}'

const TOO_MANY = '{"code":8,"message":"client reached max subscription allowed","details":[]}'

const world = { seed: 3, blocksPerEpoch: 5, scale: { epochs: 2 }, activity: { liquidityChanges: 5 } }

describe("cutStreams", () => {
  it.scopedLive("drops WebSocket streams without a close frame and destroys chunked ones; clients can come back", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const ws = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(ws))
      const chunked = openHttpStream(sim.url, "/api/v2/stream/positions")
      yield* promise(() => chunked.response)
      yield* sim.cutStreams()
      expect(yield* promise(() => within(ws.closed, 1_000))).toBe(1006)
      expect(yield* promise(() => within(chunked.ended, 1_000))).toBe("aborted")
      expect(chunked.body().endsWith("\n")).toBe(true)
      const again = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(again))
      expect((yield* promise(() => request(sim.url, "/api/v2/positions"))).status).toBe(200)
    })
  )
})

describe("dropPositionsBlock", () => {
  it.scopedLive("loses exactly the next block with updates, on the node told only", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...world, nodes: [{}, {}] })
      const told = yield* promise(() => connect(sim.urls[0], "/api/v2/stream/positions"))
      const other = yield* promise(() => connect(sim.urls[1], "/api/v2/stream/positions"))
      yield* promise(() => Promise.all([readSnapshot(told), readSnapshot(other)]))
      yield* sim.dropPositionsBlock(0)
      const byBlock = async (client: SocketClient): Promise<Array<string>> => {
        const times = (await drain(client)).flatMap((f) =>
          JSON.parse(f).result.updates.positions.map((p: any) => p.updatedAt)
        )
        return [...new Set(times)]
      }
      const toldBlocks: Array<string> = []
      const otherBlocks: Array<string> = []
      for (let i = 0; i < 3; i++) {
        yield* sim.advance(1)
        toldBlocks.push(...(yield* promise(() => byBlock(told))))
        otherBlocks.push(...(yield* promise(() => byBlock(other))))
      }
      expect(otherBlocks.length).toBe(3)
      expect(toldBlocks).toEqual(otherBlocks.slice(1))
    })
  )
})

describe("slowConsumerNext", () => {
  it.scopedLive("ends positions and LP streams with channel closed, and the event bus without a frame", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const positions = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(positions))
      const provisions = openHttpStream(sim.url, "/api/v2/stream/liquidity-provisions")
      const bus = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      bus.send(JSON.stringify({ type: [2] }))
      yield* promise(() => sleep(100))
      yield* sim.advance(1)
      expect(JSON.parse(yield* promise(() => bus.frames.next())).result.events[0].type).toBe(2)
      yield* promise(() => drain(positions))
      yield* sim.slowConsumerNext()
      yield* sim.advance(1)
      expect(yield* promise(() => positions.frames.next())).toBe(CHANNEL_CLOSED)
      expect(yield* promise(() => within(positions.closed, 1_000))).toBe(1006)
      expect(yield* promise(() => within(provisions.ended, 1_000))).toBe("end")
      expect(provisions.body().endsWith(`${CHANNEL_CLOSED}\n`)).toBe(true)
      expect(yield* promise(() => within(bus.closed, 1_000))).toBe(1006)
      expect(bus.frames.pending).toEqual([])
    })
  )

  it.scopedLive("ends a margin levels stream with channel closed", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      // no snapshot, so nothing comes before the next block: over a WebSocket the stream is open at once
      const margins = yield* promise(() => connect(sim.url, "/api/v2/stream/margin/levels"))
      yield* sim.slowConsumerNext()
      yield* sim.advance(1)
      expect(yield* promise(() => margins.frames.next())).toBe(CHANNEL_CLOSED)
      expect(yield* promise(() => within(margins.closed, 1_000))).toBe(1006)
    })
  )

  it.scopedLive("a client still reading the snapshot is subscribed to updates only once it caught up", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3, scale: { parties: 10_000, positions: 20_000 } })
      const { port } = new URL(sim.url)
      // a raw connection that reads nothing for a while: the node's handler blocks on its sends
      const socket = net.connect(Number(port), "127.0.0.1")
      socket.pause()
      socket.write("GET /api/v2/stream/positions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      yield* promise(() => sleep(1_500))
      // a block while the snapshot is unread: not a slow consumer of updates, and not sent to it
      yield* sim.advance(1)
      yield* promise(() => sleep(100))
      const chunks: Array<Buffer> = []
      socket.on("data", (chunk: Buffer) => chunks.push(chunk))
      socket.resume()
      yield* promise(() => sleep(1_000))
      // caught up: the next block's updates come
      yield* sim.advance(1)
      yield* promise(() => sleep(500))
      socket.destroy()
      const text = Buffer.concat(chunks).toString()
      expect(text.startsWith("HTTP/1.1 200 OK")).toBe(true)
      expect(text).toContain('"lastPage":true')
      expect(text).not.toContain(CHANNEL_CLOSED)
      expect(text).toContain('"updates"')
    })
  )

  it.scopedLive("a reading client is not", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3, scale: { parties: 10_000, positions: 20_000 } })
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(client))
      yield* sim.advance(1)
      const frames = yield* promise(() => drain(client))
      expect(frames.length).toBeGreaterThan(0)
      expect(frames.every((f) => JSON.parse(f).result.updates !== undefined)).toBe(true)
    })
  )
})

describe("streams per client", () => {
  it.scopedLive("refuses the 251st open stream: 429 over HTTP, one text frame then a drop over a WebSocket", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const open = yield* promise(() =>
        Promise.all(Array.from({ length: 250 }, () => connect(sim.url, "/api/v2/stream/liquidity-provisions")))
      )
      yield* promise(() => sleep(200))
      const refused = yield* promise(() => request(sim.url, "/api/v2/stream/liquidity-provisions"))
      expect(refused.status).toBe(429)
      expect(refused.text).toBe(TOO_MANY)
      const socket = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      expect(yield* promise(() => socket.frames.next())).toBe(TOO_MANY)
      expect(yield* promise(() => within(socket.closed, 1_000))).toBe(1006)
      // unary requests are not counted
      expect((yield* promise(() => request(sim.url, "/api/v2/positions"))).status).toBe(200)
      open[0].ws.terminate()
      yield* promise(() => open[0].closed)
      yield* promise(() => sleep(100))
      const admitted = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(admitted))
      for (const client of open) client.ws.terminate()
    })
  )
})

describe("commitWindow", () => {
  it.scopedLive("shows block N in X-Block-Height with N-1's data while the streams already have N", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...world, nodes: [{ commitWindow: "1500 millis" }] })
      const positions = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(positions))
      const bus = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      bus.send(JSON.stringify({ type: [50] }))
      yield* promise(() => sleep(100))
      yield* sim.advance(1)
      const height = sim.world.height
      const ended = JSON.parse(yield* promise(() => bus.frames.next())).result.events[0]
      expect(ended.endBlock.height).toBe(String(height))
      const update = JSON.parse(yield* promise(() => positions.frames.next())).result.updates.positions[0]
      const path = `/api/v2/positions?filter.partyIds=${update.partyId}&filter.marketIds=${update.marketId}`
      const during = yield* promise(() => request(sim.url, path))
      expect(during.headers["x-block-height"]).toBe(String(height))
      expect(sim.nodes[0].readableHeight()).toBe(height - 1)
      const rowOf = (text: string) => JSON.parse(text).positions.edges[0]?.node
      expect(rowOf(during.text)?.updatedAt).not.toBe(update.updatedAt)
      yield* promise(() => sleep(1_600))
      const after = yield* promise(() => request(sim.url, path))
      expect(after.headers["x-block-height"]).toBe(String(height))
      expect(rowOf(after.text).updatedAt).toBe(update.updatedAt)
    })
  )

  it.scopedLive("is off by default", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      yield* sim.advance(1)
      expect(sim.nodes[0].readableHeight()).toBe(sim.nodes[0].height())
    })
  )
})

describe("restartNode", () => {
  it.scopedLive("drops the streams, refuses connections for the downtime, then serves on the same port", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(client))
      const restart = yield* Effect.fork(sim.restartNode("600 millis"))
      expect(yield* promise(() => within(client.closed, 1_000))).toBe(1006)
      const refused = yield* promise(() =>
        request(sim.url, "/api/v2/positions").then(
          () => "answered",
          (error: NodeJS.ErrnoException) => error.code
        )
      )
      expect(refused).toBe("ECONNREFUSED")
      yield* Fiber.join(restart)
      expect((yield* promise(() => request(sim.url, "/api/v2/positions"))).status).toBe(200)
      const again = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      yield* promise(() => readSnapshot(again))
    })
  )
})
