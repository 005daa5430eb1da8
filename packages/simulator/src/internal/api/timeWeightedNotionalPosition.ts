/**
 * `GET /api/v2/time-weighted-notional-position` (GetTimeWeightedNotionalPosition), as the v0.75.8
 * data node answers it (`datanode/api/trading_data_v2.go`,
 * `datanode/sqlstore/time_weighted_notional_position.go`, `datanode/entities/time_weighted_notional_position.go`).
 *
 * The node keeps a row per asset, party, game and epoch (see `world/notionals.ts` for what core
 * reports). A missing party, asset or game id is 400 (checked in that order); an id that is not
 * hex fails when the store binds it (asset, party, then game: the query's argument order). With
 * `atEpoch` the store reads that epoch's row, without it the row of the latest epoch; no row is
 * pgx's `no rows in result set`, reported as a 500.
 */
import { DataNode, DataNodeApi, Encoder, GatewayError } from "@vega-effect/schema"
import { param, type Params, type Reply, type Route } from "../route.js"
import type { Party } from "../world/catalog.js"
import type { NotionalRow } from "../world/notionals.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, str } from "./params.js"
import { error, internal, invalidId, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encode = Encoder.stringify(DataNode.TimeWeightedNotionalPosition)

export const notionalJson = (row: NotionalRow): string =>
  encode({
    assetId: row.asset.id,
    partyId: row.party.id,
    gameId: row.game.id,
    atEpoch: BigInt(row.epoch),
    timeWeightedNotionalPosition: row.notional,
    lastUpdated: BigInt(row.vt) * 1000n
  } as unknown as DataNode.TimeWeightedNotionalPosition)

const NO_ROWS = "no rows in result set"

const handle = (params: Params, node: NodeView): Reply => {
  const partyId = str(params, "partyId") ?? ""
  const assetId = str(params, "assetId") ?? ""
  const gameId = str(params, "gameId") ?? ""
  if (partyId === "") return error(GatewayError.fromApiError(ApiErrors.InvalidPartyId))
  if (assetId === "") return error(GatewayError.fromApiError(ApiErrors.InvalidAssetId))
  if (gameId === "") return error(GatewayError.fromApiError(ApiErrors.InvalidGameId))
  const api = ApiErrors.GetTimeWeightedNotionalPosition
  const keys: Array<string> = []
  for (const id of [assetId, partyId, gameId]) {
    const key = storedIdKey(id)
    if (key === undefined) return invalidId(api, notHex(id))
    keys.push(key)
  }
  const [assetKey, partyKey, gameKey] = keys
  const atEpoch = int64(params, "atEpoch")
  const { catalog, notionals, teams } = node.world
  const game = teams.games.find((g) => storedIdKey(g.id) === gameKey)
  if (game === undefined || storedIdKey(game.asset.id) !== assetKey) return internal(api, NO_ROWS)
  let party: Party | undefined
  if (partyKey === storedIdKey(catalog.network.id)) party = catalog.network
  else party = notionals.partyOf(partyKey) ?? teams.byParty.get(partyKey)?.[0]?.party
  if (party === undefined) return internal(api, NO_ROWS)
  // epochs are whole numbers: one beyond the world's is simply not there
  const epoch = atEpoch === undefined ? undefined : atEpoch > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(atEpoch)
  const row = notionals.rowAt(party, game, epoch, node.readableHeight, teams)
  if (row === undefined) return internal(api, NO_ROWS)
  return ok(`{"timeWeightedNotionalPosition":${notionalJson(row)}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.GetTimeWeightedNotionalPosition.method,
  path: DataNodeApi.GetTimeWeightedNotionalPosition.path,
  params: [
    param("assetId", "string"),
    param("partyId", "string"),
    param("gameId", "string"),
    param("atEpoch", "uint64")
  ],
  handle
}
