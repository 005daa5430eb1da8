/**
 * Ethereum values that appear in Vega data: addresses and transaction hashes.
 *
 * Addresses keep the case they were received in, because the node writes EIP-55 checksummed
 * addresses in stake linkings and lowercase ones in multisig bundles; compare them with
 * {@link sameAddress}.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { matching } from "./internal/text.js"

/**
 * `0x` followed by 40 hexadecimal characters, in the case the node sent.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EthereumAddress = matching(/^0x[0-9a-fA-F]{40}$/, "an Ethereum address (0x and 40 hexadecimal characters)")
  .pipe(Schema.brand("EthereumAddress"))
  .annotations({ identifier: "EthereumAddress" })

/**
 * The decoded form of the `EthereumAddress` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EthereumAddress = typeof EthereumAddress.Type

/**
 * Compares two addresses ignoring case (EIP-55 checksums only change case).
 *
 * @since 0.1.0
 * @category Comparisons
 */
export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * An Ethereum transaction hash: `0x` followed by 64 hexadecimal characters.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EthereumTxHash = matching(
  /^0x[0-9a-fA-F]{64}$/,
  "an Ethereum transaction hash (0x and 64 hexadecimal characters)"
)
  .pipe(Schema.brand("EthereumTxHash"))
  .annotations({ identifier: "EthereumTxHash" })

/**
 * The decoded form of the `EthereumTxHash` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EthereumTxHash = typeof EthereumTxHash.Type
