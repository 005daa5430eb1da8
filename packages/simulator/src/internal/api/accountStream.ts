/**
 * `GET /api/v2/stream/accounts` (ObserveAccounts), as the v0.75.8 node serves it
 * (datanode/api/trading_data_v2.go ObserveAccounts and sendAccountsSnapshot,
 * datanode/service/accounts.go ObserveAccountBalances, sqlstore/batcher_map.go):
 *
 * - Query `marketId`, `partyId`, `asset`, `type` (an account type; unspecified means any).
 * - First a snapshot of the matching accounts' current balances as the node reads them, ordered
 *   by account id (ascending: the query has no pagination), in pages of 50
 *   (`{"result":{"snapshot":{"accounts":[…],"lastPage":…}}}`); no account gives one empty last
 *   page. The filters are bound as bytes there (any case); an id that does not decode fails the
 *   stream with "failed to send accounts snapshot" (the party and market before the asset, which
 *   is only bound when the query runs).
 * - Then, once the snapshot is sent, each block's balances: one per account, in its final state
 *   in the block, in the order of each account's last change, those matching the filters (which
 *   compare the ids' text exactly), in messages of at most 50
 *   (`{"result":{"updates":{"accounts":[…]}}}`); a block with none sends nothing.
 *
 * Balances are the REST rows in stream form.
 */
import { Commands, DataNode, DataNodeApi, GatewayError, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import type { BlockResults } from "../core/contract.js"
import { enumParam, param, type Params, type StreamRoute, type StreamSink } from "../route.js"
import type { BalanceRow } from "../world/accounts.js"
import { accountsById, balanceAt, balanceValue } from "./accounts.js"
import { decodesAsId } from "./ids.js"
import { str } from "./params.js"
import { pages } from "./observers.js"
import { notHex } from "./reply.js"
import { follow, type StreamNode } from "./streams.js"

const encodeFrame = Schema.encodeSync(StreamForm.frame(StreamForm.make(DataNode.ObserveAccountsResponse)))
const ACCOUNT_TYPES = Commands.AccountType.values

interface Filter {
  readonly marketId: string
  readonly partyId: string
  readonly asset: string
  /** The account type's name, or "" for any. */
  readonly type: string
}

const read = (params: Params): Filter => {
  const type = params.query.get("type")
  return {
    marketId: str(params, "marketId") ?? "",
    partyId: str(params, "partyId") ?? "",
    asset: str(params, "asset") ?? "",
    type: typeof type === "string" && type !== "ACCOUNT_TYPE_UNSPECIFIED" ? type : ""
  }
}

/** Why the snapshot query fails, as the node words it, or undefined. */
const snapshotError = (f: Filter): string | undefined => {
  const wrap = (text: string) => `fetching account balance initial image: querying account balances: ${text}`
  if (f.partyId !== "" && !decodesAsId(f.partyId)) return wrap(`could not decode party ID: ${notHex(f.partyId)}`)
  if (f.marketId !== "" && !decodesAsId(f.marketId)) return wrap(`could not decode market ID: ${notHex(f.marketId)}`)
  // the asset id fails when the query is run (pgx's own wording around it is not in the sources)
  if (f.asset !== "" && !decodesAsId(f.asset)) return wrap(notHex(f.asset))
  return undefined
}

/** The snapshot's filter: ids as bytes, so in any case. */
const snapshotMatches = (f: Filter, row: BalanceRow): boolean => {
  const { account } = row
  const lower = (id: string) => (id === "network" ? id : id.toLowerCase())
  return (
    (f.partyId === "" || account.owner === lower(f.partyId)) &&
    (f.marketId === "" || (account.market?.id ?? "") === lower(f.marketId)) &&
    (f.asset === "" || account.asset.id === lower(f.asset)) &&
    (f.type === "" || account.type === f.type)
  )
}

/** The updates' filter: the ids' text, exactly. */
const updateMatches = (f: Filter, row: BalanceRow): boolean => {
  const { account } = row
  return (
    (f.marketId === "" || (account.market?.id ?? "") === f.marketId) &&
    (f.partyId === "" || account.owner === f.partyId) &&
    (f.asset === "" || account.asset.id === f.asset) &&
    (f.type === "" || account.type === f.type)
  )
}

const send = (sink: StreamSink, response: object): void =>
  sink.send(JSON.stringify(encodeFrame({ result: response } as never)))

const accountsRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveAccounts.path,
  params: [
    param("marketId", "string"),
    param("partyId", "string"),
    param("asset", "string"),
    enumParam("type", ACCOUNT_TYPES)
  ],
  open: (params, node, sink) => {
    const filter = read(params)
    let stopped = false
    let stopFollowing: (() => void) | undefined
    const failure = snapshotError(filter)
    if (failure !== undefined) {
      sink.fail(
        GatewayError.fromApiError(
          GatewayError.ApiErrors.FailedToSendSnapshot,
          failure,
          GatewayError.GrpcCode.InvalidArgument
        )
      )
      return { close: () => {} }
    }
    const height = node.readableHeight
    const rows: Array<BalanceRow> = []
    for (const account of accountsById(node.world)) {
      const row = balanceAt(account, height)
      if (row !== undefined && snapshotMatches(filter, row)) rows.push(row)
    }
    const onBlock = (block: BlockResults): void => {
      const changed = [...(block.changes?.balances.values() ?? [])].filter((row) => updateMatches(filter, row))
      for (const page of changed.length === 0 ? [] : pages(changed)) {
        send(sink, { updates: { accounts: page.map(balanceValue) } })
      }
    }
    // the snapshot is sent a page per turn of the event loop; updates are followed after it
    const all = pages(rows)
    if (all.length === 0) all.push([])
    let at = 0
    const next = (): void => {
      if (stopped) return
      const page = all[at++]
      const lastPage = at === all.length
      send(sink, { snapshot: { accounts: page.map(balanceValue), lastPage } })
      if (lastPage) stopFollowing = follow(node, pollInterval, onBlock)
      else setImmediate(next)
    }
    next()
    return {
      close: () => {
        stopped = true
        stopFollowing?.()
      }
    }
  }
})

/** The accounts stream, polling a lagging node's height every `pollInterval` ms. */
export const makeAccountStreamRoutes = (pollInterval: number): ReadonlyArray<StreamRoute<StreamNode>> => [
  accountsRoute(pollInterval)
]
