/**
 * Transaction signatures as the node checks them: pure Ed25519 (RFC 8032) over the SHA3-256
 * digest of the signed bytes, which for transaction version 3 are
 * `UTF8(chainId) || 0x00 || inputData` and for version 2 the input data alone.
 *
 * @since 0.1.0
 */
import { Ids, Input } from "@vega-effect/schema"
import { createHash, createPublicKey, sign as edSign, verify as edVerify, type KeyObject } from "node:crypto"
import { keyObject, type KeyPair } from "./Keys.js"
import { TxEncodingError } from "./TxEncoding.js"

/**
 * The only algorithm and version the node accepts.
 *
 * @since 0.1.0
 * @category Constants
 */
export const ALGORITHM = "vega/ed25519"
/**
 * The signature version the node accepts.
 *
 * @since 0.1.0
 * @category Constants
 */
export const VERSION = 1

/** Bytes to sign, or a `TxEncodingError` naming what is not. */
const checkBytes = (name: string, u: unknown): Uint8Array => {
  if (Input.isBytes(u)) return u
  throw new TxEncodingError({
    operation: "encode",
    path: name,
    message: `${name}: expected bytes, got ${Input.show(u)}`
  })
}

/**
 * The bytes that get signed for a transaction version.
 *
 * @throws TxEncodingError when `inputData` is not bytes, `chainId` (version 3) is not a non-empty
 * string, or `txVersion` is not 2 or 3.
 * @since 0.1.0
 * @category Signing
 */
export const signedBytes = (inputData: Uint8Array, chainId: string, txVersion: 2 | 3 = 3): Uint8Array => {
  checkBytes("inputData", inputData)
  if (txVersion !== 2 && txVersion !== 3) {
    throw new TxEncodingError({
      operation: "encode",
      path: "version",
      message: `version: a signed transaction is version 2 or 3, not ${Input.show(txVersion)}`
    })
  }
  if (txVersion === 2) return inputData
  if (typeof chainId !== "string" || chainId === "") {
    throw new TxEncodingError({
      operation: "encode",
      path: "chainId",
      message: `chainId: expected the network's chain id, got ${Input.show(chainId)}`
    })
  }
  const prefix = Buffer.from(`${chainId}\0`, "utf8")
  const out = new Uint8Array(prefix.length + inputData.length)
  out.set(prefix, 0)
  out.set(inputData, prefix.length)
  return out
}

const digest = (message: Uint8Array): Buffer => createHash("sha3-256").update(message).digest()

/**
 * Signs a message: Ed25519 over its SHA3-256 digest. Returns the 64-byte signature as lowercase hex.
 *
 * @throws KeyError ("InvalidKeyPair") when `pair` is not a key pair, TxEncodingError when
 * `message` is not bytes.
 * @example
 * ```ts
 * import { Either, Redacted } from "effect"
 * import { Keys, Signature } from "@vega-effect/crypto"
 *
 * // the 32-byte seed as hex, e.g. from a wallet export; keep it redacted
 * const key = Either.getOrThrow(
 *   Keys.fromHex(Redacted.make("1d5de21306e0f3cf8a0fe6eb3e0a5b8b69d5b4bba2bcfc6e5a31ed9dc2c0d64b"))
 * )
 *
 * // a transaction's signature covers the chain id and its input data (version 3)
 * const inputData = new Uint8Array([8, 1]) // protobuf bytes, see TxEncoding
 * const message = Signature.signedBytes(inputData, "vega-mainnet-0011")
 * const signature = Signature.sign(key, message)
 *
 * assert.strictEqual(signature.length, 128)
 * assert.ok(Signature.verify(key.publicKey, message, signature))
 * ```
 *
 * @since 0.1.0
 * @category Signing
 */
export const sign = (pair: KeyPair, message: Uint8Array): string =>
  edSign(null, digest(checkBytes("message", message)), keyObject(pair)).toString("hex")

/**
 * The `signature` member of a transaction for its input data. Throws as {@link signedBytes} and
 * {@link sign} do.
 *
 * @since 0.1.0
 * @category Signing
 */
export const signInputData = (
  pair: KeyPair,
  inputData: Uint8Array,
  chainId: string,
  txVersion: 2 | 3 = 3
): { readonly value: string; readonly algo: string; readonly version: number } => ({
  value: sign(pair, signedBytes(inputData, chainId, txVersion)),
  algo: ALGORITHM,
  version: VERSION
})

const publicKeys = new Map<string, KeyObject>()

/** SPKI DER prefix of an ed25519 public key; the 32-byte key follows. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex")

const publicKeyObject = (hex: string): KeyObject | undefined => {
  if (!Ids.isVegaId(hex)) return undefined
  let key = publicKeys.get(hex)
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(hex, "hex")]), format: "der", type: "spki" })
    } catch {
      return undefined
    }
    if (publicKeys.size > 10_000) publicKeys.clear()
    publicKeys.set(hex, key)
  }
  return key
}

/**
 * Verifies a signature (hex) of a message by a public key (hex), as the node does: false for a
 * malformed key or signature. (The node's verifier is cofactored and rejects small-order keys;
 * every honest RFC 8032 signature passes both.)
 *
 * @since 0.1.0
 * @category Verifying
 */
export const verify = (publicKey: string, message: Uint8Array, signature: string): boolean => {
  const key = publicKeyObject(publicKey)
  if (key === undefined || !Input.isBytes(message) || typeof signature !== "string") return false
  if (!/^[0-9a-fA-F]{128}$/.test(signature)) return false
  return edVerify(null, digest(message), key, Buffer.from(signature, "hex"))
}
