/**
 * The watcher's configuration: what to watch (with filters), where from, where the state lives,
 * where events go, and how it is operated. Read from a JSON file, the environment and flags (see
 * `cli.ts`); decoded with this schema, so a mistake is reported with its path.
 */
import { DurationText } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import { type Definition, definitions } from "./Resources.js"
import * as Secrets from "./Secrets.js"
import { toggleField } from "./WatchOptions.js"

const httpUrl = /^https?:\/\/\S+$/
/** A positive duration, written as in `"2s"`, `"500ms"` or `"1.5m"` (see `DurationText`); `fallback` when absent. */
const PositiveDuration = (fallback: Duration.Duration) =>
  Schema.optionalWith(DurationText.PositiveDurationFromText, { default: () => fallback })

export { PnlThresholds } from "./WatchOptions.js"

/** The state of a watcher of real nodes when `database` is not given. */
export const DEFAULT_STATE = "vega-watcher.db"

/**
 * The state of a watcher of a simulator started in the same process (no node given) when
 * `database` is not given: in memory. That chain starts anew at every run, so a state kept from an
 * earlier run would be ahead of it, and nothing would be reported until the new chain passed it.
 */
export const SIMULATED_STATE = ":memory:"

/** A data node's URL; a bad one is said in a sentence, as the reward report says it, not as a pattern. */
const NodeUrl = Schema.String.pipe(
  Schema.pattern(httpUrl, {
    message: (issue) => `expected an http(s) URL of a data node, got ${JSON.stringify(issue.actual)}`
  })
)

/** `watch.<resource>` for every resource, from the definitions' options, in report order. */
type WatchFields = {
  readonly [D in Definition as D["name"]]: ReturnType<typeof toggleField<D["options"]>>
}

/**
 * What to watch: every resource, each with its switch and its filters (see its definition's
 * `options`). `fromEntries` loses the names' types, hence the cast; `Resources.test.ts` checks the
 * fields follow the definitions.
 */
export const Watch = Schema.Struct(
  Object.fromEntries(definitions.map((definition) => [definition.name, toggleField(definition.options)])) as WatchFields
)
export type Watch = typeof Watch.Type

export const Webhook = Schema.Struct({
  url: Schema.String.pipe(Schema.pattern(httpUrl, { message: () => "an http(s) URL" })),
  /** Extra request headers (an `Authorization` header, say); values are secrets and never logged. */
  headers: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Redacted(Schema.String) }), {
    default: () => ({})
  }),
  /** Requests per second at most. */
  rate: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 5 }),
  /** How long to wait for an answer. */
  timeout: PositiveDuration(Duration.seconds(10)),
  /** Backoff between attempts: from `minBackoff`, doubling, up to `maxBackoff`; attempts never stop. */
  minBackoff: PositiveDuration(Duration.millis(500)),
  maxBackoff: PositiveDuration(Duration.minutes(1))
})
export type Webhook = typeof Webhook.Type

/** `nats://host:port` (the port may be left out: 4222); no credentials, since server URLs are logged. */
const ServerUrl = Schema.String.pipe(
  Schema.pattern(/^nats:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, {
    message: () => "a nats://host:port URL, without credentials (use user, password or token)"
  })
)

/** A stream name: no spaces, dots, wildcards or path separators. */
const StreamName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+$/, { message: () => "a stream name: letters, digits, _ and - only" })
)

/** Subject tokens separated by dots, without wildcards. */
const SubjectPrefix = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, {
    message: () => "a subject prefix: dot-separated tokens of letters, digits, _ and -, without wildcards"
  })
)

export const JetStream = Schema.Struct({
  /** The NATS servers to connect to (one is enough; the cluster tells the client about the others). */
  servers: Schema.optionalWith(Schema.NonEmptyArray(ServerUrl), { default: () => ["nats://127.0.0.1:4222"] }),
  /** The stream the events go to; created when missing. */
  stream: Schema.optionalWith(StreamName, { default: () => "VEGA_WATCHER" }),
  /** Events are published on `<subjectPrefix>.<kind>`; the stream takes `<subjectPrefix>.>`. */
  subjectPrefix: Schema.optionalWith(SubjectPrefix, { default: () => "vega.watcher" }),
  user: Schema.optional(Schema.String),
  /** With `user`. A secret: never logged. */
  password: Schema.optional(Schema.Redacted(Schema.String)),
  /** Token authentication, instead of `user` and `password`. A secret: never logged. */
  token: Schema.optional(Schema.Redacted(Schema.String)),
  /** The stream's duplicate window: how long JetStream remembers event ids to drop repeats. Default 2 minutes. */
  duplicateWindow: PositiveDuration(Duration.minutes(2)),
  /** How long to wait for a publish acknowledgement (and for the server's handshake at start). */
  timeout: PositiveDuration(Duration.seconds(10))
})
export type JetStream = typeof JetStream.Type

