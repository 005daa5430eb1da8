import { describe, expect, it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import { HARDENED, VegaWallet } from "@vegaprotocol/crypto"
import { encode as encodeInputData } from "@vegaprotocol/protos/vega/commands/v1/InputData/encode.js"
import { encode as encodeTransaction } from "@vegaprotocol/protos/vega/commands/v1/Transaction/encode.js"
import { createHash, randomBytes } from "node:crypto"
import { Effect, Either } from "effect"
import { TxEncoding } from "@vega-effect/crypto"
import { chainOf, post } from "./support/tx.js"

/** The official solver (`@vegaprotocol/crypto`, Rust/WASM), which ships no types. */
interface OfficialPow {
  readonly solve: (
    difficulty: number,
    blockHash: string,
    tid: string
  ) => Promise<{ readonly nonce: bigint; readonly tid: string; readonly hashFunction: string }>
}

const MNEMONIC =
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"

describe("a transaction built by the official Vega packages", () => {
  it.scoped("is accepted raw, hashed over its own bytes (their field order), and included", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 12, spam: { difficulty: 8 } })
      const chain = yield* Effect.promise(() => chainOf(sim.url))
      const pow = yield* Effect.promise(() => import("@vegaprotocol/crypto/pow" as string) as Promise<OfficialPow>)
      const keyPair = yield* Effect.promise(async () => (await VegaWallet.fromMnemonic(MNEMONIC)).keyPair(HARDENED + 0))
      const pubKey = keyPair.publicKey.toString()
      expect(pubKey).toBe("6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772")

      // as the browser wallet does it: random nonce and tid, PoW on the reported hash, sign with the chain id
      const inputData = encodeInputData({
        nonce: randomBytes(8).readBigUInt64BE() | 1n,
        blockHeight: chain.height,
        command: { updatePartyProfile: { alias: "official", metadata: [] } }
      } as any)
      const signature = yield* Effect.promise(() => keyPair.sign(inputData, chain.chainId))
      const solution = yield* Effect.promise(() =>
        pow.solve(chain.difficulty, chain.hash, randomBytes(32).toString("hex"))
      )
      const bytes = encodeTransaction({
        inputData,
        signature: { value: Buffer.from(signature).toString("hex"), algo: "vega/ed25519", version: 1 },
        from: { pubKey },
        version: 3,
        pow: { tid: solution.tid, nonce: solution.nonce }
      } as any)
      // their order differs from Go's: the hash is of their bytes, not of a re-marshalling
      const goBytes = TxEncoding.encodeTransaction(Either.getOrThrow(TxEncoding.decodeTransaction(bytes)))
      expect(Buffer.from(bytes).equals(Buffer.from(goBytes))).toBe(false)

      const res = yield* Effect.promise(() =>
        post(sim.url, "/transaction/raw", { tx: Buffer.from(bytes).toString("base64"), type: "TYPE_SYNC" })
      )
      const hash = createHash("sha256").update(bytes).digest("hex")
      expect(res.json).toEqual({ success: true, txHash: hash.toUpperCase(), code: 0, data: "", log: "", height: "0" })

      const blocks: Array<Simulator.BlockResults> = []
      sim.feed.subscribe((b) => blocks.push(b))
      yield* sim.advance(1)
      expect(blocks[0].results.map((r) => [r.transaction.hash, r.transaction.partyId])).toEqual([[hash, pubKey]])
    })
  )
})
