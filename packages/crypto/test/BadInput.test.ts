import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Exit, Redacted } from "effect"
import { Ethereum, Keys, ProofOfWork, Signature, TxEncoding } from "@vega-effect/crypto"

/** What JavaScript callers and configuration pass where a value belongs. */
const BAD: ReadonlyArray<any> = [undefined, null, 42, ""]

const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
const pair = Either.getOrThrow(Keys.fromHex("11".repeat(32)))

/** The typed error an Either holds; fails the test when the function throws or succeeds. */
const leftOf = <E>(label: string, run: () => Either.Either<unknown, E>): E => {
  const result = run()
  if (Either.isRight(result)) throw new Error(`${label}: expected a failure`)
  return result.left
}

/** What a throwing function throws; fails the test when it returns. */
const thrownBy = (label: string, run: () => unknown): unknown => {
  try {
    run()
  } catch (e) {
    return e
  }
  throw new Error(`${label}: expected a throw`)
}

describe("bad input is a typed error", () => {
  it("Keys: fromHex, mnemonicSeed, fromMnemonic, walletId", () => {
    for (const bad of BAD) {
      const label = String(bad)
      expect(leftOf(label, () => Keys.fromHex(bad))).toBeInstanceOf(Keys.KeyError)
      expect(leftOf(label, () => Keys.fromHex(Redacted.make(bad)))).toBeInstanceOf(Keys.KeyError)
      expect(leftOf(label, () => Keys.mnemonicSeed(bad)).reason).toBe("InvalidMnemonic")
      expect(leftOf(label, () => Keys.fromMnemonic(bad, { index: 0 })).reason).toBe("InvalidMnemonic")
      expect(leftOf(label, () => Keys.fromMnemonic(MNEMONIC, bad)).reason).toBe("InvalidIndex")
      expect(leftOf(label, () => Keys.fromMnemonic(MNEMONIC, { index: bad === 42 ? -1 : bad })).reason).toBe(
        "InvalidIndex"
      )
      expect(leftOf(label, () => Keys.walletId(bad)).reason).toBe("InvalidMnemonic")
      expect(leftOf(label, () => Keys.fromMnemonic(MNEMONIC, { index: 0, version: bad ?? 3 })).reason).toBe(
        "InvalidVersion"
      )
    }
  })

  it("Keys: the messages never show a secret", () => {
    const error = leftOf("", () => Keys.fromHex(Redacted.make(42 as any)))
    expect(error.message).toBe("the private key must be a hex string, not number")
    expect(leftOf("", () => Keys.mnemonicSeed(undefined as any)).message).toBe(
      "a mnemonic is a string of words, not undefined"
    )
  })

  it("Keys.fromSeed and the signing helpers throw the package's errors", () => {
    for (const bad of BAD) {
      const label = String(bad)
      expect(thrownBy(label, () => Keys.fromSeed(bad))).toBeInstanceOf(Keys.KeyError)
      expect(thrownBy(label, () => Signature.sign(bad, new Uint8Array(1)))).toBeInstanceOf(Keys.KeyError)
      expect(thrownBy(label, () => Signature.sign(pair, bad))).toBeInstanceOf(TxEncoding.TxEncodingError)
      expect(thrownBy(label, () => Signature.signedBytes(bad, "chain"))).toBeInstanceOf(TxEncoding.TxEncodingError)
      expect(thrownBy(label, () => Signature.signInputData(pair, new Uint8Array(1), bad))).toBeInstanceOf(
        TxEncoding.TxEncodingError
      )
      expect(thrownBy(label, () => Signature.signInputData(bad, new Uint8Array(1), "chain"))).toBeInstanceOf(
        Keys.KeyError
      )
      expect(Signature.verify(bad, new Uint8Array(1), bad)).toBe(false)
      expect(Signature.verify(pair.publicKey, bad, "00".repeat(64))).toBe(false)
    }
    expect(thrownBy("", () => Keys.fromSeed(new Uint8Array(31)))).toBeInstanceOf(Keys.KeyError)
  })

  it("TxEncoding: decoding and the Either encoders fail with TxEncodingError", () => {
    for (const bad of BAD) {
      const label = String(bad)
      expect(leftOf(label, () => TxEncoding.decodeInputData(bad))).toBeInstanceOf(TxEncoding.TxEncodingError)
      expect(leftOf(label, () => TxEncoding.decodeRawInputData(bad))).toBeInstanceOf(TxEncoding.TxEncodingError)
      expect(leftOf(label, () => TxEncoding.decodeTransaction(bad)).message).toContain("expected bytes")
      expect(leftOf(label, () => TxEncoding.encodeInputDataEither(bad))).toBeInstanceOf(TxEncoding.TxEncodingError)
      expect(leftOf(label, () => TxEncoding.encodeTransactionEither(bad))).toBeInstanceOf(TxEncoding.TxEncodingError)
    }
  })

  it("Ethereum: a RangeError or false, as for a malformed address", () => {
    for (const bad of BAD) {
      expect(thrownBy(String(bad), () => Ethereum.checksumAddress(bad))).toBeInstanceOf(RangeError)
      expect(Ethereum.isChecksummed(bad)).toBe(false)
    }
  })

  it.effect("ProofOfWork.solve fails with ProofOfWorkError", () =>
    Effect.gen(function* () {
      for (const bad of BAD) {
        const exits = [
          yield* Effect.exit(ProofOfWork.solve(bad, "tid", 1, { singleThread: true })),
          yield* Effect.exit(ProofOfWork.solve("ab".repeat(32), bad, 1, { singleThread: true })),
          yield* Effect.exit(ProofOfWork.solve("ab".repeat(32), "tid", bad === 42 ? -1 : bad, { singleThread: true }))
        ]
        for (const exit of exits) {
          expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("ProofOfWorkError")
        }
      }
      expect(ProofOfWork.verify(undefined as any, null as any, 0n, 1)).toBe(false)
    })
  )
})
