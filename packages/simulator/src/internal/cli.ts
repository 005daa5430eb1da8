/**
 * The `vega-sim` command: flags and how they become simulator options.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Simulator from "../Simulator.js"
import type * as World from "../World.js"

const count = (name: string, description: string) =>
  Options.integer(name).pipe(Options.withDescription(description), Options.optional)

const flags = {
  seed: Options.text("seed").pipe(
    Options.withDescription("seed of the world (same seed, same world)"),
    Options.withDefault("1")
  ),
  parties: count("parties", "number of parties"),
  markets: count("markets", "number of markets"),
  assets: count("assets", "number of assets"),
  positions: count("positions", "number of positions (up to parties x markets)"),
  stakeLinkings: count("stake-linkings", "number of stake linkings"),
  liquidityProvisions: count("liquidity-provisions", "number of liquidity provisions"),
  referralSets: count("referral-sets", "number of referral sets"),
  epochs: count("epochs", "epochs of history before the first block served"),
  blocksPerEpoch: Options.integer("blocks-per-epoch").pipe(Options.withDefault(50)),
  blockInterval: Options.text("block-interval").pipe(
    Options.withDescription('time between blocks, e.g. "1 second", or "manual"'),
    Options.withDefault("1 second")
  ),
  host: Options.text("host").pipe(Options.withDefault("127.0.0.1")),
  port: Options.integer("port").pipe(
    Options.withDescription("port of the first node; further nodes use the next ports; 0 picks free ports"),
    Options.withDefault(3008)
  ),
  nodes: Options.integer("nodes").pipe(Options.withDescription("number of data nodes"), Options.withDefault(1)),
  lag: Options.text("lag").pipe(
    Options.withDescription('blocks each node trails the chain by, comma-separated, e.g. "0,3,10"'),
    Options.withDefault("")
  ),
  quirks: Options.choice("quirks", ["none", "v0.75"]).pipe(
    Options.withDescription("reproduce the real v0.75 node's known bugs"),
    Options.withDefault("none" as const)
  ),
  rateLimit: Options.boolean("rate-limit").pipe(
    Options.withDescription("rate-limit like the real node (20/s, burst 100, bans)")
  ),
  latency: count("latency", "added latency in milliseconds"),
  jitter: count("jitter", "random extra latency in milliseconds"),
  errorRate: Options.float("error-rate").pipe(
    Options.withDescription("share of requests answered 500/503"),
    Options.optional
  ),
  resetRate: Options.float("reset-rate").pipe(
    Options.withDescription("share of responses cut by a connection reset"),
    Options.optional
  ),
  truncateRate: Options.float("truncate-rate").pipe(
    Options.withDescription("share of responses with truncated JSON"),
    Options.optional
  ),
  faultyNodes: Options.text("faulty-nodes").pipe(
    Options.withDescription('which nodes the faults apply to, 1-based and comma-separated (default: all), e.g. "2,3"'),
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

/** The simulator options a set of flags asks for, or what is wrong with them. */
export const toOptions = (f: Flags): Simulator.Options | { readonly error: string } => {
  const interval = f.blockInterval === "manual" ? "manual" : Duration.decodeUnknown(f.blockInterval)
  if (interval !== "manual" && Option.isNone(interval)) {
    return {
      error: `--block-interval: expected a duration such as "1 second" or "500 millis", or "manual"; got "${f.blockInterval}"`
    }
  }
  if (f.nodes < 1) return { error: "--nodes: at least one node is needed" }
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
  const lags = numbers(f.lag)
  const faulty = new Set(numbers(f.faultyNodes))
  const faults = {
    ...(Option.isSome(f.latency) || Option.isSome(f.jitter)
      ? { latency: { fixed: Option.getOrElse(f.latency, () => 0), jitter: Option.getOrElse(f.jitter, () => 0) } }
      : {}),
    ...Option.match(f.errorRate, { onNone: () => ({}), onSome: (errorRate) => ({ errorRate }) }),
    ...Option.match(f.resetRate, { onNone: () => ({}), onSome: (resetRate) => ({ resetRate }) }),
    ...Option.match(f.truncateRate, { onNone: () => ({}), onSome: (truncateRate) => ({ truncateRate }) })
  }
  const nodes = Array.from({ length: Math.max(1, f.nodes) }, (_, i): Simulator.NodeOptions => ({
    name: `node-${i + 1}`,
    host: f.host,
    port: f.port === 0 ? 0 : f.port + i,
    lag: lags[i] ?? 0,
    rateLimit: f.rateLimit,
    ...(faulty.size === 0 || faulty.has(i + 1) ? { faults } : {})
  }))
  return {
    seed: /^\d+$/.test(f.seed) ? Number(f.seed) : f.seed,
    scale,
    blocksPerEpoch: f.blocksPerEpoch,
    blockInterval: interval === "manual" ? "manual" : interval.value,
    quirks: f.quirks,
    nodes
  }
}

export const command = Command.make("vega-sim", flags, (f) =>
  Effect.gen(function* () {
    const started = Date.now()
    const options = toOptions(f)
    if ("error" in options) return yield* Effect.fail(new Error(options.error))
    const sim = yield* Simulator.make(options)
    yield* Console.log(
      `vega-sim: world of seed ${f.seed} at height ${sim.world.height} built in ${((Date.now() - started) / 1000).toFixed(1)} s`
    )
    for (const node of sim.nodes) yield* Console.log(`${node.name} ${node.url}`)
    yield* Effect.never
  })
).pipe(Command.withDescription("A local Vega data node that behaves like the real one."))
