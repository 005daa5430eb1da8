import * as net from "node:net"
import type { AddressInfo } from "node:net"
import { availableOrSkipped } from "../support/net.js"
import { it } from "@effect/vitest"
import { jetstreamManager, type JetStreamManager, StorageType } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { describe, expect } from "vitest"
import { makeEvent, toJsonLine } from "../../src/Event.js"
import * as Metrics from "../../src/Metrics.js"
import type { PendingEvent, Sink } from "../../src/Sink.js"
import * as JetStreamSink from "../../src/sinks/JetStreamSink.js"
import { JetStream } from "../../src/Config.js"
import { market, party, pendingEvents } from "./events.js"
import { captureLogs } from "../support/logs.js"

const HOST = "127.0.0.1"
const PORT = 4222
const SERVER = `nats://${HOST}:${PORT}`

const reachable = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port })
    socket.setTimeout(1000)
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("timeout", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(false))
  })

const available = availableOrSkipped(
  await reachable(HOST, PORT),
  `NATS JetStream is not reachable at ${HOST}:${PORT}`,
  "JetStream sink tests"
)

let counter = 0
/** A name no other test (nor another run) uses. */
const unique = () => `${process.pid}_${++counter}_${Date.now().toString(36)}`

const decodeConfig = Schema.decodeUnknownSync(JetStream)

interface Fixture {
  readonly stream: string
  readonly prefix: string
  readonly config: JetStream
  readonly jsm: JetStreamManager
}

/** A stream name and subject prefix of its own, and a manager on the real server; the stream is deleted with the scope. */
const fixture = (fields: Record<string, unknown> = {}): Effect.Effect<Fixture, never, Scope.Scope> =>
  Effect.gen(function* () {
    const id = unique()
    const stream = `VEGA_WATCHER_TEST_${id}`
    const prefix = `test.${id}.watcher`
    const nc = yield* Effect.acquireRelease(
      Effect.promise(() => connect({ servers: [SERVER] })),
      (nc) => Effect.promise(() => nc.close())
    )
    const jsm = yield* Effect.promise(() => jetstreamManager(nc))
    yield* Effect.addFinalizer(() => Effect.promise(() => jsm.streams.delete(stream).catch(() => false)))
    const config = decodeConfig({ servers: [SERVER], stream, subjectPrefix: prefix, ...fields })
    return { stream, prefix, config, jsm }
  })

/** Runs `f` with a sink that is closed afterwards, as a process that ends would. */
const withSink = <A, E>(config: JetStream, f: (sink: Sink) => Effect.Effect<A, E>) =>
  Effect.scoped(Effect.flatMap(JetStreamSink.make(config), f))

/** Every message of the stream, first to last. */
const messagesOf = (jsm: JetStreamManager, stream: string) =>
  Effect.promise(async () => {
    const info = await jsm.streams.info(stream)
    const messages = []
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq })
      if (message !== null) messages.push(message)
    }
    return { count: info.state.messages, messages }
  })

const streamInfo = (jsm: JetStreamManager, stream: string) => Effect.promise(() => jsm.streams.info(stream))

const counter$ = (metric: Metric.Metric.Counter<number>, tags: Record<string, string> = {}) =>
  Metric.value(
    Object.entries({ sink: "jetstream", ...tags }).reduce(
      (tagged, [key, value]) => Metric.tagged(tagged, key, value),
      metric
    )
  ).pipe(Effect.map((state) => state.count))

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const server = net.createServer()
      server.listen(0, HOST, () => {
        const { port } = server.address() as AddressInfo
        server.close(() => resolve(port))
      })
    })
)

/** Events of several kinds, one with characters a subject cannot hold. */
const mixedEvents = (): ReadonlyArray<PendingEvent> => {
  const at = (height: number) => ({ height, time: "2024-04-01T00:10:00.123456Z", node: "http://127.0.0.1:3008" })
  const key = `${market}/${party}`
  const kinds = ["position.opened", "stake.available_changed", "position.volume_changed", "odd kind*.>x"]
  return kinds.map((kind, index) => ({
    seq: 41 + index,
    event: makeEvent("positions", key, { kind, details: { index } }, at(2000 + index), null, {
      marketId: market,
      partyId: party,
      openVolume: String(index + 1)
    })
  }))
}

