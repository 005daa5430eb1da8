/**
 * `GET /api/v2/parties` (ListParties) and `GET /api/v2/party/{partyId}` (GetParty), as the v0.75.8
 * data node answers them (datanode/api/trading_data_v2.go, datanode/sqlstore/parties.go,
 * datanode/entities/party.go).
 *
 * - A party is written with its id only: `alias` `""` and `metadata` `[]` whatever its profile
 *   (the entity's `ToProto` sets the id alone), the network party included.
 * - The store orders by `vega_time` then `id` (bytes), ascending. The built-in `network` party has
 *   no `vega_time` (NULL): Postgres sorts it last going up and first going down, and no cursor
 *   predicate ever keeps it, so a page after a cursor never lists it and its own cursor yields an
 *   empty page.
 * - The cursor is the whole `entities.Party` (`ID`, `TxHash`, `VegaTime`); the zero struct (`{}`)
 *   adds no predicate, and an `ID` that is not hex fails the query (400).
 * - `partyId` on the list looks the one party up by its bytes and ignores the pagination: 404
 *   `failed to get parties` (`no resource corresponding to this id`) when unknown, 400 with the
 *   store's invalid-id text when it is not hex.
 * - GetParty: 400 `invalid party id` unless `network` or 64 hex digits, 404 `failed to get party
 *   for ID` when unknown.
 *
 * The world's generated parties are first seen at block 1 and a party first seen in a
 * transaction at that block; the tx hash (only in the cursor) is derived from the chain id and
 * party id, and the network party's is `01` as the node's built-in row has it.
 */
