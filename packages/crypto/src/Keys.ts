/**
 * Vega keys: ed25519 key pairs from a hex private key or from a BIP-39 mnemonic, derived the way
 * the Vega wallets do it (SLIP-10, hardened only).
 *
 * - Current wallets (derivation version 2): key N is `m/1789'/0'/N'`. The Go wallet's first key
 *   is N = 1; the browser extension's first key is N = 0. Pass the index you mean.
 * - Legacy wallets (version 1): key N is `m/1789'/(1789 + N)'`; the first key is N = 1.
 *
 * Private material stays `Redacted` (it never shows in logs or errors); public keys are 64
 * lowercase hex characters, which is also the party id.
 *
 * @since 0.1.0
 */
import { createHmac, createPrivateKey, createPublicKey, type KeyObject, pbkdf2Sync } from "node:crypto"
import * as Bip39 from "@scure/bip39"
import { Input } from "@vega-effect/schema"
import { wordlist as english } from "@scure/bip39/wordlists/english"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

/**
 * Why a key could not be made.
 *
 * @since 0.1.0
 * @category Errors
 */
export class KeyError extends Schema.TaggedError<KeyError>("@vega-effect/crypto/KeyError")("KeyError", {
  reason: Schema.Literal(
    "InvalidHex",
    "InvalidLength",
    "PublicKeyMismatch",
    "InvalidMnemonic",
    "InvalidIndex",
    "InvalidKeyPair",
    "InvalidVersion"
  ),
  message: Schema.String
}) {}

/**
 * An ed25519 key pair.
 *
 * @since 0.1.0
 * @category Models
 */
export interface KeyPair {
  /** 64 lowercase hex characters: the party id. */
  readonly publicKey: string
  /** The 32-byte RFC 8032 seed. */
  readonly secret: Redacted.Redacted<Uint8Array>
  /** Where the key comes from in its wallet, when it was derived. */
  readonly path?: string
}

/** Node's private key object of a pair, made once: signing with it is much cheaper than re-importing. */
const keyObjects = new WeakMap<KeyPair, KeyObject>()

/** PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

/**
 * Whether a value is a key pair: a 64-hex-character public key and a redacted 32-byte seed.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isKeyPair = (u: unknown): u is KeyPair =>
  Input.isRecord(u) &&
  typeof u.publicKey === "string" &&
  Redacted.isRedacted(u.secret) &&
  Input.isBytes(Redacted.value(u.secret)) &&
  Redacted.value(u.secret as Redacted.Redacted<Uint8Array>).length === 32

/**
 * The node:crypto private key of a pair, made once per pair and kept; throws a `KeyError` for
 * anything that is not a key pair.
 *
 * @since 0.1.0
 * @category Signing
 */
export const keyObject = (pair: KeyPair): KeyObject => {
  let key = keyObjects.get(pair)
  if (key === undefined) {
    if (!isKeyPair(pair)) {
      throw new KeyError({ reason: "InvalidKeyPair", message: `expected a key pair, got ${Input.show(pair)}` })
    }
    key = createPrivateKey({
      key: Buffer.concat([PKCS8_PREFIX, Redacted.value(pair.secret)]),
      format: "der",
      type: "pkcs8"
    })
    keyObjects.set(pair, key)
  }
  return key
}

/** The text of a secret given as a string or a `Redacted` string; `undefined` for anything else. */
const textOf = (input: unknown): string | undefined => {
  const value = Redacted.isRedacted(input) ? Redacted.value(input) : input
  return typeof value === "string" ? value : undefined
}

/** What a value that should have been a secret is, for a message that must not show the secret. */
const kindOf = (input: unknown): string => {
  const value = Redacted.isRedacted(input) ? Redacted.value(input) : input
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
}

const publicKeyOf = (key: KeyObject): string =>
  // the raw key is the last 32 bytes of its SPKI DER encoding
  createPublicKey(key).export({ format: "der", type: "spki" }).subarray(-32).toString("hex")

/**
 * The key pair of a 32-byte ed25519 seed.
 *
 * @throws KeyError ("InvalidLength") when `seed` is not 32 bytes.
 * @since 0.1.0
 * @category Constructors
 */
