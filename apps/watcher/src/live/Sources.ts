/**
 * The node's live streams the watcher follows, as one stream of {@link LiveItem}s: one event-bus
 * subscription (block ticks and the events of stake, profiles, referral sets and signer bundles,
 * unfiltered), one for reward payouts, the positions stream and the liquidity-provisions stream,
 * each only when a resource it feeds is watched. Four of the node's 250 stream slots per client.
 *
 * Each connection is announced by a gap for the resources it feeds: nothing is replayed, so what
 * happened while it was down (or before it was up) has to be read again. The positions stream's
 * gap comes with the end of its snapshot instead, because the node subscribes it to updates only
 * then (a block written meanwhile is missed). The snapshot itself (every position there is) is
 * skipped undecoded: the gap's read over REST compares positions page by page with those held.
 */
import type { DataNodeClient, LiveStream } from "@vega-effect/http"
import type * as Socket from "@effect/platform/Socket"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Stream from "effect/Stream"
import type { ResourceName } from "../Event.js"
import * as Metrics from "../Metrics.js"
import { busTypesFor, busTypesOf, fromBusEvents, fromPositions, fromProvisions, type LiveItem } from "./LiveItem.js"

export interface SourceOptions {
  /** The resources watched: a stream none of them needs is not opened. */
  readonly resources: ReadonlyArray<ResourceName>
  /** A bus silent for this long is taken for dead and reconnected (blocks tick it every second or so). */
  readonly idleTimeout: Duration.DurationInput
}

/** A source, named for logs and metrics, and the resources it feeds. */
interface Source<A> {
  readonly name: string
  readonly feeds: ReadonlyArray<ResourceName>
  readonly observations: Stream.Stream<LiveStream.Observation<A>, never, Socket.WebSocketConstructor>
  readonly items: (message: A, node: string) => ReadonlyArray<LiveItem>
  /** Whether the connection's gap comes with this message rather than with the connection. */
  readonly gapAt?: (message: A) => boolean
}

const itemsOf = <A>(source: Source<A>): Stream.Stream<LiveItem, never, Socket.WebSocketConstructor> =>
  source.observations.pipe(
    Stream.mapConcatEffect((observation): Effect.Effect<ReadonlyArray<LiveItem>> => {
      switch (observation._tag) {
        case "Connected":
          return Effect.as(
            Effect.logDebug(`${source.name} stream connected to ${observation.node}`),
            source.gapAt === undefined ? [{ _tag: "Gap", resources: source.feeds, source: source.name } as const] : []
          )
        case "Message": {
          const items = source.items(observation.message, observation.node)
          if (source.gapAt?.(observation.message) !== true) return Effect.succeed(items)
          return Effect.succeed([{ _tag: "Gap", resources: source.feeds, source: source.name } as const, ...items])
        }
        case "Disconnected":
          return Effect.as(
            Effect.zipRight(
              Metric.update(
                Metrics.streamDisconnectsTotal.pipe(
                  Metric.tagged("source", source.name),
                  Metric.tagged("reason", observation.reason._tag)
                ),
                1
              ),
              Effect.logWarning(
                `${source.name} stream from ${observation.node} ended (${observation.reason._tag}); reading what it carries again once it is back`
              )
            ),
            [{ _tag: "Down", resources: source.feeds, source: source.name } as const]
          )
      }
    })
  )

/** Every live item the watched resources need, from every source, as they come. */
export const liveItems = (
  client: DataNodeClient.Service,
  options: SourceOptions
): Stream.Stream<LiveItem, never, Socket.WebSocketConstructor> => {
  const watched = new Set(options.resources)
  // reward payouts all come in an epoch's last block, a message that can pass the 64 KiB a
  // WebSocket line may hold: on a subscription of their own, that close costs a read of the
  // reward totals only, not of every resource the bus feeds
  const onBus = options.resources.filter((r) => r !== "positions" && r !== "liquidity" && r !== "rewards")
  const bus: Source<Parameters<typeof fromBusEvents>[0]> = {
    name: "bus",
    feeds: onBus,
    observations: client.observeEventBus({ types: busTypesFor(onBus) }, { idleTimeout: options.idleTimeout }),
    items: (events, node) => fromBusEvents(events, node)
  }
  const sources: Array<Stream.Stream<LiveItem, never, Socket.WebSocketConstructor>> = [itemsOf(bus)]
  if (watched.has("rewards")) {
    sources.push(
      itemsOf({
        name: "payouts",
        feeds: ["rewards"],
        observations: client.observeEventBus({ types: busTypesOf.rewards ?? [] }),
        items: (events: Parameters<typeof fromBusEvents>[0], node: string) => fromBusEvents(events, node)
      })
    )
  }
  if (watched.has("positions")) {
    sources.push(
      itemsOf({
        name: "positions",
        feeds: ["positions"],
        observations: client.observePositions({}, { skipSnapshot: true }),
        items: (message, node) => fromPositions(message, node),
        gapAt: (message) => message.snapshot?.lastPage === true
      })
    )
  }
  if (watched.has("liquidity")) {
    sources.push(
      itemsOf({
        name: "liquidity",
        feeds: ["liquidity"],
        observations: client.observeLiquidityProvisions({}),
        items: (provisions, node) => fromProvisions(provisions, node)
      })
    )
  }
  return Stream.mergeAll(sources, { concurrency: "unbounded" })
}
