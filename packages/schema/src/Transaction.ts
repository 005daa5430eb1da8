/**
 * Signed transactions and their submission (`POST /transaction`, `/transaction/raw`,
 * `/transaction/check`, `/transaction/raw/check`), as the core API reads and writes them.
 *
 * The request side reads like the node's JSON reader: a missing scalar is its zero value and
 * enums may be names or numbers, so that a server can report what is missing in the node's words.
 * Everything encodes in full, in the node's field order.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as Enum from "./Enum.js"
import { HEX_ID_PATTERN } from "./Ids.js"
import { Int64, Uint32, Uint64FromStringOrNumber } from "./Integer.js"
import { matching } from "./internal/text.js"

/**
 * `vega.commands.v1.TxVersion`. Version 3 signs `chainId + "\0" + inputData`; version 2 signs the
 * input data alone; 1 is reserved.
 *
 * @since 0.1.0
 * @category Enums
 */
export const TxVersion = Enum.make("vega.commands.v1.TxVersion", {
  TX_VERSION_UNSPECIFIED: 0,
  TX_VERSION_V2: 2,
  TX_VERSION_V3: 3
})
/**
 * The values of the `TxVersion` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type TxVersion = Enum.Type<typeof TxVersion>

/**
 * `vega.api.v1.SubmitTransactionRequest.Type`. Note that core's `/transaction` ignores it and always
 * waits for the mempool check; `/transaction/raw` honours it.
 *
 * @since 0.1.0
 * @category Enums
 */
export const SubmitType = Enum.make("vega.api.v1.SubmitTransactionRequest.Type", {
  TYPE_UNSPECIFIED: 0,
  TYPE_ASYNC: 1,
  TYPE_SYNC: 2,
  TYPE_COMMIT: 3
})
/**
 * The values of the `SubmitType` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type SubmitType = Enum.Type<typeof SubmitType>

/**
 * The only signature algorithm and version the node accepts.
 *
 * @since 0.1.0
 * @category Constants
 */
export const SIGNATURE_ALGORITHM = "vega/ed25519"
/**
 * The signature version the node accepts.
 *
 * @since 0.1.0
 * @category Constants
 */
export const SIGNATURE_VERSION = 1

const withDefault = <A, I>(schema: Schema.Schema<A, I>, zero: () => A) => Schema.optionalWith(schema, { default: zero })
const absentOrNull = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(schema, { exact: true, nullable: true })

