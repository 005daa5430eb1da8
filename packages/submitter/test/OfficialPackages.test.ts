import { describe, expect, it } from "@effect/vitest"
import { HARDENED, VegaWallet } from "@vegaprotocol/crypto"
import { decode as decodeInputData } from "@vegaprotocol/protos/vega/commands/v1/InputData/decode.js"
import { decode as decodeTransaction } from "@vegaprotocol/protos/vega/commands/v1/Transaction/decode.js"
import { Commands } from "@vega-effect/schema"
import { Effect } from "effect"
import { MNEMONIC, setup } from "./support.js"

interface OfficialPow {
  readonly verify: (difficulty: number, blockHash: string, tid: string, nonce: bigint) => Promise<boolean>
}

describe("a transaction from the submitter, read by the official packages", () => {
  it.scopedLive("decodes with @vegaprotocol/protos, verifies with @vegaprotocol/crypto, and is accepted", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup({ chainId: "vega-mainnet-0011" })
      const market = sim.world.catalog.markets[0].id
      const command = Commands.command(
        "orderSubmission",
        Commands.orderSubmission({
          marketId: market,
          price: "1",
          size: 3n,
          side: "SIDE_BUY",
          timeInForce: "TIME_IN_FORCE_GTC",
          type: "TYPE_LIMIT",
          reference: "official"
        })
      )
      const signed = yield* submitter.sign(command)

      const tx = decodeTransaction(signed.bytes) as any
      expect(tx.from).toEqual({ pubKey: submitter.partyId })
      expect(tx.version).toBe("TX_VERSION_V3")
      expect(tx.signature).toEqual({ value: signed.transaction.signature!.value, algo: "vega/ed25519", version: 1 })
      const input = decodeInputData(tx.inputData) as any
      expect(input.nonce).not.toBe(0n)
      expect(input.blockHeight).toBe(signed.powHeight)
      expect(input.command.orderSubmission).toMatchObject({
        marketId: market,
        price: "1",
        size: 3n,
        side: "SIDE_BUY",
        timeInForce: "TIME_IN_FORCE_GTC",
        type: "TYPE_LIMIT",
        reference: "official"
      })

      const key = yield* Effect.promise(async () => (await VegaWallet.fromMnemonic(MNEMONIC)).keyPair(HARDENED + 1))
      expect(key.publicKey.toString()).toBe(submitter.partyId)
      const signature = Buffer.from(tx.signature.value, "hex")
      expect(yield* Effect.promise(() => key.publicKey.verify(signature, tx.inputData, "vega-mainnet-0011"))).toBe(true)
      // signed for this chain only
      expect(yield* Effect.promise(() => key.publicKey.verify(signature, tx.inputData, "vega-testnet-0002-v4"))).toBe(
        false
      )

      const pow = yield* Effect.promise(() => import("@vegaprotocol/crypto/pow" as string) as Promise<OfficialPow>)
      const blockHash = sim.world.chain.blockHash(Number(signed.powHeight))
      expect(yield* Effect.promise(() => pow.verify(4, blockHash, tx.pow.tid, tx.pow.nonce))).toBe(true)

      const accepted = yield* submitter.send(signed)
      expect(accepted.txHash).toBe(signed.txHash)
    })
  )
})
