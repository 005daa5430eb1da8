/**
 * Live streams over WebSocket: one connection at a time to a node of the pool, each reported as
 * `Connected`, messages, and one `Disconnected`; connections follow one another as the reconnect
 * schedule says.
 *
 * A connection is `@effect/platform`'s `Socket` over the ambient `WebSocketConstructor`. Frames
 * land in an unbounded inbox as they come (the node cannot be slowed down but by acks); the
 * stream hands them over one per pull, so in ack mode the acknowledgement of a message goes out
 * when the consumer pulls that message, and the node sends nothing more until then.
 */
import * as Socket from "@effect/platform/Socket"
import * as GatewayError from "@vega-effect/schema/GatewayError"
import * as StreamForm from "@vega-effect/schema/StreamForm"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Queue from "effect/Queue"
import type * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleIntervals from "effect/ScheduleIntervals"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import { Observation, type ObserveOptions, StreamEnd } from "../LiveStream.js"
import * as LiveStream from "../LiveStream.js"
import { excerpt } from "./answer.js"
import * as Metrics from "./metrics.js"
import type { Transport } from "./transport.js"

/** What a live stream connects to. */
export interface Route<A> {
  /** The RPC name, for logs and metrics. */
  readonly name: string
  /** The path with its query string. */
  readonly path: string
  /** A `{"result"}|{"error"}` frame decoder (see `StreamForm.frame`). */
  readonly decode: (u: unknown) => Either.Either<Frame<A>, ParseResult.ParseError>
  /** The frame to send once the socket is open (the event bus's subscription). */
  readonly subscribe?: string | undefined
  /** The frame to send as each message is pulled (the event bus's ack mode). */
  readonly ack?: string | undefined
}

export type Frame<A> = { readonly result: A } | { readonly error: GatewayError.ErrorBody }

/** A frame decoder for a route's message schema, built once per route. */
export const frameDecoder = <A, I>(message: Schema.Schema<A, I>) =>
  Schema.decodeUnknownEither(StreamForm.frame(message))

const decodeStatus = Schema.decodeUnknownEither(StreamForm.make(GatewayError.ErrorBody))

/** What the socket delivered, in order. */
type Incoming =
  | { readonly _tag: "Open" }
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "End"; readonly reason: StreamEnd }

/** `http(s)://host` → `ws(s)://host`. */
export const socketUrl = (node: string, path: string): string => `${node.replace(/^http/i, "ws")}${path}`

const decoder = new TextDecoder()

const undecodable = (what: string, text: string) => StreamEnd.Undecodable({ message: `${what}: ${excerpt(text)}` })

