/**
 * The v2 server streams of rows (positions and liquidity provisions), fed by the blocks' changes:
 *
 * - `GET /api/v2/stream/positions` (ObservePositions): query `partyId`, `marketId`. First a
 *   snapshot of the matching positions as the node reads them at the start, in pages of 50
 *   (`{"result":{"snapshot":{"positions":[…]}}}`, `"lastPage":true` on the last; an empty result
 *   is one page with only `lastPage`; with both filters and no such position, no snapshot at
 *   all), then each block's changed positions in messages of at most 50
 *   (`{"result":{"updates":{"positions":[…]}}}`), each position at most once per block. The
 *   updates subscription starts only once the snapshot is sent: a block that comes meanwhile is
 *   missed, as on the node. Updates compare the filters with the ids' text, exactly.
 * - `GET /api/v2/stream/liquidity-provisions` (ObserveLiquidityProvisions): query `marketId`,
 *   `partyId`. No snapshot; each block's changed provisions (one record per provision and block)
 *   in messages of at most 50 (`{"result":{"liquidityProvisions":[…]}}`).
 *
 * - `GET /api/v2/stream/orders` (ObserveOrders): query `marketIds`, `partyIds` (repeated),
 *   `excludeLiquidity`. See {@link ordersRoute}.
 * - `GET /api/v2/stream/trades` (ObserveTrades): query `marketIds`, `partyIds` (repeated). No
 *   snapshot; each block's trades in the order made, in messages of at most 50
 *   (`{"result":{"trades":[…]}}`), those of the markets named and of the parties named (buyer or
 *   seller), the ids compared as text, exactly; nothing is checked (`ObserveTrades`,
 *   `service/trade.go` `Observe`, v0.75.8).
 *
 * Rows are the REST rows of the same state, in stream form.
 */
import type { DataNode } from "@vega-effect/schema"
import { DataNodeApi, GatewayError, LiquidityProvision, Position, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import type { BlockResults } from "../core/contract.js"
import { param, type Params, type StreamRoute, type StreamSink } from "../route.js"
import type { LpRow } from "../world/liquidity.js"
import type { OrderRow } from "../world/orderTable.js"
import type { TradeRow } from "../world/trades.js"
import { comparePositions, type PositionRow } from "../world/positions.js"
import { visibleAt } from "../world/versioned.js"
import { SLOW_CONSUMER_BACKLOG_BYTES, STREAM_INTERNAL_DETAIL_CODE, STREAM_PAGE_SIZE } from "./limits.js"
import { vegaIdSlice } from "./ids.js"
import { provisionValue } from "./liquidity.js"
import { liveOrders } from "./orders.js"
import { positionValue } from "./positions.js"
import { strings } from "./params.js"
import { orderValue, tradeJsonAs, tradeValue } from "./tradingValues.js"
import type { Watch, WatchedKind } from "./streamControls.js"
import { notHex } from "./reply.js"
import { follow, type StreamNode } from "./streams.js"

const encodePositions = Schema.encodeSync(StreamForm.frame(Position.ObservePositionsResponse))
const encodeProvisions = Schema.encodeSync(StreamForm.frame(LiquidityProvision.ObserveLiquidityProvisionsResponse))
// the endpoints' messages are the stream forms of the responses
const encodeOrders = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveOrders.message))
const encodeTrades = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveTrades.message))

const text = (params: Params, name: string): string => {
  const value = params.query.get(name)
  return value === undefined ? "" : String(value)
}

/** Items in messages of at most {@link STREAM_PAGE_SIZE}. */
export const pages = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let at = 0; at < items.length; at += STREAM_PAGE_SIZE) out.push(items.slice(at, at + STREAM_PAGE_SIZE))
  return out
}

/** How the node ends a stream whose subscriber it closed: `ErrStreamInternal`, `channel closed`. */
export const CHANNEL_CLOSED = GatewayError.internal(
  STREAM_INTERNAL_DETAIL_CODE,
  "internal stream failure",
  "channel closed"
)

