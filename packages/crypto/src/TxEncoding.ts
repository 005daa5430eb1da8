/**
 * Protobuf encoding of `vega.commands.v1.InputData` and `Transaction`, byte for byte what a Vega
 * node produces, and the transaction hash.
 *
 * Encoding follows Go's marshaller (the node's): fields in field-number order, zero-valued plain
 * scalars omitted, proto3 `optional` fields, oneof members and sub-messages written whenever
 * present. For `InputData` this gives the same bytes as `@vegaprotocol/protos` (which the browser
 * wallet uses) except where that encoder drops values Go keeps (a zero-valued `optional` field,
 * an empty string in a repeated field, a negative enum number). For `Transaction` the field order
 * is Go's (1, 2, 1002, 2000, 3000), which `@vegaprotocol/protos` does not follow.
 *
 * Decoding follows Go's unmarshaller: unknown fields are skipped, fields may come in any order,
 * and malformed bytes yield a {@link TxEncodingError}, never an exception.
 *
 * @since 0.1.0
 */
import { Commands, Input, type Transaction } from "@vega-effect/schema"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import { commandTypes, TransactionMessage } from "./internal/messages.js"
import {
  DecodeFailure,
  decodeMessage,
  EncodeFailure,
  encodeMessage,
  formatPath,
  LEN,
  type MessageType,
  Reader,
  VARINT,
  Writer
} from "./internal/protobuf.js"

/**
 * A value that cannot be encoded, or bytes that cannot be decoded.
 *
 * - `operation`: `"encode"` or `"decode"`.
 * - `path`: where, as `Message.field.subField[index]` (e.g. `InputData.orderSubmission.side`).
 * - `offset`: for decoding, the byte offset where the offending element starts.
 * - `fieldNumber`: for decoding, the field number involved, when there is one (e.g. an
 *   unsupported command).
 *
 * @since 0.1.0
 * @category Errors
 */
export class TxEncodingError extends Schema.TaggedError<TxEncodingError>("@vega-effect/crypto/TxEncodingError")(
  "TxEncodingError",
  {
    operation: Schema.Literal("encode", "decode"),
    message: Schema.String,
    path: Schema.String,
    offset: Schema.optional(Schema.Number),
    fieldNumber: Schema.optional(Schema.Number)
  }
) {}

/**
 * The decoded `vega.commands.v1.InputData`: `nonce` (uint64, random, must not be 0 for the node
 * to accept it), `blockHeight` (uint64, the height whose block hash seeds the proof of work) and
 * the command.
 *
 * @since 0.1.0
 * @category Models
 */
export interface InputData {
  readonly nonce: bigint
  readonly blockHeight: bigint
  readonly command: Commands.Command
}