export const Sinks = Schema.Struct({
  /** JSON Lines on stdout. On unless another sink is configured. */
  stdout: Schema.optional(Schema.Boolean),
  /** A readable line per event on stdout. */
  console: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** JSON Lines appended to this file, exactly once across crashes. */
  file: Schema.optional(Schema.String),
  webhook: Schema.optional(Webhook),
  /** NATS JetStream: one stream, a subject per event kind, the event id as message id. */
  jetstream: Schema.optional(JetStream)
})
export type Sinks = typeof Sinks.Type

export const Simulated = Schema.Struct({
  seed: Schema.optionalWith(Schema.Int, { default: () => 1 }),
  blockInterval: PositiveDuration(Duration.seconds(1)),
  port: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 65535)), { default: () => 0 })
})

/**
 * How the watcher learns of changes: `live` follows the node's streams and reads again only what
 * they name (reconciling on a slow schedule, within a share of the node's rate limit); `poll` reads
 * every resource each `interval`, for nodes without streams.
 */
export const Mode = Schema.Literal("live", "poll")
export type Mode = typeof Mode.Type

export const Live = Schema.Struct({
  reconcileEvery: PositiveDuration(Duration.minutes(10)),
  positionsCheckEvery: PositiveDuration(Duration.seconds(30)),
  /** Requests per second reconciliations may use: a quarter of the node's 20 by default. */
  reconcileBudget: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 5 }),
  /**
   * Requests per second an empty state's first reads (backfills) may use: three quarters of the
   * node's 20 by default, the rest left to the live work (whose reads also go first at the node's
   * pacer), so that what is read first is reported at once while the rest is still being read.
   */
  backfillBudget: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 15 }),
  quiet: PositiveDuration(Duration.seconds(1)),
  idleTimeout: PositiveDuration(Duration.seconds(15))
})
export type Live = typeof Live.Type

export const WatcherConfig = Schema.Struct({
  mode: Schema.optionalWith(Mode, { default: () => "live" as const }),
  live: Schema.optionalWith(Live, { default: () => Schema.decodeSync(Live)({}) }),
  /** Data-node URLs; none: an in-process simulator is started and watched. */
  nodes: Schema.optionalWith(Schema.Array(NodeUrl), { default: () => [] }),
  /**
   * Where the state and the outbox live: a SQLite file, or a `postgres://` URL for PostgreSQL,
   * which several watchers (on several machines) can share, dividing the work between them.
   */
  database: Schema.optionalWith(Schema.String, { default: () => DEFAULT_STATE }),
  /** Time between cycles. */
  interval: PositiveDuration(Duration.seconds(2)),
  /**
   * How long a watcher's hold on a slice of the work lasts without renewal (renewed every third of
   * it): a watcher that stops is replaced after at most this long (at once on the same host).
   */
  lease: PositiveDuration(Duration.seconds(15)),
  /** Report every row found by the first sync of an empty state (by default they are only recorded). */
  initialEvents: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /**
   * A state recorded for another chain than the nodes': clear it and start over on theirs (by
   * default it is refused, and nothing written). A state of the nodes' chain is kept all the same.
   */
  resetState: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** Operations endpoint (/health, /ready, /metrics); 0 disables it. */
  port: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 65535)), { default: () => 9464 }),
  host: Schema.optionalWith(Schema.String, { default: () => "127.0.0.1" }),
  watch: Schema.optionalWith(Watch, { default: () => Schema.decodeSync(Watch)({}) }),
  sinks: Schema.optionalWith(Sinks, { default: () => ({ console: false }) }),
  simulator: Schema.optionalWith(Simulated, { default: () => Schema.decodeSync(Simulated)({}) })
})
export type WatcherConfig = typeof WatcherConfig.Type

/** Whether `database` names a PostgreSQL database (else it is a SQLite file). */
export const isPostgres = (database: string): boolean => /^postgres(ql)?:\/\//i.test(database)

/** `scheme://user:password@` at the start of a URL. */
const credentials = /^(\w+:\/\/[^:/@]*):([^@]*)@/

/** The password a PostgreSQL URL carries, if any: a secret. */
export const databasePassword = (database: string): string | undefined =>
  isPostgres(database) ? credentials.exec(database)?.[2] : undefined

/** The database setting without the password a PostgreSQL URL may carry, for logs and `--check`. */
export const databaseForDisplay = (database: string): string =>
  isPostgres(database) ? database.replace(credentials, `$1:${Secrets.REDACTED}@`) : database