import { createHash } from "node:crypto"
import { DataNodeApi, Encoder, EventBus, GatewayError, Ids } from "@vega-effect/schema"
import { isDescending, resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { Party } from "../world/catalog.js"
import { compareStrings } from "../world/versioned.js"
import { connectionJson, listInOrder } from "./connection.js"
import { PartyCursor, writeCursor } from "./cursors.js"
import { normalizeId, storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors, GrpcCode } = GatewayError

const encode = Encoder.stringify(EventBus.Party)

/** A party as the store has it: `vt` its first block's time (µs), `null` for the network party. */
interface PartyRow {
  readonly party: Party
  readonly vt: number | null
  readonly txHash: string
}

/** Go's zero time, which a `null` or missing `VegaTime` in a cursor reads as. */
const ZERO_TIME = -62135596800000000

/** A cursor: empty (the zero struct, no predicate), or its time and id bytes (undefined: not hex). */
type PartyKey =
  | { readonly empty: true }
  | { readonly empty: false; readonly vt: number | null; readonly key: string | undefined; readonly id: string }

const rowCache = new WeakMap<Party, PartyRow>()

const rowOf = (node: NodeView, party: Party): PartyRow => {
  let row = rowCache.get(party)
  if (row === undefined) {
    const { world } = node
    if (party === world.catalog.network) row = { party, vt: null, txHash: "01" }
    else {
      const first = world.profiles.versions.get(party.id)![0].from
      row = {
        party,
        vt: world.chain.blockTime(Math.max(1, first)),
        txHash: createHash("sha256").update(`${world.chain.chainId}/party/${party.id}`).digest("hex")
      }
    }
    rowCache.set(party, row)
  }
  return row
}

const cursorOf = (row: PartyRow): string => writeCursor(PartyCursor, [row.party.id, row.txHash, row.vt])

const partyJson = (row: PartyRow): string => encode({ id: row.party.id, alias: "", metadata: [] })

/** Ascending store order of the parties with a time: by time, then id bytes. */
const compareRows = (a: PartyRow, b: PartyRow): number =>
  (a.vt as number) - (b.vt as number) || compareStrings(a.party.key, b.party.key)

/** The parties a view sees, with a time, in ascending order; the network party apart. */
const timedRows = (node: NodeView): ReadonlyArray<PartyRow> => {
  const { catalog, profiles } = node.world
  const height = node.readableHeight
  const rows: Array<PartyRow> = []
  for (const party of [...catalog.parties, ...catalog.joined]) {
    if (party === catalog.network || profiles.at(party, height) === undefined) continue
    rows.push(rowOf(node, party))
  }
  return rows.sort(compareRows)
}

/** The cursor predicate on (vega_time, id): NULL on either side keeps nothing. */
const beyond = (
  row: PartyRow,
  key: { readonly vt: number | null; readonly key: string },
  descending: boolean
): boolean => {
  if (row.vt === null || key.vt === null) return false
  const c = row.vt - key.vt || compareStrings(row.party.key, key.key)
  return descending ? c <= 0 : c >= 0
}

const listParties = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const wanted = str(params, "partyId")
  if (wanted !== undefined && wanted !== "") {
    const key = storedIdKey(wanted)
    if (key === undefined) {
      return error(
        GatewayError.fromApiError(
          ApiErrors.PartyServiceGetAll,
          "not a valid hex id (or well known exception)",
          GrpcCode.InvalidArgument
        )
      )
    }
    const party = findByKey(node, key)
    if (party === undefined) {
      return error(
        GatewayError.fromApiError(ApiErrors.PartyServiceGetAll, GatewayError.NO_RESOURCE_INNER, GrpcCode.NotFound)
      )
    }
    // one party, the pagination ignored: its cursor as start and end, no other page
    const row = rowOf(node, party)
    return ok(`{"parties":${connectionJson([row], partyJson, cursorOf, false, false)}}`)
  }
  const descending = isDescending(request)
  const network = rowOf(node, node.world.catalog.network)
  let badId: string | undefined
  const result = listInOrder<PartyRow, PartyKey>({
    request,
    cursor: PartyCursor,
    keyOf: (v) => {
      const vt = v.get("VegaTime") as number
      const id = v.get("ID") as string
      if (id === "" && v.get("TxHash") === "" && vt === ZERO_TIME) return { empty: true }
      return { empty: false, vt: vt === ZERO_TIME ? null : vt, key: storedIdKey(id), id }
    },
    *rows(cursor) {
      const rows = timedRows(node)
      if (cursor === undefined || cursor.empty) {
        if (descending) yield network
        for (let i = 0; i < rows.length; i++) yield rows[descending ? rows.length - 1 - i : i]
        if (!descending) yield network
        return
      }
      const { key, vt } = cursor
      // the query binds the cursor's id as bytes: one that is not hex fails it
      if (key === undefined) {
        badId = cursor.id
        return
      }
      for (let i = 0; i < rows.length; i++) {
        const row = rows[descending ? rows.length - 1 - i : i]
        if (beyond(row, { vt, key }, descending)) yield row
      }
    },
    cursorOf,
    nodeJson: partyJson
  })
  if ("cursorError" in result) return internal(ApiErrors.PartyServiceGetAll, badCursor(result.cursorError))
  if (badId !== undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.PartyServiceGetAll,
        `scany: query multiple result rows: ${notHex(badId)}`,
        GrpcCode.InvalidArgument
      )
    )
  }
  return ok(`{"parties":${result.json}}`)
}

/** The party whose stored id bytes are `key`, if the view has seen it. */
const findByKey = (node: NodeView, key: string): Party | undefined => {
  const { catalog, profiles } = node.world
  const party = key === catalog.network.key ? catalog.network : catalog.partyById.get(key)
  if (party === undefined || profiles.at(party, node.readableHeight) === undefined) return undefined
  return party
}

const getParty = (params: Params, node: NodeView): Reply => {
  const raw = params.path.get("partyId") ?? ""
  if (raw === "") return error(GatewayError.fromApiError(ApiErrors.MissingPartyId))
  if (raw !== Ids.NETWORK_PARTY && normalizeId(raw) === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.InvalidPartyId))
  }
  const party = findByKey(node, storedIdKey(raw)!)
  if (party === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.PartyServiceGetById, GatewayError.NO_RESOURCE_INNER))
  }
  return ok(`{"party":${partyJson(rowOf(node, party))}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListParties.method,
    path: DataNodeApi.ListParties.path,
    params: [param("partyId", "string"), ...paginationParams],
    handle: listParties
  },
  {
    method: DataNodeApi.GetParty.method,
    path: DataNodeApi.GetParty.path,
    params: [],
    handle: getParty
  }
]
