/**
 * From a mnemonic to the JSON body of `POST /transaction`: derive the key, encode the command,
 * sign for the chain, solve the proof of work, and compute the hash the node will report.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/transaction.ts
 */
import { Effect, Either, Schema } from "effect"
import { Commands, Transaction } from "@vega-effect/schema"
import { Keys, ProofOfWork, Signature, TxEncoding } from "@vega-effect/crypto"

const MNEMONIC =
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"

// what GET /blockchain/height answered
const chain = {
  height: 4_321n,
  hash: "792ca202b84226c739f9923046a0f4e7b5ff9e6f1b5636d8e26a8e2c5dec70ac",
  chainId: "vega-mainnet-0011",
  difficulty: 15
}

const program = Effect.gen(function* () {
  const key = Either.getOrThrow(Keys.fromMnemonic(MNEMONIC, { index: 1 }))
  console.log("party", key.publicKey)

  const command = Commands.command(
    "orderSubmission",
    Commands.orderSubmission({
      marketId: "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b",
      price: "123450000",
      size: 10n,
      side: "SIDE_BUY",
      timeInForce: "TIME_IN_FORCE_GTC",
      type: "TYPE_LIMIT"
    })
  )
  const inputData = TxEncoding.encodeInputData({ nonce: 9_876_543_210n, blockHeight: chain.height, command })
  const signature = Signature.signInputData(key, inputData, chain.chainId)
  const pow = yield* ProofOfWork.solve(chain.hash, ProofOfWork.newTid(), chain.difficulty)

  const tx: Transaction.Transaction = {
    inputData,
    signature,
    pubKey: key.publicKey,
    version: "TX_VERSION_V3",
    pow: { tid: pow.tid, nonce: pow.nonce }
  }
  const bytes = TxEncoding.encodeTransaction(tx)
  const body = Schema.encodeSync(Transaction.SubmitTransactionRequest)({ tx, type: "TYPE_SYNC" })
  console.log(
    "signature verifies",
    Signature.verify(key.publicKey, Signature.signedBytes(inputData, chain.chainId), signature.value)
  )
  console.log("proof of work verifies", ProofOfWork.verify(chain.hash, pow.tid, pow.nonce, chain.difficulty))
  console.log("txHash", TxEncoding.txHash(bytes).toUpperCase())
  console.log("body keys", Object.keys(body.tx ?? {}).join(","))
})

Effect.runPromise(program)
