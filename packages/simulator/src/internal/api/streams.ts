/**
 * The node's streams of what blocks did:
 *
 * - `GET /api/v2/stream/transaction-results` (ObserveTransactionResults): query `partyIds`
 *   (repeated), `hashes` (repeated) and `status` (bool), each an exact match on the result's
 *   `partyId`, `hash` (lowercase) and `status`. One message per block with matching results,
 *   `{"result":{"transactionResults":[…]}}`.
 * - `GET /api/v2/stream/event/bus` (ObserveEventBus) and core's `GET /stream/event/bus`, which the
 *   node serves too: bidirectional. The client sends an `ObserveEventBusRequest` within 5 s
 *   (event types, `partyId`, `marketId`, `batchSize`); messages are
 *   `{"result":{"events":[BusEvent…]}}`. With `batchSize` > 0 the client acknowledges each batch
 *   by sending another request within 5 s.
 *
 * A node streams a block once its own height reaches the block (a lagging node later, a frozen
 * one not until it moves), and only blocks that come after the subscription: there is no replay.
 * Everything is written in stream form (enums as numbers, defaults omitted).
 */
import { DataNodeApi, EventBus, GatewayError, StreamForm, TransactionResult } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import type { World } from "../../World.js"
import type { BlockResults, IncludedResult, ResultFeed } from "../core/contract.js"
import { deliveryOrder, eventsOf, type SimEvent } from "./busEvents.js"
import { EVENT_BUS_CLIENT_BUFFER_SIZE, EVENT_BUS_REQUEST_TIMEOUT_MILLIS } from "./limits.js"
import { type NodeVersion, resultAs } from "./nodeVersion.js"
import type { StreamControls, Watch } from "./streamControls.js"
import { scanJsonBody } from "../gatewayJson.js"
import { type Decoded, param, type Params, type StreamHandle, type StreamRoute, type StreamSink } from "../route.js"

/** What the streams read of a node. */
export interface StreamNode {
  readonly world: World
  /** The height the node has processed: streams deliver each block once the node reaches it. */
  readonly height: number
  /** The height whose data the node's store serves (it trails {@link height} during a commit). */
  readonly readableHeight: number
  readonly feed: ResultFeed
  /** Orders given to the node's open streams from outside. */
  readonly controls: StreamControls
  /** The node release whose wire shapes the streams write; v0.75 when absent. */
  readonly nodeVersion?: NodeVersion
}

/** Timings of the streams (the node's are fixed; tests shorten them). */
export interface StreamTiming {
  /** How long the event bus waits for the client's request, and for each ack. Default 5 seconds. */
  readonly requestTimeout?: Duration.DurationInput
  /** How often a stream looks whether a lagging node reached a published block. Default 50 ms. */
  readonly pollInterval?: Duration.DurationInput
}

/** The node's own timings. */
const NODE_TIMING = {
  requestTimeout: Duration.millis(EVENT_BUS_REQUEST_TIMEOUT_MILLIS),
  pollInterval: Duration.millis(50)
}

/** {@link StreamTiming} resolved to milliseconds, for the timers. */
interface TimingMillis {
  readonly requestTimeout: number
  readonly pollInterval: number
}

// ---------------------------------------------------------------------------------------------
// Following the feed at a node's height
// ---------------------------------------------------------------------------------------------

/**
 * Calls `deliver` with each block published after now (or published before but above the node's
 * height), in height order, as soon as the node's height reaches it. Returns the stop function.
 */
