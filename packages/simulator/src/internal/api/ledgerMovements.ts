/**
 * `GET /api/v2/stream/ledger/movements` (ObserveLedgerMovements), as the v0.75.8 node serves it
 * (datanode/api/trading_data_v2.go ObserveLedgerMovements, datanode/service/ledger.go,
 * sqlsubscribers/ledger_movement.go, core/types/collateral.go):
 *
 * - The request has no filter: every movement of the chain comes, from the blocks after the
 *   subscription. The ledger service hands its observers a block's movements when it flushes the
 *   block, and the handler sends each movement as a message of its own,
 *   `{"result":{"ledgerMovement":{"entries":[…],"balances":[…]}}}`.
 * - The core writes an account's details with the owner left out for the network's accounts (its
 *   `*`) and the market left out for accounts of no market (its `!`), so in stream form a general
 *   account has no `marketId` and an insurance pool no `owner`.
 *
 * The world simplifies: each ledger entry is one movement (the core groups the entries of one
 * transfer instruction, e.g. a trade's three fees, into one), whose balances are the two
 * accounts' balances after it (the external account of a deposit or withdrawal has none).
 */
import { DataNodeApi, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { microsToNanos } from "../goTime.js"
import type { StreamRoute } from "../route.js"
import { type Account, type LedgerRow, SYSTEM_OWNER } from "../world/accounts.js"
import { lowerBound } from "../world/versioned.js"
import type { World } from "../../World.js"
import { followWatched } from "./observers.js"
import type { StreamNode } from "./streams.js"

const encodeFrame = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveLedgerMovements.message))

/** An account as the core details it: no owner for the network's, no market for none. */
const details = (account: Account) => ({
  assetId: account.asset.id,
  type: account.type,
  ...(account.owner === SYSTEM_OWNER ? {} : { owner: account.owner }),
  ...(account.market === undefined ? {} : { marketId: account.market.id })
})

const movementOf = (row: LedgerRow) => ({
  entries: [
    {
      fromAccount: details(row.from),
      toAccount: details(row.to),
      amount: row.amount,
      type: row.type,
      timestamp: BigInt(microsToNanos(row.vt)),
      fromAccountBalance: row.fromBalance,
      toAccountBalance: row.toBalance
    }
  ],
  balances: [
    ...(row.from.type === "ACCOUNT_TYPE_EXTERNAL" ? [] : [{ account: details(row.from), balance: row.fromBalance }]),
    ...(row.to.type === "ACCOUNT_TYPE_EXTERNAL" ? [] : [{ account: details(row.to), balance: row.toBalance }])
  ]
})

/** The ledger entries of one block, in the order they were made. */
export const ledgerRowsAt = (world: World, height: number): ReadonlyArray<LedgerRow> => {
  const { ledger } = world.accounts
  const first = lowerBound(ledger, height, (row, h: number) => row.height - h)
  let end = first
  while (end < ledger.length && ledger[end].height === height) end++
  return ledger.slice(first, end)
}

/** The ledger movements stream, polling a lagging node's height every `pollInterval` ms. */
export const makeLedgerMovementsRoute = (pollInterval: number): StreamRoute<StreamNode> => ({
  method: "GET",
  path: DataNodeApi.ObserveLedgerMovements.path,
  params: [],
  open: (_params, node, sink) => {
    return followWatched(node, "ledger", sink, pollInterval, (block) => {
      for (const row of ledgerRowsAt(node.world, block.height)) {
        sink.send(JSON.stringify(encodeFrame({ result: { ledgerMovement: movementOf(row) } } as never)))
      }
    })
  }
})
