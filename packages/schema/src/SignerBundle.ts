/**
 * Signature bundles that add a validator to the signer set of the ERC-20 multisig control
 * contract, as served by `GET /api/v2/erc20/multisigcontrol/signer/added/bundles`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { EthereumAddress } from "./Ethereum.js"
import { NodeId } from "./Ids.js"
import { Uint64 } from "./Integer.js"
import * as Pagination from "./Pagination.js"
import { matching } from "./internal/text.js"
import { VegaTimestamp } from "./Timestamp.js"

/**
 * Length in bytes of one validator signature in a bundle.
 *
 * @since 0.1.0
 * @category Constants
 */
export const SIGNATURE_BYTES = 65

/**
 * The validators' signatures: `0x` followed by each signature in hex, concatenated in ascending
 * byte order, or `""` when there are none.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BundleSignatures = matching(/^(?:0x(?:[0-9a-fA-F]{2})*)?$/, '"" or 0x followed by hex-encoded signatures')
  .pipe(Schema.brand("BundleSignatures"))
  .annotations({ identifier: "BundleSignatures" })
/**
 * The decoded form of the `BundleSignatures` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type BundleSignatures = typeof BundleSignatures.Type

/**
 * Splits a bundle's signatures into one hex string (without `0x`) per signature.
 *
 * @since 0.1.0
 * @category Utils
 */
export const splitSignatures = (signatures: BundleSignatures, bytesPerSignature = SIGNATURE_BYTES): Array<string> => {
  const hex = signatures.startsWith("0x") ? signatures.slice(2) : signatures
  const width = bytesPerSignature * 2
  const out: Array<string> = []
  for (let i = 0; i < hex.length; i += width) out.push(hex.slice(i, i + width))
  return out
}

/**
 * `v2.ERC20MultiSigSignerAddedBundle`, fields in the order the node writes them. Addresses are
 * lowercase here. `nonce` is a counter seeded from unix seconds; `timestamp` is Vega time in
 * nanoseconds. `chainId` (the EVM chain) is added by v0.76 nodes.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SignerAddedBundle = Schema.Struct({
  newSigner: EthereumAddress,
  submitter: EthereumAddress,
  nonce: Amount,
  timestamp: VegaTimestamp,
  signatures: BundleSignatures,
  epochSeq: Uint64,
  chainId: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "SignerAddedBundle" })
/**
 * The decoded form of the `SignerAddedBundle` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SignerAddedBundle = typeof SignerAddedBundle.Type

/**
 * Request of `GET /api/v2/erc20/multisigcontrol/signer/added/bundles`. `epochSeq` is the epoch
 * in which the node was promoted.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListSignerAddedBundlesRequest = Schema.Struct({
  nodeId: Schema.optionalWith(NodeId, { exact: true }),
  submitter: Schema.optionalWith(EthereumAddress, { exact: true }),
  epochSeq: Schema.optionalWith(Uint64, { exact: true }),
  pagination: Schema.optionalWith(Pagination.PaginationParams, { exact: true })
}).annotations({ identifier: "ListSignerAddedBundlesRequest" })
/**
 * The decoded form of the `ListSignerAddedBundlesRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListSignerAddedBundlesRequest = typeof ListSignerAddedBundlesRequest.Type

/**
 * Response of `GET /api/v2/erc20/multisigcontrol/signer/added/bundles`: one page of bundles.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListSignerAddedBundlesResponse = Schema.Struct({
  bundles: Pagination.Connection(SignerAddedBundle)
}).annotations({ identifier: "ListSignerAddedBundlesResponse" })
/**
 * The decoded form of the `ListSignerAddedBundlesResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListSignerAddedBundlesResponse = typeof ListSignerAddedBundlesResponse.Type