export const follow = (
  node: StreamNode,
  pollInterval: number,
  deliver: (block: BlockResults) => void
): (() => void) => {
  const { feed } = node
  const published = feed.recent()
  const last = published.length > 0 ? published[published.length - 1].height : node.height
  // blocks the node already shows are history; a block not yet published is not
  let next = Math.min(node.height, last) + 1
  let stopped = false
  let timer: ReturnType<typeof setInterval> | undefined

  const pending = (): boolean => {
    const recent = feed.recent()
    return recent.length > 0 && recent[recent.length - 1].height >= next
  }
  const check = (): void => {
    if (stopped) return
    const height = node.height
    const recent = feed.recent()
    let i = recent.length
    while (i > 0 && recent[i - 1].height >= next) i--
    for (; i < recent.length && !stopped; i++) {
      const block = recent[i]
      if (block.height > height) break
      next = block.height + 1
      deliver(block)
    }
    if (stopped) return
    // poll only while a published block waits for the node to reach it
    if (pending()) {
      if (timer === undefined) {
        timer = setInterval(check, pollInterval)
        timer.unref()
      }
    } else if (timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }
  const unsubscribe = feed.subscribe(() => {
    check()
    // the block may be published before the node's height moves to it
    setImmediate(check)
  })
  check()
  return () => {
    stopped = true
    unsubscribe()
    if (timer !== undefined) clearInterval(timer)
  }
}

export const strings = (params: Params, name: string): ReadonlyArray<string> => {
  const value = params.query.get(name)
  return value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]
}

// ---------------------------------------------------------------------------------------------
// Transaction results
// ---------------------------------------------------------------------------------------------

const encodeResultsFrame = Schema.encodeSync(StreamForm.frame(TransactionResult.ObserveTransactionResultsResponse))

const transactionResults = (timing: TimingMillis): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveTransactionResults.path,
  params: [param("partyIds", "string", true), param("hashes", "string", true), param("status", "bool")],
  open: (params, node, sink) => {
    const partyIds = strings(params, "partyIds")
    const hashes = strings(params, "hashes")
    const status = params.query.get("status")
    const version = node.nodeVersion ?? "v0.75"
    const matches = ({ result }: IncludedResult): boolean =>
      (partyIds.length === 0 || partyIds.includes(result.partyId)) &&
      (hashes.length === 0 || hashes.includes(result.hash)) &&
      (status === undefined || result.status === status)
    const stop = follow(node, timing.pollInterval, (block) => {
      const results = block.results.filter(matches)
      if (results.length === 0) return
      sink.send(
        JSON.stringify(
          encodeResultsFrame({
            result: { transactionResults: results.map(({ result }) => resultAs(result, version)) }
          })
        )
      )
    })
    return { close: stop }
  }
})

// ---------------------------------------------------------------------------------------------
// Event bus: the request
// ---------------------------------------------------------------------------------------------

/** A decoded `ObserveEventBusRequest`; `types` are enum numbers (-1 for a type the simulator never emits). */
export interface BusRequest {
  readonly types: ReadonlyArray<number>
  readonly marketId: string
  readonly partyId: string
  readonly batchSize: number
}

const BusEventType = EventBus.BusEventType
const TYPE = BusEventType.values
const OTHER_TYPE = -1
const REQUEST_TYPE = "vega.events.v1.BusEventType"

class DecodeError {
  constructor(readonly message: string) {}
}

const jsonKind = (value: unknown): string =>
  typeof value === "boolean"
    ? "bool"
    : Array.isArray(value)
      ? "array"
      : typeof value === "object" && value !== null
        ? "object"
        : typeof value
// encoding/json's UnmarshalTypeError text
const cannot = (value: unknown, goType: string, literal?: string): DecodeError =>
  new DecodeError(
    `json: cannot unmarshal ${jsonKind(value)}${literal === undefined ? "" : ` ${literal}`} into Go value of type ${goType}`
  )

const decodeString = (value: unknown): string => {
  if (typeof value !== "string") throw cannot(value, "string")
  return value
}