/**
 * `InputData` with its command left undecoded, for servers that must tell an unsupported command
 * from a malformed one. `commandFieldNumber` is the member of the `command` oneof that is set (the
 * last one on the wire, as in Go), `undefined` when there is none; `commandBytes` are its message
 * bytes (several occurrences of the same member are concatenated, which protobuf reads as one
 * merged message). Fields outside the oneof that this decoder does not know are skipped.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RawInputData {
  readonly nonce: bigint
  readonly blockHeight: bigint
  readonly commandFieldNumber: number | undefined
  readonly commandBytes: Uint8Array
}

// -------------------------------------------------------------------------------------------------
// Internals
// -------------------------------------------------------------------------------------------------

const UINT64_MAX = 0xffffffffffffffffn

const sharedWriter = new Writer(1024)

const commandByFieldNumber = new Map<number, Commands.CommandName>(
  Commands.commandNames.map((name) => [Commands.commands[name].fieldNumber, name])
)

const oneofMembers = new Map(Commands.inputDataCommandFields.map((f) => [f.fieldNumber, f]))

const encodeError = (root: string, e: unknown): TxEncodingError => {
  if (!(e instanceof EncodeFailure)) throw e
  const path = formatPath([root, ...e.path])
  return new TxEncodingError({ operation: "encode", message: `${path}: ${e.message}`, path })
}

const decodeError = (root: string, e: unknown): TxEncodingError => {
  if (!(e instanceof DecodeFailure)) throw e
  const path = formatPath([root, ...e.path])
  return new TxEncodingError({
    operation: "decode",
    message: `${path}: ${e.message} (at byte ${e.offset})`,
    path,
    offset: e.offset,
    ...(e.fieldNumber === undefined ? {} : { fieldNumber: e.fieldNumber })
  })
}

const checkUint64 = (name: string, v: unknown): bigint => {
  if (typeof v !== "bigint" || v < 0n || v > UINT64_MAX) {
    throw new EncodeFailure(`expected a uint64 bigint, got ${String(v)}`, [name])
  }
  return v
}

const writeInputData = (w: Writer, input: InputData): void => {
  const nonce = checkUint64("nonce", input.nonce)
  const blockHeight = checkUint64("blockHeight", input.blockHeight)
  if (nonce !== 0n) {
    w.uint32((1 << 3) | VARINT)
    w.uint64(nonce)
  }
  if (blockHeight !== 0n) {
    w.uint32((2 << 3) | VARINT)
    w.uint64(blockHeight)
  }
  const command = input.command
  const name = command?._tag
  const type: MessageType<any> | undefined = Object.hasOwn(commandTypes, name) ? commandTypes[name] : undefined
  if (type === undefined) throw new EncodeFailure(`unknown command ${JSON.stringify(name)}`, ["command"])
  if (typeof command.value !== "object" || command.value === null) {
    throw new EncodeFailure(`expected a ${type.protoName} object`, [name])
  }
  w.uint32(Commands.commands[name].fieldNumber * 8 + LEN)
  const mark = w.fork()
  try {
    encodeMessage(w, type, command.value)
  } catch (e) {
    if (e instanceof EncodeFailure) e.path.unshift(name)
    throw e
  }
  w.ldelim(mark)
}

const encodeWith = <A>(root: string, write: (w: Writer, value: A) => void, value: A): Uint8Array => {
  const w = sharedWriter
  w.reset()
  try {
    if (!Input.isRecord(value)) throw new EncodeFailure(`expected an object, got ${Input.show(value)}`)
    write(w, value)
  } catch (e) {
    throw encodeError(root, e)
  }
  return w.finish()
}

const either = <A>(encode: (value: A) => Uint8Array, value: A): Either.Either<Uint8Array, TxEncodingError> => {
  try {
    return Either.right(encode(value))
  } catch (e) {
    if (e instanceof TxEncodingError) return Either.left(e)
    throw e
  }
}

const writeTransaction = (w: Writer, tx: Transaction.Transaction): void => encodeMessage(w, TransactionMessage, tx)

interface RawCommand {
  readonly nonce: bigint
  readonly blockHeight: bigint
  readonly commandFieldNumber: number | undefined
  /** Byte ranges of the occurrences of the command member that is set, in order. */
  readonly ranges: ReadonlyArray<readonly [number, number]>
  /** Field numbers skipped as unknown, for error messages. */
  readonly skipped: ReadonlyArray<number>
}

const readInputData = (bytes: Uint8Array): RawCommand => {
  const r = new Reader(bytes)
  let nonce = 0n
  let blockHeight = 0n
  let commandFieldNumber: number | undefined
  let ranges: Array<readonly [number, number]> = []
  const skipped: Array<number> = []
  while (r.pos < r.end) {
    const tagStart = r.pos
    r.tag()
    const number = r.fieldNumber
    const wireType = r.wireType
    if ((number === 1 || number === 2) && wireType === VARINT) {
      try {
        if (number === 1) nonce = r.uint64()
        else blockHeight = r.uint64()
      } catch (e) {
        throw e instanceof DecodeFailure
          ? new DecodeFailure(e.message, e.offset, [number === 1 ? "nonce" : "blockHeight"], number)
          : e
      }
    } else if (wireType === LEN && oneofMembers.has(number)) {
      const end = r.delimited()
      // a different member replaces the oneof's value; the same member again is merged into it
      if (number !== commandFieldNumber) ranges = []
      commandFieldNumber = number
      ranges.push([r.pos, end])
      r.pos = end
    } else {
      r.skip(wireType, number, tagStart)
      if (!skipped.includes(number)) skipped.push(number)
    }
  }
  return { nonce, blockHeight, commandFieldNumber, ranges, skipped }
}

// -------------------------------------------------------------------------------------------------
// Encoding
// -------------------------------------------------------------------------------------------------

