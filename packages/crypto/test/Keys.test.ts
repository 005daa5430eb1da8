import { describe, expect, it } from "@effect/vitest"
import { HARDENED, VegaWallet } from "@vegaprotocol/crypto"
import { Either, FastCheck, Redacted } from "effect"
import { Keys, Signature } from "@vega-effect/crypto"

const MNEMONIC =
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"

const key = (index: number, version?: 1 | 2) =>
  Either.getOrThrow(Keys.fromMnemonic(Redacted.make(MNEMONIC), version === undefined ? { index } : { index, version }))

describe("Keys: the wallets' vectors", () => {
  it("derives the seed, the wallet id and keys of both derivation versions", () => {
    expect(Buffer.from(Redacted.value(Either.getOrThrow(Keys.mnemonicSeed(MNEMONIC)))).toString("hex")).toBe(
      "8c1771c8d6ed96261e5a7456438ad1ea27b63da359bc4922d4aeb44e39e2778d322f18c7f802a0801505ba954d4aa9574a7e686848a26f7e09aaa40ebdd9a730"
    )
    expect(Either.getOrThrow(Keys.walletId(MNEMONIC))).toBe(
      "9df682a3c87d90567f260566a9c223ccbbb7529c38340cf163b8fe199dbf0f2e"
    )
    expect(key(0).publicKey).toBe("6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772")
    expect(key(1).publicKey).toBe("b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0")
    expect(key(2).publicKey).toBe("988eae323a07f12363c17025c23ee58ea32ac3912398e16bb0b56969f57adc52")
    expect(key(1, 1).publicKey).toBe("30ebce58d94ad37c4ff6a9014c955c20e12468da956163228cc7ec9b98d3a371")
    expect(key(1).path).toBe("m/1789'/0'/1'")
  })

  it("signs the js-crypto vector", () => {
    const signature = Signature.sign(
      key(1),
      Signature.signedBytes(new TextEncoder().encode("hello world"), "mainnet-v1")
    )
    expect(signature).toBe(
      "d1c497702086b54f98821e6cbbd9b3f3390d9531b10a23dabf155f9b5a7f371b8e49210d21ef3a399700c6d407ec50edcf4cc3cefe1657213e479d32bbaa520f"
    )
    expect(
      Signature.verify(
        key(1).publicKey,
        Signature.signedBytes(new TextEncoder().encode("hello world"), "mainnet-v1"),
        signature
      )
    ).toBe(true)
  })

  it("normalises whitespace and keeps the secret redacted", () => {
    const messy = `  ${MNEMONIC.split(" ").join("\n\t ")}  `
    expect(Either.getOrThrow(Keys.fromMnemonic(messy, { index: 1 })).publicKey).toBe(key(1).publicKey)
    const pair = key(1)
    expect(String(pair.secret)).toBe("<redacted>")
    expect(JSON.stringify(pair)).not.toContain(Buffer.from(Redacted.value(pair.secret)).toString("hex"))
  })

  it("imports hex private keys: the seed, or the 64-byte secret of the wallets", () => {
    const pair = key(1)
    const seed = Buffer.from(Redacted.value(pair.secret)).toString("hex")
    expect(Either.getOrThrow(Keys.fromHex(seed)).publicKey).toBe(pair.publicKey)
    expect(Either.getOrThrow(Keys.fromHex(Redacted.make(seed + pair.publicKey))).publicKey).toBe(pair.publicKey)
  })

  it("rejects malformed keys and mnemonics", () => {
    const reason = <A>(e: Either.Either<A, Keys.KeyError>) => (Either.isLeft(e) ? e.left.reason : "ok")
    expect(reason(Keys.fromHex("zz".repeat(32)))).toBe("InvalidHex")
    expect(reason(Keys.fromHex("ab".repeat(31)))).toBe("InvalidLength")
    expect(reason(Keys.fromHex("ab".repeat(32) + "cd".repeat(32)))).toBe("PublicKeyMismatch")
    const words = MNEMONIC.split(" ")
    const badChecksum = [...words.slice(0, 23), words[0]].join(" ")
    expect(reason(Keys.fromMnemonic(badChecksum, { index: 1 }))).toBe("InvalidMnemonic")
    const checksum = Keys.fromMnemonic(badChecksum, { index: 1 })
    expect(Either.isLeft(checksum) && checksum.left.message).toBe("the mnemonic's checksum does not match its words")
    expect(reason(Keys.fromMnemonic(words.slice(0, 23).join(" "), { index: 1 }))).toBe("InvalidMnemonic")
    expect(reason(Keys.fromMnemonic([...words.slice(0, 23), "notaword"].join(" "), { index: 1 }))).toBe(
      "InvalidMnemonic"
    )
    expect(reason(Keys.fromMnemonic(MNEMONIC, { index: -1 }))).toBe("InvalidIndex")
  })

  it("rejects invalid signatures", () => {
    const message = new TextEncoder().encode("transfer 5 VEGA")
    const signature = Signature.sign(key(1), message)
    const flipped = (signature[0] === "0" ? "1" : "0") + signature.slice(1)
    expect(Signature.verify(key(1).publicKey, message, flipped)).toBe(false)
    expect(Signature.verify(key(2).publicKey, message, signature)).toBe(false)
    expect(Signature.verify(key(1).publicKey, new TextEncoder().encode("transfer 6 VEGA"), signature)).toBe(false)
    expect(Signature.verify("nothex", message, signature)).toBe(false)
    expect(Signature.verify(key(1).publicKey, message, "00")).toBe(false)
  })
})

describe("Keys and signatures agree with @vegaprotocol/crypto", () => {
  it("on random mnemonics, indexes, messages and chain ids", async () => {
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.uint8Array({ minLength: 32, maxLength: 32 }),
        FastCheck.integer({ min: 0, max: 50 }),
        FastCheck.uint8Array({ minLength: 0, maxLength: 300 }),
        FastCheck.stringMatching(/^[a-z0-9-]{1,24}$/),
        async (entropy, index, message, chainId) => {
          const { entropyToMnemonic } = await import("@scure/bip39")
          const { wordlist } = await import("@scure/bip39/wordlists/english")
          const mnemonic = entropyToMnemonic(entropy, wordlist)
          const ours = Either.getOrThrow(Keys.fromMnemonic(mnemonic, { index }))
          const theirs = await (await VegaWallet.fromMnemonic(mnemonic)).keyPair(HARDENED + index)
          expect(ours.publicKey).toBe(theirs.publicKey.toString())
          const oursSignature = Signature.sign(ours, Signature.signedBytes(message, chainId))
          const theirsSignature = Buffer.from(await theirs.sign(message, chainId)).toString("hex")
          expect(oursSignature).toBe(theirsSignature)
          expect(await theirs.publicKey.verify(Buffer.from(oursSignature, "hex"), message, chainId)).toBe(true)
          expect(Signature.verify(ours.publicKey, Signature.signedBytes(message, chainId), theirsSignature)).toBe(true)
        }
      ),
      { numRuns: 40 }
    )
  })
})
