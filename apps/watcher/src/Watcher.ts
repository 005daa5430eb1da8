/**
 * The watcher: a loop of cycles over the configured resources, sinks delivering from the outbox
 * beside it, and the operations endpoint. With no node configured it starts a simulator in the
 * same process and watches that.
 */
import { NodeHttpClient } from "@effect/platform-node"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { WatcherConfig } from "./Config.js"
import { type CycleOutcome, heldOf, runCycle } from "./Cycle.js"
import { deliverForever, drained, BATCH } from "./Delivery.js"
import * as Metrics from "./Metrics.js"
import * as Operations from "./Operations.js"
import { Readiness } from "./Readiness.js"
import type { Resource } from "./Resource.js"
import { loadAssets } from "./resources/assets.js"
import * as Liquidity from "./resources/liquidity.js"
import * as Positions from "./resources/positions.js"
import * as Profiles from "./resources/profiles.js"
import * as Referrals from "./resources/referrals.js"
import * as Rewards from "./resources/rewards.js"
import * as SignerBundles from "./resources/signerBundles.js"
import * as Stake from "./resources/stake.js"
import type { Sink } from "./Sink.js"
import * as ConsoleSink from "./sinks/ConsoleSink.js"
import * as FileSink from "./sinks/FileSink.js"
import * as JsonLinesSink from "./sinks/JsonLinesSink.js"
import * as WebhookSink from "./sinks/WebhookSink.js"
import * as Store from "./Store.js"

export interface RunOptions {
  /** One cycle, wait for every sink, then return. */
  readonly once: boolean
  /** Sinks beyond those the configuration names (an embedding program's own, say). */
  readonly sinks?: ReadonlyArray<Sink>
}

/** The resources the configuration enables, in the order events are reported. */
export const resourcesOf = (client: DataNodeClient.Service, config: WatcherConfig): ReadonlyArray<Resource> => {
  const { watch } = config
  const out: Array<Resource> = []
  if (watch.positions.enabled) out.push(Positions.make(client, watch.positions))
  if (watch.stake.enabled) out.push(Stake.make(client, watch.stake))
  if (watch.liquidity.enabled) out.push(Liquidity.make(client, watch.liquidity))
  if (watch.signerBundles.enabled) out.push(SignerBundles.make(client, watch.signerBundles))
  if (watch.profiles.enabled) out.push(Profiles.make(client, watch.profiles))
  if (watch.rewards.enabled) out.push(Rewards.make(client, watch.rewards))
  if (watch.referrals.enabled) out.push(Referrals.make(client, watch.referrals))
  return out
}

/** The sinks the configuration names; JSON Lines on stdout when none is named. */
const sinksOf = (config: WatcherConfig) =>
  Effect.gen(function* () {
    const { sinks } = config
    const out: Array<Sink> = []
    const others = sinks.console || sinks.file !== undefined || sinks.webhook !== undefined
    if (sinks.stdout ?? !others) out.push(JsonLinesSink.stdout)
    if (sinks.console) out.push(ConsoleSink.make({ colors: process.stdout.isTTY === true }))
    if (sinks.file !== undefined) out.push(yield* FileSink.make(sinks.file, { maxBatch: BATCH }))
    if (sinks.webhook !== undefined) out.push(yield* WebhookSink.make(sinks.webhook))
    return out
  })

/**
 * The nodes to watch: the configured ones, or a simulator started here. The simulator does not
 * rate-limit, and the watcher is its only client, so requests to it are not paced.
 */
const nodesOf = (config: WatcherConfig) =>
  config.nodes.length > 0
    ? Effect.succeed({ urls: config.nodes, paced: true })
    : Effect.gen(function* () {
        const sim = yield* Simulator.make({
          seed: config.simulator.seed,
          blockInterval: Duration.millis(config.simulator.blockIntervalMillis),
          nodes: [{ port: config.simulator.port }]
        })
        yield* Effect.logInfo(`no node configured: watching a simulator started here at ${sim.url}`)
        return { urls: sim.urls, paced: false }
      })

const logOutcome = (outcome: CycleOutcome, millis: number) => {
  switch (outcome._tag) {
    case "Committed":
      return Effect.logDebug(
        `cycle at height ${outcome.checkpoint.height}: ${outcome.events} event(s), ${outcome.writes} row(s) in ${millis} ms`
      )
    case "Unchanged":
      return Effect.void
    case "Behind":
      return Effect.logWarning(
        `${outcome.node} answered from height ${outcome.height}, below the checkpoint ${outcome.checkpoint}: cycle skipped`
      )
  }
}

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

