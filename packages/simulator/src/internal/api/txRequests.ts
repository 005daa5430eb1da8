/**
 * Reading the bodies of the transaction routes the way the gateway does (golang/protobuf `jsonpb`
 * with unknown keys allowed): fields by proto name or JSON name (the JSON name wins), `null` as
 * absent, 64-bit integers as strings or numbers, enums by name or number, bytes as standard
 * base64, and Go's `encoding/json` error texts for values of the wrong kind, which the gateway
 * answers with HTTP 400. The values then go through the schema package's request schemas.
 */
import { Transaction } from "@vega-effect/schema"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { scanJsonBody } from "../gatewayJson.js"

type Kind =
  | { readonly _tag: "string" }
  | { readonly _tag: "bytes" }
  | { readonly _tag: "uint32" }
  | { readonly _tag: "uint64" }
  | { readonly _tag: "enum"; readonly name: string; readonly values: Readonly<Record<string, number>> }
  | MessageKind

interface MessageKind {
  readonly _tag: "message"
  readonly fields: ReadonlyArray<Field>
}

interface Field {
  /** Proto name. */
  readonly name: string
  readonly json: string
  readonly kind: Kind
}

const field = (name: string, kind: Kind): Field => ({
  name,
  json: name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  kind
})

const STRING: Kind = { _tag: "string" }
const BYTES: Kind = { _tag: "bytes" }
const message = (...fields: Array<Field>): MessageKind => ({ _tag: "message", fields })

const TRANSACTION = message(
  field("input_data", BYTES),
  field("signature", message(field("value", STRING), field("algo", STRING), field("version", { _tag: "uint32" }))),
  field("address", STRING),
  field("pub_key", STRING),
  field("version", { _tag: "enum", name: "vega.commands.v1.TxVersion", values: Transaction.TxVersion.values }),
  field("pow", message(field("tid", STRING), field("nonce", { _tag: "uint64" })))
)

const submitType = (request: string): Kind => ({
  _tag: "enum",
  name: `vega.api.v1.${request}.Type`,
  values: Transaction.SubmitType.values
})

const SUBMIT = message(field("tx", TRANSACTION), field("type", submitType("SubmitTransactionRequest")))
const CHECK = message(field("tx", TRANSACTION))
const SUBMIT_RAW = message(field("tx", BYTES), field("type", submitType("SubmitRawTransactionRequest")))
const CHECK_RAW = message(field("tx", BYTES))

class DecodeError {
  constructor(readonly message: string) {}
}

const kindOf = (value: unknown): string =>
  typeof value === "boolean"
    ? "bool"
    : typeof value === "number"
      ? "number"
      : typeof value === "string"
        ? "string"
        : Array.isArray(value)
          ? "array"
          : "object"

const typeError = (value: unknown, goType: string): DecodeError =>
  new DecodeError(`json: cannot unmarshal ${kindOf(value)} into Go value of type ${goType}`)

const numberError = (literal: string, goType: string): DecodeError =>
  new DecodeError(`json: cannot unmarshal number ${literal} into Go value of type ${goType}`)

const quoteAscii = (c: number): string =>
  c >= 0x20 && c < 0x7f ? `'${c === 0x27 ? "\\'" : String.fromCharCode(c)}'` : `'\\x${c.toString(16).padStart(2, "0")}'`

/**
 * `json.Unmarshal` of a 64- or 32-bit unsigned integer from text: jsonpb strips the quotes of a
 * string value and parses what is inside as JSON.
 */
const unsignedFromText = (text: string, goType: string, max: bigint): bigint => {
  const bytes = Buffer.from(text, "utf8")
  const scan = scanJsonBody(bytes)
  if (scan._tag === "Empty") throw new DecodeError("unexpected end of JSON input")
  if (scan._tag === "Error") {
    throw new DecodeError(scan.message === "unexpected EOF" ? "unexpected end of JSON input" : scan.message)
  }
  for (let i = scan.end; i < bytes.length; i++) {
    const c = bytes[i]
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      throw new DecodeError(`invalid character ${quoteAscii(c)} after top-level value`)
    }
  }
  const literal = text.trim()
  const inner: unknown = JSON.parse(literal)
  if (inner === null) return 0n
  if (typeof inner !== "number") throw typeError(inner, goType)
  if (!/^\d+$/.test(literal) || BigInt(literal) > max) throw numberError(literal, goType)
  return BigInt(literal)
}

