import { describe, expect, it } from "@effect/vitest"
import * as TxEncoding from "@vega-effect/crypto/TxEncoding"
import { Commands, Enum, Transaction } from "@vega-effect/schema"
import { decode as officialDecodeInputData } from "@vegaprotocol/protos/vega/commands/v1/InputData/decode.js"
import { encode as officialEncodeInputData } from "@vegaprotocol/protos/vega/commands/v1/InputData/encode.js"
import { decode as officialDecodeTransaction } from "@vegaprotocol/protos/vega/commands/v1/Transaction/decode.js"
import { encode as officialEncodeTransaction } from "@vegaprotocol/protos/vega/commands/v1/Transaction/encode.js"
import { Arbitrary, Either, FastCheck as fc, Schema, SchemaAST as AST } from "effect"
import { createRequire } from "node:module"
import { commandTypes, TransactionMessage } from "../src/internal/messages.js"
import {
  decodeMessage,
  type EnumType,
  type MessageType,
  messageType,
  Reader,
  repeated,
  int32,
  int64,
  uint64,
  encodeMessage,
  Writer
} from "../src/internal/protobuf.js"

// -------------------------------------------------------------------------------------------------
// Helpers
// -------------------------------------------------------------------------------------------------

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")
const fromHex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s.replace(/\s+/g, ""), "hex"))

const right = <A>(either: Either.Either<A, TxEncoding.TxEncodingError>): A => {
  if (Either.isLeft(either)) throw new Error(`expected Right, got ${either.left.message}`)
  return either.right
}
const left = <A>(either: Either.Either<A, TxEncoding.TxEncodingError>): TxEncoding.TxEncodingError => {
  if (Either.isRight(either)) throw new Error("expected Left")
  expect(either.left).toBeInstanceOf(TxEncoding.TxEncodingError)
  expect(either.left._tag).toBe("TxEncodingError")
  return either.left
}

const inputData = (command: Commands.Command, nonce = 1n, blockHeight = 2n): TxEncoding.InputData => ({
  nonce,
  blockHeight,
  command
})

/**
 * The shape of a command's decoded value, read from its schema's AST (independently of the
 * codec's descriptors): enough to map values to what `@vegaprotocol/protos` takes and returns.
 */
type Shape =
  | { readonly _tag: "scalar"; readonly kind: "string" | "bigint" | "number" | "boolean" }
  | { readonly _tag: "enum"; readonly enum: Enum.OpenEnum<string> }
  | { readonly _tag: "array"; readonly item: Shape }
  | {
      readonly _tag: "struct"
      readonly props: ReadonlyArray<{ readonly name: string; readonly optional: boolean; readonly shape: Shape }>
    }

const enumsByAst = new Map<AST.AST, Enum.OpenEnum<string>>()
for (const value of Object.values(Commands)) {
  if (Schema.isSchema(value) && "numberOf" in value && "protoName" in value) {
    enumsByAst.set(value.ast, value as unknown as Enum.OpenEnum<string>)
  }
}

const structShape = (from: AST.TypeLiteral, to: AST.TypeLiteral): Shape => ({
  _tag: "struct",
  props: from.propertySignatures.map((ps) => ({
    name: String(ps.name),
    optional: to.propertySignatures.find((t) => t.name === ps.name)!.isOptional,
    shape: shapeOf(ps.type)
  }))
})

const shapeOf = (ast: AST.AST): Shape => {
  const e = enumsByAst.get(ast)
  if (e !== undefined) return { _tag: "enum", enum: e }
  switch (ast._tag) {
    case "Refinement":
      return shapeOf(ast.from)
    case "Transformation":
      return AST.isTypeLiteral(ast.from) && AST.isTypeLiteral(ast.to) ? structShape(ast.from, ast.to) : scalarShape(ast)
    case "TypeLiteral":
      return structShape(ast, ast)
    case "TupleType":
      return { _tag: "array", item: shapeOf(ast.rest[0].type) }
    case "Union": {
      const members = ast.types.filter((t) => !(AST.isLiteral(t) && t.literal === null))
      if (members.length !== 1) throw new Error(`unexpected union in a command schema: ${String(ast)}`)
      return shapeOf(members[0])
    }
    default:
      return scalarShape(ast)
  }
}

const scalarShape = (ast: AST.AST): Shape => {
  let base = AST.typeAST(ast)
  while (AST.isRefinement(base)) base = base.from
  switch (base._tag) {
    case "StringKeyword":
      return { _tag: "scalar", kind: "string" }
    case "BooleanKeyword":
      return { _tag: "scalar", kind: "boolean" }
    case "NumberKeyword":
      return { _tag: "scalar", kind: "number" }
    case "BigIntKeyword":
      return { _tag: "scalar", kind: "bigint" }
    default:
      throw new Error(`unexpected scalar in a command schema: ${String(ast)}`)
  }
}

const isUnknownEnum = (v: unknown): v is Enum.UnknownEnumValue => Enum.isUnknownEnumValue(v)

/** Rebuilds a struct value prop by prop (absent props stay absent). */
const mapStruct = (
  shape: Extract<Shape, { _tag: "struct" }>,
  v: any,
  f: (prop: Extract<Shape, { _tag: "struct" }>["props"][number], value: unknown) => unknown
): any => {
  const out: Record<string, unknown> = {}
  for (const prop of shape.props) {
    if (v[prop.name] === undefined) continue
    const mapped = f(prop, v[prop.name])
    if (mapped !== undefined) out[prop.name] = mapped
  }
  return out
}

