/**
 * Positions: one row per market and party (closed positions included), read from the node's
 * positions list: completely at first, then only what changed (see `readNewer`). A position opening, closing or changing size, a status change (orders
 * closed, distressed, closed out and back) and a PnL crossing a configured threshold are events;
 * other fields (update time, fees, entry price alone) are stored but mean nothing on their own.
 */
import { type DataNodeClient, type DataNodeError, ReadTracking } from "@vega-effect/http"
import { Encoder, Pagination, Position } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Json, Row } from "../Event.js"
import type { ReadContext, Resource } from "../Resource.js"
import { type DecodedDiff, define, enumName, liveRows, noAssets, rowDiff } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { inShard, type Shard, whole } from "../Shard.js"
import { IdList, type OptionsOf, PnlThresholds } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

/** `watch.positions`: the parties and markets to watch (absent: all), and PnL thresholds to report. */
const fields = {
  parties: Schema.optional(IdList),
  markets: Schema.optional(IdList),
  pnlThresholds: Schema.optional(PnlThresholds)
}
export type Options = OptionsOf<typeof fields>

/** Ids per filter list in one request, so that a long party list still makes a reasonable URL. */
const IDS_PER_REQUEST = 100
const NO_STATUS = "POSITION_STATUS_UNSPECIFIED"

const encode = Encoder.encodeSync(Position.Position)

export const keyOf = (marketId: string, partyId: string): string => `${marketId}/${partyId}`

const splitKey = (key: string): { readonly marketId: string; readonly partyId: string } => {
  const slash = key.indexOf("/")
  return { marketId: key.slice(0, slash), partyId: key.slice(slash + 1) }
}

const chunks = (ids: ReadonlyArray<string> | undefined): ReadonlyArray<ReadonlyArray<string> | undefined> => {
  if (ids === undefined || ids.length === 0) return [undefined]
  const out: Array<ReadonlyArray<string>> = []
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) out.push(ids.slice(i, i + IDS_PER_REQUEST))
  return out
}

type Filter = { partyIds?: ReadonlyArray<string>; marketIds?: ReadonlyArray<string> }

/** The requests that together cover every position of these parties in these markets (absent: all). */
const filtersFor = (
  parties: ReadonlyArray<string> | undefined,
  markets: ReadonlyArray<string> | undefined
): ReadonlyArray<Filter | undefined> =>
  chunks(parties).flatMap((partyIds) =>
    chunks(markets).map((marketIds) =>
      partyIds === undefined && marketIds === undefined
        ? undefined
        : { ...(partyIds === undefined ? {} : { partyIds }), ...(marketIds === undefined ? {} : { marketIds }) }
    )
  )

/**
 * Reads every position a filter covers into `rows`, oldest first: a position updated while the
 * list is paged moves to the end and is read again there, and the later version wins.
 */
const readInto = (
  client: DataNodeClient.Service,
  filter: Filter | undefined,
  rows: Map<string, Row>,
  wanted?: ReadonlySet<string>
) =>
  client
    .positions(filter === undefined ? {} : { filter }, { pageSize: Pagination.MAX_PAGE_SIZE, newestFirst: false })
    .pipe(
      Stream.runForEach((item) =>
        Effect.sync(() => {
          const key = keyOf(item.node.marketId, item.node.partyId)
          if (wanted === undefined || wanted.has(key)) rows.set(key, encode(item.node))
        })
      )
    )

type PositionItem = Stream.Stream.Success<ReturnType<DataNodeClient.Service["positions"]>>

/** The first page of an incremental read: a cycle after a block usually finds a few changed positions. */
const NEWER_FIRST_PAGE = 200

/**
 * Reads only the positions written after `watermark` (unix nanoseconds), newest first. The node
 * orders positions by the block that wrote them (`vega_time`, emitted as `updatedAt`) and never
 * deletes one, so once a row at or below the watermark comes, every row after it is older still.
 * A small first page finds the usual few; only when all of it is newer do full pages follow.
 */