const unsigned = (value: unknown, goType: string, max: bigint): bigint => {
  if (typeof value === "string") return unsignedFromText(value, goType, max)
  if (typeof value !== "number") throw typeError(value, goType)
  // a bare number above 2^53 has lost its exact value in JSON.parse; it is taken as it came out
  if (!Number.isInteger(value) || value < 0 || BigInt(value) > max) throw numberError(String(value), goType)
  return BigInt(value)
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const DECODE = new Int16Array(256).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d

/** Go's `base64.StdEncoding.DecodeString`: padding required, `\r` and `\n` skipped, its error text. */
export const decodeStdBase64 = (text: string): Uint8Array => {
  const input = Buffer.from(text, "utf8")
  const n = input.length
  const out: Array<number> = []
  const illegal = (at: number) => new DecodeError(`illegal base64 data at input byte ${at}`)
  let i = 0
  while (i < n) {
    const quantum: Array<number> = []
    let j = 0
    while (j < 4) {
      if (i === n) {
        if (j === 0) return Uint8Array.from(out)
        throw illegal(i - j)
      }
      const c = input[i]
      const at = i
      i++
      if (isNewline(c)) continue
      if (c === 0x3d) {
        // padding is only allowed as the last one or two characters of a quantum
        if (j < 2) throw illegal(at)
        if (j === 2) {
          while (i < n && isNewline(input[i])) i++
          if (i === n) throw illegal(n)
          if (input[i] !== 0x3d) throw illegal(i - 1)
          i++
        }
        while (i < n && isNewline(input[i])) i++
        if (i < n) throw illegal(i)
        if (j >= 2) out.push(((quantum[0] << 2) | (quantum[1] >> 4)) & 0xff)
        if (j >= 3) out.push(((quantum[1] << 4) | (quantum[2] >> 2)) & 0xff)
        return Uint8Array.from(out)
      }
      const v = DECODE[c]
      if (v < 0) throw illegal(at)
      quantum.push(v)
      j++
    }
    out.push(
      ((quantum[0] << 2) | (quantum[1] >> 4)) & 0xff,
      ((quantum[1] << 4) | (quantum[2] >> 2)) & 0xff,
      ((quantum[2] << 6) | quantum[3]) & 0xff
    )
  }
  return Uint8Array.from(out)
}

const readBytes = (value: unknown): Uint8Array => {
  if (typeof value === "string") return decodeStdBase64(value)
  // encoding/json also fills a byte slice from an array of numbers
  if (Array.isArray(value)) {
    return Uint8Array.from(value, (element: unknown) => {
      if (element === null) return 0
      if (typeof element !== "number") throw typeError(element, "uint8")
      if (!Number.isInteger(element) || element < 0 || element > 255) throw numberError(String(element), "uint8")
      return element
    })
  }
  throw typeError(value, "[]uint8")
}

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

const readValue = (kind: Kind, value: unknown): unknown => {
  switch (kind._tag) {
    case "string":
      if (typeof value !== "string") throw typeError(value, "string")
      return value
    case "bytes":
      return readBytes(value)
    case "uint32":
      return Number(unsigned(value, "uint32", 0xffffffffn))
    case "uint64":
      return unsigned(value, "uint64", 0xffffffffffffffffn)
    case "enum": {
      if (typeof value === "string") {
        const number = Object.hasOwn(kind.values, value) ? kind.values[value] : undefined
        if (number === undefined) {
          throw new DecodeError(`unknown value ${JSON.stringify(JSON.stringify(value))} for enum ${kind.name}`)
        }
        return number
      }
      if (typeof value !== "number") throw typeError(value, "protoreflect.EnumNumber")
      if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
        throw numberError(String(value), "protoreflect.EnumNumber")
      }
      return value
    }
    case "message":
      return readMessage(kind.fields, value)
  }
}