/** Whether the value can be marshalled at all (an enum name without a number cannot). */
const encodable = (shape: Shape, v: any): boolean => {
  switch (shape._tag) {
    case "enum":
      return !isUnknownEnum(v) || typeof v.value === "number"
    case "array":
      return v.every((item: unknown) => encodable(shape.item, item))
    case "struct":
      return shape.props.every((p) => v[p.name] === undefined || encodable(p.shape, v[p.name]))
    case "scalar":
      return true
  }
}

/**
 * Replaces what `@vegaprotocol/protos` cannot encode: unknown enum values (it reserves 5 bytes
 * for an unknown enum number and leaves the unused ones as zeros, and writes negative numbers as
 * 5-byte uint32 varints where Go writes 10 bytes), and negative int32 values. Unknown enum
 * values are covered by our round trips and the hand-written bytes instead.
 */
const sanitize = (shape: Shape, v: any): any => {
  switch (shape._tag) {
    case "enum":
      // unknown values, and names of v0.75 nodes that the official (v0.79) tables no longer have
      return isUnknownEnum(v) || Object.values(LEGACY[shape.enum.protoName] ?? {}).includes(v) ? shape.enum.names[1] : v
    case "array":
      return v.map((item: unknown) => sanitize(shape.item, item))
    case "struct":
      return mapStruct(shape, v, (p, value) =>
        // a negative int32 is a 10-byte varint in Go, 5 bytes in @vegaprotocol/protos
        p.name === "transferInterval" && (value as number) < 0
          ? (value as number) & 0x7fffffff
          : sanitize(p.shape, value)
      )
    case "scalar":
      return v
  }
}

const isZeroScalar = (shape: Shape, v: unknown): boolean =>
  shape._tag === "enum"
    ? shape.enum.numberOf(v as any) === 0
    : shape._tag === "scalar" && (v === "" || v === 0 || v === 0n || v === false)

/**
 * Drops what `@vegaprotocol/protos` leaves out but Go writes: zero-valued proto3 `optional`
 * scalars and oneof members, and empty strings in repeated fields.
 */
const strip = (shape: Shape, v: any): any => {
  switch (shape._tag) {
    case "array":
      return v.filter((item: unknown) => item !== "").map((item: unknown) => strip(shape.item, item))
    case "struct":
      return mapStruct(shape, v, (p, value) =>
        p.optional && isZeroScalar(p.shape, value) ? undefined : strip(p.shape, value)
      )
    default:
      return v
  }
}

/**
 * Our decoded value in the form `@vegaprotocol/protos` encodes: enums as names, numbered by its
 * own tables, except the zero name, which it would write (any non-empty string is truthy to it).
 */
const toOfficial = (shape: Shape, v: any): any => {
  switch (shape._tag) {
    case "enum":
      return v === shape.enum.zero ? 0 : v
    case "array":
      return v.map((item: unknown) => toOfficial(shape.item, item))
    case "struct":
      return mapStruct(shape, v, (p, value) => toOfficial(p.shape, value))
    case "scalar":
      return v
  }
}

/**
 * What `@vegaprotocol/protos` decodes, in our decoded form: oneof groups (`kind: {oneOff}`)
 * flattened, `null` (unset optional) and `{}` (unset message) dropped, unknown enum numbers as
 * `UnknownEnumValue`.
 */
const fromOfficial = (shape: Shape, v: any): any => {
  switch (shape._tag) {
    case "enum":
      return typeof v === "number" ? Enum.unknownEnumValue(v) : v
    case "array":
      return v.map((item: unknown) => fromOfficial(shape.item, item))
    case "struct": {
      const flat: Record<string, unknown> = {}
      const names = new Set(shape.props.map((p) => p.name))
      for (const [key, value] of Object.entries(v)) {
        if (names.has(key)) flat[key] = value
        else if (value !== null) Object.assign(flat, value)
      }
      const out: Record<string, unknown> = {}
      for (const p of shape.props) {
        const value = flat[p.name]
        if (value === null || value === undefined) continue
        if (p.shape._tag === "struct" && typeof value === "object" && Object.keys(value).length === 0) continue
        out[p.name] = fromOfficial(p.shape, value)
      }
      return out
    }
    case "scalar":
      return v
  }
}

const shapes = Object.fromEntries(
  Commands.commandNames.map((name) => [name, shapeOf(Commands.commands[name].schema.ast)])
) as Record<Commands.CommandName, Shape>

const officialInputData = (input: TxEncoding.InputData): Uint8Array =>
  officialEncodeInputData({
    nonce: input.nonce,
    blockHeight: input.blockHeight,
    command: { [input.command._tag]: toOfficial(shapes[input.command._tag], input.command.value) }
  } as any)

const officialCommandOf = (name: Commands.CommandName, bytes: Uint8Array): unknown => {
  const decoded = officialDecodeInputData(bytes) as any
  expect(Object.keys(decoded.command)).toEqual([name])
  return fromOfficial(shapes[name], decoded.command[name])
}

const uint64s = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })

// -------------------------------------------------------------------------------------------------
// Wire primitives
// -------------------------------------------------------------------------------------------------

