/**
 * The node's live streams the watcher follows, as one stream of {@link LiveItem}s: one event-bus
 * subscription (block ticks and the events of profiles, referral sets and signer bundles,
 * unfiltered), one each for reward payouts and stake linkings, the positions stream and the
 * liquidity-provisions stream, each only when a resource it feeds is watched (which resource is fed
 * by which is each definition's `live`). Five of the node's 250 stream slots per client.
 *
 * Each connection is announced by a gap for the resources it feeds: nothing is replayed, so what
 * happened while it was down (or before it was up) has to be read again. The positions stream's
 * gap comes with the end of its snapshot instead, because the node subscribes it to updates only
 * then (a block written meanwhile is missed). The snapshot itself (every position there is) is
 * skipped undecoded: the gap's read over REST compares positions page by page with those held.
 */
import { type DataNodeClient, FailureText, type LiveStream } from "@vega-effect/http"
import type * as Socket from "@effect/platform/Socket"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Metrics from "../Metrics.js"
import type { Outages } from "../Outages.js"
import { type LiveStreamName, SHARED_BUS } from "../ResourceDefinition.js"
import { allDefinitions, type ResourceName } from "../Resources.js"
import { busTypesFor, busTypesOf, fromBusEvents, fromStream, type LiveItem } from "./LiveItem.js"

export interface SourceOptions {
  /** The resources watched: a stream none of them needs is not opened. */
  readonly resources: ReadonlyArray<ResourceName>
  /** A bus silent for this long is taken for dead and reconnected (blocks tick it every second or so). */
  readonly idleTimeout: Duration.DurationInput
  /** Where a stream's end and its reconnection are told: said for the node as a whole. */
  readonly outages: Outages
}

type BusEvents = Parameters<typeof fromBusEvents>[0]

/** A source, named for logs and metrics, and the resources it feeds. */
interface Source<A> {
  readonly name: string
  readonly feeds: ReadonlyArray<ResourceName>
  readonly observations: Stream.Stream<LiveStream.Observation<A>, never, Socket.WebSocketConstructor>
  readonly items: (message: A, node: string) => ReadonlyArray<LiveItem>
  /** Whether the connection's gap comes with this message rather than with the connection. */
  readonly gapAt?: (message: A) => boolean
}

/**
 * Whether a stream's end says the node is out of reach (no connection, or one dropped without a
 * close frame: code 1006), rather than the node ending it (an error, a slow consumer, too long a
 * line), which is the stream's own business.
 */
const unreachable = (end: LiveStream.StreamEnd): boolean =>
  end._tag === "Unreachable" || (end._tag === "Closed" && end.code === 1006)

/** A stream's end said: for the node as a whole when it is out of reach (see Outages.ts), else in a line of its own. */
const saidEnd = (
  name: string,
  end: {
    readonly node: string
    readonly reason: LiveStream.StreamEnd
    readonly retryIn: Option.Option<Duration.Duration>
  },
  outages: Outages
): Effect.Effect<void> => {
  const cause = FailureText.ofStreamEnd(end.node, end.reason)
  if (unreachable(end.reason)) {
    return outages.failed({
      node: end.node,
      what: name,
      kind: "stream",
      cause,
      retryIn: Option.getOrUndefined(end.retryIn)
    })
  }
  return Effect.logWarning(
    `${name} stream ended: ${cause}${FailureText.nextTry(end.retryIn)}; what it carries is read again once it is back`
  )
}

const itemsOf = <A>(source: Source<A>, outages: Outages): Stream.Stream<LiveItem, never, Socket.WebSocketConstructor> =>
  source.observations.pipe(
    Stream.mapConcatEffect((observation): Effect.Effect<ReadonlyArray<LiveItem>> => {
      switch (observation._tag) {
        case "Connected":
          return Effect.as(
            Effect.zipRight(
              Effect.logDebug(`${source.name} stream connected to ${observation.node}`),
              outages.answered(observation.node)
            ),
            source.gapAt === undefined
              ? [{ _tag: "Gap", resources: source.feeds, source: source.name, subscribed: false } as const]
              : []
          )
        case "Message": {
          const items = source.items(observation.message, observation.node)
          if (source.gapAt?.(observation.message) !== true) return Effect.succeed(items)
          return Effect.succeed([
            { _tag: "Gap", resources: source.feeds, source: source.name, subscribed: true } as const,
            ...items
          ])
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
              saidEnd(source.name, observation, outages)
            ),
            [{ _tag: "Down", resources: source.feeds, source: source.name } as const]
          )
      }
    })
  )

type Items = Stream.Stream<LiveItem, never, Socket.WebSocketConstructor>

/** How each of the node's dedicated streams is opened, and what its messages say. */
const streams: {
  readonly [S in LiveStreamName]: (
    client: DataNodeClient.Service,
    feeds: ReadonlyArray<ResourceName>,
    outages: Outages
  ) => Items
} = {
  positions: (client, feeds, outages) =>
    itemsOf(
      {
        name: "positions",
        feeds,
        observations: client.observePositions({}, { skipSnapshot: true }),
        items: (message, node) => fromStream("positions", feeds, message, node),
        gapAt: (message) => message.snapshot?.lastPage === true
      },
      outages
    ),
  liquidity: (client, feeds, outages) =>
    itemsOf(
      {
        name: "liquidity",
        feeds,
        observations: client.observeLiquidityProvisions({}),
        items: (provisions, node) => fromStream("liquidity", feeds, provisions, node)
      },
      outages
    )
}

/** The watched resources by the source that feeds them (a bus subscription or a stream), in report order. */
const bySource = (resources: ReadonlyArray<ResourceName>) => {
  const watched = new Set(resources)
  const buses = new Map<string, Array<ResourceName>>([[SHARED_BUS, []]])
  const streamed = new Map<LiveStreamName, Array<ResourceName>>()
  for (const { live, name } of allDefinitions) {
    if (!watched.has(name)) continue
    if (live._tag === "Bus") buses.set(live.subscription, [...(buses.get(live.subscription) ?? []), name])
    else streamed.set(live.stream, [...(streamed.get(live.stream) ?? []), name])
  }
  return { buses, streamed }
}

/**
 * Every live item the watched resources need, as they come: the shared bus subscription (always:
 * it carries the block ticks), then each other bus subscription and each stream a watched
 * resource needs (see each definition's `live`).
 */
export const liveItems = (client: DataNodeClient.Service, options: SourceOptions): Items => {
  const { buses, streamed } = bySource(options.resources)
  const onBus = buses.get(SHARED_BUS) ?? []
  const sources: Array<Items> = [
    itemsOf(
      {
        name: SHARED_BUS,
        feeds: onBus,
        observations: client.observeEventBus({ types: busTypesFor(onBus) }, { idleTimeout: options.idleTimeout }),
        items: (events: BusEvents, node: string) => fromBusEvents(events, node)
      },
      options.outages
    )
  ]
  for (const [name, feeds] of buses) {
    if (name === SHARED_BUS) continue
    sources.push(
      itemsOf(
        {
          name,
          feeds,
          observations: client.observeEventBus({ types: feeds.flatMap((resource) => busTypesOf[resource] ?? []) }),
          items: (events: BusEvents, node: string) => fromBusEvents(events, node)
        },
        options.outages
      )
    )
  }
  for (const [stream, feeds] of streamed) sources.push(streams[stream](client, feeds, options.outages))
  return Stream.mergeAll(sources, { concurrency: "unbounded" })
}
