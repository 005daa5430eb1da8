/**
 * The watcher: a loop of cycles over the slices of the configured resources it holds, the sinks
 * whose delivery it holds feeding from the outbox beside it, and the operations endpoint. Alone on
 * its state it holds every slice; sharing one (PostgreSQL) with others, its share (see
 * `Coordinator.ts`). With no node configured it starts a simulator in the same process and watches
 * that. Before anything is written, the state is made sure to be of the nodes' network (see
 * `Network.ts` and `ChainIds.ts`).
 */
import { NodeHttpClient, NodeSocket } from "@effect/platform-node"
import { DataNodeClient, FailureText } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberMap from "effect/FiberMap"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as Behind from "./Behind.js"
import { checkLater, readChains } from "./ChainIds.js"
import { databaseForDisplay, SIMULATED_STATE, type WatcherConfig } from "./Config.js"
import * as Coordinator from "./Coordinator.js"
import { type CycleOutcome, readHead, runCycle, type SliceOutcome, type SliceWork, totals, workOf } from "./Cycle.js"
import * as DataNode from "./DataNode.js"
import * as Database from "./Database.js"
import * as Decimals from "./Decimals.js"
import { BATCH, deliverForever, drained } from "./Delivery.js"
import * as Leases from "./Leases.js"
import * as LiveWatch from "./live/LiveWatch.js"
import * as Metrics from "./Metrics.js"
import * as Network from "./Network.js"
import * as Operations from "./Operations.js"
import * as Outages from "./Outages.js"
import { Readiness, type Service as ReadinessService } from "./Readiness.js"
import { entries } from "./ResourceCatalog.js"
import { type ResourceName, resourceNames } from "./Resources.js"
import { loadAssets } from "./resources/assets.js"
import { sinkSlice } from "./Slice.js"
import type { Sink } from "./Sink.js"
import * as ConsoleSink from "./sinks/ConsoleSink.js"
import * as FileSink from "./sinks/FileSink.js"
import * as JetStreamSink from "./sinks/JetStreamSink.js"
import * as JsonLinesSink from "./sinks/JsonLinesSink.js"
import * as WebhookSink from "./sinks/WebhookSink.js"
import * as Store from "./Store.js"
import { cacheDuration, type SliceSpec, slicesOf } from "./Work.js"

export interface RunOptions {
  /** One cycle, wait for every sink, then return. */
  readonly once: boolean
  /** Sinks beyond those the configuration names (an embedding program's own, say). */
  readonly sinks?: ReadonlyArray<Sink>
}

/** The sinks the configuration names; JSON Lines on stdout when none is named. */
const sinksOf = (config: WatcherConfig, client: DataNodeClient.Service) =>
  Effect.gen(function* () {
    const { sinks } = config
    const out: Array<Sink> = []
    const others =
      sinks.console || sinks.file !== undefined || sinks.webhook !== undefined || sinks.jetstream !== undefined
    if (sinks.stdout ?? !others) out.push(JsonLinesSink.stdout)
    if (sinks.console) {
      out.push(ConsoleSink.make({ colors: process.stdout.isTTY === true, decimals: yield* Decimals.make(client) }))
    }
    if (sinks.file !== undefined) out.push(yield* FileSink.make(sinks.file, { maxBatch: BATCH }))
    if (sinks.webhook !== undefined) out.push(yield* WebhookSink.make(sinks.webhook))
    if (sinks.jetstream !== undefined) out.push(yield* JetStreamSink.make(sinks.jetstream))
    return out
  })

/** The nodes watched, and whether requests to them are paced at the node's limit. */
export interface Nodes {
  readonly urls: ReadonlyArray<string>
  readonly paced: boolean
}

/**
 * The nodes to watch: the configured ones, or a simulator started here. The simulator does not
 * rate-limit, and the watcher is its only client, so requests to it are not paced.
 */
const nodesOf = (config: WatcherConfig) =>
  config.nodes.length > 0
    ? Effect.succeed<Nodes>({ urls: config.nodes, paced: true })
    : Effect.gen(function* () {
        const sim = yield* Simulator.make({
          seed: config.simulator.seed,
          blockInterval: config.simulator.blockInterval,
          nodes: [{ port: config.simulator.port }]
        })
        const state = config.database === SIMULATED_STATE ? "; its state in memory (--database keeps it)" : ""
        yield* Effect.logInfo(`no node configured: watching a simulator started here at ${sim.url}${state}`)
        return { urls: sim.urls, paced: false } satisfies Nodes
      })