/**
 * Marshals `InputData` as the node does. This is the `inputData` field of a `Transaction` and,
 * for version 3, what gets signed after `chainId + "\0"`.
 *
 * Throws a {@link TxEncodingError} (a defect: the value is outside what the proto can hold) when
 * the input cannot be encoded: an enum value that has no number (an `UnknownEnumValue` holding a
 * name) or whose number is not an int32, an integer out of its proto type's range (e.g. a
 * `transferInterval` above 2^31-1, which is an `int32` in the proto), a string with a lone
 * surrogate, or two members of one oneof. Use {@link encodeInputDataEither} to get an `Either`.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const encodeInputData = (input: InputData): Uint8Array => encodeWith("InputData", writeInputData, input)

/**
 * {@link encodeInputData} returning an `Either` instead of throwing.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const encodeInputDataEither = (input: InputData): Either.Either<Uint8Array, TxEncodingError> =>
  either(encodeInputData, input)

/**
 * Marshals a `Transaction` in Go's field order: `1 input_data`, `2 signature {1 value, 2 algo,
 * 3 version}`, `1001 address` / `1002 pub_key`, `2000 version`, `3000 pow {1 tid, 2 nonce}`, zero
 * values omitted. These are the bytes the node hashes for `POST /transaction` (it re-marshals
 * the JSON), so sending them to `POST /transaction/raw` gives the same transaction hash.
 *
 * Throws a {@link TxEncodingError} when the transaction cannot be encoded (both `address` and
 * `pubKey` set, a version without a number, an out-of-range integer); see
 * {@link encodeTransactionEither}.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const encodeTransaction = (tx: Transaction.Transaction): Uint8Array =>
  encodeWith("Transaction", writeTransaction, tx)

/**
 * {@link encodeTransaction} returning an `Either` instead of throwing.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const encodeTransactionEither = (tx: Transaction.Transaction): Either.Either<Uint8Array, TxEncodingError> =>
  either(encodeTransaction, tx)

// -------------------------------------------------------------------------------------------------
// Decoding
// -------------------------------------------------------------------------------------------------

/**
 * Reads `InputData` without decoding the command: see {@link RawInputData}. Fails only on
 * malformed bytes.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodeRawInputData = (bytes: Uint8Array): Either.Either<RawInputData, TxEncodingError> => {
  try {
    const raw = readInputData(bytes)
    const size = raw.ranges.reduce((n, [start, end]) => n + end - start, 0)
    const commandBytes = new Uint8Array(size)
    let offset = 0
    for (const [start, end] of raw.ranges) {
      commandBytes.set(bytes.subarray(start, end), offset)
      offset += end - start
    }
    return Either.right({
      nonce: raw.nonce,
      blockHeight: raw.blockHeight,
      commandFieldNumber: raw.commandFieldNumber,
      commandBytes
    })
  } catch (e) {
    return Either.left(decodeError("InputData", e))
  }
}

/**
 * Unmarshals `InputData`. Fails with a {@link TxEncodingError} on malformed bytes, when no
 * command is set, and when the command is one this package has no schema for (proposals, AMMs,
 * validator commands): the error names it and carries its `fieldNumber`.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodeInputData = (bytes: Uint8Array): Either.Either<InputData, TxEncodingError> => {
  let raw: RawCommand
  try {
    raw = readInputData(bytes)
  } catch (e) {
    return Either.left(decodeError("InputData", e))
  }
  const number = raw.commandFieldNumber
  if (number === undefined) {
    const skipped = raw.skipped.length === 0 ? "" : ` (unknown fields skipped: ${raw.skipped.join(", ")})`
    return Either.left(
      new TxEncodingError({
        operation: "decode",
        message: `InputData: no command is set${skipped}`,
        path: "InputData.command"
      })
    )
  }
  const name = commandByFieldNumber.get(number)
  if (name === undefined) {
    const member = oneofMembers.get(number)!
    return Either.left(
      new TxEncodingError({
        operation: "decode",
        message: `InputData: command ${member.protoName} (field ${number}, ${member.message}) is not supported`,
        path: `InputData.${member.name}`,
        fieldNumber: number
      })
    )
  }
  const type: MessageType<any> = commandTypes[name]
  const r = new Reader(bytes)
  let value: unknown
  try {
    for (const [start, end] of raw.ranges) {
      r.pos = start
      r.end = end
      value = decodeMessage(r, type, value)
    }
  } catch (e) {
    if (e instanceof DecodeFailure) e.path.unshift(name)
    return Either.left(decodeError("InputData", e))
  }
  return Either.right({
    nonce: raw.nonce,
    blockHeight: raw.blockHeight,
    command: { _tag: name, value } as Commands.Command
  })
}

/**
 * Unmarshals a `Transaction` whatever its field order (e.g. `@vegaprotocol/protos` writes
 * `1001`/`1002` last). Unknown fields are skipped; a missing `version` decodes to
 * `TX_VERSION_UNSPECIFIED` and an unknown one to an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodeTransaction = (bytes: Uint8Array): Either.Either<Transaction.Transaction, TxEncodingError> => {
  try {
    return Either.right(decodeMessage(new Reader(bytes), TransactionMessage))
  } catch (e) {
    return Either.left(decodeError("Transaction", e))
  }
}

// -------------------------------------------------------------------------------------------------
// Hash
// -------------------------------------------------------------------------------------------------

/**
 * The transaction hash: lowercase hex of the SHA-256 of the marshalled `Transaction` bytes (what
 * CometBFT computes). Events and the transaction-results stream use this lowercase form; the
 * submit response's `txHash` is the same value in uppercase (`txHash(bytes).toUpperCase()`),
 * so compare with `Transaction.sameTxHash` from `@vega-effect/schema`.
 *
 * For `POST /transaction` the node hashes its own re-marshalling of the JSON, i.e.
 * `encodeTransaction(tx)`; for `POST /transaction/raw` it hashes exactly the bytes sent.
 *
 * @since 0.1.0
 * @category Hashing
 */
export const txHash = (bytes: Uint8Array): Transaction.TxHash =>
  createHash("sha256").update(bytes).digest("hex") as Transaction.TxHash
