/**
 * A running simulated network behind `Simulator.make`: the world and its core, one HTTP server per
 * node (each serving the world at its own height), and the block clock.
 */
import type * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Faults from "../Faults.js"
import * as RateLimit from "../RateLimit.js"
import type { Node, NodeOptions, Options, Service } from "../Simulator.js"
import { World } from "../World.js"
import { DEFAULT_COMMIT_WINDOW_MILLIS } from "./api/limits.js"
import type { NodeView } from "./api/node.js"
import type { NodeVersion } from "./api/nodeVersion.js"
import { routes, streamRoutes } from "./api/routes.js"
import { StreamControls } from "./api/streamControls.js"
import { CommitWindow } from "./commitWindow.js"
import * as Contract from "./core/contract.js"
import { Core } from "./core/core.js"
import { microsToNanos } from "./goTime.js"
import { makeHandler } from "./http/handler.js"
import { type ListenError, type Listening, listen } from "./http/listen.js"
import { checkOptions } from "./options.js"

/** How often versions nobody can see any more are pruned. */
const PRUNE_EVERY = 50

/** What every node reads: the world, the core that writes to it, and the block results. */
interface Network {
  readonly world: World
  readonly core: Core
  readonly feed: Contract.ResultFeed
  readonly quirks: boolean
  readonly nodeVersion: NodeVersion
}

const rateLimiterOf = (rateLimit: NodeOptions["rateLimit"]): RateLimit.RateLimiter | undefined =>
  rateLimit === undefined || rateLimit === false ? undefined : RateLimit.make(rateLimit === true ? {} : rateLimit)

/** A node with what the simulator keeps to drive it. */
interface RunningNode {
  readonly node: Node
  /** Notes the node's height now (for its commit window). */
  readonly tick: () => void
  readonly listening: Listening
  readonly controls: StreamControls
  readonly cutStreams: () => void
}

/** Starts the `index`th node (0-based) on its own port, serving the world at its own height. */
const startNode = (
  network: Network,
  spec: NodeOptions,
  index: number
): Effect.Effect<RunningNode, ListenError, Scope.Scope> =>
  Effect.gen(function* () {
    const { core, feed, nodeVersion, quirks, world } = network
    let lag = Math.max(0, spec.lag ?? 0)
    let frozenAt: number | undefined = spec.frozen === true ? Math.max(1, world.height - lag) : undefined
    const height = () => frozenAt ?? Math.max(1, world.height - lag)
    const window = new CommitWindow(
      Duration.toMillis(Duration.decode(spec.commitWindow ?? DEFAULT_COMMIT_WINDOW_MILLIS)),
      height()
    )
    const tick = (): void => window.reach(height())
    const readableHeight = (): number => {
      tick()
      return Math.min(window.readable(), height())
    }
    const controls = new StreamControls()
    const view: NodeView = {
      world,
      get height() {
        return height()
      },
      get readableHeight() {
        return readableHeight()
      },
      quirks,
      nodeVersion,
      core,
      feed,
      controls
    }
    const faults = Faults.make({ seed: world.seed + index, ...spec.faults })
    const rateLimiter = rateLimiterOf(spec.rateLimit)
    const listener = makeHandler<NodeView>({
      routes,
      streams: streamRoutes,
      node: view,
      block: (node) => ({ height: node.height, timestampNanos: microsToNanos(world.chain.blockTime(node.height)) }),
      rateLimiter,
      faults
    })
    const listening = yield* listen(listener, { host: spec.host, port: spec.port })
    const node: Node = {
      name: spec.name ?? `node-${index + 1}`,
      url: listening.url,
      height,
      readableHeight,
      setLag: (blocks) => {
        lag = Math.max(0, blocks)
        tick()
      },
      freeze: () => {
        frozenAt = height()
      },
      unfreeze: () => {
        frozenAt = undefined
        tick()
      },
      faults,
      rateLimiter
    }
    return { node, tick, listening, controls, cutStreams: listener.cutStreams }
  })