/** Node heights and lag for /metrics, from what the client knows of each node. */
const recordNodes = (client: DataNodeClient.Service) =>
  Effect.gen(function* () {
    const nodes = yield* client.nodes
    const best = Math.max(0, ...nodes.map((n) => n.height ?? 0))
    yield* Effect.forEach(nodes, (node) =>
      node.height === undefined
        ? Effect.void
        : Effect.zipRight(
            Metric.set(Metrics.nodeHeight.pipe(Metric.tagged("node", node.url)), node.height),
            Metric.set(Metrics.nodeLag.pipe(Metric.tagged("node", node.url)), best - node.height)
          )
    )
  })

/** How often an idle sink looks for events committed by another watcher. */
const OUTBOX_POLL = Duration.millis(500)

/** What the steps of the loop share: the services, the slices and sinks, and what this watcher holds. */
interface Loop {
  readonly config: WatcherConfig
  readonly client: DataNodeClient.Service
  readonly store: Store.Service
  readonly leases: Leases.Service
  readonly readiness: ReadinessService
  readonly coordinator: Coordinator.Coordinator
  readonly specs: ReadonlyArray<SliceSpec>
  readonly specOfSlice: ReadonlyMap<string, SliceSpec>
  readonly sinkOfSlice: ReadonlyMap<string, Sink>
  /** Every sink's name, whoever delivers it: the outbox keeps an event until all of them have it. */
  readonly sinkNames: ReadonlyArray<string>
  /** The seq of the last event committed. */
  readonly committed: SubscriptionRef.SubscriptionRef<number>
  /** The deliveries of the sinks whose slice this watcher holds, by slice. */
  readonly deliveries: FiberMap.FiberMap<string>
  /** The resource slices this watcher holds, by slice. */
  readonly works: Map<string, SliceWork>
  /** When the slices were last balanced (`Date.now()`). */
  balancedAt: number
  /** Whether what is watched has been said (when the first slices were taken). */
  announced: boolean
  /** Says the node is behind the state, once (see `Behind.ts`). */
  readonly behind: Behind.Notice
  /** The state's highest checkpoint at start (0 for an empty state). */
  readonly stateHeight: number
  readonly outages: Outages.Outages
}

/** Takes up the slices gained and lets go of those given up or lost; returns the slices taken up. */
const rebalance = (loop: Loop) =>
  Effect.gen(function* () {
    const { deliveries, store, works } = loop
    loop.balancedAt = Date.now()
    const { acquired, dropped } = yield* loop.coordinator.balance
    for (const slice of dropped) {
      works.delete(slice)
      yield* FiberMap.remove(deliveries, slice)
    }
    const resumed: Array<number> = []
    for (const slice of acquired) {
      const spec = loop.specOfSlice.get(slice)
      if (spec !== undefined) {
        const work = workOf(slice, spec.make(), yield* store.load(slice))
        works.set(slice, work)
        if (Option.isSome(work.checkpoint)) resumed.push(work.checkpoint.value.height)
      }
      const sink = loop.sinkOfSlice.get(slice)
      if (sink !== undefined) {
        yield* FiberMap.run(
          deliveries,
          slice,
          deliverForever(sink, { store, committed: loop.committed, sinkNames: loop.sinkNames, poll: OUTBOX_POLL })
        )
      }
    }
    if (acquired.length > 0) {
      const from =
        resumed.length === 0
          ? ""
          : `; ${resumed.length} resume from height ${Math.min(...resumed)}${Math.max(...resumed) > Math.min(...resumed) ? `–${Math.max(...resumed)}` : ""}`
      // the work's parts are the watcher's own business; a person is told what is watched, once
      yield* Effect.logDebug(`took ${acquired.length} slice(s)${from}`)
      if (!loop.announced) yield* Effect.logInfo(watchingLine(loop.config, resumed))
      loop.announced = true
    }
    return acquired
  })