/**
 * `vega.commands.v1.Signature`: `value` is the hex of the 64-byte ed25519 signature.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Signature = Schema.Struct({
  value: withDefault(Schema.String, () => ""),
  algo: withDefault(Schema.String, () => ""),
  version: withDefault(Uint32, () => 0)
}).annotations({ identifier: "Signature" })
/**
 * The decoded form of the `Signature` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Signature = typeof Signature.Type

/**
 * `vega.commands.v1.ProofOfWork`: `tid` seeds the hash (64 hex characters in practice) and `nonce`
 * is the solution. The nonce is read from a string or a number and written as a string.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ProofOfWork = Schema.Struct({
  tid: withDefault(Schema.String, () => ""),
  nonce: withDefault(Uint64FromStringOrNumber, () => 0n)
}).annotations({ identifier: "ProofOfWork" })
/**
 * The decoded form of the `ProofOfWork` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ProofOfWork = typeof ProofOfWork.Type

/**
 * `vega.commands.v1.Transaction` in JSON: `inputData` is the marshalled `InputData` (standard
 * base64 on the wire, bytes here, without the chain id, which is only part of what is signed).
 * `pubKey` and `address` are the two members of the `from` oneof; `address` is not supported by
 * the node.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Transaction = Schema.Struct({
  inputData: withDefault(Schema.Uint8ArrayFromBase64, () => new Uint8Array(0)),
  signature: absentOrNull(Signature),
  address: Schema.optionalWith(Schema.String, { exact: true }),
  pubKey: Schema.optionalWith(Schema.String, { exact: true }),
  version: withDefault(TxVersion, () => TxVersion.zero),
  pow: absentOrNull(ProofOfWork)
}).annotations({ identifier: "Transaction" })
/**
 * The decoded form of the `Transaction` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Transaction = typeof Transaction.Type

/**
 * Body of `POST /transaction`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SubmitTransactionRequest = Schema.Struct({
  tx: absentOrNull(Transaction),
  type: withDefault(SubmitType, () => SubmitType.zero)
}).annotations({ identifier: "SubmitTransactionRequest" })
/**
 * The decoded form of the `SubmitTransactionRequest` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SubmitTransactionRequest = typeof SubmitTransactionRequest.Type

/**
 * Body of `POST /transaction/raw`: `tx` is the marshalled `Transaction` (base64 on the wire); the
 * node hashes exactly these bytes.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SubmitRawTransactionRequest = Schema.Struct({
  tx: withDefault(Schema.Uint8ArrayFromBase64, () => new Uint8Array(0)),
  type: withDefault(SubmitType, () => SubmitType.zero)
}).annotations({ identifier: "SubmitRawTransactionRequest" })
/**
 * The decoded form of the `SubmitRawTransactionRequest` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SubmitRawTransactionRequest = typeof SubmitRawTransactionRequest.Type

/**
 * Body of `POST /transaction/check`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CheckTransactionRequest = Schema.Struct({
  tx: absentOrNull(Transaction)
}).annotations({ identifier: "CheckTransactionRequest" })
/**
 * The decoded form of the `CheckTransactionRequest` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type CheckTransactionRequest = typeof CheckTransactionRequest.Type

/**
 * Body of `POST /transaction/raw/check`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CheckRawTransactionRequest = Schema.Struct({
  tx: withDefault(Schema.Uint8ArrayFromBase64, () => new Uint8Array(0))
}).annotations({ identifier: "CheckRawTransactionRequest" })
/**
 * The decoded form of the `CheckRawTransactionRequest` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type CheckRawTransactionRequest = typeof CheckRawTransactionRequest.Type

/**
 * A Vega transaction hash: hex of the SHA-256 of the marshalled transaction. The submit response
 * writes it in UPPERCASE, events in lowercase: compare with {@link sameTxHash}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TxHash = matching(HEX_ID_PATTERN, "a transaction hash (64 hexadecimal characters)")
  .pipe(Schema.brand("TxHash"))
  .annotations({ identifier: "TxHash" })
/**
 * The decoded form of the `TxHash` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type TxHash = typeof TxHash.Type

/**
 * Compares transaction hashes ignoring case.
 *
 * @since 0.1.0
 * @category Comparisons
 */
export const sameTxHash = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * Result codes of the mempool check (`code` of the submit and check responses).
 *
 * @since 0.1.0
 * @category Constants
 */
export const ResultCode = {
  /** Accepted into the mempool. */
  OK: 0,
  /** Network limits, e.g. trading disabled or a proposal-type limit. */
  TxnValidationFailure: 51,
  /** Undecodable or statelessly invalid transaction, including a bad signature or wrong chain id. */
  TxnDecodingFailure: 60,
  /** A command-specific check failed. */
  TxnInternalError: 70,
  /** A batch partly failed (block results only). */
  TxnPartialProcessingError: 71,
  /** Documented for unknown commands; not emitted by current nodes. */
  UnknownCommandError: 80,
  /** Proof of work, replay or spam-policy rejection. */
  SpamError: 89
} as const
/**
 * One of the {@link ResultCode} numbers.
 *
 * @since 0.1.0
 * @category Models
 */
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode]

/**
 * Response of `POST /transaction` and `/transaction/raw`, fields in the node's order:
 * `success` (code is 0), `txHash` (uppercase hex, empty when the node could not hash), `code`
 * (see {@link ResultCode}), `data` (why it failed, in plain text; uppercase hex for the raw route),
 * `log` (consensus-layer details) and `height` (unused: always `"0"` on `/transaction`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SubmitTransactionResponse = Schema.Struct({
  success: Schema.Boolean,
  txHash: Schema.String,
  code: Uint32,
  data: Schema.String,
  log: Schema.String,
  height: Int64
}).annotations({ identifier: "SubmitTransactionResponse" })
/**
 * The decoded form of the `SubmitTransactionResponse` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type SubmitTransactionResponse = typeof SubmitTransactionResponse.Type

/**
 * Response of `POST /transaction/check` and `/transaction/raw/check`. `gasUsed` and `info` are
 * unused by the node.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CheckTransactionResponse = Schema.Struct({
  success: Schema.Boolean,
  code: Uint32,
  gasWanted: Int64,
  gasUsed: Int64,
  data: Schema.String,
  log: Schema.String,
  info: Schema.String
}).annotations({ identifier: "CheckTransactionResponse" })
/**
 * The decoded form of the `CheckTransactionResponse` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type CheckTransactionResponse = typeof CheckTransactionResponse.Type