describe("JetStream config", () => {
  it("has the documented defaults", () => {
    const config = decodeConfig({})
    expect(config).toEqual({
      servers: ["nats://127.0.0.1:4222"],
      stream: "VEGA_WATCHER",
      subjectPrefix: "vega.watcher",
      duplicateWindow: Duration.minutes(2),
      timeout: Duration.seconds(10)
    })
    const secret = decodeConfig({ user: "watcher", password: "pa55" })
    expect(Redacted.isRedacted(secret.password)).toBe(true)
    expect(String(secret.password)).not.toContain("pa55")
  })

  it("refuses server URLs with credentials or another scheme, and prefixes or streams with wildcards", () => {
    for (const servers of [["nats://user:pass@127.0.0.1:4222"], ["http://127.0.0.1:4222"], []]) {
      expect(() => decodeConfig({ servers })).toThrow()
    }
    expect(() => decodeConfig({ subjectPrefix: "vega.*" })).toThrow()
    expect(() => decodeConfig({ subjectPrefix: "vega.>" })).toThrow()
    expect(() => decodeConfig({ subjectPrefix: "vega..watcher" })).toThrow()
    expect(() => decodeConfig({ subjectPrefix: "vega watcher" })).toThrow()
    expect(() => decodeConfig({ stream: "VEGA.WATCHER" })).toThrow()
    expect(decodeConfig({ servers: ["nats://nats-1:4222", "nats://10.0.0.2"] }).servers).toHaveLength(2)
  })

  it("puts each kind on its own subject, replacing what a subject cannot hold", () => {
    expect(JetStreamSink.subjectFor("vega.watcher", "position.opened")).toBe("vega.watcher.position.opened")
    expect(JetStreamSink.subjectFor("vega.watcher", "stake.available_changed")).toBe(
      "vega.watcher.stake.available_changed"
    )
    expect(JetStreamSink.subjectFor("p", "odd kind*.>x")).toBe("p.odd_kind_._x")
    expect(JetStreamSink.subjectFor("p", "a..b.")).toBe("p.a._.b._")
    expect(JetStreamSink.subjectFor("p", "tab\there.é")).toBe("p.tab_here._")
  })
})

