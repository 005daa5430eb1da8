/**
 * A running simulated network behind `Simulator.make`: the world and its core, one HTTP server per
 * node (each serving the world at its own height), and the block clock.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Faults from "../Faults.js"
import * as RateLimit from "../RateLimit.js"
import type { Node, NodeOptions, Options, Service } from "../Simulator.js"
import { World } from "../World.js"
import type { NodeView } from "./api/node.js"
import { routes, streamRoutes } from "./api/routes.js"
import * as Contract from "./core/contract.js"
import { Core } from "./core/core.js"
import { microsToNanos } from "./goTime.js"
import { makeHandler } from "./http/handler.js"
import { type ListenError, listen } from "./http/listen.js"

/** How often versions nobody can see any more are pruned. */
const PRUNE_EVERY = 50

/** What every node reads: the world, the core that writes to it, and the block results. */
interface Network {
  readonly world: World
  readonly core: Core
  readonly feed: Contract.ResultFeed
  readonly quirks: boolean
}

const rateLimiterOf = (rateLimit: NodeOptions["rateLimit"]): RateLimit.RateLimiter | undefined =>
  rateLimit === undefined || rateLimit === false ? undefined : RateLimit.make(rateLimit === true ? {} : rateLimit)

/** Starts the `index`th node (0-based) on its own port, serving the world at its own height. */
const startNode = (network: Network, spec: NodeOptions, index: number): Effect.Effect<Node, ListenError, Scope.Scope> =>
  Effect.gen(function* () {
    const { core, feed, quirks, world } = network
    let lag = Math.max(0, spec.lag ?? 0)
    let frozenAt: number | undefined = spec.frozen === true ? Math.max(1, world.height - lag) : undefined
    const height = () => frozenAt ?? Math.max(1, world.height - lag)
    const view: NodeView = {
      world,
      get height() {
        return height()
      },
      quirks,
      core,
      feed
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
    return {
      name: spec.name ?? `node-${index + 1}`,
      url: listening.url,
      height,
      setLag: (blocks) => {
        lag = Math.max(0, blocks)
      },
      freeze: () => {
        frozenAt = height()
      },
      unfreeze: () => {
        frozenAt = undefined
      },
      faults,
      rateLimiter
    }
  })

/** Processes blocks one by one, pruning now and then what no node can see any more. */
const advancer =
  ({ core, world }: Network, nodes: ReadonlyArray<Node>) =>
  (blocks = 1): Effect.Effect<void> =>
    Effect.sync(() => {
      for (let i = 0; i < blocks; i++) {
        world.advance(1)
        core.sync()
        if (world.height % PRUNE_EVERY === 0) world.prune(Math.min(...nodes.map((n) => n.height())))
      }
    })

const serviceOf = (network: Network, nodes: ReadonlyArray<Node>, advance: Service["advance"]): Service => {
  const { core, feed, world } = network
  return {
    world,
    nodes,
    url: nodes[0].url,
    urls: nodes.map((n) => n.url),
    advance,
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
export const make = (options: Options = {}): Effect.Effect<Service, ListenError, Scope.Scope> =>
  Effect.gen(function* () {
    const world = yield* Effect.sync(() => new World(options))
    const feed = Contract.makeResultFeed()
    const core = yield* Effect.sync(
      () => new Core(world, { spam: options.spam, tradingEnabled: options.tradingEnabled }, feed)
    )
    const network: Network = { world, core, feed, quirks: options.quirks === "v0.75" }
    const specs = options.nodes ?? [{}]
    const nodes: Array<Node> = []
    for (let i = 0; i < specs.length; i++) nodes.push(yield* startNode(network, specs[i], i))
    const advance = advancer(network, nodes)
    const interval = options.blockInterval ?? "manual"
    if (interval !== "manual") {
      yield* Effect.forkScoped(Effect.repeat(advance(1), Schedule.spaced(Duration.decode(interval))))
    }
    return serviceOf(network, nodes, advance)
  })
