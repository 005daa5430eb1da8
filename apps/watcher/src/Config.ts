/**
 * The watcher's configuration: what to watch (with filters), where from, where the state lives,
 * where events go, and how it is operated. Read from a JSON file, the environment and flags (see
 * `cli.ts`); decoded with this schema, so a mistake is reported with its path.
 */
import { DurationText, Ids } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import * as Secrets from "./Secrets.js"

const Id = Schema.String.pipe(
  Schema.filter((s) => Ids.isVegaId(s), { message: () => "a 64-character hex id" }),
  Schema.transform(Schema.String, { strict: true, decode: (s) => s.toLowerCase(), encode: (s) => s })
)
const IdList = Schema.Array(Id)
const httpUrl = /^https?:\/\/\S+$/
/** An exact integer in the wire's raw units, e.g. "-5000000". */
const RawAmount = Schema.String.pipe(Schema.pattern(/^-?\d+$/, { message: () => "an integer string (raw units)" }))
/** A positive duration, written as in `"2s"`, `"500ms"` or `"1.5m"` (see `DurationText`); `fallback` when absent. */
const PositiveDuration = (fallback: Duration.Duration) =>
  Schema.optionalWith(DurationText.PositiveDurationFromText, { default: () => fallback })

export const PnlThresholds = Schema.Struct({
  realisedBelow: Schema.optional(RawAmount),
  realisedAbove: Schema.optional(RawAmount),
  unrealisedBelow: Schema.optional(RawAmount),
  unrealisedAbove: Schema.optional(RawAmount)
})
export type PnlThresholds = typeof PnlThresholds.Type

const Toggle = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }), ...fields })

export const Watch = Schema.Struct({
  positions: Schema.optionalWith(
    Toggle({
      parties: Schema.optional(IdList),
      markets: Schema.optional(IdList),
      pnlThresholds: Schema.optional(PnlThresholds)
    }),
    { default: () => ({ enabled: true }) }
  ),
  /** Stake is read per party: the listed parties, or every party that has a profile. */
  stake: Schema.optionalWith(Toggle({ parties: Schema.optional(IdList) }), { default: () => ({ enabled: true }) }),
  liquidity: Schema.optionalWith(Toggle({ parties: Schema.optional(IdList), markets: Schema.optional(IdList) }), {
    default: () => ({ enabled: true })
  }),
  signerBundles: Schema.optionalWith(Toggle({ nodes: Schema.optional(IdList) }), {
    default: () => ({ enabled: true })
  }),
  profiles: Schema.optionalWith(Toggle({ parties: Schema.optional(IdList) }), { default: () => ({ enabled: true }) }),
  rewards: Schema.optionalWith(Toggle({ parties: Schema.optional(IdList), assets: Schema.optional(IdList) }), {
    default: () => ({ enabled: true })
  }),
  referrals: Schema.optionalWith(Toggle({ sets: Schema.optional(IdList) }), { default: () => ({ enabled: true }) })
})
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
  quiet: PositiveDuration(Duration.seconds(1)),
  idleTimeout: PositiveDuration(Duration.seconds(15))
})
export type Live = typeof Live.Type

export const WatcherConfig = Schema.Struct({
  mode: Schema.optionalWith(Mode, { default: () => "live" as const }),
  live: Schema.optionalWith(Live, { default: () => Schema.decodeSync(Live)({}) }),
  /** Data-node URLs; none: an in-process simulator is started and watched. */
  nodes: Schema.optionalWith(Schema.Array(Schema.String.pipe(Schema.pattern(httpUrl))), {
    default: () => []
  }),
  /**
   * Where the state and the outbox live: a SQLite file, or a `postgres://` URL for PostgreSQL,
   * which several watchers (on several machines) can share, dividing the work between them.
   */
  database: Schema.optionalWith(Schema.String, { default: () => "vega-watcher.db" }),
  /** Time between cycles. */
  interval: PositiveDuration(Duration.seconds(2)),
  /**
   * How long a watcher's hold on a slice of the work lasts without renewal (renewed every third of
   * it): a watcher that stops is replaced after at most this long (at once on the same host).
   */
  lease: PositiveDuration(Duration.seconds(15)),
  /** Report every row found by the first sync of an empty state (by default they are only recorded). */
  initialEvents: Schema.optionalWith(Schema.Boolean, { default: () => false }),
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
