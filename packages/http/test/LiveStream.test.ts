import { NodeSocket } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { LiveStream } from "@vega-effect/http"
import { EventBus, Position } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Duration, Effect, Option, Schedule, Schema, Stream } from "effect"
import { closedPort, clientOf, eventually, playNode, refuseUpgrades } from "./playNode.js"

const PARTY = "B5FD9D3C4AD553CB3196303B6E6DF7F484CF7F5331A572A45031239FD71AD8A0"
const MARKET = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
const LP_ID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

const positionJson = (openVolume: string) =>
  `{"marketId":"${MARKET}","partyId":"${PARTY.toLowerCase()}","openVolume":"${openVolume}","realisedPnl":"5","unrealisedPnl":"0","averageEntryPrice":"100","lossSocialisationAmount":"0","updatedAt":"1700000000000000000"}`
const snapshotFrame = (last: boolean) =>
  `{"result":{"snapshot":{"positions":[${positionJson("3")}]${last ? ',"lastPage":true' : ""}}}}\n`
const updatesFrame = `{"result":{"updates":{"positions":[${positionJson("7")}]}}}`
const lpFrame = `{"result":{"liquidityProvisions":[{"id":"${LP_ID}","partyId":"${PARTY.toLowerCase()}","createdAt":"1","updatedAt":"2","marketId":"${MARKET}","commitmentAmount":"1000","fee":"0.01","version":"2","status":1}]}}`
const busFrame = (height: number) =>
  `{"result":{"events":[{"id":"${height}-1","block":"ab","type":2,"timeUpdate":{"timestamp":"${height}000"},"version":1,"chainId":"c"}]}}`
const CHANNEL_CLOSED =
  '{"error":{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10010,"message":"internal stream failure","inner":"channel closed"}]}}'
const TOO_MANY = '{"code":8,"message":"client reached max subscription allowed","details":[]}'

const request = Schema.decodeSync(Position.ObservePositionsRequest)({ partyId: PARTY, marketId: MARKET })
const once = { reconnect: false } as const

/** Every observation of a stream that ends. */
const collect = <A>(stream: Stream.Stream<A, never, any>) =>
  Stream.runCollect(stream).pipe(
    Effect.map(Chunk.toReadonlyArray),
    Effect.provide(NodeSocket.layerWebSocketConstructor)
  )

const tags = (observations: ReadonlyArray<{ readonly _tag: string }>) => observations.map((o) => o._tag)

const endOf = <A>(observations: ReadonlyArray<LiveStream.Observation<A>>): LiveStream.StreamEnd => {
  const last = observations[observations.length - 1]
  if (!LiveStream.isDisconnected(last)) throw new Error(`the stream ended with ${last?._tag}`)
  return last.reason
}

