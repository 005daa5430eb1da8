/**
 * Liquidity provisions: the node's live list (provisions that are active, undeployed or pending),
 * one row per provision id: `{ current, pending }`.
 *
 * An amendment writes a PENDING version that the node shows as `pending` next to the version
 * still in force (`current`) until the next epoch activates it; a new provision may show as a lone
 * `current` in STATUS_PENDING until then. A provision stopped, cancelled or rejected (a pending
 * amendment cancelled too) leaves the live list, so a complete read that misses it says it is gone.
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import { Decimal, Encoder, GatewayError, LiquidityProvision, Pagination } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Row } from "../Event.js"
import type { Resource } from "../Resource.js"
import { type DecodedDiff, define, enumName, liveHint, noAssets, rowDiff, unsharded } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

/** `watch.liquidity`: the parties and markets to watch (absent: all). */
const fields = { parties: Schema.optional(IdList), markets: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

/** Filter values (parties or markets) read at the same time. */
const CONCURRENCY = 4

const encode = Encoder.encodeSync(LiquidityProvision.LiquidityProvision)

/** A provision as the watcher stores it: the version in force, and the one waiting for the next epoch if any. */
export const LiquidityRow = Schema.Struct({
  current: LiquidityProvision.LiquidityProvision,
  pending: Schema.NullOr(LiquidityProvision.LiquidityProvision)
})

export const rowOf = (node: LiquidityProvision.LiquidityProvisionNode): typeof LiquidityRow.Encoded => ({
  current: encode(node.current),
  pending: node.pending === undefined ? null : encode(node.pending)
})

type Filter = { readonly partyId?: string; readonly marketId?: string }

/** A v0.75 node refuses a list without a market or a party (HTTP 500 with this detail). */
const needsFilter = (error: DataNodeError.DataNodeError): boolean =>
  error._tag === "InternalError" &&
  error.detail?.code === GatewayError.ErrorDetailCode.LiquidityProvision &&
  error.detail.inner.includes("market or party filters are required")

const nonEmpty = (ids: ReadonlyArray<string> | undefined): ReadonlyArray<string> | undefined =>
  ids !== undefined && ids.length > 0 ? ids : undefined

export const make = (client: DataNodeClient.Service, options: Options): Resource => {
  const parties = nonEmpty(options.parties)
  const markets = nonEmpty(options.markets)
  const partySet = parties === undefined ? undefined : new Set(parties)
  const marketSet = markets === undefined ? undefined : new Set(markets)
  /** Learnt from the node's first refusal: list per market from then on. */
  let filterRequired = false

  /**
   * Reads the live provisions a filter covers into `rows`, oldest first: a provision changed while
   * the list is paged moves to the end and is read again, and the later version wins.
   */
  const readInto = (filter: Filter, rows: Map<string, Row>) =>
    client
      .liquidityProvisions({ live: true, ...filter }, { pageSize: Pagination.MAX_PAGE_SIZE, newestFirst: false })
      .pipe(
        Stream.runForEach((item) =>
          Effect.sync(() => {
            const { current } = item.node
            if (partySet !== undefined && !partySet.has(current.partyId)) return
            if (marketSet !== undefined && !marketSet.has(current.marketId)) return
            rows.set(current.id, rowOf(item.node))
          })
        )
      )

  const readEach = (filters: ReadonlyArray<Filter>, rows: Map<string, Row>) =>
    Effect.forEach(filters, (filter) => readInto(filter, rows), { concurrency: CONCURRENCY, discard: true })

  const readPerMarket = (rows: Map<string, Row>) =>
    client.markets({}, { pageSize: Pagination.MAX_PAGE_SIZE }).pipe(
      Stream.map((item) => item.node.id as string),
      Stream.runCollect,
      Effect.flatMap((ids) =>
        readEach(
          Chunk.toReadonlyArray(ids).map((marketId) => ({ marketId })),
          rows
        )
      )
    )

  const read: Resource["read"] = () =>
    Effect.gen(function* () {
      const rows = new Map<string, Row>()
      if (parties !== undefined && (markets === undefined || parties.length <= markets.length)) {
        // one request per value of the shorter list; the other list is applied to what comes back
        yield* readEach(
          parties.map((partyId) => ({ partyId })),
          rows
        )
      } else if (markets !== undefined) {
        yield* readEach(
          markets.map((marketId) => ({ marketId })),
          rows
        )
      } else if (filterRequired) {
        yield* readPerMarket(rows)
      } else {
        yield* readInto({}, rows).pipe(
          Effect.catchIf(needsFilter, () =>
            Effect.suspend(() => {
              filterRequired = true
              rows.clear()
              return readPerMarket(rows)
            })
          )
        )
      }
      return { rows, complete: true }
    })

  /**
   * The hinted provisions (`<market>/<party>/<id>`): the live list of each market and party named,
   * read again; a hinted provision not in it any more is gone.
   */
  const readHinted: NonNullable<Resource["readHinted"]> = (hints) =>
    Effect.gen(function* () {
      const filters = new Map<string, Filter>()
      const ids: Array<string> = []
      for (const hint of hints) {
        const [marketId, partyId, id] = hint.split("/")
        if (partySet !== undefined && !partySet.has(partyId)) continue
        if (marketSet !== undefined && !marketSet.has(marketId)) continue
        filters.set(`${marketId}/${partyId}`, { marketId, partyId })
        ids.push(id)
      }
      const rows = new Map<string, Row | null>()
      const found = new Map<string, Row>()
      yield* readEach([...filters.values()], found)
      for (const id of ids) rows.set(id, found.get(id) ?? null)
      // a provision of the same party and market that the hint did not name may have moved too
      for (const [id, row] of found) rows.set(id, row)
      return rows
    })

  return { name: "liquidity", read, readHinted, diff: (before, after) => diffLiquidity(before, after) }
}

/** The hint a changed provision gives: its market, party and id. */
export const hintOf = (lp: { readonly marketId: string; readonly partyId: string; readonly id: string }): string =>
  `${lp.marketId}/${lp.partyId}/${lp.id}`

type Provision = LiquidityProvision.LiquidityProvision
type Stored = typeof LiquidityRow.Type

const sameProvision = Schema.equivalence(LiquidityProvision.LiquidityProvision)

const statusOf = (lp: Provision): string => enumName(lp.status, "")

const terms = (lp: Provision) => ({
  version: lp.version.toString(),
  commitmentAmount: lp.commitmentAmount.toString(),
  fee: Decimal.format(lp.fee)
})

const PENDING = "STATUS_PENDING"

/**
 * The version waiting for the next epoch: the `pending` one next to the version in force, or a
 * submission not yet active, which the node shows alone as `current` in STATUS_PENDING.
 */
const waiting = (row: Stored | undefined): Provision | undefined => {
  if (row === undefined) return undefined
  if (row.pending !== null) return row.pending
  return statusOf(row.current) === PENDING ? row.current : undefined
}

const created = (lp: Provision): Change => ({
  kind: "liquidity.created",
  details: { partyId: lp.partyId, marketId: lp.marketId, status: statusOf(lp), ...terms(lp) }
})

/** A pending version appears or changes (a new submission is not an amendment). */
const amended = (before: Stored | undefined, after: Stored): Change | undefined => {
  const waitingBefore = waiting(before)
  const waitingAfter = before === undefined ? (after.pending ?? undefined) : waiting(after)
  return waitingAfter !== undefined && (waitingBefore === undefined || !sameProvision(waitingBefore, waitingAfter))
    ? { kind: "liquidity.amended", details: terms(waitingAfter) }
    : undefined
}

/** The version in force reaches the former pending one. */
const activated = (before: Stored | undefined, after: Stored): Change | undefined => {
  const waitingBefore = waiting(before)
  return waitingBefore !== undefined &&
    statusOf(after.current) !== PENDING &&
    after.current.version >= waitingBefore.version
    ? { kind: "liquidity.pending_activated", details: terms(after.current) }
    : undefined
}

/**
 * What a provision's change means: created, amended (a pending version appears or changes; a new
 * submission is not an amendment), its pending version activated (the version in force reaches
 * the former pending one), a different status of the version in force, or gone from the live list.
 */
const diffDecoded: DecodedDiff<Stored, Options> = (before, after) => {
  if (after === undefined) {
    return before === undefined
      ? []
      : [{ kind: "liquidity.gone", details: { status: statusOf(before.current), ...terms(before.current) } }]
  }
  const changes: Array<Change> = []
  if (before === undefined) changes.push(created(after.current))
  for (const change of [amended(before, after), activated(before, after)]) {
    if (change !== undefined) changes.push(change)
  }
  if (before !== undefined) {
    const [from, to] = [statusOf(before.current), statusOf(after.current)]
    if (from !== to) changes.push({ kind: "liquidity.status_changed", details: { from, to } })
  }
  return changes
}

const diffRows = rowDiff(LiquidityRow, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diffLiquidity = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, { enabled: true })

/** Liquidity provisions: one slice, read again per market and party the provisions stream names. */
export const definition = define({
  ...catalog.liquidity,
  sharding: unsharded,
  options: fields,
  reader: ({ client, options }) => make(client, options),
  // a hint: the REST row pairs the version in force with a pending one, which the stream's plain
  // record cannot rebuild
  live: {
    _tag: "Stream",
    stream: "liquidity",
    changes: (provisions) => provisions.map((lp) => ({ timeNanos: lp.updatedAt, change: liveHint(hintOf(lp)) }))
  },
  row: LiquidityRow,
  diff: diffDecoded,
  // a row pairs two versions of a provision: it is shown by them
  mainFields: ["current", "pending"],
  units: {
    ids: (row) => ({ market: Units.textAt(row, "current", "marketId") }),
    fields: { "current.commitmentAmount": "settlement", "pending.commitmentAmount": "settlement" },
    details: { commitmentAmount: "settlement" }
  }
})
