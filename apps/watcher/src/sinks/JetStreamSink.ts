/**
 * Each event published to a NATS JetStream stream, one at a time in commit order, each on the
 * subject of its kind: `<subjectPrefix>.<kind>`, e.g. `vega.watcher.position.opened` (a character
 * a subject cannot hold is replaced with `_`, see {@link subjectFor}). The message body is the
 * event's JSON line (`toJsonLine`) without the trailing newline the file sink adds: a NATS message
 * is already one framed record. Headers: `Nats-Msg-Id` (the event id), `Vega-Watcher-Kind` (the
 * event kind as it is, before any subject sanitizing), `Vega-Watcher-Seq` (the outbox sequence)
 * and `Content-Type: application/json`.
 *
 * Guarantees:
 * - Ordered and acknowledged: the next event is published only after the server acknowledged the
 *   previous one (its `PubAck`: the event is stored in the stream), and `deliver` succeeds only
 *   when every event of the batch is acknowledged, so the sink's cursor never passes an event the
 *   stream does not hold. Any failure (no ack within `timeout`, no stream answering, the
 *   connection down or closed) fails the whole `deliver`; the delivery loop sends the batch again.
 * - Exactly once in the stream, within the duplicate window: every message carries the event id
 *   as `Nats-Msg-Id`, and JetStream drops (and acknowledges as `duplicate`) a message whose id it
 *   has seen within the stream's `duplicate_window`. Events repeated by a retried batch, or by a
 *   restart after a crash between the ack and the cursor update, are therefore stored once, as long
 *   as the repeat comes within the window (`duplicateWindow`, 2 minutes by default). That is
 *   why `recover` answers 0: repeating the events in flight is harmless, the server deduplicates.
 * - Beyond the window (a watcher down for longer than the window with events in flight, or a
 *   delivery retried for longer than it), a repeat is stored again: at-least-once, same id, and a
 *   consumer that must see each event once deduplicates by the event id (in the body and in
 *   `Nats-Msg-Id`). A larger window costs the server memory for the ids it remembers.
 *
 * The stream (`stream`, file storage, subjects `<subjectPrefix>.>`) is created when it is missing.
 * An existing stream is used as it is, except that its duplicate window is set to the configured
 * one; one that takes other subjects is refused rather than changed (nothing else is touched).
 *
 * The connection is opened by `make` (failing at once when no server answers) and then reconnects
 * for as long as it takes; while it is down, deliveries fail and are retried. It is drained and
 * closed with the scope. The password and the token are secrets: they go into the connection
 * options only, and are never logged nor part of an error message. Server URLs cannot carry
 * credentials (they are logged): use `user`, `password` or `token`.
 */
import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type PubAck,
  StorageType,
  type StreamInfo
} from "@nats-io/jetstream"
import {
  connect,
  headers as natsHeaders,
  type NatsConnection,
  type NodeConnectionOptions,
  type Status
} from "@nats-io/transport-node"
import { DurationText } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { JetStream } from "../Config.js"
import { toJsonLine } from "../Event.js"
import * as Metrics from "../Metrics.js"
import * as Secrets from "../Secrets.js"
import { type PendingEvent, type Sink, SinkError } from "../Sink.js"

const NAME = "jetstream"

/**
 * The subject of an event kind: `<prefix>.<kind>`, where every character of a kind's token that a
 * subject token should not hold (anything but letters, digits, `_` and `-`: spaces, `*`, `>`...) is
 * replaced with `_`, and an empty token becomes `_`. Dots stay token separators.
 */
export const subjectFor = (prefix: string, kind: string): string =>
  [prefix, ...kind.split(".").map((token) => token.replace(/[^A-Za-z0-9_-]/gu, "_") || "_")].join(".")

/** The subjects the sink's stream takes. */
export const streamSubjects = (config: JetStream): ReadonlyArray<string> => [`${config.subjectPrefix}.>`]

/** An error and its causes as one line of text. */
const errorText = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const text = current.name && current.name !== "Error" ? `${current.name}: ${current.message}` : current.message
      if (text !== "" && !parts.some((part) => part.includes(text))) parts.push(text)
      current = (current as { cause?: unknown }).cause
    } else {
      parts.push(String(current))
      break
    }
  }
  return parts.join(": ") || "unknown error"
}

/** All of an error's text that may end up in a log (message, stack, causes), to look for secrets in. */
const fullText = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current))
      break
    }
    parts.push(current.message, current.stack ?? "")
    current = (current as { cause?: unknown }).cause
  }
  return parts.join("\n")
}

