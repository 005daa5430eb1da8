/**
 * Stake: each watched party's stake linkings (VEGA associated from Ethereum, keyed by linking id)
 * and its available stake (`available/<partyId>`).
 *
 * Read incrementally: the node lists a party's linkings newest first by the block that wrote their
 * current version, and every change of a linking writes a new version, so the linkings that
 * changed since the last cycle all come before the first one still equal to the row held. Reading
 * stops there, and a snapshot carries only what was read (linkings are never deleted). Reading
 * always starts from the top: a cursor kept from an earlier cycle may point at a linking that has
 * since moved, and the node then silently skips a row.
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import { Amount, Decimal, Encoder, Pagination, StakeLinking } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Json, Row } from "../Event.js"
import type { HeldRows } from "../Fingerprints.js"
import { fingerprint, type Resource } from "../Resource.js"
import { type DecodedDiff, define, enumName, liveHint, noAssets, rowDiff } from "../ResourceDefinition.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { inShard, type Shard, whole } from "../Shard.js"
import { catalog } from "../ResourceCatalog.js"

/** `watch.stake`: stake is read per party, the listed parties or every party that has a profile. */
const fields = { parties: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

/** Parties read at the same time. */
const CONCURRENCY = 8
const KNOWN_PARTY_FIRST_PAGE = 100

/** Page sizes of the linking lists. */
export interface Paging {
  /** Default `Pagination.MAX_PAGE_SIZE`, the node's largest page. */
  readonly pageSize?: number
  /** First page for a party read before, default 100: a cycle usually finds few changed linkings there. */
  readonly knownFirstPage?: number
}
/** VEGA, whose base units stake amounts are in, has 18 decimals. */
const VEGA_DECIMALS = 18

const encode = Encoder.encodeSync(StakeLinking.StakeLinking)

export const availableKey = (partyId: string): string => `available/${partyId}`

/** The parties to read: the configured ones, or every party with a profile. */
export const partiesOf = (
  client: DataNodeClient.Service,
  options: Options
): Effect.Effect<ReadonlyArray<string>, DataNodeError.DataNodeError> =>
  options.parties !== undefined && options.parties.length > 0
    ? Effect.succeed([...new Set(options.parties)])
    : client.partiesProfiles({}, { pageSize: Pagination.MAX_PAGE_SIZE }).pipe(
        Stream.map((item) => item.node.partyId as string),
        Stream.runCollect,
        Effect.map((ids) => [...new Set(Chunk.toReadonlyArray(ids))])
      )

/** A party's available-stake row and the linkings that changed since `previous` (all of them the first time). */
const readParty = (
  client: DataNodeClient.Service,
  partyId: string,
  previous: HeldRows,
  paging: Required<Paging>
): Effect.Effect<ReadonlyArray<readonly [string, Row]>, DataNodeError.DataNodeError> =>
  Effect.gen(function* () {
    // the available row is written with every read of the party, so it also says the party's
    // linkings were all read before (a read either completes or stores nothing)
    const known = previous.has(availableKey(partyId))
    const first = yield* client.getStake({
      partyId,
      pagination: { first: known ? paging.knownFirstPage : paging.pageSize }
    })
    const out: Array<readonly [string, Row]> = [
      [availableKey(partyId), { partyId, currentStakeAvailable: first.currentStakeAvailable.toString() }]
    ]
    const changed = (linking: StakeLinking.StakeLinking): readonly [string, Row] | undefined => {
      const row: Row = encode(linking)
      return known && previous.get(linking.id) === fingerprint(row) ? undefined : [linking.id, row]
    }
    const { edges, pageInfo } = first.stakeLinkings
    for (const edge of edges) {
      const entry = changed(edge.node)
      if (entry === undefined) return out
      out.push(entry)
    }
    if (!pageInfo.hasNextPage || edges.length === 0) return out
    // prefetch 0: the next page is fetched only if this one ends before an unchanged linking
    const rest = yield* client
      .stakeLinkings({ partyId }, { pageSize: paging.pageSize, from: edges[edges.length - 1].cursor, prefetch: 0 })
      .pipe(
        Stream.map((item) => changed(item.node)),
        Stream.takeWhile((entry): entry is readonly [string, Row] => entry !== undefined),
        Stream.runCollect
      )
    out.push(...Chunk.toReadonlyArray(rest))
    return out
  })

/** Which shard of the parties to read, and the party list to cut it from. */
export interface Slice {
  readonly shard: Shard
  readonly parties: Effect.Effect<ReadonlyArray<string>, DataNodeError.DataNodeError>
}

const read =
  (client: DataNodeClient.Service, paging: Required<Paging>, slice: Slice): Resource["read"] =>
  (context) =>
    Effect.gen(function* () {
      const parties = (yield* slice.parties).filter((party) => inShard(slice.shard, party))
      const perParty = yield* Effect.forEach(
        parties,
        (partyId) => readParty(client, partyId, context.previous, paging),
        { concurrency: CONCURRENCY }
      )
      return { rows: new Map(perParty.flat()), complete: false }
    })

/** The hinted parties of the slice, read again (a party's available row and its changed linkings). */
const readHinted =
  (
    client: DataNodeClient.Service,
    paging: Required<Paging>,
    slice: Slice,
    options: Options
  ): NonNullable<Resource["readHinted"]> =>
  (hints, context) => {
    const watched = options.parties !== undefined && options.parties.length > 0 ? new Set(options.parties) : undefined
    const parties = [...new Set(hints)].filter(
      (party) => inShard(slice.shard, party) && (watched === undefined || watched.has(party))
    )
    return Effect.map(
      Effect.forEach(parties, (partyId) => readParty(client, partyId, context.previous, paging), {
        concurrency: CONCURRENCY
      }),
      (perParty) => new Map(perParty.flat())
    )
  }

const inVega = (raw: bigint): string => Decimal.format(BigDecimal.make(raw, VEGA_DECIMALS))

/** A party's available stake, as the watcher stores it next to the party's linkings. */
export const AvailableRow = Schema.Struct({ partyId: Schema.String, currentStakeAvailable: Amount.Amount })

/** A stake row: a linking as the node lists it, or a party's available stake. */
export const StakeRow = Schema.Union(AvailableRow, StakeLinking.StakeLinking)
type StakeRow = typeof StakeRow.Type

const isAvailable = (row: StakeRow | undefined): row is typeof AvailableRow.Type =>
  row !== undefined && "currentStakeAvailable" in row

const diffAvailable = (before: StakeRow | undefined, after: typeof AvailableRow.Type): ReadonlyArray<Change> => {
  const from = isAvailable(before) ? before.currentStakeAvailable : 0n
  const to = after.currentStakeAvailable
  if (from === to) return []
  const details: { [key: string]: Json } = {
    from: from.toString(),
    to: to.toString(),
    delta: (to - from).toString(),
    fromVega: inVega(from),
    toVega: inVega(to),
    deltaVega: inVega(to - from)
  }
  return [{ kind: "stake.available_changed", details }]
}

const kindOfNew = (type: StakeLinking.StakeLinkingType): string | undefined =>
  type === "TYPE_LINK" ? "stake.linked" : type === "TYPE_UNLINK" ? "stake.unlinked" : undefined

const diffLinking = (before: StakeRow | undefined, after: StakeLinking.StakeLinking): ReadonlyArray<Change> => {
  const status = enumName(after.status, "STATUS_UNSPECIFIED")
  if (before === undefined) {
    const kind = kindOfNew(after.type)
    if (kind === undefined) return []
    const amount = after.amount.toString()
    return [{ kind, details: { party: after.party, amount, amountVega: inVega(after.amount), status } }]
  }
  const previousStatus = isAvailable(before) ? "STATUS_UNSPECIFIED" : enumName(before.status, "STATUS_UNSPECIFIED")
  if (previousStatus === status) return []
  return [
    { kind: "stake.status_changed", details: { from: previousStatus, to: status, type: enumName(after.type, "") } }
  ]
}

/**
 * What a stake row's change means: a new link or unlink, a linking settling (pending to accepted
 * or rejected), or a different available stake (a party read for the first time counts from 0).
 */
const diffDecoded: DecodedDiff<StakeRow, Options> = (before, after) => {
  // stake rows are never deleted (reads are partial), so there is nothing to say without `after`
  if (after === undefined) return []
  return isAvailable(after) ? diffAvailable(before, after) : diffLinking(before, after)
}

const diffRows = rowDiff(StakeRow, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diffStake = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, { enabled: true })

export const make = (
  client: DataNodeClient.Service,
  options: Options,
  paging: Paging = {},
  slice: Slice = { shard: whole, parties: Effect.suspend(() => partiesOf(client, options)) }
): Resource => {
  const pages = {
    pageSize: paging.pageSize ?? Pagination.MAX_PAGE_SIZE,
    knownFirstPage: paging.knownFirstPage ?? KNOWN_PARTY_FIRST_PAGE
  }
  return {
    name: "stake",
    read: read(client, pages, slice),
    readHinted: readHinted(client, pages, slice, options),
    diff: (before, after) => diffStake(before, after)
  }
}

/**
 * Stake: sharded by party, fed by stake linkings as hints naming the party, on a bus subscription
 * of their own: linkings can come in bursts, a few hundred bytes each, and a block of a couple of
 * hundred passes the 64 KiB a WebSocket line may hold; on their own, that close costs a read of stake, not the block ticks and
 * a read of every resource the shared bus feeds.
 */
export const definition = define({
  ...catalog.stake,
  sharding: {
    count: 16,
    // a linking carries its `party`, the available row its `partyId`
    idOf: (_key, row) =>
      typeof row.partyId === "string" ? row.partyId : typeof row.party === "string" ? row.party : "",
    ids: partiesOf
  },
  options: fields,
  reader: ({ client, options, shard, shardIds }) => make(client, options, {}, { shard, parties: shardIds }),
  // a hint although the event holds the linking: the party's available stake is not in it, and
  // one read of the party gives both
  live: {
    _tag: "Bus",
    types: ["BUS_EVENT_TYPE_STAKE_LINKING"],
    subscription: "stake",
    change: (event) => (event.stakeLinking === undefined ? undefined : liveHint(event.stakeLinking.party))
  },
  row: StakeRow,
  diff: diffDecoded,
  mainFields: ["type", "amount", "status"],
  units: {
    ids: () => ({}),
    fields: { amount: "stake", currentStakeAvailable: "stake" },
    details: { amount: "stake", from: "stake", to: "stake", delta: "stake" }
  }
})