/** One frame, read: a message, or the end it announces. */
export const readFrame = <A>(route: Route<A>, text: string, messagesSoFar: number): Either.Either<A, StreamEnd> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left(undecodable("a frame that is not JSON", text))
  }
  if (typeof json === "object" && json !== null && !("result" in json) && !("error" in json) && "code" in json) {
    // the gateway's bare status: the stream failed before its first message
    return Either.match(decodeStatus(json), {
      onLeft: () => Either.left(undecodable("a status frame that does not decode", text)),
      onRight: (status) =>
        Either.left(messagesSoFar === 0 ? StreamEnd.Refused({ status }) : StreamEnd.Failed({ error: status }))
    })
  }
  return Either.match(route.decode(json), {
    onLeft: (error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`
      return Either.left(undecodable(`a frame that does not decode${where} (${issue?.message ?? error.message})`, text))
    },
    onRight: (frame) =>
      "result" in frame ? Either.right(frame.result) : Either.left(StreamEnd.Failed({ error: frame.error }))
  })
}

const UPGRADE_REFUSED = /Unexpected server response: (\d{3})/

/** The gRPC code of an HTTP status, for an upgrade answered with one. */
const grpcCodeOf = (status: number): number => {
  if (status === 500) return GatewayError.GrpcCode.Internal
  const names = Object.keys(GatewayError.HttpStatusByCode) as Array<GatewayError.GrpcCodeName>
  const name = names.find((n) => GatewayError.HttpStatusByCode[n] === status)
  return name === undefined ? GatewayError.GrpcCode.Unknown : GatewayError.GrpcCode[name]
}

const messageOf = (cause: unknown): string =>
  typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string"
    ? cause.message
    : String(cause)

/** Why the socket stopped, from how its run ended. */
export const endOf = (node: string, path: string, cause: Cause.Cause<Socket.SocketError>): StreamEnd => {
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return StreamEnd.Closed({ code: 1006, reason: Cause.pretty(cause).split("\n")[0] })
  const error = failure.value
  if (error.reason === "Close") return StreamEnd.Closed({ code: error.code, reason: error.closeReason ?? "" })
  const description = messageOf(error.cause)
  if (error.reason === "Read" || error.reason === "Write") return StreamEnd.Closed({ code: 1006, reason: description })
  const refused = UPGRADE_REFUSED.exec(description)
  if (refused !== null) {
    const status = Number(refused[1])
    const message = `the node answered the upgrade with HTTP ${status}`
    return StreamEnd.Refused({ status: { code: grpcCodeOf(status), message, details: [] } })
  }
  return StreamEnd.Unreachable({ error: new Errors.TransportError({ node, path, description, cause: error }) })
}

interface Settings {
  readonly idleTimeout: Option.Option<Duration.Duration>
  readonly openTimeout: Duration.Duration
}

/** Opens the socket of one connection: what it delivers lands in `inbox`; returns its writer. */
const openSocket = (
  node: string,
  route: Route<unknown>,
  inbox: Queue.Queue<Incoming>,
  openTimeout: Duration.Duration
): Effect.Effect<(frame: string) => Effect.Effect<void>, never, Scope.Scope | Socket.WebSocketConstructor> =>
  Effect.gen(function* () {
    // every close is an end to report, with its code
    const socket = yield* Socket.makeWebSocket(socketUrl(node, route.path), {
      closeCodeIsError: () => true,
      openTimeout
    })
    const writer = yield* socket.writer
    // a failed write shows up as the socket's end
    const write = (frame: string) => Effect.ignore(writer(frame))
    const onOpen = Effect.zipRight(
      route.subscribe === undefined ? Effect.void : write(route.subscribe),
      Queue.offer(inbox, { _tag: "Open" })
    )
    const onFrame = (data: string | Uint8Array) => {
      inbox.unsafeOffer({ _tag: "Text", text: typeof data === "string" ? data : decoder.decode(data) })
    }
    yield* socket.runRaw(onFrame, { onOpen }).pipe(
      Effect.catchAllCause((cause) => Queue.offer(inbox, { _tag: "End", reason: endOf(node, route.path, cause) })),
      Effect.forkScoped
    )
    return write
  })

/** The next thing the socket delivered, or `Idle` when nothing came in time once open. */
const receive = (
  inbox: Queue.Queue<Incoming>,
  idleTimeout: Option.Option<Duration.Duration>,
  since: number | undefined
): Effect.Effect<Incoming> =>
  Effect.flatMap(Queue.poll(inbox), (ready) => {
    if (Option.isSome(ready)) return Effect.succeed(ready.value)
    if (since === undefined || Option.isNone(idleTimeout)) return Queue.take(inbox)
    const idle = idleTimeout.value
    return Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Queue.take(inbox).pipe(
        Effect.timeoutTo({
          duration: Duration.millis(Math.max(0, since + Duration.toMillis(idle) - now)),
          onSuccess: (incoming): Incoming => incoming,
          onTimeout: (): Incoming => ({ _tag: "End", reason: StreamEnd.Idle({ after: idle }) })
        })
      )
    )
  })

/** How one connection ended, for the stream's loop. */
interface End {
  readonly _tag: "End"
  readonly node: string
  readonly reason: StreamEnd
  /** It delivered at least one message. */
  readonly served: boolean
}

/** One connection: `Connected`, its messages, then its `End` (always, and last). */
const connection = <A>(
  transport: Transport,
  route: Route<A>,
  settings: Settings,
  attempt: number
): Stream.Stream<Observation<A> | End, never, Socket.WebSocketConstructor> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const node = yield* transport.claim
      const inbox = yield* Effect.acquireRelease(Queue.unbounded<Incoming>(), Queue.shutdown)
      const write = yield* openSocket(node, route as Route<unknown>, inbox, settings.openTimeout)
      let lastFrame: number | undefined
      let opened = false
      let messages = 0
      let done = false
      // a frame can come before the open is seen (the node writes at once): it waits its turn
      let early: Incoming | undefined
      const end = (reason: StreamEnd): End => {
        done = true
        return { _tag: "End", node, reason, served: messages > 0 }
      }
      const handle = (incoming: Incoming, now: number): Effect.Effect<Observation<A> | End, Option.Option<never>> => {
        if (incoming._tag === "End") return Effect.succeed(end(incoming.reason))
        lastFrame = now
        if (!opened) {
          opened = true
          if (incoming._tag === "Text") early = incoming
          return Effect.as(connected(route, node, attempt), Observation.Connected({ node, attempt }))
        }
        if (incoming._tag === "Open") return pull
        const read = readFrame(route, incoming.text, messages)
        if (Either.isLeft(read)) return Effect.succeed(end(read.left))
        messages++
        return Effect.zipRight(
          Effect.zipRight(
            messages === 1 ? transport.recordStream(node, "served") : Effect.void,
            route.ack === undefined ? Effect.void : write(route.ack)
          ),
          Effect.succeed(Observation.Message({ node, message: read.right }))
        )
      }
      const next = Effect.suspend(() => {
        const ready = early
        early = undefined
        return ready === undefined ? receive(inbox, settings.idleTimeout, lastFrame) : Effect.succeed(ready)
      })
      const pull: Effect.Effect<Observation<A> | End, Option.Option<never>> = Effect.suspend(() =>
        done
          ? Effect.fail(Option.none())
          : Effect.flatMap(next, (incoming) => Effect.flatMap(Clock.currentTimeMillis, (now) => handle(incoming, now)))
      )
      return Stream.repeatEffectOption(pull)
    })
  )

const connected = (route: Route<unknown>, node: string, attempt: number) =>
  Effect.zipRight(
    Metric.increment(Metrics.streamConnectionsTotal).pipe(Effect.tagMetrics({ route: route.name, node })),
    Effect.logDebug(`live stream ${route.name} connected`).pipe(
      Effect.annotateLogs({ node, path: route.path, attempt })
    )
  )

/** What a reason says, in a log line. */
const describeEnd = (reason: StreamEnd): string =>
  StreamEnd.$match(reason, {
    Closed: ({ code, reason }) => `closed (${code}${reason === "" ? "" : ` ${reason}`})`,
    Failed: ({ error }) => `failed (${error.code} ${error.message})`,
    Refused: ({ status }) => `refused (${status.code} ${status.message})`,
    Unreachable: ({ error }) => `unreachable (${error.description})`,
    Idle: ({ after }) => `idle for ${Duration.format(after)}`,
    Undecodable: ({ message }) => message
  })

/** The stream's side of the reconnect schedule: its state, and whether the stream has ended. */
interface Run {
  attempt: number
  state: unknown
  ended: boolean
}

/** The wait before the next attempt, or none: the schedule is done (or reconnecting is off). */
const nextDelay = (
  schedule: Schedule.Schedule<unknown, StreamEnd> | false,
  run: Run,
  end: End
): Effect.Effect<Option.Option<Duration.Duration>> => {
  if (schedule === false) return Effect.succeed(Option.none())
  // a connection that served messages starts the backoff over
  if (end.served) run.state = schedule.initial
  return Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.map(schedule.step(now, end.reason, run.state), ([state, , decision]) => {
      run.state = state
      return ScheduleDecision.isDone(decision)
        ? Option.none()
        : Option.some(Duration.millis(Math.max(0, ScheduleIntervals.start(decision.intervals) - now)))
    })
  )
}

/** After a connection ended: the node's health, metrics, a log line, `Disconnected`, and the wait. */
const afterEnd = <A>(
  transport: Transport,
  route: Route<A>,
  schedule: Schedule.Schedule<unknown, StreamEnd> | false,
  run: Run,
  end: End
): Effect.Effect<Stream.Stream<Observation<A>>> =>
  Effect.gen(function* () {
    const { node, reason } = end
    if (reason._tag === "Refused") yield* transport.recordStream(node, "refused")
    if (reason._tag === "Unreachable") yield* transport.recordStream(node, "unreachable")
    const retryIn = yield* nextDelay(schedule, run, end)
    if (Option.isNone(retryIn)) run.ended = true
    yield* Metric.increment(Metrics.streamDisconnectsTotal).pipe(
      Effect.tagMetrics({ route: route.name, node, reason: reason._tag })
    )
    yield* Effect.logDebug(`live stream ${route.name} disconnected: ${describeEnd(reason)}`).pipe(
      Effect.annotateLogs({
        node,
        path: route.path,
        reason: reason._tag,
        retryInMillis: Option.getOrUndefined(Option.map(retryIn, Duration.toMillis))
      })
    )
    const disconnected = Stream.make(Observation.Disconnected({ node, reason, retryIn }))
    return Option.match(retryIn, {
      onNone: () => disconnected,
      onSome: (delay) => Stream.concat(disconnected, Stream.execute(Effect.sleep(delay)))
    })
  })

/** A live stream of `route`: connections one after another, as the reconnect schedule says. */
export const observe = <A>(
  transport: Transport,
  route: Route<A>,
  options: ObserveOptions = {}
): Stream.Stream<Observation<A>, never, Socket.WebSocketConstructor> =>
  Stream.suspend(() => {
    const schedule = options.reconnect ?? LiveStream.reconnectSchedule()
    const settings: Settings = {
      idleTimeout: Option.map(Option.fromNullable(options.idleTimeout), Duration.decode),
      openTimeout: LiveStream.DEFAULTS.openTimeout
    }
    const run: Run = { attempt: 0, state: schedule === false ? undefined : schedule.initial, ended: false }
    const once = (attempt: number) =>
      Stream.suspend(() => {
        let last: End | undefined
        return connection(transport, route, settings, attempt).pipe(
          Stream.filterMap((item) => (item._tag === "End" ? ((last = item), Option.none()) : Option.some(item))),
          Stream.concat(
            Stream.unwrap(
              Effect.suspend(() => afterEnd(transport, route, schedule, run, last ?? unended(route, attempt)))
            )
          )
        )
      })
    return Stream.repeatEffect(Effect.sync(() => ++run.attempt)).pipe(
      Stream.takeWhile(() => !run.ended),
      Stream.flatMap(once)
    )
  })

/** A connection always ends with its `End`; this stands in should it not (an interruption). */
const unended = (route: Route<unknown>, attempt: number): End => ({
  _tag: "End",
  node: "",
  reason: StreamEnd.Closed({ code: 1006, reason: `${route.name} attempt ${attempt} ended without a reason` }),
  served: false
})