/** Runs the watcher until interrupted (or for one cycle with `once`). */
export const watch = (config: WatcherConfig, options: RunOptions) =>
  Effect.gen(function* () {
    const store = yield* Store.Store
    const readiness = yield* Readiness
    yield* store.lock()
    const nodes = yield* nodesOf(config)
    const client = yield* DataNodeClient.make(
      nodes.paced ? { urls: nodes.urls } : { urls: nodes.urls, rateLimit: false }
    )
    const resources = resourcesOf(client, config)
    const held = heldOf(yield* store.loadState)
    let checkpoint = yield* store.checkpoint
    if (Option.isSome(checkpoint)) {
      yield* Effect.logInfo(
        `resuming from height ${checkpoint.value.height} (${checkpoint.value.time}); changes since are reported`
      )
    }
    const sinks = [...(yield* sinksOf(config)), ...(options.sinks ?? [])]
    const sinkNames = sinks.map((s) => s.name)
    const committed = yield* SubscriptionRef.make(
      Option.match(checkpoint, { onNone: () => 0, onSome: (c) => c.nextSeq - 1 })
    )
    const deliveries = yield* Effect.forEach(sinks, (sink) =>
      Effect.forkScoped(deliverForever(sink, { store, committed, sinkNames }))
    )
    // assets are few: read them again each cycle, so a new asset is known when its rewards come
    const diffContext = config.watch.rewards.enabled
      ? Effect.map(loadAssets(client), (assets) => ({ asset: (id: string) => assets.get(id) }))
      : Effect.succeed({ asset: () => undefined })

    const cycle = Effect.gen(function* () {
      const started = Date.now()
      const outcome = yield* runCycle({
        client,
        store,
        resources,
        held,
        checkpoint,
        diffContext,
        initialEvents: config.initialEvents
      })
      const millis = Date.now() - started
      yield* logOutcome(outcome, millis)
      yield* recordNodes(client)
      if (outcome._tag === "Committed") {
        checkpoint = Option.some(outcome.checkpoint)
        yield* SubscriptionRef.set(committed, outcome.checkpoint.nextSeq - 1)
        yield* Metric.update(Metrics.cycleDuration, millis)
        yield* Metric.set(Metrics.lastCycleHeight, outcome.checkpoint.height)
        for (const [kind, count] of outcome.kinds)
          yield* Metric.update(Metrics.eventsTotal.pipe(Metric.tagged("kind", kind)), count)
        yield* readiness.markCycle(outcome.checkpoint.height, new Date())
        yield* readiness.markSynced
      } else if (outcome._tag === "Unchanged") {
        yield* readiness.markCycle(outcome.height, new Date())
        if (Option.isSome(checkpoint)) yield* readiness.markSynced
      } else {
        yield* Metric.update(Metrics.skippedCyclesTotal.pipe(Metric.tagged("reason", "behind")), 1)
      }
      yield* Metric.update(Metrics.cyclesTotal.pipe(Metric.tagged("outcome", outcome._tag)), 1)
      return outcome
    })

    if (options.once) {
      yield* cycle
      yield* drained(store, sinkNames, yield* SubscriptionRef.get(committed))
      yield* Effect.forEach(deliveries, Fiber.interrupt)
      return
    }
    yield* cycle.pipe(
      // a lost lock is final: another watcher owns the state now
      Effect.catchIf(
        (error) => !(error instanceof Store.LockLost),
        (error) =>
          Effect.zipRight(
            Metric.update(Metrics.cyclesTotal.pipe(Metric.tagged("outcome", "Failed")), 1),
            Effect.logWarning("cycle failed; trying again next interval", error)
          )
      ),
      Effect.repeat(Schedule.spaced(Duration.millis(config.intervalMillis)))
    )
  })

/** `watch` with everything it needs, from the configuration. */
export const run = (config: WatcherConfig, options: RunOptions): Effect.Effect<void, unknown> =>
  watch(config, options).pipe(
    Effect.scoped,
    Effect.provide(
      Layer.mergeAll(
        Store.layer.pipe(Layer.provide(SqliteClient.layer({ filename: config.database }))),
        Operations.layer({
          host: config.host,
          port: config.port,
          staleAfter: Duration.millis(config.intervalMillis * 10)
        }).pipe(Layer.provideMerge(Readiness.layer)),
        NodeHttpClient.layerUndici
      )
    )
  )
