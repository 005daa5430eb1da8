/**
 * The live routes of the client: their paths and query strings (ids lowercase, as the node
 * compares them as text), their frame decoders (built once), and the event bus's subscription
 * and ack frames.
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as EventBus from "@vega-effect/schema/EventBus"
import type * as LiquidityProvision from "@vega-effect/schema/LiquidityProvision"
import type * as Position from "@vega-effect/schema/Position"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { EventBusRequest } from "../LiveStream.js"
import { type Frame, frameDecoder, type Route } from "./liveStream.js"

/** `path` with the query parameters that are set. */
const withQuery = (path: string, params: Readonly<Record<string, string | undefined>>): string => {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value.toLowerCase())
  return query.size === 0 ? path : `${path}?${query}`
}

/** A decoder whose messages are a part of the route's message. */
const mapResult =
  <A, B>(decode: Route<A>["decode"], f: (a: A) => B): Route<B>["decode"] =>
  (u) =>
    Either.map(decode(u), (frame): Frame<B> => ("result" in frame ? { result: f(frame.result) } : frame))

const decodePositions = frameDecoder(DataNodeApi.ObservePositions.message)

/** A positions frame with its snapshot page's positions left out, before anything of them is decoded. */
const withoutSnapshotRows = (u: unknown): unknown => {
  if (typeof u !== "object" || u === null || !("result" in u)) return u
  const result = u.result
  if (typeof result !== "object" || result === null || !("snapshot" in result)) return u
  const snapshot = result.snapshot
  if (typeof snapshot !== "object" || snapshot === null) return u
  return { ...u, result: { ...result, snapshot: { ...snapshot, positions: [] } } }
}

export const positions = (
  request: Position.ObservePositionsRequest,
  skipSnapshot: boolean = false
): Route<Position.ObservePositionsResponse> => ({
  name: DataNodeApi.ObservePositions.name,
  path: withQuery(DataNodeApi.ObservePositions.path, { partyId: request.partyId, marketId: request.marketId }),
  decode: skipSnapshot ? (u) => decodePositions(withoutSnapshotRows(u)) : decodePositions
})

const decodeProvisions = mapResult(
  frameDecoder(DataNodeApi.ObserveLiquidityProvisions.message),
  (message) => message.liquidityProvisions
)

export const liquidityProvisions = (
  request: LiquidityProvision.ObserveLiquidityProvisionsRequest
): Route<ReadonlyArray<LiquidityProvision.LiquidityProvision>> => ({
  name: DataNodeApi.ObserveLiquidityProvisions.name,
  path: withQuery(DataNodeApi.ObserveLiquidityProvisions.path, {
    marketId: request.marketId,
    partyId: request.partyId
  }),
  decode: decodeProvisions
})

const decodeEvents = mapResult(frameDecoder(DataNodeApi.ObserveEventBus.message), (message) => message.events)

const encodeBusRequest = Schema.encodeSync(EventBus.ObserveEventBusRequest)

/**
 * The event bus: no query (the node reads only the request frame, sent once the socket is open);
 * in ack mode (`batchSize` > 0) an ack `{"batchSize":"N"}` after each message.
 */
export const eventBus = (request: EventBusRequest): Route<ReadonlyArray<EventBus.BusEvent>> => {
  const batchSize = Math.max(0, Math.trunc(request.batchSize ?? 0))
  const subscription = encodeBusRequest({
    type: request.types,
    marketId: (request.marketId ?? "").toLowerCase(),
    partyId: (request.partyId ?? "").toLowerCase(),
    batchSize: BigInt(batchSize)
  })
  return {
    name: DataNodeApi.ObserveEventBus.name,
    path: DataNodeApi.ObserveEventBus.path,
    decode: decodeEvents,
    subscribe: JSON.stringify(subscription),
    ack: batchSize > 0 ? JSON.stringify({ batchSize: String(batchSize) }) : undefined
  }
}
