/**
 * A command made into a signed transaction: a random non-zero nonce, the proof-of-work slot's
 * height, the key's signature over the chain id and input data, and the Go-order bytes whose
 * hash every endpoint reports.
 */
import { type Keys, Signature, TxEncoding } from "@vega-effect/crypto"
import type { Commands, Transaction } from "@vega-effect/schema"
import { createHash, randomBytes } from "node:crypto"
import type { Signed } from "./deliver.js"
import type { Slot } from "./spamBudget.js"

/** A random non-zero uint64. */
const randomNonce = (): bigint => {
  for (;;) {
    const n = randomBytes(8).readBigUInt64BE()
    if (n !== 0n) return n
  }
}

export interface Solution {
  readonly tid: string
  readonly nonce: bigint
}

export const signWith = (
  pair: Keys.KeyPair,
  command: Commands.Command,
  chainId: string,
  slot: Slot,
  solution: Solution
): Signed => {
  const inputData = TxEncoding.encodeInputData({ nonce: randomNonce(), blockHeight: slot.height, command })
  const transaction: Transaction.Transaction = {
    inputData,
    signature: Signature.signInputData(pair, inputData, chainId),
    pubKey: pair.publicKey,
    version: "TX_VERSION_V3",
    pow: { tid: solution.tid, nonce: solution.nonce }
  }
  const bytes = TxEncoding.encodeTransaction(transaction)
  return {
    transaction,
    bytes,
    txHash: TxEncoding.txHash(bytes).toLowerCase(),
    powHeight: slot.height,
    // the id the node gives an order this transaction submits
    deterministicId: createHash("sha3-256").update(Buffer.from(transaction.signature!.value, "hex")).digest("hex")
  }
}
