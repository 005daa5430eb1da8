/**
 * The `vega-sim` command: flags and how they become simulator options. Every duration flag reads
 * the toolkit's one duration syntax (`DurationText`: `1s`, `500ms`, `1.5m`, `1 second`, …). The
 * world and its server are loaded only to serve (`serve.ts`), not for `--help`.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as DurationText from "@vega-effect/schema/DurationText"
import * as NodeLimits from "@vega-effect/schema/RateLimit"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Faults from "../Faults.js"
import type * as Simulator from "../Simulator.js"
import type * as World from "../World.js"
import { NODE_VERSIONS } from "./api/nodeVersion.js"
import * as WorldDefaults from "./world/defaults.js"

/** The defaults of the flags that have one, as `--help` shows them. */
export const DEFAULTS = {
  seed: String(WorldDefaults.DEFAULT_SEED),
  blocksPerEpoch: WorldDefaults.DEFAULT_BLOCKS_PER_EPOCH,
  fundingPeriodSeconds: WorldDefaults.DEFAULT_FUNDING_PERIOD_SECONDS,
  blockInterval: "1s",
  host: "127.0.0.1",
  port: 3008,
  nodes: 1,
  quirks: "none",
  nodeVersion: "v0.75"
} as const

/** `--help`'s line for a flag's default (@effect/cli does not show defaults itself). */
const defaultLine = (text: string) => Options.withDescription(`default: ${text}`)

/** What an optional flag without a value of its own means when it is left out. */
const NONE = "none"

/** A flag with a default, which `--help` shows. */
const withDefault = <A, const B extends A>(option: Options.Options<A>, fallback: B): Options.Options<A> =>
  option.pipe(Options.withDefault(fallback), defaultLine(String(fallback)))

/** A size of the world; left out, the world's default scale applies (shown by `--help`). */
const count = (name: string, key: keyof World.Scale, description: string) =>
  Options.integer(name).pipe(
    Options.withDescription(description),
    defaultLine(String(WorldDefaults.defaultScale[key])),
    Options.optional
  )

const duration = (name: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName("duration"), Options.withDescription(description))

export const flags = {
  seed: withDefault(
    Options.text("seed").pipe(Options.withDescription("seed of the world (same seed, same world)")),
    DEFAULTS.seed
  ),
  parties: count("parties", "parties", "number of parties"),
  markets: count("markets", "markets", "number of markets"),
  assets: count("assets", "assets", "number of assets"),
  positions: count("positions", "positions", "number of positions (up to parties x markets)"),
  stakeLinkings: count("stake-linkings", "stakeLinkings", "number of stake linkings"),
  liquidityProvisions: count("liquidity-provisions", "liquidityProvisions", "number of liquidity provisions"),
  referralSets: count("referral-sets", "referralSets", "number of referral sets"),
  epochs: count("epochs", "epochs", "epochs of history before the first block served"),
  blocksPerEpoch: withDefault(
    Options.integer("blocks-per-epoch").pipe(Options.withDescription("blocks in an epoch")),
    DEFAULTS.blocksPerEpoch
  ),
  fundingPeriodSeconds: withDefault(
    Options.integer("funding-period-seconds").pipe(
      Options.withDescription("seconds between perpetuals' funding settlements")
    ),
    DEFAULTS.fundingPeriodSeconds
  ),
  blockInterval: withDefault(
    duration("block-interval", `time between blocks: ${DurationText.EXPECTED}, or "manual"`),
    DEFAULTS.blockInterval
  ),
  host: withDefault(Options.text("host").pipe(Options.withDescription("host to listen on")), DEFAULTS.host),
  port: withDefault(
    Options.integer("port").pipe(
      Options.withDescription("port of the first node; further nodes use the next ports; 0 picks free ports")
    ),
    DEFAULTS.port
  ),
  nodes: withDefault(Options.integer("nodes").pipe(Options.withDescription("number of data nodes")), DEFAULTS.nodes),
  lag: Options.text("lag").pipe(
    Options.withDescription('blocks each node trails the chain by, comma-separated, e.g. "0,3,10"'),
    defaultLine("0 for every node"),
    Options.withDefault("")
  ),
  quirks: withDefault(
    Options.choice("quirks", ["none", "v0.75"]).pipe(
      Options.withDescription("reproduce the real v0.75 node's known bugs")
    ),
    DEFAULTS.quirks
  ),
  nodeVersion: withDefault(
    Options.choice("node-version", NODE_VERSIONS).pipe(
      Options.withDescription("the node release whose wire shapes the nodes write (v0.75.8 or v0.79.0)")
    ),
    DEFAULTS.nodeVersion
  ),
  rateLimit: Options.boolean("rate-limit").pipe(
    Options.withDescription(
      `rate-limit like the real node (${NodeLimits.RATE_PER_SECOND}/s, burst ${NodeLimits.BURST}, ` +
        `${DurationText.format(NodeLimits.BAN)} bans)`
    ),
    defaultLine("off")
  ),
  latency: duration("latency", `added latency: ${DurationText.EXPECTED}`).pipe(defaultLine(NONE), Options.optional),
  jitter: duration("jitter", `random extra latency, up to this: ${DurationText.EXPECTED}`).pipe(
    defaultLine(NONE),
    Options.optional
  ),
  errorRate: Options.float("error-rate").pipe(
    Options.withDescription("share of requests answered 500/503"),
    defaultLine(NONE),
    Options.optional
  ),
  resetRate: Options.float("reset-rate").pipe(
    Options.withDescription("share of responses cut by a connection reset"),
    defaultLine(NONE),
    Options.optional
  ),
  truncateRate: Options.float("truncate-rate").pipe(
    Options.withDescription("share of responses with truncated JSON"),
    defaultLine(NONE),
    Options.optional
  ),
  faultyNodes: Options.text("faulty-nodes").pipe(
    Options.withDescription('which nodes the faults apply to, 1-based and comma-separated, e.g. "2,3"'),
    defaultLine("all"),
    Options.withDefault("")
  )
}

