/**
 * Live streams of a data node (positions, liquidity provisions, the event bus) as reconnecting
 * Effect `Stream`s over WebSocket, honest about gaps.
 *
 * A live stream yields {@link Observation}s: for each connection a `Connected`, then its
 * `Message`s, then exactly one `Disconnected` saying why it ended ({@link StreamEnd}) and when
 * the next connection is tried (`retryIn`; none means the stream ends there). The stream itself
 * never fails: every failure is a `Disconnected` reason.
 *
 * The node keeps no history and replays nothing: whatever happened while no connection was
 * subscribed is never delivered. On each `Connected`, read the watched resources again over REST
 * (the `Connected` comes once the subscription is made, so nothing is lost between the two).
 *
 * Reconnection follows a `Schedule` whose input is the {@link StreamEnd}; by default
 * {@link reconnectSchedule}, the toolkit's one backoff (`RetryPolicy.backoff`) from 250 ms to
 * 30 s, forever. The schedule starts over after a connection that delivered a message.
 *
 * The WebSocket comes from `@effect/platform`'s `Socket.WebSocketConstructor`: on Node, provide
 * `NodeSocket.layerWebSocketConstructor` from `@effect/platform-node`; in browsers and runtimes
 * with a global `WebSocket`, `Socket.layerWebSocketConstructorGlobal`.
 *
 * @since 0.1.0
 */
import type * as EventBus from "@vega-effect/schema/EventBus"
import type * as GatewayError from "@vega-effect/schema/GatewayError"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import type * as Option from "effect/Option"
import type * as Schedule from "effect/Schedule"
import type { TransportError } from "./DataNodeError.js"
import * as RetryPolicy from "./RetryPolicy.js"

/**
 * Why a connection ended.
 *
 * - `Closed`: the socket closed with no error frame: the event bus dropping a slow consumer, a
 *   message over the node's 64 KiB line limit, a node restart, no subscription within 5 s (code
 *   1006 when the node sent no close frame).
 * - `Failed`: the node ended the stream with an `{"error":…}` frame (a positions or
 *   liquidity-provision consumer too slow, code 13 detail 10010 `channel closed`; an event-bus
 *   ack later than 5 s, `context deadline exceeded`).
 * - `Refused`: a bare status (`{"code":…}`) before any message (429 too many streams, an invalid
 *   event type), or an HTTP answer other than 101 to the upgrade; then `status` is made from the
 *   HTTP status (its gRPC code and a message naming the status), as the node's body is not read.
 * - `Unreachable`: no connection or no upgrade (refused, timed out, DNS).
 * - `Idle`: nothing came within the `idleTimeout`.
 * - `Undecodable`: a frame that is not JSON or not the route's message.
 *
 * @since 0.1.0
 * @category Models
 */
export type StreamEnd = Data.TaggedEnum<{
  Closed: { readonly code: number; readonly reason: string }
  Failed: { readonly error: GatewayError.ErrorBody }
  Refused: { readonly status: GatewayError.ErrorBody }
  Unreachable: { readonly error: TransportError }
  Idle: { readonly after: Duration.Duration }
  Undecodable: { readonly message: string }
}>

/**
 * Constructors and guards of {@link StreamEnd}: `StreamEnd.Closed({ code, reason })`,
 * `StreamEnd.$is("Refused")`, `StreamEnd.$match(end, { … })`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const StreamEnd = Data.taggedEnum<StreamEnd>()

/**
 * What a live stream yields.
 *
 * - `Connected`: subscribed on `node` (for the event bus: the request frame was sent); `attempt`
 *   counts connection attempts of this stream from 1. Anything before it was missed: backfill now.
 * - `Message`: one message of the route.
 * - `Disconnected`: the connection ended (`reason`); `retryIn` is the wait before the next
 *   attempt, or none when the stream ends here.
 *
 * @since 0.1.0
 * @category Models
 */
