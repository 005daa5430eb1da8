/**
 * Signatures and verifications per second, this package against the official
 * `@vegaprotocol/crypto`, measured in the same run on the same messages.
 *
 * Run: npx tsx --conditions=@vega-effect/source bench/signatures.ts
 */
import { randomBytes } from "node:crypto"
import { HARDENED, VegaWallet } from "@vegaprotocol/crypto"
import { Either } from "effect"
import { Keys, Signature } from "@vega-effect/crypto"

const MNEMONIC =
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"
const N = 5000
const CHAIN = "vega-mainnet-0011"

const rate = async (work: () => Promise<void> | void): Promise<number> => {
  await work() // warm up
  const started = performance.now()
  await work()
  return N / ((performance.now() - started) / 1000)
}

const main = async () => {
  const messages = Array.from({ length: N }, () => randomBytes(120))
  const ours = Either.getOrThrow(Keys.fromMnemonic(MNEMONIC, { index: 1 }))
  const theirs = await (await VegaWallet.fromMnemonic(MNEMONIC)).keyPair(HARDENED + 1)
  const signed = messages.map((m) => Signature.signedBytes(m, CHAIN))
  const ourSignatures = signed.map((m) => Signature.sign(ours, m))
  const theirSignatures = await Promise.all(messages.map((m) => theirs.sign(m, CHAIN)))

  const ourSign = await rate(() => {
    for (const m of messages) Signature.sign(ours, Signature.signedBytes(m, CHAIN))
  })
  const theirSign = await rate(async () => {
    for (const m of messages) await theirs.sign(m, CHAIN)
  })
  const ourVerify = await rate(() => {
    for (let i = 0; i < N; i++)
      Signature.verify(ours.publicKey, Signature.signedBytes(messages[i], CHAIN), ourSignatures[i])
  })
  const theirVerify = await rate(async () => {
    for (let i = 0; i < N; i++) await theirs.publicKey.verify(theirSignatures[i], messages[i], CHAIN)
  })
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US").padStart(9)
  console.log(`ed25519 over SHA3-256 of chainId || 0 || 120-byte input data, ${N} messages (node ${process.version})`)
  console.log(
    `  sign    this package ${fmt(ourSign)}/s   @vegaprotocol/crypto ${fmt(theirSign)}/s   ${(ourSign / theirSign).toFixed(2)}x`
  )
  console.log(
    `  verify  this package ${fmt(ourVerify)}/s   @vegaprotocol/crypto ${fmt(theirVerify)}/s   ${(ourVerify / theirVerify).toFixed(2)}x`
  )
}

main()