describe("protobuf wire primitives", () => {
  const varint = (write: (w: Writer) => void): string => {
    const w = new Writer(1)
    write(w)
    return hex(w.finish())
  }

  it("writes varints like Go, 64-bit ones from bigints", () => {
    expect(varint((w) => w.uint64(0n))).toBe("00")
    expect(varint((w) => w.uint64(1n))).toBe("01")
    expect(varint((w) => w.uint64(127n))).toBe("7f")
    expect(varint((w) => w.uint64(128n))).toBe("8001")
    expect(varint((w) => w.uint64(300n))).toBe("ac02")
    expect(varint((w) => w.uint64(2n ** 32n - 1n))).toBe("ffffffff0f")
    expect(varint((w) => w.uint64(2n ** 32n))).toBe("8080808010")
    expect(varint((w) => w.uint64(2n ** 63n))).toBe("80808080808080808001")
    expect(varint((w) => w.uint64(2n ** 64n - 1n))).toBe("ffffffffffffffffff01")
    // negative int64 and int32 are sign-extended to 10 bytes
    expect(varint((w) => w.uint64(-1n))).toBe("ffffffffffffffffff01")
    expect(varint((w) => w.uint64(-(2n ** 63n)))).toBe("80808080808080808001")
    expect(varint((w) => w.int32(-1))).toBe("ffffffffffffffffff01")
    expect(varint((w) => w.int32(-2147483648))).toBe("80808080f8ffffffff01")
    expect(varint((w) => w.uint32(4294967295))).toBe("ffffffff0f")
  })

  it.prop(
    "reads back every uint64 and int64",
    { n: uint64s, i: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
    ({ i, n }) => {
      const w = new Writer(1)
      w.uint64(n)
      w.uint64(i)
      const r = new Reader(w.finish())
      expect(r.uint64()).toBe(n)
      expect(r.int64()).toBe(i)
      expect(r.pos).toBe(r.end)
    }
  )

  it("rejects varints longer than 64 bits, like Go", () => {
    const r = new Reader(fromHex("ffffffffffffffffff02"))
    expect(() => r.varint()).toThrow()
    expect(new Reader(fromHex("ffffffffffffffffff01")).uint64()).toBe(2n ** 64n - 1n)
    // non-minimal encodings are accepted
    expect(new Reader(fromHex("8000")).uint64()).toBe(0n)
  })

  it("packs repeated numeric fields and reads both forms", () => {
    interface Numbers {
      readonly u: ReadonlyArray<bigint>
      readonly i: ReadonlyArray<number>
      readonly s: ReadonlyArray<bigint>
    }
    const Numbers = messageType<Numbers>("test.Numbers", {
      u: repeated(uint64(1)),
      i: repeated(int32(2)),
      s: repeated(int64(3))
    })
    const w = new Writer(1)
    encodeMessage(w, Numbers, { u: [1n, 300n], i: [-1], s: [] })
    // 0a len 03: 01 ac02 | 12 len 0a: ff..01
    expect(hex(w.finish())).toBe("0a0301ac02" + "120affffffffffffffffff01")
    const unpacked = fromHex("0801" + "08ac02" + "10ffffffffffffffffff01" + "1a00")
    expect(decodeMessage(new Reader(unpacked), Numbers)).toStrictEqual({ u: [1n, 300n], i: [-1], s: [] })
    const mixed = fromHex("0a0101" + "08ac02")
    expect(decodeMessage(new Reader(mixed), Numbers)).toStrictEqual({ u: [1n, 300n], i: [], s: [] })
  })

  it("writes fields in field-number order whatever the declaration order", () => {
    interface Unordered {
      readonly b: bigint
      readonly a: bigint
    }
    const Unordered = messageType<Unordered>("test.Unordered", { b: uint64(2000), a: uint64(1) })
    const w = new Writer(1)
    encodeMessage(w, Unordered, { b: 2n, a: 1n })
    expect(hex(w.finish())).toBe("0801" + "807d02")
  })

  it("moves a sub-message body when its length needs more than one byte", () => {
    for (const size of [124, 125, 16380, 16381]) {
      const reference = "r".repeat(size)
      const input = inputData(Commands.command("orderSubmission", Commands.orderSubmission({ reference })))
      const bytes = TxEncoding.encodeInputData(input)
      expect(hex(bytes)).toBe(hex(officialInputData(input)))
      expect(right(TxEncoding.decodeInputData(bytes))).toStrictEqual(input)
    }
    // an order_submission of 2^21 bytes (reference: tag, 3-byte length, 2^21 - 4 bytes) gets a 4-byte length
    const reference = "r".repeat(2 ** 21 - 4)
    const bytes = TxEncoding.encodeInputData(
      inputData(Commands.command("orderSubmission", Commands.orderSubmission({ reference })))
    )
    expect(hex(bytes.subarray(0, 15))).toBe("08011002" + "ca3e" + "80808001" + "42" + "fcff7f" + "72")
    expect(bytes.length).toBe(4 + 2 + 4 + 2 ** 21)
    const decoded = right(TxEncoding.decodeInputData(bytes)).command
    expect(decoded._tag === "orderSubmission" && decoded.value.reference === reference).toBe(true)
  })
})

// -------------------------------------------------------------------------------------------------
// InputData against @vegaprotocol/protos
// -------------------------------------------------------------------------------------------------

const LEGACY: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  "vega.DispatchMetric": { 5: "DISPATCH_METRIC_AVERAGE_POSITION" },
  "vega.AccountType": { 24: "ACCOUNT_TYPE_REWARD_AVERAGE_POSITION" }
}