describe("live streams: frames of each route", () => {
  it.scopedLive("positions: snapshot pages then updates, ids lowercase in the query", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => {
        c.send(snapshotFrame(false))
        c.send(snapshotFrame(true))
        c.send(updatesFrame)
        c.drop()
      })
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observePositions(request, once))
      expect(tags(seen)).toEqual(["Connected", "Message", "Message", "Message", "Disconnected"])
      expect(node.connections[0].path).toBe(
        `/api/v2/stream/positions?partyId=${PARTY.toLowerCase()}&marketId=${MARKET}`
      )
      const messages = seen.filter(LiveStream.isMessage).map((o) => o.message)
      expect(messages[0].snapshot?.lastPage).toBe(false)
      expect(messages[1].snapshot?.lastPage).toBe(true)
      expect(messages[1].snapshot?.positions[0].openVolume).toBe(3n)
      expect(messages[2].updates?.positions[0].openVolume).toBe(7n)
      expect(messages[2].updates?.positions[0].positionStatus).toBe("POSITION_STATUS_UNSPECIFIED")
      expect(endOf(seen)).toEqual(LiveStream.StreamEnd.Closed({ code: 1006, reason: "" }))
    })
  )

  it.scopedLive("positions with skipSnapshot: snapshot pages come without their positions, updates whole", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => {
        // a snapshot row that would not even decode: with skipSnapshot it is never looked at
        c.send(`{"result":{"snapshot":{"positions":[{"broken":true}],"lastPage":false}}}`)
        c.send(snapshotFrame(true))
        c.send(updatesFrame)
        c.drop()
      })
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observePositions(request, { ...once, skipSnapshot: true }))
      expect(tags(seen)).toEqual(["Connected", "Message", "Message", "Message", "Disconnected"])
      const messages = seen.filter(LiveStream.isMessage).map((o) => o.message)
      expect(messages.map((m) => [m.snapshot?.positions.length, m.snapshot?.lastPage])).toEqual([
        [0, false],
        [0, true],
        [undefined, undefined]
      ])
      expect(messages[2].updates?.positions[0].openVolume).toBe(7n)
    })
  )

  it.scopedLive("liquidity provisions: the records of each message", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => {
        c.send(lpFrame)
        c.drop()
      })
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observeLiquidityProvisions({ marketId: request.marketId! }, once))
      expect(node.connections[0].path).toBe(`/api/v2/stream/liquidity-provisions?marketId=${MARKET}`)
      const [message] = seen.filter(LiveStream.isMessage)
      expect(message.message.map((lp) => [lp.id, lp.status, lp.version, lp.reference])).toEqual([
        [LP_ID, "STATUS_ACTIVE", 2n, ""]
      ])
    })
  )

  it.scopedLive("event bus: the request frame first (REST form), then the events", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => {
        c.socket.once("message", () => {
          c.send(busFrame(5))
          c.drop()
        })
      })
      const client = yield* clientOf([node.url])
      const seen = yield* collect(
        client.observeEventBus({ types: ["BUS_EVENT_TYPE_TIME_UPDATE"], partyId: PARTY }, once)
      )
      expect(node.connections[0].path).toBe("/api/v2/stream/event/bus")
      expect(JSON.parse(node.connections[0].received[0])).toEqual({
        type: ["BUS_EVENT_TYPE_TIME_UPDATE"],
        marketId: "",
        partyId: PARTY.toLowerCase(),
        batchSize: "0"
      })
      // push mode: nothing but the subscription is sent
      expect(node.connections[0].received).toHaveLength(1)
      const [message] = seen.filter(LiveStream.isMessage)
      expect(message.message.map((e) => [e.id, e.type, e.timeUpdate?.timestamp])).toEqual([
        ["5-1", "BUS_EVENT_TYPE_TIME_UPDATE", 5000n]
      ])
    })
  )
})