const decodeType = (value: unknown): number => {
  if (value === null) return TYPE.BUS_EVENT_TYPE_UNSPECIFIED
  if (typeof value === "string") {
    if (BusEventType.is(value)) return TYPE[value]
    // a member of the node's enum the simulator does not emit
    if (/^BUS_EVENT_TYPE_[A-Z0-9_]+$/.test(value)) return OTHER_TYPE
    throw new DecodeError(`unknown value ${JSON.stringify(JSON.stringify(value))} for enum ${REQUEST_TYPE}`)
  }
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647)
      throw cannot(value, "protoreflect.EnumNumber", String(value))
    return BusEventType.nameOf(value) === undefined ? OTHER_TYPE : value
  }
  throw cannot(value, "protoreflect.EnumNumber")
}

const INT64 = /^-?(?:0|[1-9][0-9]*)$/

// jsonpb reads an int64 from a number or from a string holding one
const decodeInt64 = (value: unknown): number => {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw cannot(value, "int64", String(value))
    return value
  }
  if (typeof value === "string") {
    if (INT64.test(value)) return Number(value)
    const scan = scanJsonBody(Buffer.from(value))
    if (scan._tag === "Empty") throw new DecodeError("unexpected end of JSON input")
    if (scan._tag === "Error") throw new DecodeError(scan.message)
    const rest = value.slice(scan.end).trimStart()
    if (rest !== "") throw new DecodeError(`invalid character '${rest[0]}' after top-level value`)
    const inner: unknown = JSON.parse(value)
    if (typeof inner === "number" && INT64.test(value.trim())) return inner
    throw cannot(inner, "int64", typeof inner === "number" ? value.trim() : undefined)
  }
  throw cannot(value, "int64")
}

/** A field by its proto name, then by its JSON name (which wins when both are there). */
const field = (object: Record<string, unknown>, proto: string, json: string): unknown =>
  json in object ? object[json] : object[proto]

/**
 * Decodes a request as the gateway's jsonpb unmarshaller does (unknown fields ignored, `null` as
 * unset, enums by name or number, the int64 as a number or a string), with its error texts.
 */