/** What is watched, from where: `watching positions, stake and rewards, from height 515`. */
const watchingLine = (config: WatcherConfig, resumed: ReadonlyArray<number>): string => {
  const labels = entries.filter((entry) => config.watch[entry.name].enabled).map((entry) => entry.label)
  const listed = labels.length <= 1 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`
  return `watching ${listed}${resumed.length === 0 ? "" : `, from height ${Math.min(...resumed)}`}`
}

/** What diffs need: assets are few, so they are read again each time, and a new asset is known when its rewards come. */
const diffContextOf = (loop: Loop) =>
  loop.config.watch.rewards.enabled
    ? Effect.map(loadAssets(loop.client), (assets) => ({ asset: (id: string) => assets.get(id) }))
    : Effect.succeed({ asset: () => undefined })

/** One cycle over the slices held, balanced first; its outcome recorded and committed seqs published. */
const cycleOf = (loop: Loop) => {
  const { client, config, readiness, works } = loop
  // during a long cycle, as often as leases are renewed: a watcher that joins gets its share
  // without waiting for the first sync of the others to end
  const rebalanceIfDue = Effect.suspend(() =>
    Date.now() - loop.balancedAt < Duration.toMillis(loop.leases.renewEvery)
      ? Effect.void
      : Effect.asVoid(rebalance(loop))
  ).pipe(Effect.catchAll((error) => FailureText.logWarning("could not rebalance", error)))

  const diffContext = diffContextOf(loop)

  return Effect.gen(function* () {
    yield* rebalance(loop)
    const started = Date.now()
    const outcome = yield* runCycle({
      client,
      store: loop.store,
      // in slice order, so one watcher always writes the outbox in the same order
      works: loop.specs.flatMap((spec) => works.get(spec.slice) ?? []),
      diffContext,
      initialEvents: config.initialEvents,
      holds: (slice) => works.has(slice),
      between: rebalanceIfDue
    })
    const millis = Date.now() - started
    for (const lost of outcome.lost) {
      yield* Effect.logWarning(lost.message)
      works.delete(lost.slice)
      yield* loop.coordinator.lose(lost.slice)
    }
    yield* recordOutcome(outcome, millis)
    yield* recordNodes(client)
    const { behind, lastSeq } = totals(outcome)
    yield* loop.behind.observe(Behind.ofCycle(outcome.head, behind))
    yield* loop.outages.answered(outcome.head.node)
    if (lastSeq !== undefined) yield* SubscriptionRef.update(loop.committed, (last) => Math.max(last, lastSeq))
    // a cycle counts unless every slice was refused (a node behind); holding no slice is fine
    if (outcome.slices.size === 0 || behind.length < outcome.slices.size) {
      yield* readiness.markCycle(outcome.head.height, new Date())
    }
    if ([...works.values()].every((work) => Option.isSome(work.checkpoint))) yield* readiness.markSynced
    return outcome
  })
}

/** After the one cycle of `once`: waits until the sinks delivered here have every event committed, then stops them. */
const drainDeliveries = (loop: Loop) =>
  Effect.gen(function* () {
    const held = yield* loop.coordinator.held
    const delivering = loop.sinkNames.filter((name) => held.has(sinkSlice(name)))
    yield* drained(loop.store, delivering, yield* SubscriptionRef.get(loop.committed))
    yield* FiberMap.clear(loop.deliveries)
  })

/** A slice's live commit, recorded as a cycle's would be: metrics, and the seq published to the sinks. */
const recordLive = (loop: Loop) => (slice: string, outcome: SliceOutcome) =>
  Effect.gen(function* () {
    if (outcome._tag !== "Committed") return
    for (const [kind, count] of outcome.kinds)
      yield* Metric.update(Metrics.eventsTotal.pipe(Metric.tagged("kind", kind)), count)
    const { lastSeq } = outcome
    if (lastSeq !== undefined) yield* SubscriptionRef.update(loop.committed, (last) => Math.max(last, lastSeq))
  })

/** Real-time watching over the slices held (see `live/LiveWatch.ts`). */
const watchLive = (loop: Loop) =>
  Effect.gen(function* () {
    const { client, config, readiness, works } = loop
    // assets are read again at most once a minute: live commits come every block
    const diffContext = yield* Effect.cachedWithTTL(diffContextOf(loop), "1 minute")
    const resources = resourceNames.filter((resource) => config.watch[resource].enabled)
    const slicesOf = (resource: ResourceName) => loop.specs.filter((s) => s.resource === resource).map((s) => s.slice)
    return yield* LiveWatch.run(
      {
        client,
        resources,
        slicesOf,
        state: {
          store: loop.store,
          works,
          diffContext,
          head: readHead(client),
          initialEvents: config.initialEvents,
          committed: recordLive(loop),
          lost: (lost) =>
            Effect.gen(function* () {
              yield* Effect.logWarning(lost.message)
              works.delete(lost.slice)
              yield* loop.coordinator.lose(lost.slice)
            })
        },
        rebalance: rebalance(loop).pipe(
          Effect.catchAll((error) => Effect.as(FailureText.logWarning("could not rebalance", error), []))
        ),
        renewEvery: loop.leases.renewEvery,
        outages: loop.outages,
        onBlock: (height) =>
          Effect.gen(function* () {
            yield* loop.behind.observe({ state: loop.stateHeight, node: height })
            yield* readiness.markCycle(height, new Date())
            if ([...works.values()].every((work) => Option.isSome(work.checkpoint))) yield* readiness.markSynced
          })
      },
      config.live
    )
  })

/** How often a node that did not say its chain at start is asked again. */
const CHAIN_RECHECK = Duration.seconds(1)

/**
 * The state made the nodes' network's before anything is written (see `Network.ts`); then, in the
 * background, the nodes that did not answer at start, which fail the watcher if on another chain.
 */
const checkNetwork = (config: WatcherConfig, nodes: Nodes, once: boolean, outages: Outages.Outages) =>
  Effect.gen(function* () {
    const read = readChains(nodes.urls, nodes.paced)
    const { chain, unanswered } = yield* once
      ? read
      : // with no node answering, the long-running watcher waits for one, as its cycles would
        Effect.retry(read, {
          schedule: Outages.retrying(outages, "reading the nodes' chain", Schedule.spaced(config.interval)),
          while: (error) => error._tag !== "NodesDisagree"
        })
    yield* outages.answered(chain.url)
    yield* Network.ensure({ chain, state: databaseForDisplay(config.database), resetState: config.resetState })
    for (const { error, url } of unanswered) {
      yield* FailureText.logWarning(`could not read the chain of ${url}: asked again until it answers`, error)
    }
    const urls = unanswered.map(({ url }) => url)
    return yield* Effect.forkScoped(checkLater(urls, chain, nodes.paced, CHAIN_RECHECK))
  })

/** A state above what the node shows, said at start: the first cycle or block would say it later. */
const sayIfBehind = (loop: Loop) =>
  loop.stateHeight === 0
    ? Effect.void
    : readHead(loop.client).pipe(
        Effect.flatMap((head) => loop.behind.observe({ state: loop.stateHeight, node: head.height, url: head.node })),
        // a node that does not answer is said by what asks it next
        Effect.ignore
      )

/** Runs the watcher until interrupted (or for one cycle with `once`). */
export const watch = (config: WatcherConfig, options: RunOptions, nodes: Nodes) =>
  Effect.gen(function* () {
    // a node that does not answer: one line per step for the node, whatever asks it
    const outages = yield* Outages.make
    const nodeChecks = yield* checkNetwork(config, nodes, options.once, outages)
    // a node found on another chain later stops the watcher
    const stopOnOtherChain = Effect.zipRight(Fiber.join(nodeChecks), Effect.never)
    return yield* Effect.raceFirst(work(config, options, outages), stopOnOtherChain)
  })

/** The watcher's work on a state of its nodes' network. */
const work = (config: WatcherConfig, options: RunOptions, outages: Outages.Outages) =>
  Effect.gen(function* () {
    const store = yield* Store.Store
    const leases = yield* Leases.Leases
    const readiness = yield* Readiness
    const client = yield* DataNodeClient.DataNodeClient
    const specs = yield* slicesOf(client, config, cacheDuration(config.interval))
    const sinks = [...(yield* sinksOf(config, client)), ...(options.sinks ?? [])]
    const sinkOfSlice = new Map(sinks.map((sink) => [sinkSlice(sink.name), sink] as const))
    const committed = yield* SubscriptionRef.make(yield* store.lastSeq)
    const deliveries = yield* FiberMap.make<string>()
    const coordinator = yield* Coordinator.make(leases, {
      slices: [...specs.map((spec) => spec.slice), ...sinkOfSlice.keys()],
      onLost: (lost) => Effect.forEach(lost, (slice) => FiberMap.remove(deliveries, slice), { discard: true })
    })
    const loop: Loop = {
      config,
      client,
      store,
      leases,
      readiness,
      coordinator,
      specs,
      specOfSlice: new Map(specs.map((spec) => [spec.slice, spec] as const)),
      sinkOfSlice,
      sinkNames: sinks.map((s) => s.name),
      committed,
      deliveries,
      works: new Map(),
      balancedAt: 0,
      announced: false,
      behind: Behind.make(databaseForDisplay(config.database)),
      outages,
      stateHeight: Math.max(0, ...Array.from((yield* store.checkpoints).values(), (checkpoint) => checkpoint.height))
    }

    // on the way out, deliveries stop before the leases are given up, so no two watchers feed a sink
    yield* Effect.addFinalizer(() => FiberMap.clear(deliveries))

    yield* sayIfBehind(loop)
    const cycle = cycleOf(loop)
    if (options.once) {
      yield* cycle
      yield* drainDeliveries(loop)
      return
    }
    if (config.mode === "live") return yield* watchLive(loop)
    // a failed cycle is tried again after the interval, like a successful one, and said in one line
    const every = Schedule.spaced(config.interval)
    yield* cycle.pipe(
      Effect.tapError(() => Metric.update(Metrics.cyclesTotal.pipe(Metric.tagged("outcome", "Failed")), 1)),
      Effect.retry(Outages.retrying(loop.outages, "the cycle", every)),
      Effect.repeat(every)
    )
  })

/** Cycle metrics and logs. */
const recordOutcome = (outcome: CycleOutcome, millis: number) =>
  Effect.gen(function* () {
    const { behind, committed, events, kinds, writes } = totals(outcome)
    const tag = committed > 0 ? "Committed" : behind.length > 0 ? "Behind" : "Unchanged"
    yield* Metric.update(Metrics.cyclesTotal.pipe(Metric.tagged("outcome", tag)), 1)
    // said once for all of them (see `Behind.ts`), not per slice and per cycle
    if (behind.length > 0) {
      yield* Metric.update(Metrics.skippedCyclesTotal.pipe(Metric.tagged("reason", "behind")), behind.length)
    }
    if (committed === 0) return
    yield* Metric.update(Metrics.cycleDuration, millis)
    yield* Metric.set(Metrics.lastCycleHeight, outcome.head.height)
    for (const [kind, count] of kinds)
      yield* Metric.update(Metrics.eventsTotal.pipe(Metric.tagged("kind", kind)), count)
    yield* Effect.logDebug(
      `cycle at height ${outcome.head.height}: ${committed} slice(s), ${events} event(s), ${writes} row(s) in ${millis} ms`
    )
  })

/** `watch` with everything it needs, from the configuration. */
export const run = (config: WatcherConfig, options: RunOptions): Effect.Effect<void, unknown> =>
  Effect.gen(function* () {
    // the simulator, when there is one, outlives everything that reads from it
    const nodes = yield* nodesOf(config)
    yield* watch(config, options, nodes).pipe(
      Effect.scoped,
      Effect.provide(
        Layer.mergeAll(
          Store.layer.pipe(
            Layer.provideMerge(Leases.layer({ ttl: config.lease })),
            Layer.provideMerge(Database.layer(config.database))
          ),
          Operations.layer({
            host: config.host,
            port: config.port,
            staleAfter: Operations.staleAfterFor(config.interval)
          }).pipe(Layer.provideMerge(Readiness.layer)),
          DataNode.layer(nodes.urls, nodes.paced)
        ).pipe(Layer.provideMerge(Layer.merge(NodeHttpClient.layerUndici, NodeSocket.layerWebSocketConstructor)))
      )
    )
  }).pipe(Effect.scoped)
