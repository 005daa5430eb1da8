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
 * Rows are the REST rows of the same state, in stream form.
 */
import { DataNodeApi, GatewayError, LiquidityProvision, Position, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import type { BlockResults } from "../core/contract.js"
import { param, type Params, type StreamRoute, type StreamSink } from "../route.js"
import type { LpRow } from "../world/liquidity.js"
import { comparePositions, type PositionRow } from "../world/positions.js"
import { visibleAt } from "../world/versioned.js"
import { SLOW_CONSUMER_BACKLOG_BYTES, STREAM_INTERNAL_DETAIL_CODE, STREAM_PAGE_SIZE } from "./limits.js"
import { provisionValue } from "./liquidity.js"
import { positionValue } from "./positions.js"
import type { Watch, WatchedKind } from "./streamControls.js"
import { follow, type StreamNode } from "./streams.js"

const encodePositions = Schema.encodeSync(StreamForm.frame(Position.ObservePositionsResponse))
const encodeProvisions = Schema.encodeSync(StreamForm.frame(LiquidityProvision.ObserveLiquidityProvisionsResponse))

const text = (params: Params, name: string): string => {
  const value = params.query.get(name)
  return value === undefined ? "" : String(value)
}

const pages = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
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

/** Sends the snapshot a page per turn of the event loop, then calls `done` (unless stopped). */
const sendSnapshot = (
  sink: StreamSink,
  rows: ReadonlyArray<PositionRow>,
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
    // v0.79's fee and funding fields are zero here, which the stream form leaves out
    const snapshot = { positions: page.map((row) => positionValue(row)), lastPage: last }
    sink.send(JSON.stringify(encodePositions({ result: { snapshot } } as never)))
    if (last) done()
    else setImmediate(next)
  }
  next()
}

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
    else sendSnapshot(sink, rows, () => stopped, subscribe)
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
    const { closedAsSlow, release } = watchStream(node, "provisions", sink)
    const stop = follow(node, pollInterval, (block) => {
      if (closedAsSlow()) return
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
    return {
      close: () => {
        stop()
        release()
      }
    }
  }
})

/** The row streams, polling a lagging node's height every `pollInterval` ms. */
export const makeObserverRoutes = (pollInterval: number): ReadonlyArray<StreamRoute<StreamNode>> => [
  positionsRoute(pollInterval),
  provisionsRoute(pollInterval)
]