/**
 * Registers an open stream with the node's controls, and gives the check made when a block comes:
 * whether the stream ends here as a slow consumer (told to, or the client has left too much
 * unread), in which case it is ended with `closed` ({@link CHANNEL_CLOSED} unless told).
 */
export const watchStream = (
  node: StreamNode,
  kind: WatchedKind,
  sink: StreamSink,
  closed: GatewayError.ErrorBody = CHANNEL_CLOSED
): { readonly watch: Watch; readonly release: () => void; readonly closedAsSlow: () => boolean } => {
  const { release, watch } = node.controls.watch(kind)
  const closedAsSlow = (): boolean => {
    if (!watch.slowAtNextBlock && sink.backlog() <= SLOW_CONSUMER_BACKLOG_BYTES) return false
    release()
    sink.fail(closed)
    return true
  }
  return { watch, release, closedAsSlow }
}

/**
 * A watched stream (see {@link watchStream}) that delivers each block the node shows, polling a
 * lagging node's height every `pollInterval` ms, until it is closed as a slow consumer or closed.
 */
export const followWatched = (
  node: StreamNode,
  kind: WatchedKind,
  sink: StreamSink,
  pollInterval: number,
  deliver: (block: BlockResults) => void
): { readonly close: () => void } => {
  const { closedAsSlow, release } = watchStream(node, kind, sink)
  const stop = follow(node, pollInterval, (block) => {
    if (!closedAsSlow()) deliver(block)
  })
  return {
    close: () => {
      stop()
      release()
    }
  }
}

/** The positions the snapshot reads, matching ids as bytes (any case). */
const snapshotRows = (node: StreamNode, partyId: string, marketId: string): Array<PositionRow> => {
  const { catalog, positions } = node.world
  const height = node.readableHeight
  const party = partyId === "" ? undefined : catalog.partyById.get(partyId.toLowerCase())
  const market = marketId === "" ? undefined : catalog.marketById.get(marketId.toLowerCase())
  if ((partyId !== "" && party === undefined) || (marketId !== "" && market === undefined)) return []
  const versions =
    party !== undefined
      ? (positions.byParty[party.index] ?? [])
      : market !== undefined
        ? (positions.byMarket[market.index] ?? [])
        : positions.log
  const rows: Array<PositionRow> = []
  for (const row of versions) {
    if (visibleAt(row, height) && (market === undefined || row.market === market)) rows.push(row)
  }
  return rows
}

/**
 * Sends a snapshot a page per turn of the event loop (one empty last page when there is nothing),
 * then calls `done` (unless stopped). `frameOf` writes one page's message.
 */
const sendSnapshot = <A>(
  sink: StreamSink,
  rows: ReadonlyArray<A>,
  frameOf: (page: ReadonlyArray<A>, last: boolean) => string,
  stopped: () => boolean,
  done: () => void
): void => {
  const all = pages(rows)
  if (all.length === 0) all.push([])
  let at = 0
  const next = (): void => {
    if (stopped()) return
    const page = all[at++]
    const last = at === all.length
    sink.send(frameOf(page, last))
    if (last) done()
    else setImmediate(next)
  }
  next()
}

// v0.79's fee and funding fields are zero here, which the stream form leaves out
const positionsSnapshot = (page: ReadonlyArray<PositionRow>, last: boolean): string =>
  JSON.stringify(
    encodePositions({
      result: { snapshot: { positions: page.map((row) => positionValue(row)), lastPage: last } }
    } as never)
  )

const positionsRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObservePositions.path,
  params: [param("partyId", "string"), param("marketId", "string")],
  open: (params, node, sink) => {
    const partyId = text(params, "partyId")
    const marketId = text(params, "marketId")
    let stopped = false
    let stopFollowing: (() => void) | undefined
    const { closedAsSlow, release, watch } = watchStream(node, "positions", sink)
    const onBlock = (block: BlockResults): void => {
      if (closedAsSlow()) return
      const rows: Array<PositionRow> = []
      for (const row of block.changes?.positions.values() ?? []) {
        if ((partyId === "" || row.party.id === partyId) && (marketId === "" || row.market.id === marketId)) {
          rows.push(row)
        }
      }
      if (rows.length === 0) return
      // the node missed this block (told from outside)
      if (watch.dropNextUpdates) {
        watch.dropNextUpdates = false
        return
      }
      rows.sort(comparePositions)
      for (const page of pages(rows)) {
        sink.send(
          JSON.stringify(
            encodePositions({ result: { updates: { positions: page.map((row) => positionValue(row)) } } } as never)
          )
        )
      }
    }
    // the node's handler sends the snapshot with blocking sends and subscribes to updates after: a
    // client still reading the snapshot is not yet a slow consumer of updates
    const subscribe = (): void => {
      if (stopped) return
      if (sink.backlog() > SLOW_CONSUMER_BACKLOG_BYTES) return void setTimeout(subscribe, pollInterval).unref()
      stopFollowing = follow(node, pollInterval, onBlock)
    }
    const rows = snapshotRows(node, partyId, marketId)
    // both filters and no such position: the store's NotFound is ignored and no snapshot is sent
    if (partyId !== "" && marketId !== "" && rows.length === 0) subscribe()
    else sendSnapshot(sink, rows, positionsSnapshot, () => stopped, subscribe)
    return {
      close: () => {
        stopped = true
        stopFollowing?.()
        release()
      }
    }
  }
})

const provisionsRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveLiquidityProvisions.path,
  params: [param("marketId", "string"), param("partyId", "string")],
  open: (params, node, sink) => {
    const partyId = text(params, "partyId")
    const marketId = text(params, "marketId")
    return followWatched(node, "provisions", sink, pollInterval, (block) => {
      // one record per provision and block: its last state in the block
      const latest = new Map<string, LpRow>()
      for (const { change } of block.changes?.entries ?? []) {
        if (change._tag !== "Provision") continue
        const row = change.row
        if ((partyId === "" || row.party.id === partyId) && (marketId === "" || row.market.id === marketId)) {
          latest.delete(row.id)
          latest.set(row.id, row)
        }
      }
      for (const page of pages([...latest.values()])) {
        sink.send(JSON.stringify(encodeProvisions({ result: { liquidityProvisions: page.map(provisionValue) } })))
      }
    })
  }
})

/** The node's stream error for a `marketIds` or `partyIds` element that is not an id. */
const invalidIds = (what: "market" | "party"): GatewayError.ErrorBody =>
  GatewayError.fromApiError(GatewayError.ApiErrors.InvalidPartyId, `one or more ${what} id is invalid`)

/**
 * The snapshot's failure when an id element holds a comma: the handler checks the ids split on
 * commas, but the snapshot's query binds the elements as sent, and the store's id encoding
 * (`ID.EncodeBinary`) refuses such a one. The text is the wrapping of that error by the query
 * (`ListOrders`, scany's `Select`) and the snapshot, inferred from the code, not observed.
 */
const snapshotFailure = (id: string): GatewayError.ErrorBody =>
  GatewayError.invalidArgument(
    GatewayError.ErrorDetailCode.Unmapped,
    `fetching orders initial image: querying orders: scany: query multiple result rows: ${notHex(id)}`
  )

const ordersFrame = (result: DataNode.ObserveOrdersResponse): string =>
  JSON.stringify(encodeOrders({ result } as never))

/**
 * `GET /api/v2/stream/orders` (ObserveOrders, `trading_data_v2.go` v0.75.8): the ids are split on
 * commas and checked (markets first: 64 hex digits or `network`), failing the stream with the
 * node's InvalidArgument otherwise. Then the snapshot: the live orders (`orders_live`) of the
 * parties and markets, read as ListOrders reads them (ids as bytes, any case), newest first, in
 * pages of 50 (`{"result":{"snapshot":{"orders":[…],"lastPage":true}}}` on the last, one empty
 * last page when there are none). Then each block's order changes, one per order and version
 * (its last in the block, placed where that change came: the store's batcher moves a key it sees
 * again to the back), in messages of at most 50 (`{"result":{"updates":{"orders":[…]}}}`), those
 * of the split ids compared as text, exactly. The updates subscription starts only once the
 * snapshot is sent. `excludeLiquidity` changes nothing: no simulated order belongs to a
 * liquidity provision, and the service's update filter lets every order through either way.
 */
const ordersRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveOrders.path,
  params: [param("marketIds", "string", true), param("partyIds", "string", true), param("excludeLiquidity", "bool")],
  open: (params, node, sink) => {
    const rawMarkets = strings(params, "marketIds")
    const rawParties = strings(params, "partyIds")
    const marketIds = vegaIdSlice(rawMarkets)
    const partyIds = vegaIdSlice(rawParties)
    if (marketIds === undefined || partyIds === undefined) {
      sink.fail(invalidIds(marketIds === undefined ? "market" : "party"))
      return { close: () => {} }
    }
    // the query binds the parties first
    const joined = [...rawParties, ...rawMarkets].find((id) => id.includes(","))
    if (joined !== undefined) {
      sink.fail(snapshotFailure(joined))
      return { close: () => {} }
    }
    // the updates compare the split ids with the orders' ids as the client wrote them
    const markets = new Set(rawMarkets.flatMap((id) => id.split(",")))
    const parties = new Set(rawParties.flatMap((id) => id.split(",")))
    let stopped = false
    let stopFollowing: (() => void) | undefined
    const { closedAsSlow, release } = watchStream(node, "orders", sink)
    const onBlock = (block: BlockResults): void => {
      if (closedAsSlow()) return
      const latest = new Map<string, OrderRow>()
      for (const { change } of block.changes?.entries ?? []) {
        if (change._tag !== "Order") continue
        const row = change.row
        if ((markets.size === 0 || markets.has(row.market.id)) && (parties.size === 0 || parties.has(row.party.id))) {
          const key = `${row.id}/${row.version}`
          latest.delete(key)
          latest.set(key, row)
        }
      }
      for (const page of pages([...latest.values()]))
        sink.send(ordersFrame({ updates: { orders: page.map(orderValue) } }))
    }
    const subscribe = (): void => {
      if (stopped) return
      if (sink.backlog() > SLOW_CONSUMER_BACKLOG_BYTES) return void setTimeout(subscribe, pollInterval).unref()
      stopFollowing = follow(node, pollInterval, onBlock)
    }
    const rows = liveOrders(node.world, node.readableHeight, new Set(partyIds), new Set(marketIds))
    sendSnapshot(
      sink,
      rows,
      (page, last) => ordersFrame({ snapshot: { orders: page.map(orderValue), lastPage: last } }),
      () => stopped,
      subscribe
    )
    return {
      close: () => {
        stopped = true
        stopFollowing?.()
        release()
      }
    }
  }
})

const tradesRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveTrades.path,
  params: [param("marketIds", "string", true), param("partyIds", "string", true)],
  open: (params, node, sink) => {
    const markets = new Set(strings(params, "marketIds"))
    const parties = new Set(strings(params, "partyIds"))
    const matches = (row: TradeRow): boolean =>
      (markets.size === 0 || markets.has(row.market.id)) &&
      (parties.size === 0 || parties.has(row.buyer.id) || parties.has(row.seller.id))
    return followWatched(node, "trades", sink, pollInterval, (block) => {
      const trades: Array<TradeRow> = []
      for (const { change } of block.changes?.entries ?? []) {
        if (change._tag === "Trade" && matches(change.row)) trades.push(change.row)
      }
      const version = node.nodeVersion ?? "v0.75"
      for (const page of pages(trades)) {
        const frame = encodeTrades({ result: { trades: page.map(tradeValue) } } as never) as {
          readonly result: { readonly trades: ReadonlyArray<Record<string, unknown>> }
        }
        sink.send(JSON.stringify({ result: { trades: frame.result.trades.map((t) => tradeJsonAs(t, version)) } }))
      }
    })
  }
})

/** The row streams, polling a lagging node's height every `pollInterval` ms. */
export const makeObserverRoutes = (pollInterval: number): ReadonlyArray<StreamRoute<StreamNode>> => [
  positionsRoute(pollInterval),
  provisionsRoute(pollInterval),
  ordersRoute(pollInterval),
  tradesRoute(pollInterval)
]