describe("InputData: every command against @vegaprotocol/protos", () => {
  it("describes every command", () => {
    expect(Object.keys(shapes)).toHaveLength(21)
  })

  it("numbers every enum as @vegaprotocol/protos does", () => {
    const require = createRequire(import.meta.url)
    const enums = new Map<string, EnumType>()
    const collect = (type: MessageType<unknown>): void => {
      for (const f of type.fields) {
        if (f.enumType !== undefined) enums.set(f.enumType.protoName, f.enumType)
        if (f.message !== undefined) collect(f.message)
      }
    }
    for (const type of [...Object.values(commandTypes), TransactionMessage]) collect(type as MessageType<unknown>)
    expect(enums.size).toBe(15)
    for (const [protoName, ours] of enums) {
      const official = require(`@vegaprotocol/protos/${protoName.split(".").join("/")}.js`)
      const table = Object.entries(official).filter(([, n]) => typeof n === "number")
      expect(table.length, protoName).toBeGreaterThan(1)
      for (const [name, n] of table) {
        expect(ours.numberOf(name), `${protoName} ${name}`).toBe(n)
        expect(ours.nameOf(n as number), `${protoName} ${n}`).toBe(name)
      }
      for (let n = -1; n < 100; n++) {
        // names of v0.75 nodes that the v0.79 protos have reserved
        if (LEGACY[protoName]?.[n] !== undefined) expect(ours.nameOf(n)).toBe(LEGACY[protoName][n])
        else expect(ours.nameOf(n), `${protoName} ${n}`).toBe(official.stringify(n))
      }
      expect(ours.zero).toBe(official.stringify(0))
    }
  })

  it("writes every field of every command as the official encoder does", () => {
    for (const name of Commands.commandNames) {
      const input = inputData({ _tag: name, value: fullValue(shapes[name]) } as Commands.Command)
      const ours = TxEncoding.encodeInputData(input)
      expect(hex(ours), name).toBe(hex(officialInputData(input)))
      expect(right(TxEncoding.decodeInputData(ours)), name).toStrictEqual(input)
      expect(officialCommandOf(name, ours), name).toStrictEqual(input.command.value)
    }
    // the other members of the oneofs
    const recurring = Commands.transfer({
      recurring: fullValue(shapeOf(Commands.RecurringTransfer.ast)) as Commands.RecurringTransfer
    })
    const trailing = Commands.stopOrdersSubmission({ fallsBelow: { trailingPercentOffset: "0.1" } })
    for (const command of [
      Commands.command("transfer", recurring),
      Commands.command("stopOrdersSubmission", trailing)
    ]) {
      const input = inputData(command)
      expect(hex(TxEncoding.encodeInputData(input))).toBe(hex(officialInputData(input)))
    }
  })

  for (const name of Commands.commandNames) {
    const value = Arbitrary.make(Commands.commands[name].schema as Schema.Schema<any>)
    it.prop(
      `${name} (InputData field ${Commands.commands[name].fieldNumber})`,
      { value, nonce: uint64s, blockHeight: uint64s },
      ({ blockHeight, nonce, value }) => {
        const shape = shapes[name]
        const input: TxEncoding.InputData = { nonce, blockHeight, command: { _tag: name, value } as Commands.Command }
        const encoded = TxEncoding.encodeInputDataEither(input)
        if (!encodable(shape, value)) {
          expect(left(encoded).operation).toBe("encode")
          return
        }
        // our round trip keeps everything, including zero-valued optional fields
        expect(right(TxEncoding.decodeInputData(right(encoded)))).toStrictEqual(input)

        const representable = sanitize(shape, value)
        const withZeros = TxEncoding.encodeInputData({
          ...input,
          command: { _tag: name, value: representable } as Commands.Command
        })
        // the official decoder reads our bytes back to the same value (optional fields set to zero included)
        expect(officialCommandOf(name, withZeros)).toStrictEqual(representable)
        const official = officialDecodeInputData(withZeros)
        expect([official.nonce, official.blockHeight]).toStrictEqual([nonce, blockHeight])

        // same bytes as the official encoder where it follows Go
        const comparable: TxEncoding.InputData = {
          ...input,
          command: { _tag: name, value: strip(shape, representable) } as Commands.Command
        }
        expect(hex(TxEncoding.encodeInputData(comparable))).toBe(hex(officialInputData(comparable)))
      },
      { fastCheck: { numRuns: 150 } }
    )
  }

  it("writes the known commands with the official encoder's bytes (hand-checked order submission)", () => {
    const input = inputData(
      Commands.command(
        "orderSubmission",
        Commands.orderSubmission({
          marketId: "m",
          price: "10",
          size: 3n,
          side: "SIDE_SELL",
          timeInForce: "TIME_IN_FORCE_GTT",
          expiresAt: 5n,
          type: "TYPE_LIMIT",
          reference: "r",
          peggedOrder: Commands.peggedOrder({ reference: "PEGGED_REFERENCE_BEST_ASK", offset: "7" }),
          postOnly: true,
          reduceOnly: true,
          icebergOpts: Commands.icebergOpts({ peakSize: 8n, minimumVisibleSize: 9n })
        })
      ),
      42n,
      100n
    )
    const expected =
      "082a" + // 1 nonce 42
      "1064" + // 2 block_height 100
      "ca3e" +
      "25" + // 1001 order_submission, 37 bytes
      "0a016d" + // 1 market_id "m"
      "12023130" + // 2 price "10"
      "1803" + // 3 size 3
      "2002" + // 4 side SELL
      "2802" + // 5 time_in_force GTT
      "3005" + // 6 expires_at 5
      "3801" + // 7 type LIMIT
      "420172" + // 8 reference "r"
      "4a05" +
      "0803" +
      "120137" + // 9 pegged_order {1 BEST_ASK, 2 "7"}
      "5001" + // 10 post_only
      "5801" + // 11 reduce_only
      "6204" +
      "0808" +
      "1009" // 12 iceberg_opts {1 8, 2 9}
    expect(hex(TxEncoding.encodeInputData(input))).toBe(expected)
    expect(hex(officialInputData(input))).toBe(expected)
  })

  it("writes Go's bytes where the official encoder drops values", () => {
    // zero-valued proto3 `optional` fields are written (price "" and size 0 of an amendment)
    const amendment = inputData(
      Commands.command("orderAmendment", Commands.orderAmendment({ price: "", size: 0n, expiresAt: 0n })),
      0n,
      0n
    )
    expect(hex(TxEncoding.encodeInputData(amendment))).toBe("da3e06" + "1a00" + "2800" + "4800")
    expect(hex(officialInputData(amendment))).toBe("da3e00")
    // oneof string members are written even when empty
    const stop = inputData(
      Commands.command("stopOrdersSubmission", Commands.stopOrdersSubmission({ risesAbove: { price: "" } })),
      0n,
      0n
    )
    expect(hex(TxEncoding.encodeInputData(stop))).toBe("c23f05" + "0a03" + "a206" + "00")
    // empty strings of repeated fields are kept
    const team = inputData(
      Commands.command(
        "createReferralSet",
        Commands.createReferralSet({ team: Commands.createReferralSetTeam({ allowList: ["", "a"] }) })
      ),
      0n,
      0n
    )
    expect(hex(TxEncoding.encodeInputData(team))).toBe("d23f07" + "1205" + "7200" + "720161")
    // a negative (unknown) enum number is an int32: 10 bytes, and a negative int64 too
    const negative = inputData(
      Commands.command(
        "orderSubmission",
        Commands.orderSubmission({ side: Enum.unknownEnumValue(-1) as Commands.Side, expiresAt: -2n })
      ),
      0n,
      0n
    )
    const bytes = TxEncoding.encodeInputData(negative)
    expect(hex(bytes)).toBe("ca3e16" + "20ffffffffffffffffff01" + "30feffffffffffffffff01")
    expect(right(TxEncoding.decodeInputData(bytes))).toStrictEqual(negative)
  })

  it("writes UTF-8 and rejects strings that are not valid Unicode", () => {
    const reference = "é€😀\uFEFF"
    const input = inputData(Commands.command("orderSubmission", Commands.orderSubmission({ reference })))
    const bytes = TxEncoding.encodeInputData(input)
    const utf8 = Buffer.from(reference, "utf8")
    expect(hex(bytes)).toBe("08011002" + "ca3e" + "0e" + "420c" + utf8.toString("hex"))
    expect(right(TxEncoding.decodeInputData(bytes))).toStrictEqual(input)

    const lone = inputData(Commands.command("orderSubmission", Commands.orderSubmission({ reference: "a\uD800b" })))
    const error = left(TxEncoding.encodeInputDataEither(lone))
    expect(error.operation).toBe("encode")
    expect(error.path).toBe("InputData.orderSubmission.reference")
    expect(() => TxEncoding.encodeInputData(lone)).toThrow(TxEncoding.TxEncodingError)
  })

  it("keeps a leading byte order mark", () => {
    const input = inputData(Commands.command("joinTeam", { id: "\uFEFFé" }))
    const bytes = TxEncoding.encodeInputData(input)
    expect(hex(bytes)).toBe("08011002" + "f23f07" + "0a05" + "efbbbfc3a9")
    expect(right(TxEncoding.decodeInputData(bytes))).toStrictEqual(input)
  })

  it.prop("round trips any Unicode text", { text: fc.fullUnicodeString({ maxLength: 300 }) }, ({ text }) => {
    const input = inputData(Commands.command("joinTeam", { id: text }))
    const bytes = TxEncoding.encodeInputData(input)
    expect(Buffer.from(bytes).includes(Buffer.from(text, "utf8"))).toBe(true)
    expect(right(TxEncoding.decodeInputData(bytes))).toStrictEqual(input)
  })

  it("fails to encode what the proto cannot hold, naming the field", () => {
    const unknownName = inputData(
      Commands.command("orderSubmission", Commands.orderSubmission({ side: Enum.unknownEnumValue("SIDE_NEW") }))
    )
    const error = left(TxEncoding.encodeInputDataEither(unknownName))
    expect(error.path).toBe("InputData.orderSubmission.side")
    expect(error.message).toContain("SIDE_NEW")

    const bothKinds = inputData(
      Commands.command(
        "transfer",
        Commands.transfer({ oneOff: Commands.oneOffTransfer(), recurring: Commands.recurringTransfer() })
      )
    )
    expect(left(TxEncoding.encodeInputDataEither(bothKinds)).message).toContain("oneof kind")

    const interval = inputData(
      Commands.command(
        "transfer",
        Commands.transfer({
          recurring: Commands.recurringTransfer({
            dispatchStrategy: Commands.dispatchStrategy({ transferInterval: 2 ** 31 })
          })
        })
      )
    )
    expect(left(TxEncoding.encodeInputDataEither(interval)).path).toBe(
      "InputData.transfer.recurring.dispatchStrategy.transferInterval"
    )

    const nested = inputData(
      Commands.command(
        "batchMarketInstructions",
        Commands.batchMarketInstructions({
          submissions: [Commands.orderSubmission(), Commands.orderSubmission({ size: -1n })]
        })
      )
    )
    expect(left(TxEncoding.encodeInputDataEither(nested)).path).toBe(
      "InputData.batchMarketInstructions.submissions[1].size"
    )

    expect(left(TxEncoding.encodeInputDataEither({ ...nested, nonce: -1n })).path).toBe("InputData.nonce")
    expect(
      left(TxEncoding.encodeInputDataEither({ ...nested, command: { _tag: "proposalSubmission", value: {} } as any }))
        .path
    ).toBe("InputData.command")
  })
})

