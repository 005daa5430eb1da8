/**
 * A running simulated network: one world, served by one or more data nodes over HTTP, with blocks
 * advancing on a clock or on demand.
 *
 * Each node serves the world as of its own height: a node can lag a number of blocks behind the
 * chain or be frozen, and can inject faults or rate-limit like the real node, so clients can be
 * tested for failover, retries and pacing.
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Input } from "@vega-effect/schema"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type * as Faults from "./Faults.js"
import type * as Contract from "./internal/core/contract.js"
import type * as Spam from "./internal/core/spam.js"
import type { ListenError } from "./internal/http/listen.js"
import * as internal from "./internal/simulator.js"
import type * as RateLimit from "./RateLimit.js"
import type { World, Options as WorldOptions } from "./World.js"

/**
 * The `spam.pow.*` network parameters.
 *
 * @since 0.1.0
 * @category Models
 */
export type SpamParameters = Spam.SpamParameters

/**
 * The results of each block, in height order.
 *
 * @since 0.1.0
 * @category Models
 */
export type ResultFeed = Contract.ResultFeed

/**
 * What one block produced: its height, hash, time and each included transaction's result.
 *
 * @since 0.1.0
 * @category Models
 */
export type BlockResults = Contract.BlockResults

/**
 * One data node.
 *
 * @since 0.1.0
 * @category Models
 */
export interface NodeOptions {
  readonly name?: string
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number
  /** Host to listen on; default 127.0.0.1. */
  readonly host?: string
  /** Blocks this node trails the chain by. */
  readonly lag?: number
  /** Start frozen: the node stays at its height while the chain moves on. */
  readonly frozen?: boolean
  readonly faults?: Faults.Options
  /** Rate limiting as the real node does it; off unless given (`true` for the node's defaults). */
  readonly rateLimit?: boolean | RateLimit.Options
  /**
   * How long the node takes to commit each block it reaches, e.g. `"30 millis"`; default 0 (none).
   * During the window `X-Block-Height` already shows the new block N and its streams and event
   * bus have delivered N's updates and events, but REST reads still serve the data of N-1 (the
   * real node caches the height when a block starts and commits its data at the block's end). A
   * read showing `X-Block-Height` ≥ N+1 is sure to include block N.
   */
  readonly commitWindow?: Duration.DurationInput
}

/**
 * The world (see `World.Options`), the nodes serving it, the block clock, the node release and
 * quirks to reproduce, and the network's spam and trading settings.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options extends WorldOptions {
  /** `"v0.75"` reproduces the real node's known bugs; the default serves correct behaviour. */
  readonly quirks?: "none" | "v0.75"
  /**
   * The node release whose wire shapes the nodes write: `"v0.75"` (v0.75.8, the default) or
   * `"v0.79"` (v0.79.0: the fields added since, such as positions' fees, referral statistics'
   * factor objects, bundles' and assets' `chainId`, markets' AMM and reordering settings, and
   * transaction results' `statusDetail`). Behaviour is the same.
   */
  readonly nodeVersion?: "v0.75" | "v0.79"
  /** Wall-clock time between blocks, or `"manual"` to advance only with {@link Service.advance}. */
  readonly blockInterval?: Duration.DurationInput | "manual"
  /** The nodes serving the world; one node on a free port by default. */
  readonly nodes?: ReadonlyArray<NodeOptions>
  /**
   * The proof-of-work spam parameters (`spam.pow.*`); unset ones take the network's defaults
   * (difficulty 15, 100 past blocks, 2 transactions per block, no increasing difficulty).
   */
  readonly spam?: Partial<SpamParameters>
  /** Whether the network allows trading; when not, order and liquidity commands fail with code 51. */
  readonly tradingEnabled?: boolean
}

/**
 * A node as the simulator runs it.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Node {
  readonly name: string
  /** Base URL, e.g. `http://127.0.0.1:43121`. */
  readonly url: string
  /** The height this node has reached (its `X-Block-Height`, and what its streams delivered). */
  readonly height: () => number
  /** The height whose data its REST reads serve: {@link height}, or one less during a commit window. */
  readonly readableHeight: () => number
  /** Makes the node trail the chain by `blocks`. */
  readonly setLag: (blocks: number) => void
  /** Stops the node at its current height until {@link Node.unfreeze}. */
  readonly freeze: () => void
  readonly unfreeze: () => void
  readonly faults: Faults.Faults
  readonly rateLimiter: RateLimit.RateLimiter | undefined
}