const readNewer = (client: DataNodeClient.Service, options: Options, watermark: bigint) =>
  Effect.gen(function* () {
    const rows = new Map<string, Row>()
    const keep = (item: PositionItem) => {
      const key = keyOf(item.node.marketId, item.node.partyId)
      // newest first: a position met twice (it moved up while paging) keeps its newer version
      if (!rows.has(key)) rows.set(key, encode(item.node))
    }
    for (const filter of filtersFor(options.parties, options.markets)) {
      const request = filter === undefined ? {} : { filter }
      const first = yield* client
        .positions(request, { pageSize: NEWER_FIRST_PAGE, newestFirst: true, prefetch: 0 })
        .pipe(Stream.take(NEWER_FIRST_PAGE), Stream.runCollect, Effect.map(Chunk.toReadonlyArray))
      const newer = first.findIndex((item) => item.node.updatedAt <= watermark)
      for (const item of newer === -1 ? first : first.slice(0, newer)) keep(item)
      if (newer !== -1 || first.length < NEWER_FIRST_PAGE) continue
      yield* client
        .positions(request, {
          pageSize: Pagination.MAX_PAGE_SIZE,
          newestFirst: true,
          from: first[first.length - 1].cursor
        })
        .pipe(
          Stream.takeWhile((item) => item.node.updatedAt > watermark),
          Stream.runForEach((item) => Effect.sync(() => keep(item)))
        )
    }
    return rows
  })

const readAll = (client: DataNodeClient.Service, options: Options, context: ReadContext) =>
  Effect.gen(function* () {
    const rows = new Map<string, Row>()
    for (const filter of filtersFor(options.parties, options.markets)) yield* readInto(client, filter, rows)
    // The node never deletes a position, so one held but not read is most likely one that paging
    // skipped (a page's last row changing between two pages makes the node drop a row): ask for
    // those positions by id before calling them gone.
    const parties = options.parties !== undefined && options.parties.length > 0 ? new Set(options.parties) : undefined
    const markets = options.markets !== undefined && options.markets.length > 0 ? new Set(options.markets) : undefined
    const held = context.previous.size === 0 ? [] : yield* context.heldKeys
    const missing = held.filter((key) => {
      if (rows.has(key)) return false
      const { marketId, partyId } = splitKey(key)
      return (parties === undefined || parties.has(partyId)) && (markets === undefined || markets.has(marketId))
    })
    if (missing.length > 0) {
      const wanted = new Set(missing)
      const missingParties = [...new Set(missing.map((key) => splitKey(key).partyId))]
      const missingMarkets = [...new Set(missing.map((key) => splitKey(key).marketId))]
      for (const filter of filtersFor(missingParties, missingMarkets)) yield* readInto(client, filter, rows, wanted)
    }
    return rows
  })

/** Which shard of the positions to read, and the node's market list to cut it from. */
export interface Slice {
  readonly shard: Shard
  readonly markets: Effect.Effect<ReadonlyArray<string>, DataNodeError.DataNodeError>
}

/**
 * The options narrowed to the slice's markets: the configured ones, or the node's, with those of
 * the rows held (a market the list missed must not make its positions look gone); `undefined`
 * when the slice has no market.
 */
const scopeOf = (options: Options, slice: Slice, context: ReadContext) =>
  Effect.gen(function* () {
    if (slice.shard.count === 1) return options
    const markets = new Set(
      options.markets !== undefined && options.markets.length > 0 ? options.markets : yield* slice.markets
    )
    if (options.markets === undefined || options.markets.length === 0) {
      const held = context.previous.size === 0 ? [] : yield* context.heldKeys
      for (const key of held) markets.add(splitKey(key).marketId)
    }
    const mine = [...markets].filter((id) => inShard(slice.shard, id)).sort()
    return mine.length === 0 ? undefined : { ...options, markets: mine }
  })

