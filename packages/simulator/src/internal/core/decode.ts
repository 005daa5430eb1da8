/**
 * The node's decoding of a transaction (vega `commands.CheckTransaction`, run before anything
 * else and answered with code 60 on failure): version, sender, input data and its command, then
 * the signature, with the node's error texts.
 *
 * Some texts are inferred from the node's `<property> (<error>)` convention and its error table
 * rather than known verbatim: `tx (is required)`, `tx.from.pub_key (is required)`,
 * `tx.from.pub_key (should be a valid Vega public key)`, `tx.input_data (is required)`, the
 * texts of undecodable bytes (Go's protobuf error), `tx.signature (is required)` and
 * `tx.signature.value (should be hex encoded)`. A command the simulator does not model
 * (proposals, AMMs, validator and oracle commands) is refused as `tx.input_data.command (is not
 * supported)`, where a node would go on to check it.
 */
import { Signature, TxEncoding } from "@vega-effect/crypto"
import { Commands, CommandValidation, Ids, Transaction } from "@vega-effect/schema"
import * as Either from "effect/Either"
import { isHexBytes } from "../hex.js"

/** A transaction that passed the decoding checks. */
export interface DecodedTransaction {
  /** `pubKey` as sent. */
  readonly partyId: string
  /** `input_data.nonce`. */
  readonly nonce: bigint
  /** `input_data.block_height`: the height whose block hash seeds the proof of work. */
  readonly blockHeight: bigint
  readonly command: Commands.Command
  /** `signature.value` as sent. */
  readonly signature: string
  readonly tid: string
  readonly powNonce: bigint
}

export type Decoded =
  { readonly ok: true; readonly value: DecodedTransaction } | { readonly ok: false; readonly error: string }

const fail = (error: string): Decoded => ({ ok: false, error })

/** Go's protobuf error for bytes it cannot parse. */
const PROTO_PARSE_ERROR = "proto: cannot parse invalid wire-format data"

/** Unmarshals the bytes the node received (`/transaction/raw`, or its own re-marshalling). */
export const decodeTransactionBytes = (
  bytes: Uint8Array
): { readonly ok: true; readonly tx: Transaction.Transaction } | { readonly ok: false; readonly error: string } => {
  const decoded = TxEncoding.decodeTransaction(bytes)
  return Either.isRight(decoded)
    ? { ok: true, tx: decoded.right }
    : { ok: false, error: `unable to unmarshal transaction: ${PROTO_PARSE_ERROR}` }
}

const checkVersion = (version: Transaction.TxVersion): string | undefined => {
  if (version === "TX_VERSION_UNSPECIFIED") return "tx.version (is required)"
  if (version !== "TX_VERSION_V2" && version !== "TX_VERSION_V3") return "tx.version (is not supported)"
  return undefined
}

const checkFrom = (tx: Transaction.Transaction): string | undefined => {
  if (tx.pubKey === undefined && tx.address === undefined) return "tx.from (is required)"
  // an address is "not supported yet": the node only reads pub_key
  if (tx.pubKey === undefined || tx.pubKey === "") return "tx.from.pub_key (is required)"
  if (!Ids.isVegaId(tx.pubKey)) return "tx.from.pub_key (should be a valid Vega public key)"
  return undefined
}

const MODELLED = new Set(Commands.commandNames.map((name) => Commands.commands[name].fieldNumber))
const IS_REQUIRED = CommandValidation.ErrorMessages.isRequired
const MUST_BE_POSITIVE = CommandValidation.ErrorMessages.mustBePositive

/** Nonce and command errors together, as `CheckInputData` collects them. */
const inputDataErrors = (nonce: bigint, commandError: string): string =>
  CommandValidation.format({
    "tx.input_data.command": [commandError],
    ...(nonce === 0n ? { "tx.input_data.nonce": [MUST_BE_POSITIVE] } : {})
  })

const checkInputData = (
  bytes: Uint8Array
): { readonly ok: true; readonly input: TxEncoding.InputData } | { readonly ok: false; readonly error: string } => {
  if (bytes.length === 0) return { ok: false, error: `tx.input_data (${IS_REQUIRED})` }
  const raw = TxEncoding.decodeRawInputData(bytes)
  if (Either.isLeft(raw)) return { ok: false, error: `tx.input_data (${PROTO_PARSE_ERROR})` }
  const { commandFieldNumber, nonce } = raw.right
  // an unknown oneof member is an unknown field to the node: no command at all
  if (commandFieldNumber === undefined) return { ok: false, error: inputDataErrors(nonce, IS_REQUIRED) }
  // a command the simulator has no model for (proposals, AMMs, validator and oracle commands)
  if (!MODELLED.has(commandFieldNumber)) {
    return { ok: false, error: inputDataErrors(nonce, CommandValidation.ErrorMessages.isNotSupported) }
  }
  const decoded = TxEncoding.decodeInputData(bytes)
  if (Either.isLeft(decoded)) return { ok: false, error: `tx.input_data (${PROTO_PARSE_ERROR})` }
  const validated = CommandValidation.validateInputData(decoded.right)
  if (Either.isLeft(validated)) return { ok: false, error: validated.left.message }
  return { ok: true, input: decoded.right }
}

const checkSignature = (
  tx: Transaction.Transaction,
  pubKey: string,
  chainId: string,
  version: 2 | 3
): string | undefined => {
  const signature = tx.signature
  if (signature === undefined) return "tx.signature (is required)"
  if (!isHexBytes(signature.value)) return "tx.signature.value (should be hex encoded)"
  if (signature.algo !== Transaction.SIGNATURE_ALGORITHM || signature.version !== Transaction.SIGNATURE_VERSION) {
    return "tx.signature.algo (unsupported algorithm), tx.signature.version (unsupported algorithm)"
  }
  const signed = Signature.signedBytes(tx.inputData, chainId, version)
  if (!Signature.verify(pubKey, signed, signature.value)) return "tx.signature.value (invalid signature)"
  return undefined
}

/**
 * The checks of `commands.CheckTransaction`, in the node's order: version, then sender, then the
 * input data (nonce and command errors together, as the node collects them), then the signature
 * (version 3 signs `chainId + "\0" + inputData`, so a transaction signed for another chain fails
 * here).
 */
export const checkTransaction = (tx: Transaction.Transaction | undefined, chainId: string): Decoded => {
  if (tx === undefined) return fail("tx (is required)")
  const versionError = checkVersion(tx.version)
  if (versionError !== undefined) return fail(versionError)
  const fromError = checkFrom(tx)
  if (fromError !== undefined) return fail(fromError)
  const pubKey = tx.pubKey!
  const input = checkInputData(tx.inputData)
  if (!input.ok) return fail(input.error)
  const signatureError = checkSignature(tx, pubKey, chainId, tx.version === "TX_VERSION_V2" ? 2 : 3)
  if (signatureError !== undefined) return fail(signatureError)
  return {
    ok: true,
    value: {
      partyId: pubKey,
      nonce: input.input.nonce,
      blockHeight: input.input.blockHeight,
      command: input.input.command,
      signature: tx.signature!.value,
      tid: tx.pow?.tid ?? "",
      powNonce: tx.pow?.nonce ?? 0n
    }
  }
}