export type Observation<A> = Data.TaggedEnum<{
  Connected: { readonly node: string; readonly attempt: number }
  Message: { readonly node: string; readonly message: A }
  Disconnected: {
    readonly node: string
    readonly reason: StreamEnd
    readonly retryIn: Option.Option<Duration.Duration>
  }
}>

/**
 * The `Data.TaggedEnum` definition behind {@link Observation}, generic in the message type.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ObservationDefinition extends Data.TaggedEnum.WithGenerics<1> {
  readonly taggedEnum: Observation<this["A"]>
}

/**
 * Constructors and guards of {@link Observation}: `Observation.$is("Message")`,
 * `Observation.$match(observation, { Connected, Message, Disconnected })`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const Observation = Data.taggedEnum<ObservationDefinition>()

/**
 * Whether an observation is a `Connected`.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isConnected = <A>(o: Observation<A>): o is Extract<Observation<A>, { readonly _tag: "Connected" }> =>
  o._tag === "Connected"

/**
 * Whether an observation is a `Message`.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMessage = <A>(o: Observation<A>): o is Extract<Observation<A>, { readonly _tag: "Message" }> =>
  o._tag === "Message"

/**
 * Whether an observation is a `Disconnected`.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isDisconnected = <A>(o: Observation<A>): o is Extract<Observation<A>, { readonly _tag: "Disconnected" }> =>
  o._tag === "Disconnected"

/**
 * How a live stream reconnects and when it gives up on a silent connection.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ObserveOptions {
  /**
   * When to connect again after a connection ended (the schedule's input is why it ended), or
   * `false` to end the stream after the first `Disconnected`. Default {@link reconnectSchedule}.
   * The schedule starts over after a connection that delivered a message.
   */
  readonly reconnect?: Schedule.Schedule<unknown, StreamEnd> | false
  /**
   * Close the connection (`Idle`) when no frame arrives for this long. Default none. The node
   * sends nothing between messages, so use it with a stream that has a steady beat (the event
   * bus with `BUS_EVENT_TYPE_TIME_UPDATE`, once per block, in an unfiltered subscription).
   */
  readonly idleTimeout?: Duration.DurationInput
}

/**
 * Options of `observePositions`. `skipSnapshot`: the snapshot pages come without their positions
 * (`positions` empty, `lastPage` as sent), for a caller that reads the positions over REST after
 * each connection anyway: the snapshot, every position there is, is then neither decoded nor kept.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ObservePositionsOptions extends ObserveOptions {
  readonly skipSnapshot?: boolean
}

/**
 * The event-bus subscription: event types, optional market and party filters (ids are sent
 * lowercase: the node compares them as text; an event without a market or party is dropped by
 * such a filter), and `batchSize`: 0 (default) pushes events as they come; N > 0 makes the node
 * send batches of at least N events and wait for an acknowledgement after each, which the stream
 * sends once the consumer has pulled the message (a consumer holding a message for more than 5 s
 * then ends the stream: `Failed`).
 *
 * @since 0.1.0
 * @category Models
 */
export interface EventBusRequest {
  readonly types: ReadonlyArray<EventBus.BusEventType>
  readonly marketId?: string
  readonly partyId?: string
  readonly batchSize?: number
}

/**
 * The defaults of live streams: the reconnect backoff (from 250 ms, doubling up to 30 s), and how
 * long opening a connection may take (10 s).
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULTS = {
  reconnect: { base: Duration.millis(250), max: Duration.seconds(30) },
  openTimeout: Duration.seconds(10)
} as const

/**
 * The default reconnect schedule: `RetryPolicy.backoff` (full jitter) with the
 * {@link DEFAULTS}' bounds unless given, forever.
 *
 * @since 0.1.0
 * @category Schedules
 */
export const reconnectSchedule = (
  options: RetryPolicy.BackoffOptions = {}
): Schedule.Schedule<Duration.Duration, StreamEnd> => RetryPolicy.backoff({ ...DEFAULTS.reconnect, ...options })
