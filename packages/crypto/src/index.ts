/**
 * Vega keys, signatures, transaction encoding and proof of work, byte for byte what a node and the
 * official wallets compute. Each module is a namespace of the package
 * (`import { Keys } from "@vega-effect/crypto"`) and a subpath of its own
 * (`@vega-effect/crypto/Keys`).
 *
 * @since 0.1.0
 */

/**
 * Keccak-256 and EIP-55 checksummed Ethereum addresses, as stake linkings carry them.
 *
 * @since 0.1.0
 */
export * as Ethereum from "./Ethereum.js"

/**
 * Ed25519 key pairs from a hex private key or a BIP-39 mnemonic, derived the way the Vega wallets
 * do it.
 *
 * @since 0.1.0
 */
export * as Keys from "./Keys.js"

/**
 * Vega's spam proof of work: solving (WebAssembly, on a pool of worker threads) and verifying
 * nonces.
 *
 * @since 0.1.0
 */
export * as ProofOfWork from "./ProofOfWork.js"

/**
 * Transaction signatures as the node checks them: Ed25519 over the SHA3-256 digest of the signed
 * bytes.
 *
 * @since 0.1.0
 */
export * as Signature from "./Signature.js"

/**
 * Protobuf encoding of input data and transactions, byte for byte what a node produces, and the
 * transaction hash.
 *
 * @since 0.1.0
 */
export * as TxEncoding from "./TxEncoding.js"