describe("JetStreamSink without a server", () => {
  it.live("an unreachable server fails make with a SinkError naming the servers, within seconds", () =>
    Effect.gen(function* () {
      const port = yield* closedPort
      const servers = [`nats://127.0.0.1:${port}`]
      const started = Date.now()
      const error = yield* Effect.scoped(JetStreamSink.make(decodeConfig({ servers }))).pipe(Effect.flip)
      expect(Date.now() - started).toBeLessThan(5000)
      expect(error._tag).toBe("SinkError")
      expect(error.sink).toBe("jetstream")
      expect(error.message).toContain(`cannot connect to NATS at nats://127.0.0.1:${port}`)
      expect(error.message).toMatch(/refused/i)
    })
  )

  it.scopedLive(
    "sends the password to the server only: a refused login names neither it in the error nor in logs",
    () =>
      Effect.gen(function* () {
        const secret = `pw-${unique()}-Sup3rSecret`
        // a server that asks for credentials and refuses them, keeping what the client sent
        const received: Array<string> = []
        const server = yield* Effect.acquireRelease(
          Effect.promise(
            () =>
              new Promise<net.Server>((resolve) => {
                const server = net.createServer((socket) => {
                  socket.write(
                    'INFO {"server_id":"fake","version":"2.10.0","proto":1,"max_payload":1048576,"auth_required":true}\r\n'
                  )
                  socket.on("data", (data: Buffer) => {
                    received.push(data.toString("utf8"))
                    if (received.join("").includes("\r\n")) {
                      socket.write("-ERR 'Authorization Violation'\r\n")
                      socket.end()
                    }
                  })
                  socket.on("error", () => undefined)
                })
                server.listen(0, HOST, () => resolve(server))
              })
          ),
          (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
        )
        const { port } = server.address() as AddressInfo
        const logs = captureLogs()
        const config = decodeConfig({ servers: [`nats://${HOST}:${port}`], user: "watcher", password: secret })
        const error = yield* Effect.scoped(JetStreamSink.make(config)).pipe(
          Effect.flip,
          Effect.tap((error) => Effect.logWarning("jetstream: delivery failed, retrying", error)),
          Effect.provide(logs.layer),
          Logger.withMinimumLogLevel(LogLevel.All)
        )
        expect(received.join("")).toContain(`"pass":"${secret}"`)
        expect(error.message).toMatch(/authorization violation/i)
        expect(error.message).toContain("check user, password or token")
        expect(error.message).not.toContain(secret)
        expect(String(error)).not.toContain(secret)
        expect(JSON.stringify(error)).not.toContain(secret)
        expect(logs.lines.length).toBeGreaterThan(0)
        for (const line of logs.lines) expect(line.text).not.toContain(secret)
      })
  )
})

describe.skipIf(!available)("JetStreamSink against NATS at 127.0.0.1:4222", () => {
  it.scopedLive(
    "creates its stream and publishes each event on its kind's subject, in order, exactly as a JSON line",
    () =>
      Effect.gen(function* () {
        const { config, jsm, prefix, stream } = yield* fixture()
        const events = [...mixedEvents(), ...pendingEvents(3, 45)]
        yield* withSink(config, (sink) =>
          Effect.gen(function* () {
            expect(sink.name).toBe("jetstream")
            expect(yield* sink.recover(events)).toBe(0)
            yield* sink.deliver(events.slice(0, 2))
            yield* sink.deliver(events.slice(2))
          })
        )

        const info = yield* streamInfo(jsm, stream)
        expect(info.config.subjects).toEqual([`${prefix}.>`])
        expect(info.config.duplicate_window).toBe(120_000 * 1_000_000)
        expect(info.config.storage).toBe(StorageType.File)

        const { count, messages } = yield* messagesOf(jsm, stream)
        expect(count).toBe(events.length)
        expect(messages.map((message) => message.subject)).toEqual([
          `${prefix}.position.opened`,
          `${prefix}.stake.available_changed`,
          `${prefix}.position.volume_changed`,
          `${prefix}.odd_kind_._x`,
          `${prefix}.position.volume_changed`,
          `${prefix}.position.volume_changed`,
          `${prefix}.position.volume_changed`
        ])
        messages.forEach((message, index) => {
          const { event, seq } = events[index]
          expect(message.string()).toBe(toJsonLine(event))
          expect(message.header.get("Nats-Msg-Id")).toBe(event.id)
          expect(message.header.get("Vega-Watcher-Kind")).toBe(event.kind)
          expect(message.header.get("Vega-Watcher-Seq")).toBe(String(seq))
          expect(message.header.get("Content-Type")).toBe("application/json")
        })
      })
  )

  it.scopedLive("a batch delivered again (a restart after a crash) is stored once per event id", () =>
    Effect.gen(function* () {
      const { config, jsm, stream } = yield* fixture()
      const events = pendingEvents(6)
      const attemptsBefore = yield* counter$(Metrics.sinkAttemptsTotal)
      yield* withSink(config, (sink) => sink.deliver(events.slice(0, 4)))
      expect((yield* messagesOf(jsm, stream)).count).toBe(4)

      // the process died before the cursor moved: the new one sends every pending event again
      const logs = captureLogs()
      yield* withSink(config, (sink) =>
        Effect.gen(function* () {
          const already = yield* sink.recover(events)
          yield* sink.deliver(events.slice(already))
          // and a retried batch overlapping what is stored
          yield* sink.deliver(events.slice(2, 5))
        })
      ).pipe(Effect.provide(logs.layer), Logger.withMinimumLogLevel(LogLevel.All))

      const { count, messages } = yield* messagesOf(jsm, stream)
      expect(count).toBe(6)
      expect(messages.map((message) => message.string())).toEqual(events.map(({ event }) => toJsonLine(event)))
      expect(messages.map((message) => message.header.get("Vega-Watcher-Seq"))).toEqual(
        events.map(({ seq }) => String(seq))
      )
      expect((yield* counter$(Metrics.sinkAttemptsTotal)) - attemptsBefore).toBe(4 + 6 + 3)
      const repeats = logs.lines.filter((line) => line.level === "DEBUG" && line.text.includes("a repeat"))
      expect(repeats).toHaveLength(4 + 3)
    })
  )

  it.scopedLive("an existing stream taking other subjects is refused with a clear SinkError and left as it is", () =>
    Effect.gen(function* () {
      const { config, jsm, prefix, stream } = yield* fixture()
      const other = `other.${unique()}.>`
      yield* Effect.promise(() => jsm.streams.add({ name: stream, subjects: [other], storage: StorageType.Memory }))
      const error = yield* Effect.scoped(JetStreamSink.make(config)).pipe(Effect.flip)
      expect(error._tag).toBe("SinkError")
      expect(error.sink).toBe("jetstream")
      expect(error.message).toContain(`stream ${stream} exists with subjects [${other}], not [${prefix}.>]`)
      expect((yield* streamInfo(jsm, stream)).config.subjects).toEqual([other])
    })
  )

  it.scopedLive(
    "an existing stream with another duplicate window gets the configured one, and nothing else changes",
    () =>
      Effect.gen(function* () {
        const { config, jsm, prefix, stream } = yield* fixture({ duplicateWindow: "1m" })
        yield* Effect.promise(() =>
          jsm.streams.add({
            name: stream,
            subjects: [`${prefix}.>`],
            storage: StorageType.File,
            duplicate_window: 5_000 * 1_000_000,
            max_msgs: 1000
          })
        )
        yield* withSink(config, (sink) => sink.deliver(pendingEvents(2)))
        const info = yield* streamInfo(jsm, stream)
        expect(info.config.duplicate_window).toBe(60_000 * 1_000_000)
        expect(info.config.max_msgs).toBe(1000)
        expect(info.config.subjects).toEqual([`${prefix}.>`])
        expect(info.state.messages).toBe(2)
      })
  )

  it.scopedLive("an unacknowledged publish fails the delivery with a SinkError and counts a failure", () =>
    Effect.gen(function* () {
      const { config, jsm, prefix, stream } = yield* fixture()
      const events = pendingEvents(2)
      const failuresBefore = yield* counter$(Metrics.sinkFailuresTotal, { reason: "no_responders" })
      const error = yield* withSink(config, (sink) =>
        Effect.gen(function* () {
          // nothing takes the subjects any more
          yield* Effect.promise(() => jsm.streams.delete(stream))
          return yield* sink.deliver(events)
        })
      ).pipe(Effect.flip)
      expect(error._tag).toBe("SinkError")
      expect(error.message).toContain(`event ${events[0].event.id} (seq 1) not acknowledged`)
      expect(error.message).toContain(`${prefix}.position.volume_changed`)
      expect(error.message).toContain(`is stream ${stream} there`)
      expect((yield* counter$(Metrics.sinkFailuresTotal, { reason: "no_responders" })) - failuresBefore).toBe(1)
    })
  )

  it.scopedLive("stops at the first event the stream refuses: the events after it are not published", () =>
    Effect.gen(function* () {
      const { config, jsm, prefix, stream } = yield* fixture()
      // the stream takes messages of 2000 bytes at most
      yield* Effect.promise(() =>
        jsm.streams.add({
          name: stream,
          subjects: [`${prefix}.>`],
          storage: StorageType.File,
          duplicate_window: 120_000 * 1_000_000,
          max_msg_size: 2000
        })
      )
      const [first, , third] = pendingEvents(3)
      const large: PendingEvent = {
        seq: 2,
        event: makeEvent(
          "positions",
          `${market}/${party}`,
          { kind: "position.opened", details: { padding: "x".repeat(4000) } },
          { height: 1002, time: "2024-04-01T00:10:00.123456Z", node: "http://127.0.0.1:3008" },
          null,
          { marketId: market, partyId: party, openVolume: "1" }
        )
      }
      const failuresBefore = yield* counter$(Metrics.sinkFailuresTotal, { reason: "jetstream" })
      const error = yield* withSink(config, (sink) => sink.deliver([first, large, third])).pipe(Effect.flip)
      expect(error._tag).toBe("SinkError")
      expect(error.message).toContain(`event ${large.event.id} (seq 2) not acknowledged on ${prefix}.position.opened`)
      expect(error.message).toMatch(/JetStream refused it: .*size/i)
      expect((yield* counter$(Metrics.sinkFailuresTotal, { reason: "jetstream" })) - failuresBefore).toBe(1)
      const { count, messages } = yield* messagesOf(jsm, stream)
      expect(count).toBe(1)
      expect(messages[0].string()).toBe(toJsonLine(first.event))
    })
  )

  it.scopedLive("a password never shows in logs nor errors, while delivering or failing", () =>
    Effect.gen(function* () {
      const secret = `pw-${unique()}-Sup3rSecret`
      // the local server takes any credentials when it has no authentication configured
      const { config, jsm, stream } = yield* fixture({ user: "watcher", password: secret })
      const logs = captureLogs()
      const error = yield* withSink(config, (sink) =>
        Effect.gen(function* () {
          yield* sink.deliver(pendingEvents(2))
          yield* sink.deliver(pendingEvents(2))
          yield* Effect.promise(() => jsm.streams.delete(stream))
          return yield* sink.deliver(pendingEvents(1, 3))
        })
      ).pipe(
        Effect.flip,
        // as the delivery loop reports it
        Effect.tap((error) => Effect.logWarning("jetstream: delivery failed, retrying", error)),
        Effect.provide(logs.layer),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
      expect(error._tag).toBe("SinkError")
      expect(logs.lines.length).toBeGreaterThan(2)
      for (const line of logs.lines) expect(line.text).not.toContain(secret)
      expect(error.message).not.toContain(secret)
      expect(String(error)).not.toContain(secret)
      expect(JSON.stringify(error)).not.toContain(secret)
    })
  )
})