/** Why a publish failed, for `vega_watcher_sink_failures_total{reason}`, and what to say about it. */
const classify = (error: unknown, subject: string, config: JetStream): { reason: string; what: string } => {
  const name = error instanceof Error ? error.name : ""
  const causeName =
    (error as { cause?: unknown } | null)?.cause instanceof Error ? (error as { cause: Error }).cause.name : ""
  const text = errorText(error)
  if (name === "TimeoutError" || causeName === "TimeoutError") {
    return { reason: "timeout", what: `no acknowledgement in ${DurationText.format(config.timeout)}` }
  }
  if (name === "JetStreamNotEnabled" || /no responders/i.test(text)) {
    return {
      reason: "no_responders",
      what: `no JetStream stream answered on ${subject} (is stream ${config.stream} there, and JetStream enabled?)`
    }
  }
  if (name === "ClosedConnectionError" || name === "DrainingConnectionError") {
    return { reason: "closed", what: `the connection to NATS is closed (${text})` }
  }
  if (error instanceof JetStreamApiError) return { reason: "jetstream", what: `JetStream refused it: ${text}` }
  return { reason: "network", what: text }
}

const describeStream = (info: StreamInfo): string => `[${(info.config.subjects ?? []).join(", ")}]`

const attempts = Metrics.sinkAttemptsTotal.pipe(Metric.tagged("sink", NAME))
const failures = Metrics.sinkFailuresTotal.pipe(Metric.tagged("sink", NAME))

/** Text and errors of the sink, with the configured password and token kept out of them. */
interface SecretSafe {
  /** Hides the secrets in text that came back from the client or the server. */
  readonly scrub: (text: string) => string
  readonly sinkError: (message: string, cause?: unknown) => SinkError
}

const secretSafe = (config: JetStream): SecretSafe => {
  const secrets = Secrets.valuesOf([config.password, config.token])
  const scrub = (text: string): string => Secrets.scrub(text, secrets)
  /** An error as a `SinkError` cause, unless some text of it holds a secret. */
  const safeCause = (error: unknown): unknown => {
    const text = fullText(error)
    return secrets.some((secret) => text.includes(secret)) ? undefined : error
  }
  const sinkError = (message: string, cause?: unknown) =>
    new SinkError({
      sink: NAME,
      message: scrub(message),
      ...(cause === undefined ? {} : { cause: safeCause(cause) })
    })
  return { scrub, sinkError }
}

/** Refuses a password without a user, and a token given with a user or password. */
const checkCredentials = (config: JetStream, { sinkError }: SecretSafe): Effect.Effect<void, SinkError> => {
  const servers = config.servers.join(", ")
  if (config.password !== undefined && config.user === undefined) {
    return Effect.fail(sinkError(`NATS at ${servers}: a password needs a user`))
  }
  if (config.token !== undefined && (config.user !== undefined || config.password !== undefined)) {
    return Effect.fail(sinkError(`NATS at ${servers}: use either a token or a user and password, not both`))
  }
  return Effect.void
}

const connectionOptions = (config: JetStream, timeoutMillis: number): NodeConnectionOptions => ({
  servers: [...config.servers],
  name: "vega-watcher",
  // once connected, never give up reconnecting: deliveries fail (and are retried) meanwhile
  maxReconnectAttempts: -1,
  timeout: timeoutMillis,
  ...(config.user === undefined ? {} : { user: config.user }),
  ...(config.password === undefined ? {} : { pass: Redacted.value(config.password) }),
  ...(config.token === undefined ? {} : { token: Redacted.value(config.token) })
})

/** Logs the connection's status changes and its closing for good; drains and closes it with the scope. */
const watchConnection = (
  nc: NatsConnection,
  config: JetStream,
  scrub: (text: string) => string
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const servers = config.servers.join(", ")
    let closing = false
    yield* Stream.fromAsyncIterable(nc.status(), (error) => error).pipe(
      Stream.runForEach((status) => logStatus(status, scrub)),
      Effect.ignore,
      Effect.annotateLogs({ sink: NAME }),
      Effect.forkScoped
    )
    yield* Effect.promise(() => nc.closed()).pipe(
      Effect.flatMap((error) =>
        closing
          ? Effect.void
          : Effect.logError(
              `the connection to NATS at ${servers} closed for good` +
                (error instanceof Error ? `: ${scrub(errorText(error))}` : "") +
                "; deliveries fail until the watcher restarts"
            )
      ),
      Effect.annotateLogs({ sink: NAME }),
      Effect.forkScoped
    )
    // runs before the fibers above are interrupted: closing the connection ends the status iterator,
    // which could not be stopped while it waits for the next status
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closing = true
      }).pipe(
        Effect.zipRight(Effect.interruptible(Effect.tryPromise(() => nc.drain()))),
        Effect.timeout(config.timeout),
        Effect.ignore,
        Effect.zipRight(Effect.tryPromise(() => nc.close()).pipe(Effect.ignore))
      )
    )
  })