/**
 * The watermark a read at a height with this block time (ns) proves: the node shows a height as
 * soon as it starts writing that block, so only the blocks before it are surely in the answer
 * (event-streams facts §3). Their rows' `updatedAt` (µs, as PostgreSQL keeps it) is below the
 * block's time in µs, so the watermark is just under it: the block's own rows are read again next
 * time, whether or not this read saw them.
 */
const watermarkAt = (blockTimeNanos: string): string => ((BigInt(blockTimeNanos) / 1000n) * 1000n - 1n).toString()

/**
 * Every row held was read at a height at or above the lowest height of the last read, so a row
 * written in a block before that height is held as it is now: the next read can stop there. That
 * watermark ({@link watermarkAt}) is passed on as the snapshot's `resume` and committed with the
 * rows, so a restarted watcher, or one taking the slice over, reads incrementally too.
 *
 * The watermark moves only after a read answered at one height. A read across blocks may have met
 * the paging quirk (a page's last row rewritten between two pages makes the node drop the next
 * row), and the dropped row could sit below the new watermark: then the next read starts from the
 * old watermark again (or is complete again).
 */
const read =
  (client: DataNodeClient.Service, options: Options, slice: Slice): Resource["read"] =>
  (context) =>
    Effect.gen(function* () {
      // the held keys, if asked for, are read from the store once for the scope and the missing rows
      const once: ReadContext = { ...context, heldKeys: yield* Effect.cached(context.heldKeys) }
      const scope = yield* scopeOf(options, slice, once)
      if (scope === undefined) return { rows: new Map(), complete: true }
      const from =
        context.previous.size > 0 && context.resume !== undefined && /^\d+$/.test(context.resume)
          ? BigInt(context.resume)
          : undefined
      const [rows, reads] = yield* ReadTracking.track(
        from !== undefined ? readNewer(client, scope, from) : readAll(client, scope, once)
      )
      const consistent = reads.lowest !== undefined && reads.lowest.height === reads.highest?.height
      const time = reads.lowest?.blockTimestamp
      const watermark = consistent && time !== undefined && /^\d+$/.test(time) ? watermarkAt(time) : from?.toString()
      return { rows, complete: from === undefined, ...(watermark === undefined ? {} : { resume: watermark }) }
    })

const movement = (from: bigint, to: bigint): { readonly [key: string]: Json } => ({
  from: from.toString(),
  to: to.toString(),
  delta: (to - from).toString()
})

interface Threshold {
  readonly option: keyof PnlThresholds
  readonly field: "realisedPnl" | "unrealisedPnl"
  readonly direction: "below" | "above"
}

const thresholds: ReadonlyArray<Threshold> = [
  { option: "realisedBelow", field: "realisedPnl", direction: "below" },
  { option: "realisedAbove", field: "realisedPnl", direction: "above" },
  { option: "unrealisedBelow", field: "unrealisedPnl", direction: "below" },
  { option: "unrealisedAbove", field: "unrealisedPnl", direction: "above" }
]

/** Whether the position's PnL is strictly beyond the threshold; an absent position is beyond nothing. */
const beyond = (position: Position.Position | undefined, threshold: Threshold, limit: bigint): boolean => {
  if (position === undefined) return false
  const value = position[threshold.field]
  return threshold.direction === "below" ? value < limit : value > limit
}

const statusOf = (position: Position.Position | undefined): string =>
  position === undefined ? NO_STATUS : enumName(position.positionStatus, NO_STATUS)

const volumeChange = (from: bigint, to: bigint): ReadonlyArray<Change> => {
  if (from === 0n && to !== 0n) return [{ kind: "position.opened", details: movement(from, to) }]
  if (from !== 0n && to === 0n) return [{ kind: "position.closed", details: movement(from, to) }]
  return from !== to ? [{ kind: "position.volume_changed", details: movement(from, to) }] : []
}