// -------------------------------------------------------------------------------------------------
// InputData decoding
// -------------------------------------------------------------------------------------------------

describe("InputData: decoding like Go", () => {
  const joinTeam = inputData(Commands.command("joinTeam", { id: "t" }), 7n, 9n)
  const joinTeamHex = "0807" + "1009" + "f23f03" + "0a0174"

  it("decodes a hand-written InputData", () => {
    expect(hex(TxEncoding.encodeInputData(joinTeam))).toBe(joinTeamHex)
    expect(right(TxEncoding.decodeInputData(fromHex(joinTeamHex)))).toStrictEqual(joinTeam)
  })

  it("skips unknown fields of every wire type, and known fields with another wire type", () => {
    const unknown =
      "2801" + // 5 varint
      "310102030405060708" + // 6 fixed64
      "3d01020304" + // 7 fixed32
      "4201ff" + // 8 bytes
      "4b" +
      "0801" +
      "5b" +
      "5c" +
      "4c" + // 9 group holding a varint and an empty group 11
      "8afa0100" + // 4001 (reserved) bytes
      "0a00" // 1 (nonce) as bytes: unknown for Go
    expect(right(TxEncoding.decodeInputData(fromHex(unknown + joinTeamHex)))).toStrictEqual(joinTeam)
    expect(right(TxEncoding.decodeInputData(fromHex("0a00" + "f23f03" + "0a0174")))).toStrictEqual({
      ...joinTeam,
      nonce: 0n,
      blockHeight: 0n
    })
    // inside a command too
    expect(right(TxEncoding.decodeInputData(fromHex("f23f07" + "0a0174" + "1001" + "0801")))).toStrictEqual({
      ...joinTeam,
      nonce: 0n,
      blockHeight: 0n
    })
    // a repeated string (create_referral_set.team.allow_list, 14) sent as a varint
    expect(right(TxEncoding.decodeInputData(fromHex("d23f07" + "1205" + "7001" + "720161"))).command).toStrictEqual(
      Commands.command(
        "createReferralSet",
        Commands.createReferralSet({ team: Commands.createReferralSetTeam({ allowList: ["a"] }) })
      )
    )
  })

  it("keeps the last member of the command oneof and merges repeated occurrences", () => {
    const twoCommands = "0807" + "1009" + "ca3e03" + "0a016d" + joinTeamHex.slice(8)
    expect(right(TxEncoding.decodeInputData(fromHex(twoCommands)))).toStrictEqual(joinTeam)
    expect(hex(right(TxEncoding.decodeRawInputData(fromHex(twoCommands))).commandBytes)).toBe("0a0174")
    // order_submission twice: market_id from the first, price from the second, pegged_order merged
    const merged = "ca3e07" + "0a016d" + "4a020801" + "ca3e09" + "12023130" + "4a03120131"
    expect(right(TxEncoding.decodeInputData(fromHex(merged)))).toStrictEqual(
      inputData(
        Commands.command(
          "orderSubmission",
          Commands.orderSubmission({
            marketId: "m",
            price: "10",
            peggedOrder: { reference: "PEGGED_REFERENCE_MID", offset: "1" }
          })
        ),
        0n,
        0n
      )
    )
    const raw = right(TxEncoding.decodeRawInputData(fromHex(merged)))
    expect(raw.commandFieldNumber).toBe(1001)
    expect(hex(raw.commandBytes)).toBe("0a016d4a020801" + "120231304a03120131")
    // the last value of a oneof inside a command wins too
    const trigger = "c23f09" + "0a07" + "a2060131" + "aa0600"
    expect(right(TxEncoding.decodeInputData(fromHex(trigger))).command).toStrictEqual(
      Commands.command("stopOrdersSubmission", { risesAbove: { trailingPercentOffset: "" } })
    )
  })

  it("names a command it cannot decode, and reports a missing command", () => {
    // 1005 proposal_submission, empty
    const proposal = left(TxEncoding.decodeInputData(fromHex("0801" + "ea3e00")))
    expect(proposal.fieldNumber).toBe(1005)
    expect(proposal.message).toContain("proposal_submission")
    const raw = right(TxEncoding.decodeRawInputData(fromHex("0801" + "1002" + "ea3e020801")))
    expect(raw).toStrictEqual({ nonce: 1n, blockHeight: 2n, commandFieldNumber: 1005, commandBytes: fromHex("0801") })
    // 2003 node_signature
    expect(left(TxEncoding.decodeInputData(fromHex("9a7d00"))).fieldNumber).toBe(2003)

    const none = left(TxEncoding.decodeInputData(fromHex("0801" + "c23e00")))
    expect(none.message).toContain("no command")
    expect(none.message).toContain("1000")
    expect(right(TxEncoding.decodeRawInputData(fromHex("0801"))).commandFieldNumber).toBeUndefined()
  })
})