/** Connects (failing at once when no server answers), closed with the scope and watched meanwhile. */
const openConnection = (
  config: JetStream,
  timeoutMillis: number,
  { scrub, sinkError }: SecretSafe
): Effect.Effect<NatsConnection, SinkError, Scope.Scope> =>
  Effect.gen(function* () {
    const servers = config.servers.join(", ")
    const options = connectionOptions(config, timeoutMillis)
    const nc: NatsConnection = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => connect(options),
        catch: (cause) => {
          const text = errorText(cause)
          const hint = /authori[sz]ation|authentication/i.test(text) ? " (check user, password or token)" : ""
          return sinkError(`cannot connect to NATS at ${servers}: ${text}${hint}`, cause)
        }
      }),
      (nc) => Effect.tryPromise(() => nc.close()).pipe(Effect.ignore)
    )
    yield* Effect.logDebug(`connected to NATS at ${nc.getServer()}`).pipe(Effect.annotateLogs({ sink: NAME }))
    yield* watchConnection(nc, config, scrub)
    return nc
  })

/** What publishing an event needs. */
interface Publishing {
  readonly js: JetStreamClient
  readonly config: JetStream
  readonly timeoutMillis: number
  readonly sinkError: SecretSafe["sinkError"]
}

/** Publishes one event and waits for its acknowledgement; a repeat the server dropped is logged. */
const publishOne = (
  { config, js, sinkError, timeoutMillis }: Publishing,
  { event, seq }: PendingEvent
): Effect.Effect<void, SinkError> =>
  Effect.gen(function* () {
    const subject = subjectFor(config.subjectPrefix, event.kind)
    const headers = natsHeaders()
    headers.set("Content-Type", "application/json")
    headers.set("Vega-Watcher-Kind", event.kind.replace(/[\r\n]/g, " "))
    headers.set("Vega-Watcher-Seq", String(seq))
    yield* Metric.update(attempts, 1)
    const ack: PubAck = yield* Effect.tryPromise({
      try: () => js.publish(subject, toJsonLine(event), { msgID: event.id, timeout: timeoutMillis, headers }),
      catch: (cause) => cause
    }).pipe(
      Effect.catchAll((cause) => {
        const { reason, what } = classify(cause, subject, config)
        return Metric.update(failures.pipe(Metric.tagged("reason", reason)), 1).pipe(
          Effect.zipRight(
            Effect.fail(sinkError(`event ${event.id} (seq ${seq}) not acknowledged on ${subject}: ${what}`, cause))
          )
        )
      })
    )
    if (ack.duplicate) {
      yield* Effect.logDebug(
        `event ${event.id} (seq ${seq}) was already in stream ${ack.stream} (message ${ack.seq}): a repeat, dropped by the server`
      )
    }
  })

/** The sink publishing to the configured stream; the connection is drained and closed with the scope. */
export const make = (config: JetStream): Effect.Effect<Sink, SinkError, Scope.Scope> =>
  Effect.gen(function* () {
    const safe = secretSafe(config)
    const { sinkError } = safe
    const servers = config.servers.join(", ")
    // the NATS client counts milliseconds
    const timeoutMillis = Duration.toMillis(config.timeout)
    yield* checkCredentials(config, safe)

    const nc = yield* openConnection(config, timeoutMillis, safe)

    const jsm: JetStreamManager = yield* Effect.tryPromise({
      try: () => jetstreamManager(nc, { timeout: timeoutMillis }),
      catch: (cause) => sinkError(`JetStream is not available on NATS at ${servers}: ${errorText(cause)}`, cause)
    })
    yield* ensureStream(jsm, config, sinkError)

    const publishing: Publishing = { js: jetstream(nc, { timeout: timeoutMillis }), config, timeoutMillis, sinkError }
    const deliver = (events: ReadonlyArray<PendingEvent>): Effect.Effect<void, SinkError> =>
      Effect.forEach(events, (pending) => publishOne(publishing, pending), { discard: true }).pipe(
        Effect.annotateLogs({ sink: NAME })
      )

    return {
      name: NAME,
      // the server drops repeats by id within the duplicate window: sending the events in flight again is harmless
      recover: () => Effect.succeed(0),
      deliver
    } satisfies Sink
  })