export const fromSeed = (seed: Uint8Array, path?: string): KeyPair => {
  if (!Input.isBytes(seed) || seed.length !== 32) {
    const got = Input.isBytes(seed) ? `${seed.length} bytes` : kindOf(seed)
    throw new KeyError({ reason: "InvalidLength", message: `a seed is 32 bytes (a Uint8Array), not ${got}` })
  }
  const secret = Redacted.make(Uint8Array.from(seed))
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" })
  const pair: KeyPair = { publicKey: publicKeyOf(key), secret, ...(path === undefined ? {} : { path }) }
  keyObjects.set(pair, key)
  return pair
}

/**
 * A key pair from a hex private key: the 32-byte seed (64 hex characters) or the 64-byte secret
 * the Go and JavaScript wallets store (seed followed by the public key; the public key must match).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromHex = (hex: Redacted.Redacted<string> | string): Either.Either<KeyPair, KeyError> => {
  const given = textOf(hex)
  if (given === undefined) {
    return Either.left(
      new KeyError({ reason: "InvalidHex", message: `the private key must be a hex string, not ${kindOf(hex)}` })
    )
  }
  const text = given.trim().replace(/^0x/, "")
  if (!/^[0-9a-fA-F]*$/.test(text)) {
    return Either.left(new KeyError({ reason: "InvalidHex", message: "the private key is not hexadecimal" }))
  }
  if (text.length !== 64 && text.length !== 128) {
    return Either.left(
      new KeyError({
        reason: "InvalidLength",
        message: `a private key is 32 bytes (64 hex characters) or 64 bytes (128), not ${text.length} characters`
      })
    )
  }
  const bytes = Buffer.from(text, "hex")
  const pair = fromSeed(bytes.subarray(0, 32))
  if (text.length === 128 && bytes.subarray(32).toString("hex") !== pair.publicKey) {
    return Either.left(
      new KeyError({
        reason: "PublicKeyMismatch",
        message: "the second half of the secret is not the seed's public key"
      })
    )
  }
  return Either.right(pair)
}

/**
 * The hardened bit of a derivation index: child `i` is `HARDENED + i`, since SLIP-10 ed25519
 * derivation is hardened only.
 *
 * @since 0.1.0
 * @category Derivation
 */
export const HARDENED = 0x80000000

/**
 * SLIP-10 ed25519: the private key and chain code at a path of hardened indexes (given without
 * the hardened bit, e.g. `[1789, 0, 1]` for `m/1789'/0'/1'`).
 *
 * @since 0.1.0
 * @category Derivation
 */
export const slip10 = (
  seed: Uint8Array,
  path: ReadonlyArray<number>
): { readonly key: Uint8Array; readonly chainCode: Uint8Array } => {
  let node = createHmac("sha512", "ed25519 seed").update(seed).digest()
  for (const index of path) {
    const data = Buffer.alloc(37)
    node.copy(data, 1, 0, 32)
    data.writeUInt32BE((HARDENED | index) >>> 0, 33)
    node = createHmac("sha512", node.subarray(32)).update(data).digest()
  }
  return { key: node.subarray(0, 32), chainCode: node.subarray(32) }
}

/** Words separated by single spaces, as the wallets normalise a mnemonic. */
const normalise = (mnemonic: string): string => mnemonic.normalize("NFKD").trim().split(/\s+/).join(" ")

/**
 * The BIP-39 seed of a mnemonic (empty passphrase), after checking its words and checksum.
 *
 * @since 0.1.0
 * @category Derivation
 */