// -------------------------------------------------------------------------------------------------
// Transaction
// -------------------------------------------------------------------------------------------------

describe("Transaction", () => {
  const tx: Transaction.Transaction = {
    inputData: fromHex("082a1064"),
    signature: { value: "ab", algo: Transaction.SIGNATURE_ALGORITHM, version: Transaction.SIGNATURE_VERSION },
    pubKey: "cd",
    version: "TX_VERSION_V3",
    pow: { tid: "ef", nonce: 300n }
  }
  // Go's order: 1, 2, 1002, 2000, 3000
  const canonical =
    "0a04" +
    "082a1064" + // 1 input_data
    "1214" +
    "0a026162" +
    "120c" +
    Buffer.from("vega/ed25519").toString("hex") +
    "1801" + // 2 signature {1, 2, 3}
    "d23e02" +
    "6364" + // 1002 pub_key
    "807d03" + // 2000 version V3
    "c2bb0107" +
    "0a026566" +
    "10ac02" // 3000 pow {1 tid, 2 nonce 300}

  it("encodes in Go's canonical field order", () => {
    expect(hex(TxEncoding.encodeTransaction(tx))).toBe(canonical)
    const { pubKey: _, ...withoutKey } = tx
    expect(hex(TxEncoding.encodeTransaction({ ...withoutKey, address: "" }))).toBe(
      canonical.replace("d23e026364", "ca3e00")
    )
    expect(hex(TxEncoding.encodeTransaction({ inputData: new Uint8Array(0), version: "TX_VERSION_UNSPECIFIED" }))).toBe(
      ""
    )
  })

  it("hashes with SHA-256, lowercase", async () => {
    const bytes = TxEncoding.encodeTransaction(tx)
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes))
    expect(TxEncoding.txHash(bytes)).toBe(hex(digest))
    expect(TxEncoding.txHash(new TextEncoder().encode("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    expect(Transaction.sameTxHash(TxEncoding.txHash(bytes).toUpperCase(), TxEncoding.txHash(bytes))).toBe(true)
    expect(Schema.is(Transaction.TxHash)(TxEncoding.txHash(bytes))).toBe(true)
  })

  it("decodes the official encoder's (different) field order to the same transaction", () => {
    const official = officialEncodeTransaction({ ...tx, version: 3, from: { pubKey: "cd" } } as any)
    expect(hex(official)).not.toBe(canonical)
    expect(hex(official).endsWith("d23e026364")).toBe(true)
    expect(right(TxEncoding.decodeTransaction(official))).toStrictEqual(tx)
    expect(hex(TxEncoding.encodeTransaction(right(TxEncoding.decodeTransaction(official))))).toBe(canonical)
    expect(TxEncoding.txHash(official)).not.toBe(TxEncoding.txHash(fromHex(canonical)))
  })

  it("fails to encode both members of `from` or a version without a number", () => {
    expect(left(TxEncoding.encodeTransactionEither({ ...tx, address: "x" })).message).toContain("oneof from")
    expect(
      left(TxEncoding.encodeTransactionEither({ ...tx, version: Enum.unknownEnumValue("TX_VERSION_V9") })).path
    ).toBe("Transaction.version")
  })

  const transactions = Arbitrary.make(Transaction.Transaction)
  it.prop(
    "round trips, and agrees with the official codec",
    { tx: transactions },
    ({ tx }) => {
      const encoded = TxEncoding.encodeTransactionEither(tx)
      if (
        (tx.address !== undefined && tx.pubKey !== undefined) ||
        (Enum.isUnknownEnumValue(tx.version) && typeof tx.version.value === "string")
      ) {
        expect(left(encoded).operation).toBe("encode")
        return
      }
      const bytes = right(encoded)
      expect(right(TxEncoding.decodeTransaction(bytes))).toStrictEqual(tx)
      // the official decoder reads our bytes
      const official = officialDecodeTransaction(bytes) as any
      expect(official.inputData).toStrictEqual(tx.inputData)
      expect(official.from).toStrictEqual(
        tx.pubKey !== undefined ? { pubKey: tx.pubKey } : tx.address !== undefined ? { address: tx.address } : null
      )
      expect(official.pow).toStrictEqual(tx.pow ?? {})
      // and we read the official bytes (in another order) when it can write the same fields: it
      // drops an empty `from` and cannot write an unknown version (see `sanitize`)
      if (tx.pubKey !== "" && tx.address !== "" && Transaction.TxVersion.is(tx.version)) {
        const theirs = officialEncodeTransaction({
          ...tx,
          version: Transaction.TxVersion.values[tx.version],
          from:
            tx.pubKey !== undefined ? { pubKey: tx.pubKey } : tx.address !== undefined ? { address: tx.address } : null
        } as any)
        expect(right(TxEncoding.decodeTransaction(theirs))).toStrictEqual(tx)
        // same fields, so same length (it also writes an empty input_data, which Go omits)
        expect(theirs.length).toBe(bytes.length + (tx.inputData.length === 0 ? 2 : 0))
      }
    },
    { fastCheck: { numRuns: 300 } }
  )
})

// -------------------------------------------------------------------------------------------------
// Malformed bytes
// -------------------------------------------------------------------------------------------------

describe("malformed bytes", () => {
  const decodeError = (
    bytes: string,
    decode: (b: Uint8Array) => Either.Either<unknown, TxEncoding.TxEncodingError>
  ) => {
    const error = left(decode(fromHex(bytes)))
    expect(error.operation).toBe("decode")
    return error
  }

  it("rejects a truncated varint", () => {
    expect(decodeError("0880", TxEncoding.decodeInputData)).toMatchObject({ offset: 1, path: "InputData.nonce" })
    expect(decodeError("80", TxEncoding.decodeTransaction).offset).toBe(0)
    // inside a nested message: order_submission.pegged_order.reference
    const nested = decodeError("ca3e04" + "4a020880", TxEncoding.decodeInputData)
    expect(nested.path).toBe("InputData.orderSubmission.peggedOrder.reference")
    expect(nested.offset).toBe(6)
    expect(nested.fieldNumber).toBe(1)
  })

  it("rejects a length past the end", () => {
    expect(decodeError("0a05aabb", TxEncoding.decodeTransaction).message).toContain("past the end")
    expect(decodeError("ca3e05" + "0a01", TxEncoding.decodeInputData).offset).toBe(2)
    // a sub-message's field cannot run past the sub-message
    expect(decodeError("ca3e02" + "0a01", TxEncoding.decodeInputData).path).toBe("InputData.orderSubmission.marketId")
    expect(decodeError("0affffffffffffffffff01", TxEncoding.decodeTransaction).offset).toBe(1)
  })

  it("rejects invalid wire types, stray end groups and invalid field numbers", () => {
    expect(decodeError("0f", TxEncoding.decodeTransaction).message).toContain("wire type 7")
    expect(decodeError("0e00", TxEncoding.decodeInputData).message).toContain("wire type 6")
    expect(decodeError("2c", TxEncoding.decodeInputData).message).toContain("end group")
    expect(decodeError("2b34", TxEncoding.decodeInputData).message).toContain("end group")
    expect(decodeError("2b", TxEncoding.decodeInputData).message).toContain("truncated")
    expect(decodeError("0001", TxEncoding.decodeTransaction).message).toContain("field number")
    expect(decodeError("8080808080808080800100", TxEncoding.decodeTransaction).message).toContain("field number")
    // tag 2^32 + 8: field number 2^29 + 1 is above the maximum (its low 32 bits would read as field 1)
    expect(decodeError("888080801000", TxEncoding.decodeTransaction).message).toContain("field number")
    expect(decodeError("31aabb", TxEncoding.decodeTransaction).message).toContain("truncated")
    expect(decodeError("3daabb", TxEncoding.decodeTransaction).message).toContain("truncated")
  })

  it("rejects invalid UTF-8 in strings, as Go does for proto3", () => {
    expect(decodeError("f23f03" + "0a01ff", TxEncoding.decodeInputData).message).toContain("UTF-8")
    expect(decodeError("d23e02c328", TxEncoding.decodeTransaction).path).toBe("Transaction.pubKey")
  })

  it.prop("never throws on arbitrary bytes", { bytes: fc.uint8Array({ maxLength: 64 }) }, ({ bytes }) => {
    const decoders: ReadonlyArray<(bytes: Uint8Array) => Either.Either<unknown, TxEncoding.TxEncodingError>> = [
      TxEncoding.decodeInputData,
      TxEncoding.decodeRawInputData,
      TxEncoding.decodeTransaction
    ]
    for (const decode of decoders) {
      const result = decode(bytes)
      if (Either.isLeft(result)) expect(result.left).toBeInstanceOf(TxEncoding.TxEncodingError)
    }
  })

  const batch = Arbitrary.make(Commands.BatchMarketInstructions)
  it.prop(
    "never throws on truncated or corrupted encodings",
    { value: batch, cut: fc.nat(), flip: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) },
    ({ bit, cut, flip, value }) => {
      const input = inputData(Commands.command("batchMarketInstructions", value))
      const encoded = TxEncoding.encodeInputDataEither(input)
      if (Either.isLeft(encoded)) return
      const bytes = encoded.right
      const truncated = bytes.subarray(0, cut % bytes.length)
      const result = TxEncoding.decodeInputData(truncated)
      if (Either.isLeft(result)) expect(result.left).toBeInstanceOf(TxEncoding.TxEncodingError)
      else expect(result.right).not.toStrictEqual(input)
      const corrupted = bytes.slice()
      corrupted[flip % bytes.length] ^= 1 << bit
      const either = TxEncoding.decodeInputData(corrupted)
      if (Either.isLeft(either)) expect(either.left).toBeInstanceOf(TxEncoding.TxEncodingError)
    },
    { fastCheck: { numRuns: 300 } }
  )
})

/** A value with every field set to a non-zero value (of a oneof, the first member only). */
const fullValue = (shape: Shape): unknown => {
  switch (shape._tag) {
    case "enum":
      return shape.enum.names.find((n) => shape.enum.values[n] !== 0)
    case "array":
      return [fullValue(shape.item), fullValue(shape.item)]
    case "struct": {
      const out: Record<string, unknown> = {}
      for (const p of shape.props) {
        if (p.name !== "recurring" && p.name !== "trailingPercentOffset") out[p.name] = fullValue(p.shape)
      }
      return out
    }
    case "scalar":
      return { string: "s", bigint: 7n, number: 3, boolean: true }[shape.kind]
  }
}