export const decodeBusRequest = (json: unknown): Decoded => {
  try {
    if (json === null) return { _tag: "Ok", value: { types: [], marketId: "", partyId: "", batchSize: 0 } }
    if (typeof json !== "object" || Array.isArray(json)) throw cannot(json, "map[string]json.RawMessage")
    const object = json as Record<string, unknown>
    const rawTypes = object.type
    let types: Array<number> = []
    if (rawTypes !== undefined && rawTypes !== null) {
      if (!Array.isArray(rawTypes)) throw cannot(rawTypes, "[]json.RawMessage")
      types = rawTypes.map(decodeType)
    }
    const rawMarket = field(object, "market_id", "marketId")
    const rawParty = field(object, "party_id", "partyId")
    const rawBatch = field(object, "batch_size", "batchSize")
    const request: BusRequest = {
      types,
      marketId: rawMarket === undefined || rawMarket === null ? "" : decodeString(rawMarket),
      partyId: rawParty === undefined || rawParty === null ? "" : decodeString(rawParty),
      batchSize: rawBatch === undefined || rawBatch === null ? 0 : decodeInt64(rawBatch)
    }
    return { _tag: "Ok", value: request }
  } catch (error) {
    if (error instanceof DecodeError) return { _tag: "Error", message: error.message }
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Event bus: the events of a block
// ---------------------------------------------------------------------------------------------

const encodeEventsFrame = Schema.encodeSync(StreamForm.frame(EventBus.ObserveEventBusResponse))

/** Each block's events in delivery order, built once for every subscriber (per node release). */
const delivered: Record<NodeVersion, WeakMap<BlockResults, ReadonlyArray<SimEvent>>> = {
  "v0.75": new WeakMap(),
  "v0.79": new WeakMap()
}

const blockEvents = (block: BlockResults, world: World, nodeVersion: NodeVersion): ReadonlyArray<SimEvent> => {
  let events = delivered[nodeVersion].get(block)
  if (events === undefined) {
    const context = { chainId: world.chain.chainId, chain: world.chain, seed: world.seed, nodeVersion }
    events = deliveryOrder(eventsOf(block, context), world.seed, block.height)
    delivered[nodeVersion].set(block, events)
  }
  return events
}

/**
 * The request's filter: types (none or ALL: everything but TxErrorEvent), then party and market
 * as the node applies them: an event type without the method a filter needs is dropped.
 */
const filterOf = (request: BusRequest): ((event: SimEvent) => boolean) => {
  const types = new Set(request.types)
  const all = types.size === 0 || types.has(TYPE.BUS_EVENT_TYPE_ALL)
  const { marketId, partyId } = request
  const byParty = (event: SimEvent): boolean =>
    marketId !== ""
      ? event.marketId === marketId && (partyId === "" || (event.partyMethod === true && event.party === partyId))
      : partyId === "" || event.party === partyId || event.otherParty === partyId
  return (event) => (types.has(event.type) || (all && event.type !== TYPE.BUS_EVENT_TYPE_TX_ERROR)) && byParty(event)
}

// ---------------------------------------------------------------------------------------------
// Event bus: the stream
// ---------------------------------------------------------------------------------------------

const MALFORMED = GatewayError.invalidArgument(
  GatewayError.ErrorDetailCode.Unmapped,
  "malformed request",
  "unsupported event"
)
/** The status of a wait for a request that timed out (the handler returns `context.DeadlineExceeded`). */
const DEADLINE = GatewayError.gatewayError(GatewayError.GrpcCode.DeadlineExceeded, "context deadline exceeded")
/** The status when the client's side ended while an ack was awaited (the handler returns `io.EOF`). */
const CLIENT_EOF = GatewayError.gatewayError(GatewayError.GrpcCode.Unknown, "EOF")

/**
 * One event-bus subscription, as the node's handler runs it: it waits for the client's request,
 * then pushes each block's matching events, in batches the client acknowledges when it asked for
 * a batch size.
 */
class EventBusSubscription implements StreamHandle {
  private ended = false
  private stopFollowing: (() => void) | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private filter: ((event: SimEvent) => boolean) | undefined
  // acknowledged mode: events waiting, the batch limit, requests read ahead, and the ack wait
  private acked = false
  private limit = 0
  private readonly queue: Array<EventBus.BusEvent> = []
  private readonly unread: Array<BusRequest> = []
  private awaiting = false
  private clientEnded = false
  // pushing: the frames sent, newest last, while some of their bytes may be unsent
  private readonly sent: Array<{ readonly bytes: number; readonly events: number }> = []
  private readonly watch: Watch
  private readonly release: () => void

  constructor(
    private readonly node: StreamNode,
    private readonly sink: StreamSink,
    private readonly timing: TimingMillis
  ) {
    // no request in time: the handler gives up and returns without an error
    this.timer = setTimeout(() => this.stop(), timing.requestTimeout)
    const { release, watch } = node.controls.watch("bus")
    this.watch = watch
    this.release = release
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  close(): void {
    this.ended = true
    this.clearTimer()
    this.stopFollowing?.()
    this.release()
  }

  private stop(error?: GatewayError.ErrorBody): void {
    if (this.ended) return
    this.close()
    if (error === undefined) this.sink.end()
    else this.sink.fail(error)
  }

  private sendBatch(events: ReadonlyArray<EventBus.BusEvent>): void {
    const frame = JSON.stringify(encodeEventsFrame({ result: { events } }))
    if (!this.acked) this.sent.push({ bytes: Buffer.byteLength(frame) + 1, events: events.length })
    this.sink.send(frame)
  }

  /**
   * Pushing: the events of the frames whose bytes are not all taken by the client yet (the
   * connection's backlog is the newest frames' bytes). Frames wholly gone are forgotten.
   */
  private unsentEvents(): number {
    let backlog = this.sink.backlog()
    let events = 0
    let i = this.sent.length - 1
    for (; i >= 0 && backlog > 0; i--) {
      backlog -= this.sent[i].bytes
      events += this.sent[i].events
    }
    this.sent.splice(0, i + 1)
    return events
  }

  // read the next request as the ack: one sent ahead is read at once
  private awaitAck(): void {
    const next = this.unread.shift()
    if (next !== undefined) {
      this.limit = next.batchSize
      return this.pump()
    }
    if (this.clientEnded) return this.stop(CLIENT_EOF)
    this.awaiting = true
    this.timer = setTimeout(() => this.stop(DEADLINE), this.timing.requestTimeout)
  }

  private pump(): void {
    if (this.ended || this.awaiting || this.queue.length === 0) return
    const batch = this.queue.splice(0, this.limit > 0 ? this.limit : this.queue.length)
    this.sendBatch(batch)
    if (!this.ended) this.awaitAck()
  }

  private onBlock(block: BlockResults): void {
    if (this.filter === undefined) return
    // a slow consumer's observer is closed without an error
    if (this.watch.slowAtNextBlock) return this.stop()
    const events = blockEvents(block, this.node.world, this.node.nodeVersion ?? "v0.75")
      .filter(this.filter)
      .map((e) => e.event)
    if (events.length === 0) return
    if (!this.acked) {
      if (this.unsentEvents() + events.length > EVENT_BUS_CLIENT_BUFFER_SIZE) return this.stop()
      return this.sendBatch(events)
    }
    this.queue.push(...events)
    // the service's pending list is bounded: past it the observer closes without an error
    if (this.queue.length > EVENT_BUS_CLIENT_BUFFER_SIZE) return this.stop()
    this.pump()
  }

  private start(request: BusRequest): void {
    this.clearTimer()
    if (request.types.includes(TYPE.BUS_EVENT_TYPE_UNSPECIFIED)) return this.stop(MALFORMED)
    this.filter = filterOf(request)
    this.acked = request.batchSize > 0
    this.limit = request.batchSize
    this.stopFollowing = follow(this.node, this.timing.pollInterval, (block) => this.onBlock(block))
  }

  receive(value: unknown): void {
    if (this.ended) return
    const request = value as BusRequest
    if (this.filter === undefined) return this.start(request)
    // pushing without acks, the handler reads no more requests
    if (!this.acked) return
    if (!this.awaiting) {
      this.unread.push(request)
      return
    }
    this.awaiting = false
    this.clearTimer()
    this.limit = request.batchSize
    this.pump()
  }

  receiveEnd(): void {
    if (this.ended) return
    // the first read fails: the client went away, nothing to do
    if (this.filter === undefined) return this.stop()
    this.clientEnded = true
    if (this.awaiting) this.stop(CLIENT_EOF)
  }
}

const eventBus = (path: string, timing: TimingMillis): StreamRoute<StreamNode> => ({
  method: "GET",
  path,
  params: [],
  decode: decodeBusRequest,
  open: (_params, node, sink) => new EventBusSubscription(node, sink, timing)
})

/** The stream routes, with the node's timings unless told otherwise. */
export const makeRoutes = (timing: StreamTiming = {}): ReadonlyArray<StreamRoute<StreamNode>> => {
  const millis = (input: Duration.DurationInput): number => Duration.toMillis(Duration.decode(input))
  const resolved: TimingMillis = {
    requestTimeout: millis(timing.requestTimeout ?? NODE_TIMING.requestTimeout),
    pollInterval: millis(timing.pollInterval ?? NODE_TIMING.pollInterval)
  }
  return [
    eventBus(DataNodeApi.CoreObserveEventBus.path, resolved),
    eventBus(DataNodeApi.ObserveEventBus.path, resolved),
    transactionResults(resolved)
  ]
}

export const routes: ReadonlyArray<StreamRoute<StreamNode>> = makeRoutes()