const thresholdsCrossed = (
  before: Position.Position | undefined,
  after: Position.Position | undefined,
  pnlThresholds: PnlThresholds
): ReadonlyArray<Change> =>
  thresholds.flatMap((threshold): ReadonlyArray<Change> => {
    const configured = pnlThresholds[threshold.option]
    if (configured === undefined) return []
    const limit = BigInt(configured)
    if (beyond(before, threshold, limit) || !beyond(after, threshold, limit)) return []
    const details = {
      field: threshold.field,
      threshold: configured,
      direction: threshold.direction,
      value: after![threshold.field].toString()
    }
    return [{ kind: "position.pnl_threshold", details }]
  })

/**
 * What a position's change means. An absent row counts as a flat position with no status; PnL
 * thresholds fire only on the change that crosses them, not while the PnL stays beyond.
 */
const diffDecoded: DecodedDiff<Position.Position, Options> = (before, after, { options }) => {
  const changes: Array<Change> = [...volumeChange(before?.openVolume ?? 0n, after?.openVolume ?? 0n)]
  if (after !== undefined) {
    const [from, to] = [statusOf(before), statusOf(after)]
    if (from !== to) changes.push({ kind: "position.status_changed", details: { from, to } })
  }
  if (options.pnlThresholds !== undefined) changes.push(...thresholdsCrossed(before, after, options.pnlThresholds))
  return changes
}

const diffRows = rowDiff(Position.Position, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diffPosition = (
  before: Row | undefined,
  after: Row | undefined,
  pnlThresholds?: PnlThresholds
): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, pnlThresholds === undefined ? { enabled: true } : { enabled: true, pnlThresholds })

/** Every market id the node lists. */
export const marketIds = (client: DataNodeClient.Service) =>
  client.markets({}, { pageSize: 1000 }).pipe(
    Stream.map((item) => item.node.id as string),
    Stream.runCollect,
    Effect.map((ids) => Chunk.toReadonlyArray(ids))
  )

export const make = (
  client: DataNodeClient.Service,
  options: Options,
  slice: Slice = { shard: whole, markets: Effect.suspend(() => marketIds(client)) }
): Resource => {
  const parties = options.parties !== undefined && options.parties.length > 0 ? new Set(options.parties) : undefined
  const markets = options.markets !== undefined && options.markets.length > 0 ? new Set(options.markets) : undefined
  return {
    name: "positions",
    read: read(client, options, slice),
    watches: (key) => {
      const { marketId, partyId } = splitKey(key)
      return (parties === undefined || parties.has(partyId)) && (markets === undefined || markets.has(marketId))
    },
    diff: (before, after) => diffPosition(before, after, options.pnlThresholds)
  }
}

/** Positions: sharded by market, fed by the positions stream with whole rows. */
export const definition = define({
  ...catalog.positions,
  sharding: { count: 16, idOf: (key) => splitKey(key).marketId, ids: (client) => marketIds(client) },
  options: fields,
  reader: ({ client, options, shard, shardIds }) => make(client, options, { shard, markets: shardIds }),
  // the stream's updates are the REST rows (its snapshot pages are not used: see live/Sources.ts)
  live: {
    _tag: "Stream",
    stream: "positions",
    changes: (message) =>
      (message.updates?.positions ?? []).map((position) => ({
        timeNanos: position.updatedAt,
        change: liveRows([[keyOf(position.marketId, position.partyId), encode(position)]])
      }))
  },
  row: Position.Position,
  diff: diffDecoded,
  mainFields: ["openVolume", "realisedPnl", "unrealisedPnl", "averageEntryPrice", "positionStatus"],
  units: {
    ids: (row) => ({ market: Units.textAt(row, "marketId") }),
    fields: {
      openVolume: "volume",
      averageEntryPrice: "price",
      realisedPnl: "settlement",
      unrealisedPnl: "settlement",
      lossSocialisationAmount: "settlement"
    },
    // from, to and delta of a volume (a status change's are names, left as they are); a PnL threshold's
    details: { from: "volume", to: "volume", delta: "volume", threshold: "settlement", value: "settlement" }
  }
})