describe("live streams: why a connection ended", () => {
  const endWith = (play: Parameters<typeof playNode>[0], options: LiveStream.ObserveOptions = once) =>
    Effect.gen(function* () {
      const node = yield* playNode(play)
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observePositions({}, options))
      return { seen, end: endOf(seen) }
    })

  it.scopedLive("a close without a frame is Closed, with the close code", () =>
    Effect.gen(function* () {
      const silent = yield* endWith((c) => c.drop())
      expect(tags(silent.seen)).toEqual(["Connected", "Disconnected"])
      expect(silent.end).toEqual(LiveStream.StreamEnd.Closed({ code: 1006, reason: "" }))
      const clean = yield* endWith((c) => c.socket.close(1001, "going away"))
      expect(clean.end).toEqual(LiveStream.StreamEnd.Closed({ code: 1001, reason: "going away" }))
    })
  )

  it.scopedLive("an error frame is Failed, with the node's error", () =>
    Effect.gen(function* () {
      const { end, seen } = yield* endWith((c) => {
        c.send(updatesFrame)
        c.send(CHANNEL_CLOSED)
      })
      expect(tags(seen)).toEqual(["Connected", "Message", "Disconnected"])
      if (!LiveStream.StreamEnd.$is("Failed")(end)) throw new Error(end._tag)
      expect(end.error.code).toBe(13)
      expect(end.error.details).toEqual([
        {
          "@type": "type.googleapis.com/vega.ErrorDetail",
          code: 10010,
          message: "internal stream failure",
          inner: "channel closed"
        }
      ])
    })
  )

  it.scopedLive("a bare status before any message is Refused; after a message, Failed", () =>
    Effect.gen(function* () {
      const refused = yield* endWith((c) => c.send(TOO_MANY))
      expect(refused.end).toEqual(
        LiveStream.StreamEnd.Refused({
          status: { code: 8, message: "client reached max subscription allowed", details: [] }
        })
      )
      const late = yield* endWith((c) => {
        c.send(updatesFrame)
        c.send(TOO_MANY)
      })
      expect(late.end._tag).toBe("Failed")
    })
  )

  it.scopedLive("an upgrade answered with an HTTP error is Refused, with that status's code", () =>
    Effect.gen(function* () {
      const node = yield* refuseUpgrades(429, TOO_MANY)
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observePositions({}, once))
      expect(tags(seen)).toEqual(["Disconnected"])
      const end = endOf(seen)
      if (!LiveStream.StreamEnd.$is("Refused")(end)) throw new Error(end._tag)
      expect(end.status.code).toBe(8)
      expect(end.status.message).toContain("429")
    })
  )

  it.scopedLive("a port nobody listens on is Unreachable", () =>
    Effect.gen(function* () {
      const url = yield* closedPort
      const client = yield* clientOf([url])
      const seen = yield* collect(client.observePositions({}, once))
      expect(tags(seen)).toEqual(["Disconnected"])
      const end = endOf(seen)
      if (!LiveStream.StreamEnd.$is("Unreachable")(end)) throw new Error(end._tag)
      expect(end.error.node).toBe(url)
      expect(end.error.description).toContain("ECONNREFUSED")
    })
  )

  it.scopedLive("no frame within idleTimeout is Idle, and the connection is closed", () =>
    Effect.gen(function* () {
      let closed = false
      const { end, seen } = yield* endWith(
        (c) => {
          c.send(updatesFrame)
          c.socket.on("close", () => (closed = true))
        },
        { reconnect: false, idleTimeout: "150 millis" }
      )
      expect(tags(seen)).toEqual(["Connected", "Message", "Disconnected"])
      expect(end).toEqual(LiveStream.StreamEnd.Idle({ after: Duration.millis(150) }))
      yield* eventually(() => closed)
    })
  )

  it.scopedLive("a frame that is not JSON, or not the route's message, is Undecodable", () =>
    Effect.gen(function* () {
      const garbage = yield* endWith((c) => c.send("<html>bad gateway</html>"))
      if (!LiveStream.StreamEnd.$is("Undecodable")(garbage.end)) throw new Error(garbage.end._tag)
      expect(garbage.end.message).toContain("not JSON")
      expect(garbage.end.message).toContain("<html>")
      const wrong = yield* endWith((c) => c.send('{"result":{"updates":{"positions":[{"openVolume":"x"}]}}}'))
      if (!LiveStream.StreamEnd.$is("Undecodable")(wrong.end)) throw new Error(wrong.end._tag)
      expect(wrong.end.message).toContain("does not decode")
    })
  )
})

describe("live streams: reconnecting", () => {
  it.scopedLive("connects again after a close: Connected again, attempt counted, retryIn given", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c, n) => {
        if (n <= 2) c.send(n === 1 ? snapshotFrame(true) : updatesFrame)
        c.drop()
      })
      const client = yield* clientOf([node.url])
      // one reconnect in a row without a message; a connection that served one starts it over
      const reconnect = Schedule.spaced("20 millis").pipe(Schedule.intersect(Schedule.recurs(1)))
      const seen = yield* collect(client.observePositions({}, { reconnect }))
      expect(tags(seen)).toEqual([
        "Connected",
        "Message",
        "Disconnected",
        "Connected",
        "Message",
        "Disconnected",
        "Connected",
        "Disconnected"
      ])
      const connected = seen.filter(LiveStream.isConnected)
      expect(connected.map((c) => [c.node, c.attempt])).toEqual([
        [node.url, 1],
        [node.url, 2],
        [node.url, 3]
      ])
      const disconnected = seen.filter(LiveStream.isDisconnected)
      expect(disconnected.map((d) => Option.map(d.retryIn, Duration.toMillis))).toEqual([
        Option.some(20),
        Option.some(20),
        Option.none()
      ])
      expect(node.connections).toHaveLength(3)
    })
  )

  it.scopedLive("reconnect: false ends the stream after the first Disconnected", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => c.drop())
      const client = yield* clientOf([node.url])
      const seen = yield* collect(client.observePositions({}, { reconnect: false }))
      expect(tags(seen)).toEqual(["Connected", "Disconnected"])
      expect(seen.filter(LiveStream.isDisconnected)[0].retryIn).toEqual(Option.none())
      yield* Effect.sleep("100 millis")
      expect(node.connections).toHaveLength(1)
    })
  )

  it.scopedLive("moves to another node when the first is down, resting the one that failed", () =>
    Effect.gen(function* () {
      const first = yield* playNode((c) => c.drop())
      const second = yield* playNode((c) => c.send(updatesFrame))
      const client = yield* clientOf([first.url, second.url])
      const reconnect = Schedule.spaced("10 millis")
      // the first node serves once, then goes away
      const seen = yield* client.observePositions({}, { reconnect }).pipe(
        Stream.tap((o) => (LiveStream.isDisconnected(o) && o.node === first.url ? first.stop : Effect.void)),
        Stream.takeUntil(LiveStream.isMessage),
        collect
      )
      const connected = seen.filter(LiveStream.isConnected)
      expect(connected.map((c) => c.node)).toEqual([first.url, second.url])
      const ends = seen.filter(LiveStream.isDisconnected).map((d) => [d.node, d.reason._tag])
      expect(ends[0]).toEqual([first.url, "Closed"])
      // once unreachable, the first node rests and the second takes over
      expect(ends.slice(1).every(([node, tag]) => node === first.url && tag === "Unreachable")).toBe(true)
      const status = yield* client.nodes
      expect(status.find((n) => n.url === first.url)!.consecutiveFailures).toBeGreaterThan(0)
    })
  )
})