export type Flags = {
  readonly [K in keyof typeof flags]: (typeof flags)[K] extends Options.Options<infer A> ? A : never
}

const numbers = (text: string): Array<number> =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map(Number)

/** A duration flag's value, or what is wrong with it (naming the flag). */
const durationOf = (flag: string, text: string): Either.Either<Duration.Duration, string> =>
  Either.fromOption(DurationText.parse(text), () => `--${flag}: expected ${DurationText.EXPECTED}; got "${text}"`)

const blockIntervalOf = (text: string): Either.Either<Duration.Duration | "manual", string> => {
  if (text === "manual") return Either.right("manual")
  const parsed = DurationText.parse(text)
  return Option.isSome(parsed) && Duration.greaterThan(parsed.value, Duration.zero)
    ? Either.right(parsed.value)
    : Either.left(`--block-interval: expected ${DurationText.EXPECTED} (more than zero), or "manual"; got "${text}"`)
}

const optionalDuration = (
  flag: string,
  text: Option.Option<string>
): Either.Either<Duration.Duration | undefined, string> =>
  Option.match(text, { onNone: () => Either.right(undefined), onSome: (value) => durationOf(flag, value) })

const scaleOf = (f: Flags): Partial<World.Scale> => {
  const scale: { -readonly [K in keyof World.Scale]?: number } = {}
  const set = (key: keyof World.Scale, value: Option.Option<number>) => {
    if (Option.isSome(value)) scale[key] = value.value
  }
  set("parties", f.parties)
  set("markets", f.markets)
  set("assets", f.assets)
  set("positions", f.positions)
  set("stakeLinkings", f.stakeLinkings)
  set("liquidityProvisions", f.liquidityProvisions)
  set("referralSets", f.referralSets)
  set("epochs", f.epochs)
  return scale
}

const faultsOf = (f: Flags, latency: Duration.Duration | undefined, jitter: Duration.Duration | undefined) => {
  const faults: { -readonly [K in keyof Faults.Options]: Faults.Options[K] } = {}
  if (latency !== undefined || jitter !== undefined) {
    faults.latency = { fixed: latency ?? Duration.zero, jitter: jitter ?? Duration.zero }
  }
  if (Option.isSome(f.errorRate)) faults.errorRate = f.errorRate.value
  if (Option.isSome(f.resetRate)) faults.resetRate = f.resetRate.value
  if (Option.isSome(f.truncateRate)) faults.truncateRate = f.truncateRate.value
  return faults
}

const nodesOf = (f: Flags, faults: Faults.Options): Array<Simulator.NodeOptions> => {
  const lags = numbers(f.lag)
  const faulty = new Set(numbers(f.faultyNodes))
  return Array.from({ length: Math.max(1, f.nodes) }, (_, i): Simulator.NodeOptions => ({
    name: `node-${i + 1}`,
    host: f.host,
    port: f.port === 0 ? 0 : f.port + i,
    lag: lags[i] ?? 0,
    rateLimit: f.rateLimit,
    ...(faulty.size === 0 || faulty.has(i + 1) ? { faults } : {})
  }))
}

/** The simulator options a set of flags asks for, or what is wrong with them. */
export const toOptions = (f: Flags): Simulator.Options | { readonly error: string } => {
  const interval = blockIntervalOf(f.blockInterval)
  if (Either.isLeft(interval)) return { error: interval.left }
  const latency = optionalDuration("latency", f.latency)
  if (Either.isLeft(latency)) return { error: latency.left }
  const jitter = optionalDuration("jitter", f.jitter)
  if (Either.isLeft(jitter)) return { error: jitter.left }
  if (f.nodes < 1) return { error: "--nodes: at least one node is needed" }
  if (f.fundingPeriodSeconds < 1) return { error: "--funding-period-seconds: at least one second" }
  return {
    seed: /^\d+$/.test(f.seed) ? Number(f.seed) : f.seed,
    scale: scaleOf(f),
    blocksPerEpoch: f.blocksPerEpoch,
    fundingPeriodSeconds: f.fundingPeriodSeconds,
    blockInterval: interval.right,
    quirks: f.quirks,
    nodeVersion: f.nodeVersion,
    nodes: nodesOf(f, faultsOf(f, latency.right, jitter.right))
  }
}

export const command = Command.make("vega-sim", flags, (f) =>
  Effect.gen(function* () {
    const options = toOptions(f)
    if ("error" in options) return yield* Effect.fail(new Error(options.error))
    // loaded only to serve: help and usage errors need none of the world
    const { serve } = yield* Effect.promise(() => import("./serve.js"))
    return yield* serve(options, f.seed)
  })
).pipe(Command.withDescription("A local Vega data node that behaves like the real one."))
