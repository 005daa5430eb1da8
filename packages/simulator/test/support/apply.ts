/**
 * User transactions applied straight to a world, the way the core applies a block's: the world
 * advances one block, then each transaction is applied at its height.
 */
import { createHash } from "node:crypto"
import type { Commands } from "@vega-effect/schema"
import type { IncludedTransaction } from "../../src/internal/core/contract.js"
import { applyTransaction } from "../../src/internal/world/apply.js"
import { deterministicId } from "../../src/internal/world/orders.js"
import type { World } from "../../src/World.js"

const sha = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex")

/** A fresh 64-hex party key. */
export const freshKey = (name: string): string => sha("sha256", `party ${name}`)

/** The id the core gives the order a transaction submits. */
export const orderIdOf = (tx: IncludedTransaction): string => deterministicId(tx.signature)

let sequence = 0

/** Advances the world one block and applies the transactions in it, in order. */
export const block = (world: World, ...txs: ReadonlyArray<readonly [string, Commands.Command]>) => {
  world.advance(1)
  return txs.map(([partyId, command], index) => {
    const n = ++sequence
    const tx: IncludedTransaction = {
      hash: sha("sha256", `tx ${n}`),
      partyId,
      command,
      signature: sha("sha512", `signature ${n}`),
      height: world.height,
      index
    }
    const result = applyTransaction(world, tx) as unknown as Record<string, unknown>
    return { tx, result, error: (result.failure as { error: string } | undefined)?.error }
  })
}

/** An order submission with the given fields (a market IOC buy of 1 otherwise). */
export const submission = (marketId: string, fields: Partial<Commands.OrderSubmission>): Commands.Command => ({
  _tag: "orderSubmission",
  value: {
    marketId,
    price: "",
    size: 1n,
    side: "SIDE_BUY",
    timeInForce: "TIME_IN_FORCE_IOC",
    expiresAt: 0n,
    type: "TYPE_MARKET",
    reference: "",
    postOnly: false,
    reduceOnly: false,
    ...fields
  }
})

export type Side = "SIDE_BUY" | "SIDE_SELL"

/** A market order (IOC unless told). */
export const marketOrder = (
  marketId: string,
  side: Side,
  size: bigint,
  timeInForce: Commands.TimeInForce = "TIME_IN_FORCE_IOC"
): Commands.Command => submission(marketId, { side, size, timeInForce })

/** A limit order (GTC unless told). */
export const limitOrder = (
  marketId: string,
  side: Side,
  size: bigint,
  price: bigint,
  timeInForce: Commands.TimeInForce = "TIME_IN_FORCE_GTC",
  fields: Partial<Commands.OrderSubmission> = {}
): Commands.Command =>
  submission(marketId, { side, size, price: String(price), timeInForce, type: "TYPE_LIMIT", ...fields })

/** An amendment of an order's price, size or expiry. */
export const amendment = (
  marketId: string,
  orderId: string,
  fields: Partial<Commands.OrderAmendment>
): Commands.Command => ({
  _tag: "orderAmendment",
  value: {
    orderId,
    marketId,
    sizeDelta: 0n,
    timeInForce: "TIME_IN_FORCE_UNSPECIFIED",
    peggedOffset: "",
    peggedReference: "PEGGED_REFERENCE_UNSPECIFIED",
    ...fields
  }
})

/** A cancellation of one order, or (no order id) of all the party's orders in the market. */
export const cancellation = (marketId: string, orderId = ""): Commands.Command => ({
  _tag: "orderCancellation",
  value: { orderId, marketId }
})