describe("live streams: event bus acks", () => {
  it.scopedLive("one ack per message, sent only once the consumer pulled it", () =>
    Effect.gen(function* () {
      const node = yield* playNode((c) => {
        let height = 10
        // the node sends the next batch once the previous one is acknowledged
        c.socket.on("message", () => c.send(busFrame(height++)))
      })
      const client = yield* clientOf([node.url])
      const stream = client.observeEventBus({ types: ["BUS_EVENT_TYPE_TIME_UPDATE"], batchSize: 1 })
      const pull = yield* Stream.toPull(stream).pipe(Effect.provide(NodeSocket.layerWebSocketConstructor))
      const next = Effect.map(pull, (chunk) => Chunk.toReadonlyArray(chunk)).pipe(
        Effect.provide(NodeSocket.layerWebSocketConstructor)
      )
      expect(tags(yield* next)).toEqual(["Connected"])
      const connection = () => node.connections[0]
      yield* eventually(() => connection()?.received.length === 1)
      expect(JSON.parse(connection().received[0])).toMatchObject({ batchSize: "1" })
      // the first batch arrives but is not pulled: no ack
      yield* Effect.sleep("150 millis")
      expect(connection().received).toHaveLength(1)
      const first = yield* next
      expect(first.map((o) => (LiveStream.isMessage(o) ? o.message[0].id : o._tag))).toEqual(["10-1"])
      yield* eventually(() => connection().received.length === 2)
      expect(connection().received[1]).toBe('{"batchSize":"1"}')
      // the second batch came after that ack, and waits for the consumer in turn
      yield* Effect.sleep("150 millis")
      expect(connection().received).toHaveLength(2)
      const second = yield* next
      expect(second.map((o) => (LiveStream.isMessage(o) ? o.message[0].id : o._tag))).toEqual(["11-1"])
      yield* eventually(() => connection().received.length === 3)
    })
  )
})

describe("live streams: the simulator's event bus", () => {
  it.scopedLive("a TIME_UPDATE per block arrives through observeEventBus", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ blockInterval: "manual", seed: 3 })
      const client = yield* clientOf(sim.urls)
      const stream = client.observeEventBus(
        { types: ["BUS_EVENT_TYPE_TIME_UPDATE"] },
        { reconnect: false, idleTimeout: "5 seconds" }
      )
      const pull = yield* Stream.toPull(stream).pipe(Effect.provide(NodeSocket.layerWebSocketConstructor))
      const next = Effect.map(pull, (chunk) => Chunk.toReadonlyArray(chunk)).pipe(
        Effect.provide(NodeSocket.layerWebSocketConstructor)
      )
      const [connected] = yield* next
      expect(connected).toMatchObject({ _tag: "Connected", attempt: 1 })
      // the node subscribes once it has read the request frame
      yield* Effect.sleep("100 millis")
      const from = sim.world.height
      yield* sim.advance(2)
      const events: Array<EventBus.BusEvent> = []
      while (events.length < 2) {
        for (const o of yield* next) if (LiveStream.isMessage(o)) events.push(...o.message)
      }
      expect(events.map((e) => [e.type, EventBus.heightOf(e)])).toEqual([
        ["BUS_EVENT_TYPE_TIME_UPDATE", BigInt(from + 1)],
        ["BUS_EVENT_TYPE_TIME_UPDATE", BigInt(from + 2)]
      ])
      expect(events.every((e) => e.timeUpdate !== undefined)).toBe(true)
    })
  )
})