export const mnemonicSeed = (
  mnemonic: Redacted.Redacted<string> | string
): Either.Either<Redacted.Redacted<Uint8Array>, KeyError> => {
  const given = textOf(mnemonic)
  if (given === undefined) {
    return Either.left(
      new KeyError({ reason: "InvalidMnemonic", message: `a mnemonic is a string of words, not ${kindOf(mnemonic)}` })
    )
  }
  const words = normalise(given)
  const count = words === "" ? 0 : words.split(" ").length
  if (![12, 15, 18, 21, 24].includes(count)) {
    return Either.left(
      new KeyError({ reason: "InvalidMnemonic", message: `a mnemonic has 12 to 24 words, this one ${count}` })
    )
  }
  const unknown = words.split(" ").find((w) => !english.includes(w))
  if (unknown !== undefined) {
    return Either.left(
      new KeyError({ reason: "InvalidMnemonic", message: "the mnemonic has a word outside the BIP-39 English list" })
    )
  }
  if (!Bip39.validateMnemonic(words, english)) {
    return Either.left(
      new KeyError({ reason: "InvalidMnemonic", message: "the mnemonic's checksum does not match its words" })
    )
  }
  return Either.right(Redacted.make(Uint8Array.from(pbkdf2Sync(words, "mnemonic", 2048, 64, "sha512"))))
}

/**
 * Derivation versions of the Vega wallets.
 *
 * @since 0.1.0
 * @category Derivation
 */
export type DerivationVersion = 1 | 2

/**
 * The wallet path of key `index` as hardened indexes (without the hardened bit): `[1789, 0, index]`
 * for derivation version 2, `[1789, 1789 + index]` for version 1.
 *
 * @since 0.1.0
 * @category Derivation
 */
export const pathOf = (index: number, version: DerivationVersion = 2): ReadonlyArray<number> =>
  version === 2 ? [1789, 0, index] : [1789, 1789 + index]

/**
 * Key `index` of the wallet of a mnemonic: `m/1789'/0'/index'` (version 2, current) or
 * `m/1789'/(1789+index)'` (version 1, legacy).
 *
 * @example
 * ```ts
 * import { Either, Redacted } from "effect"
 * import { Keys } from "@vega-effect/crypto"
 *
 * // A published test vector of the Vega wallets: never hold funds with a published mnemonic.
 * // Read yours from a secret store and keep it redacted.
 * const mnemonic = Redacted.make(
 *   "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"
 * )
 *
 * const key = Keys.fromMnemonic(mnemonic, { index: 1 })
 * assert.ok(Either.isRight(key))
 * assert.strictEqual(key.right.publicKey, "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0")
 * assert.strictEqual(key.right.path, "m/1789'/0'/1'")
 *
 * // a bad word or checksum is a KeyError, not an exception
 * assert.ok(Either.isLeft(Keys.fromMnemonic("not a mnemonic", { index: 0 })))
 * ```
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromMnemonic = (
  mnemonic: Redacted.Redacted<string> | string,
  options: { readonly index: number; readonly version?: DerivationVersion }
): Either.Either<KeyPair, KeyError> => {
  if (!Input.isRecord(options)) {
    return Either.left(
      new KeyError({
        reason: "InvalidIndex",
        message: `the options must be an object with the key index, got ${Input.show(options)}`
      })
    )
  }
  const { index } = options
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED - 1789) {
    return Either.left(
      new KeyError({ reason: "InvalidIndex", message: `a key index is an integer from 0, not ${Input.show(index)}` })
    )
  }
  const version = options.version ?? 2
  if (version !== 1 && version !== 2) {
    return Either.left(
      new KeyError({ reason: "InvalidVersion", message: `a derivation version is 1 or 2, not ${Input.show(version)}` })
    )
  }
  return Either.map(mnemonicSeed(mnemonic), (seed) => {
    const path = pathOf(index, version)
    return fromSeed(slip10(Redacted.value(seed), path).key, `m/${path.map((i) => `${i}'`).join("/")}`)
  })
}

/**
 * The wallet id: the public key at `m/1789'`.
 *
 * @since 0.1.0
 * @category Derivation
 */
export const walletId = (mnemonic: Redacted.Redacted<string> | string): Either.Either<string, KeyError> =>
  Either.map(mnemonicSeed(mnemonic), (seed) => fromSeed(slip10(Redacted.value(seed), [1789]).key).publicKey)

/**
 * A new 24-word mnemonic (256 bits of entropy), as the Go wallet creates them.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const generateMnemonic = (): Redacted.Redacted<string> => Redacted.make(Bip39.generateMnemonic(english, 256))