const logStatus = (status: Status, scrub: (text: string) => string): Effect.Effect<void> => {
  switch (status.type) {
    case "disconnect":
      return Effect.logWarning(`disconnected from NATS at ${status.server}; reconnecting`)
    case "reconnect":
      return Effect.logInfo(`reconnected to NATS at ${status.server}`)
    case "error":
      return Effect.logWarning(`NATS: ${scrub(errorText(status.error))}`)
    case "ldm":
      return Effect.logInfo(`NATS at ${status.server} is entering lame duck mode; moving to another server`)
    case "staleConnection":
      return Effect.logWarning("the NATS connection is stale; reconnecting")
    default:
      return Effect.logDebug(`NATS connection status: ${status.type}`)
  }
}

/**
 * Creates the stream when it is missing; checks an existing one takes exactly the sink's subjects
 * (it is not changed otherwise) and sets its duplicate window to the configured one.
 */
const ensureStream = (
  jsm: JetStreamManager,
  config: JetStream,
  sinkError: (message: string, cause?: unknown) => SinkError
): Effect.Effect<void, SinkError> =>
  Effect.gen(function* () {
    const subjects = streamSubjects(config)
    // JetStream counts the window in nanoseconds
    const window = Number(Duration.unsafeToNanos(config.duplicateWindow))
    const windowText = DurationText.format(config.duplicateWindow)
    const info = (): Effect.Effect<StreamInfo | undefined, SinkError> =>
      Effect.tryPromise({
        try: () =>
          jsm.streams.info(config.stream).catch((error: unknown) => {
            if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return undefined
            throw error
          }),
        catch: (cause) => sinkError(`cannot read stream ${config.stream}: ${errorText(cause)}`, cause)
      })

    let existing = yield* info()
    if (existing === undefined) {
      const created = yield* Effect.tryPromise(() =>
        jsm.streams.add({
          name: config.stream,
          description: "Vega watcher events",
          subjects: [...subjects],
          duplicate_window: window,
          storage: StorageType.File
        })
      ).pipe(Effect.either)
      if (created._tag === "Right") {
        yield* Effect.logInfo(
          `created stream ${config.stream} (subjects ${subjects.join(", ")}, duplicate window ${windowText})`
        ).pipe(Effect.annotateLogs({ sink: NAME }))
        return
      }
      // another watcher may have created it meanwhile
      existing = yield* info()
      if (existing === undefined) {
        const cause = created.left.error
        return yield* Effect.fail(
          sinkError(
            `cannot create stream ${config.stream} with subjects ${subjects.join(", ")}: ${errorText(cause)}`,
            cause
          )
        )
      }
    }

    const actual = existing.config.subjects ?? []
    if (actual.length !== subjects.length || subjects.some((subject, index) => actual[index] !== subject)) {
      return yield* Effect.fail(
        sinkError(
          `stream ${config.stream} exists with subjects ${describeStream(existing)}, not [${subjects.join(", ")}]; ` +
            "it was left as it is: use another stream name or subject prefix, or change the stream"
        )
      )
    }
    if (existing.config.storage !== StorageType.File) {
      yield* Effect.logWarning(
        `stream ${config.stream} keeps its messages in ${existing.config.storage} storage: they do not survive a server restart`
      ).pipe(Effect.annotateLogs({ sink: NAME }))
    }
    if (existing.config.duplicate_window !== window) {
      const before = DurationText.format(Duration.nanos(BigInt(existing.config.duplicate_window)))
      yield* Effect.tryPromise({
        try: () => jsm.streams.update(config.stream, { duplicate_window: window }),
        catch: (cause) =>
          sinkError(
            `cannot set the duplicate window of stream ${config.stream} to ${windowText}: ${errorText(cause)}`,
            cause
          )
      })
      yield* Effect.logInfo(`stream ${config.stream}: duplicate window changed from ${before} to ${windowText}`).pipe(
        Effect.annotateLogs({ sink: NAME })
      )
    }
  })