/** Reads a message: each known field in declaration order, the first error wins. */
const readMessage = (fields: ReadonlyArray<Field>, value: unknown): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw typeError(value, "map[string]json.RawMessage")
  }
  const object = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    let raw: unknown = undefined
    if (Object.hasOwn(object, f.name)) raw = object[f.name]
    if (Object.hasOwn(object, f.json)) raw = object[f.json]
    if (raw === undefined || raw === null) continue
    out[f.json] = readValue(f.kind, raw)
  }
  return out
}

const decodeTransactionSchema = Schema.decodeUnknownEither(Transaction.Transaction)

/** The read `tx` message in the schema's JSON form, decoded by the schema. */
const toTransaction = (read: Record<string, unknown>): Transaction.Transaction => {
  const signature = read.signature as Record<string, unknown> | undefined
  const pow = read.pow as Record<string, unknown> | undefined
  // `from` is a oneof: of `address` and `pubKey`, the one set last (pub_key) wins
  const from =
    read.pubKey !== undefined ? { pubKey: read.pubKey } : read.address !== undefined ? { address: read.address } : {}
  const encoded = {
    ...(read.inputData !== undefined
      ? { inputData: Buffer.from(read.inputData as Uint8Array).toString("base64") }
      : {}),
    ...(signature !== undefined ? { signature } : {}),
    ...from,
    ...(read.version !== undefined ? { version: read.version } : {}),
    ...(pow !== undefined
      ? { pow: { ...pow, ...(pow.nonce !== undefined ? { nonce: String(pow.nonce as bigint) } : {}) } }
      : {})
  }
  const decoded = decodeTransactionSchema(encoded)
  if (Either.isLeft(decoded)) throw new DecodeError(decoded.left.message)
  return decoded.right
}

/** A request body, or the text of the 400 the gateway answers. */
export type Read<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: string }

const read = <A>(kind: MessageKind, body: unknown, make: (read: Record<string, unknown>) => A): Read<A> => {
  try {
    return { ok: true, value: make(readMessage(kind.fields, body)) }
  } catch (error) {
    if (error instanceof DecodeError) return { ok: false, error: error.message }
    throw error
  }
}

const typeNumber = (read: Record<string, unknown>): number => (read.type as number | undefined) ?? 0

/** `POST /transaction`: `tx` (absent when not sent) and `type` (ignored by the node). */
export const readSubmitTransaction = (
  body: unknown
): Read<{ readonly tx: Transaction.Transaction | undefined; readonly type: number }> =>
  read(SUBMIT, body, (r) => ({
    tx: r.tx === undefined ? undefined : toTransaction(r.tx as Record<string, unknown>),
    type: typeNumber(r)
  }))

/** `POST /transaction/check`. */
export const readCheckTransaction = (body: unknown): Read<{ readonly tx: Transaction.Transaction | undefined }> =>
  read(CHECK, body, (r) => ({
    tx: r.tx === undefined ? undefined : toTransaction(r.tx as Record<string, unknown>)
  }))

/** `POST /transaction/raw`: the bytes (empty when not sent) and the submit type's number. */
export const readSubmitRawTransaction = (body: unknown): Read<{ readonly tx: Uint8Array; readonly type: number }> =>
  read(SUBMIT_RAW, body, (r) => ({
    tx: (r.tx as Uint8Array | undefined) ?? new Uint8Array(0),
    type: typeNumber(r)
  }))

/** `POST /transaction/raw/check`. */
export const readCheckRawTransaction = (body: unknown): Read<{ readonly tx: Uint8Array }> =>
  read(CHECK_RAW, body, (r) => ({
    tx: (r.tx as Uint8Array | undefined) ?? new Uint8Array(0)
  }))
