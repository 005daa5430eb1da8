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
import { Encoder, GatewayError, LiquidityProvision, Pagination } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Watch } from "../Config.js"
import type { Change, Json, Row } from "../Event.js"
import { canonical, type Resource } from "../Resource.js"

export type Options = Watch["liquidity"]

/** Filter values (parties or markets) read at the same time. */
const CONCURRENCY = 4

const encode = Encoder.encodeSync(LiquidityProvision.LiquidityProvision)

export const rowOf = (node: LiquidityProvision.LiquidityProvisionNode): Row => ({
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

type Provision = { readonly [key: string]: Json }

const provision = (row: Row | undefined, field: "current" | "pending"): Provision | undefined => {
  const value = row?.[field]
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Provision) : undefined
}

const text = (lp: Provision | undefined, field: string): string => {
  const value = lp?.[field]
  return typeof value === "string" ? value : ""
}

const version = (lp: Provision | undefined): bigint => BigInt(text(lp, "version") || "0")

const terms = (lp: Provision) => ({
  version: text(lp, "version"),
  commitmentAmount: text(lp, "commitmentAmount"),
  fee: text(lp, "fee")
})

const PENDING = "STATUS_PENDING"

/**
 * The version waiting for the next epoch: the `pending` one next to the version in force, or a
 * submission not yet active, which the node shows alone as `current` in STATUS_PENDING.
 */
const waiting = (row: Row | undefined): Provision | undefined => {
  const pending = provision(row, "pending")
  if (pending !== undefined) return pending
  const current = provision(row, "current")
  return text(current, "status") === PENDING ? current : undefined
}

/**
 * What a provision's change means: created, amended (a pending version appears or changes; a new
 * submission is not an amendment), its pending version activated (the version in force reaches
 * the former pending one), a different status of the version in force, or gone from the live list.
 */
export const diffLiquidity = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> => {
  const currentBefore = provision(before, "current")
  const currentAfter = provision(after, "current")
  if (currentAfter === undefined) {
    return currentBefore === undefined
      ? []
      : [{ kind: "liquidity.gone", details: { status: text(currentBefore, "status"), ...terms(currentBefore) } }]
  }
  const changes: Array<Change> = []
  if (currentBefore === undefined) {
    changes.push({
      kind: "liquidity.created",
      details: {
        partyId: text(currentAfter, "partyId"),
        marketId: text(currentAfter, "marketId"),
        status: text(currentAfter, "status"),
        ...terms(currentAfter)
      }
    })
  }
  const waitingBefore = waiting(before)
  const waitingAfter = currentBefore === undefined ? provision(after, "pending") : waiting(after)
  if (
    waitingAfter !== undefined &&
    (waitingBefore === undefined || canonical(waitingBefore) !== canonical(waitingAfter))
  ) {
    changes.push({ kind: "liquidity.amended", details: terms(waitingAfter) })
  }
  if (
    waitingBefore !== undefined &&
    text(currentAfter, "status") !== PENDING &&
    version(currentAfter) >= version(waitingBefore)
  ) {
    changes.push({ kind: "liquidity.pending_activated", details: terms(currentAfter) })
  }
  if (currentBefore !== undefined) {
    const from = text(currentBefore, "status")
    const to = text(currentAfter, "status")
    if (from !== to) changes.push({ kind: "liquidity.status_changed", details: { from, to } })
  }
  return changes
}