/** Processes blocks one by one, pruning now and then what no node can see any more. */
const advancer =
  ({ core, world }: Network, running: ReadonlyArray<RunningNode>) =>
  (blocks = 1): Effect.Effect<void> =>
    Effect.sync(() => {
      for (let i = 0; i < blocks; i++) {
        world.advance(1)
        for (const { tick } of running) tick()
        core.sync()
        if (world.height % PRUNE_EVERY === 0) {
          world.prune(Math.min(...running.map(({ node }) => node.readableHeight())))
        }
      }
    })

/** The nodes a control acts on: the `index`th, or every node when absent. */
const targets = (running: ReadonlyArray<RunningNode>, index: number | undefined): Effect.Effect<Array<RunningNode>> =>
  index === undefined
    ? Effect.succeed([...running])
    : index >= 0 && index < running.length && Number.isInteger(index)
      ? Effect.succeed([running[index]])
      : Effect.dieMessage(`no node ${index}: the simulator runs ${running.length}`)

/** The test controls of the nodes' streams and listeners. */
const controlsOf = (
  running: ReadonlyArray<RunningNode>
): Pick<Service, "cutStreams" | "dropPositionsBlock" | "slowConsumerNext" | "restartNode"> => {
  const each =
    (f: (node: RunningNode) => void) =>
    (index?: number): Effect.Effect<void> =>
      Effect.flatMap(targets(running, index), (nodes) => Effect.sync(() => nodes.forEach(f)))
  return {
    cutStreams: each((n) => n.cutStreams()),
    dropPositionsBlock: each((n) => n.controls.dropPositionsBlock()),
    slowConsumerNext: each((n) => n.controls.slowConsumerNext()),
    restartNode: (downtime, index) =>
      Effect.flatMap(targets(running, index), (nodes) =>
        Effect.forEach(
          nodes,
          ({ listening }) => Effect.zipRight(Effect.zipRight(listening.stop, Effect.sleep(downtime)), listening.start),
          { concurrency: "unbounded", discard: true }
        )
      )
  }
}

const serviceOf = (network: Network, running: ReadonlyArray<RunningNode>, advance: Service["advance"]): Service => {
  const { core, feed, world } = network
  const nodes = running.map(({ node }) => node)
  return {
    world,
    nodes,
    url: nodes[0].url,
    urls: nodes.map((n) => n.url),
    advance,
    ...controlsOf(running),
    height: Effect.sync(() => world.height),
    feed,
    mempoolSize: Effect.sync(() => core.mempoolSize),
    spamParameters: Effect.sync(() => core.spamParameters),
    setSpamParameters: (parameters) => Effect.sync(() => core.setSpamParameters(parameters)),
    setTradingEnabled: (enabled) =>
      Effect.sync(() => {
        core.limits.tradingEnabled = enabled
      })
  }
}

/** Builds the world, starts the nodes and the block clock for the life of the scope. */
export const make = (given?: Options): Effect.Effect<Service, ListenError | ConfigError.ConfigError, Scope.Scope> =>
  Effect.gen(function* () {
    const options = yield* checkOptions(given)
    const world = yield* Effect.sync(() => new World(options))
    const feed = Contract.makeResultFeed()
    const core = yield* Effect.sync(
      () => new Core(world, { spam: options.spam, tradingEnabled: options.tradingEnabled }, feed)
    )
    const network: Network = {
      world,
      core,
      feed,
      quirks: options.quirks === "v0.75",
      nodeVersion: options.nodeVersion ?? "v0.75"
    }
    const specs = options.nodes ?? [{}]
    const nodes: Array<RunningNode> = []
    for (let i = 0; i < specs.length; i++) nodes.push(yield* startNode(network, specs[i], i))
    const advance = advancer(network, nodes)
    const interval = options.blockInterval ?? "manual"
    if (interval !== "manual") {
      yield* Effect.forkScoped(Effect.repeat(advance(1), Schedule.spaced(Duration.decode(interval))))
    }
    return serviceOf(network, nodes, advance)
  })