/**
 * A running simulator: its world and nodes, the chain's controls (advance, spam parameters,
 * trading), the results of each block, and controls for tests that break streams and nodes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Service {
  readonly world: World
  readonly nodes: ReadonlyArray<Node>
  /** The first node's base URL. */
  readonly url: string
  readonly urls: ReadonlyArray<string>
  /** Processes `blocks` more blocks (1 by default). */
  readonly advance: (blocks?: number) => Effect.Effect<void>
  readonly height: Effect.Effect<number>
  /** The results of each block the core builds (published even for a block with no transactions). */
  readonly feed: ResultFeed
  /** Transactions accepted into the mempool and not yet in a block. */
  readonly mempoolSize: Effect.Effect<number>
  /** The spam parameters in force at the current height. */
  readonly spamParameters: Effect.Effect<SpamParameters>
  /** Changes spam parameters from the next block on, as a network parameter update does. */
  readonly setSpamParameters: (parameters: Partial<SpamParameters>) => Effect.Effect<void>
  /** Allows or stops trading on the network. */
  readonly setTradingEnabled: (enabled: boolean) => Effect.Effect<void>
  /**
   * Test control: drops every open stream connection of node `node` (an index into
   * {@link nodes}; every node when absent) now. WebSockets close without a close frame (1006),
   * chunked responses are destroyed before their end. Nothing else changes; clients may reconnect.
   */
  readonly cutStreams: (node?: number) => Effect.Effect<void>
  /**
   * Test control: the positions streams open now on `node` (every node when absent) do not send
   * the updates of their next block that has any, as when the node misses a block's flush.
   */
  readonly dropPositionsBlock: (node?: number) => Effect.Effect<void>
  /**
   * Test control: at their next block, the positions and liquidity-provision streams open now on
   * `node` (every node when absent) end as slow consumers do, with the error frame `code` 13,
   * detail 10010 `internal stream failure`, inner `channel closed`; open event-bus streams end
   * without any frame (the node's 100,000-pending cut-off).
   */
  readonly slowConsumerNext: (node?: number) => Effect.Effect<void>
  /**
   * Test control: stops `node`'s listener (every node's when absent): open connections and streams
   * are dropped and new ones refused for `downtime`, then it listens on the same port again. The
   * world goes on meanwhile. Succeeds once the node listens again.
   */
  readonly restartNode: (downtime: Duration.DurationInput, node?: number) => Effect.Effect<void, ListenError>
}

/**
 * The simulator service; provide it with {@link layer} or {@link layerTest}.
 *
 * @since 0.1.0
 * @category Context
 */
export class Simulator extends Context.Tag("@vega-effect/simulator/Simulator")<Simulator, Service>() {}

/**
 * Builds the world, starts the nodes and the block clock for the life of the scope. Fails with a
 * `ConfigError` naming the option when one is unusable (options that are not an object, a port
 * outside 0..65535, a `blockInterval` that is neither a duration nor `"manual"`, no nodes, ...)
 * and with a `ListenError` when a node cannot listen.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (options?: Options) => Effect.Effect<Service, ListenError | ConfigError.ConfigError, Scope.Scope> =
  internal.make

/**
 * A layer that runs the simulator for the life of the layer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Simulator } from "@vega-effect/simulator"
 *
 * const program = Effect.gen(function* () {
 *   const sim = yield* Simulator.Simulator
 *   const start = yield* sim.height
 *   yield* sim.advance(5) // blocks move only when told, with blockInterval "manual"
 *   assert.strictEqual(yield* sim.height, start + 5)
 *
 *   // the node answers like a real one, at sim.url
 *   const response = yield* Effect.promise(() => fetch(`${sim.url}/api/v2/positions?pagination.first=10`))
 *   assert.strictEqual(response.status, 200)
 *   assert.strictEqual(response.headers.get("x-block-height"), String(start + 5))
 * })
 *
 * // the nodes listen while the layer is in use, and stop when the program ends
 * Effect.runPromise(program.pipe(Effect.provide(Simulator.layer({ seed: 7, blockInterval: "manual" }))))
 * ```
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options?: Options): Layer.Layer<Simulator, ListenError | ConfigError.ConfigError> =>
  Layer.scoped(Simulator, make(options))

/**
 * For tests: the simulator with blocks advanced by hand (unless told otherwise), plus an
 * `HttpClient` (fetch) whose relative URLs go to the first node.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerTest = (
  options?: Options
): Layer.Layer<Simulator | HttpClient.HttpClient, ListenError | ConfigError.ConfigError> => {
  // only an object gets the manual clock: anything else goes as it is, for `make` to refuse
  const simulator = layer(
    options === undefined || Input.isRecord(options) ? { blockInterval: "manual", ...options } : options
  )
  const client = Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function* () {
      const sim = yield* Simulator
      const fetch = yield* HttpClient.HttpClient
      return HttpClient.mapRequest(fetch, HttpClientRequest.prependUrl(sim.url))
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
  return Layer.provideMerge(client, simulator)
}
