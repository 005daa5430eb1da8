/**
 * A small protobuf (proto3) wire codec driven by message descriptors, writing bytes exactly as Go's
 * marshaller does: fields in field-number order, implicit-presence scalars omitted when zero,
 * proto3 `optional` fields, oneof members and sub-messages written whenever present, numeric
 * repeated fields packed, negative int32/int64/enum values as 10-byte two's-complement varints.
 *
 * Reading follows Go's unmarshaller: unknown fields are skipped, a known field that arrives with
 * another wire type is skipped as unknown, repeated numeric fields are accepted packed or not, the
 * last value of a singular field wins, repeated occurrences of a message field are merged, and
 * strings must be valid UTF-8.
 */
import { Input } from "@vega-effect/schema"

// -------------------------------------------------------------------------------------------------
// Failures (internal: turned into `TxEncodingError` by the public module)
// -------------------------------------------------------------------------------------------------

/** A value that cannot be encoded; `path` lists the field names (and indices) from the root message. */
export class EncodeFailure {
  constructor(
    readonly message: string,
    readonly path: Array<string | number> = []
  ) {}
}

/** Malformed bytes; `offset` is where the offending element starts. */
export class DecodeFailure {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly path: Array<string | number> = [],
    readonly fieldNumber?: number
  ) {}
}

/** Formats a path as `a.b[2].c`. */
export const formatPath = (path: ReadonlyArray<string | number>): string => {
  let out = ""
  for (const segment of path) {
    out += typeof segment === "number" ? `[${segment}]` : out === "" ? segment : `.${segment}`
  }
  return out
}

// -------------------------------------------------------------------------------------------------
// Writer
// -------------------------------------------------------------------------------------------------

const textEncoder = new TextEncoder()

/** Wire types. */
export const VARINT = 0
export const I64 = 1
export const LEN = 2
export const SGROUP = 3
export const EGROUP = 4
export const I32 = 5

const UINT64_MAX = 0xffffffffffffffffn
const INT64_MIN = -0x8000000000000000n
const INT64_MAX = 0x7fffffffffffffffn

/**
 * UTF-8 length of a string, or -1 if it holds a lone surrogate (Go refuses to marshal a proto3
 * string that is not valid UTF-8, and TextEncoder would silently replace it).
 */
const utf8Length = (s: string): number => {
  let length = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) length += 1
    else if (c < 0x800) length += 2
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1)
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1
      i++
      length += 4
    } else length += 3
  }
  return length
}

/** Appends protobuf wire elements to a growable buffer. */
export class Writer {
  buf: Uint8Array
  pos = 0

  constructor(size = 256) {
    this.buf = new Uint8Array(size)
  }

  reset(): void {
    this.pos = 0
    if (this.buf.length > 65536) this.buf = new Uint8Array(256)
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }

  /** A copy of what was written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos)
  }

  /** Varint of an integer in `0..2^32-1` (tags, lengths, uint32, non-negative int32). */
  uint32(v: number): void {
    this.ensure(5)
    const buf = this.buf
    let pos = this.pos
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    buf[pos++] = v
    this.pos = pos
  }

  /** Varint of an int32 (or enum number): negative values are sign-extended to 64 bits. */
  int32(v: number): void {
    if (v >= 0) this.uint32(v)
    else this.split(v >>> 0, 0xffffffff)
  }

  /** Varint of a uint64, or of an int64 in two's complement. */
  uint64(v: bigint): void {
    if (v >= 0n && v <= 0xffffffffn) return this.uint32(Number(v))
    const u = BigInt.asUintN(64, v)
    this.split(Number(u & 0xffffffffn), Number(u >> 32n))
  }

  /** Varint of a 64-bit value given as its low and high 32-bit halves. */
  split(lo: number, hi: number): void {
    this.ensure(10)
    const buf = this.buf
    let pos = this.pos
    while (hi > 0) {
      buf[pos++] = (lo & 0x7f) | 0x80
      lo = ((lo >>> 7) | (hi << 25)) >>> 0
      hi >>>= 7
    }
    while (lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80
      lo >>>= 7
    }
    buf[pos++] = lo
    this.pos = pos
  }

  /** Length-prefixed UTF-8. Returns false (writing nothing) for a string with a lone surrogate. */
  string(s: string): boolean {
    const n = s.length
    let i = 0
    while (i < n && s.charCodeAt(i) < 0x80) i++
    if (i === n) {
      this.uint32(n)
      this.ensure(n)
      const buf = this.buf
      let pos = this.pos
      for (let j = 0; j < n; j++) buf[pos++] = s.charCodeAt(j)
      this.pos = pos
      return true
    }
    const length = utf8Length(s)
    if (length < 0) return false
    this.uint32(length)
    this.ensure(length)
    textEncoder.encodeInto(s, this.buf.subarray(this.pos, this.pos + length))
    this.pos += length
    return true
  }

  /** Length-prefixed bytes. */
  bytes(b: Uint8Array): void {
    this.uint32(b.length)
    this.ensure(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
  }

  /** Starts a length-delimited element whose length is not known yet; returns a mark for {@link ldelim}. */
  fork(): number {
    this.ensure(1)
    return this.pos++
  }

  /** Writes the length of the element started at `mark`, moving its body when the length needs more than a byte. */
  ldelim(mark: number): void {
    const length = this.pos - mark - 1
    if (length < 0x80) {
      this.buf[mark] = length
      return
    }
    const size = length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5
    this.ensure(size - 1)
    this.buf.copyWithin(mark + size, mark + 1, this.pos)
    const end = this.pos + size - 1
    this.pos = mark
    this.uint32(length)
    this.pos = end
  }
}

// -------------------------------------------------------------------------------------------------
// Reader
// -------------------------------------------------------------------------------------------------

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/** Go's limit on nested groups when skipping unknown fields. */
const MAX_DEPTH = 10000

/** Reads protobuf wire elements; every read is bounded by `end` and throws a {@link DecodeFailure}. */
export class Reader {
  pos: number
  end: number
  /** Halves of the last varint read. */
  lo = 0
  hi = 0
  /** Field number and wire type of the last tag read. */
  fieldNumber = 0
  wireType = 0

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    end?: number
  ) {
    // callers outside the type system may pass anything: fail as malformed bytes, not a TypeError
    if (!Input.isBytes(buf)) throw new DecodeFailure(`expected bytes (a Uint8Array), got ${Input.show(buf)}`, 0)
    this.pos = pos
    this.end = end ?? buf.length
  }

  fail(message: string, offset = this.pos): never {
    throw new DecodeFailure(message, offset)
  }

  /** Reads a varint of up to 10 bytes into `lo`/`hi`, like Go's `protowire.ConsumeVarint`. */
  varint(): void {
    const buf = this.buf
    const end = this.end
    const start = this.pos
    let pos = start
    let lo = 0
    let hi = 0
    let b: number
    for (let shift = 0; shift < 28; shift += 7) {
      if (pos >= end) return this.fail("truncated varint", start)
      b = buf[pos++]
      lo |= (b & 0x7f) << shift
      if (b < 0x80) {
        this.lo = lo >>> 0
        this.hi = 0
        this.pos = pos
        return
      }
    }
    if (pos >= end) return this.fail("truncated varint", start)
    b = buf[pos++]
    lo |= (b & 0x0f) << 28
    hi = (b & 0x7f) >> 4
    if (b >= 0x80) {
      let done = false
      for (let shift = 3; shift < 31; shift += 7) {
        if (pos >= end) return this.fail("truncated varint", start)
        b = buf[pos++]
        hi |= (b & 0x7f) << shift
        if (b < 0x80) {
          done = true
          break
        }
      }
      if (!done) {
        if (pos >= end) return this.fail("truncated varint", start)
        b = buf[pos++]
        if (b > 1) return this.fail("varint overflows 64 bits", start)
        hi |= b << 31
      }
    }
    this.lo = lo >>> 0
    this.hi = hi >>> 0
    this.pos = pos
  }

  /** Reads a tag into `fieldNumber`/`wireType`; field numbers must be in `1..2^29-1`. */
  tag(): void {
    const start = this.pos
    this.varint()
    const fieldNumber = this.lo >>> 3
    if (this.hi !== 0 || fieldNumber === 0) this.fail("invalid field number", start)
    this.fieldNumber = fieldNumber
    this.wireType = this.lo & 7
  }

  uint64(): bigint {
    this.varint()
    return this.hi === 0 ? BigInt(this.lo) : (BigInt(this.hi) << 32n) | BigInt(this.lo)
  }

  int64(): bigint {
    this.varint()
    return this.hi === 0 ? BigInt(this.lo) : BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo))
  }

  /** uint32: Go keeps the low 32 bits. */
  uint32(): number {
    this.varint()
    return this.lo
  }

  /** int32 and enums: Go keeps the low 32 bits as a signed value. */
  int32(): number {
    this.varint()
    return this.lo | 0
  }

  bool(): boolean {
    this.varint()
    return this.lo !== 0 || this.hi !== 0
  }

  /** Reads a length prefix and checks that the element fits; returns the element's end. */
  delimited(): number {
    const start = this.pos
    this.varint()
    if (this.hi !== 0 || this.lo > this.end - this.pos) this.fail("length-delimited field runs past the end", start)
    return this.pos + this.lo
  }

  bytes(): Uint8Array {
    const end = this.delimited()
    const out = this.buf.slice(this.pos, end)
    this.pos = end
    return out
  }

  string(): string {
    const end = this.delimited()
    const start = this.pos
    const buf = this.buf
    this.pos = end
    if (end - start <= 128) {
      let s = ""
      let i = start
      while (i < end && buf[i] < 0x80) s += String.fromCharCode(buf[i++])
      if (i === end) return s
    }
    try {
      return utf8Decoder.decode(buf.subarray(start, end))
    } catch {
      return this.fail("string field contains invalid UTF-8", start)
    }
  }

  private advance(n: number, start: number): void {
    if (n > this.end - this.pos) this.fail("truncated field", start)
    this.pos += n
  }

  /** Skips the value of an unknown field (after its tag), like Go's `protowire.ConsumeFieldValue`. */
  skip(wireType: number, fieldNumber: number, tagStart: number): void {
    switch (wireType) {
      case VARINT:
        return this.varint()
      case I64:
        return this.advance(8, tagStart)
      case LEN:
        this.pos = this.delimited()
        return
      case I32:
        return this.advance(4, tagStart)
      case SGROUP: {
        const open = [fieldNumber]
        while (open.length > 0) {
          if (this.pos >= this.end) this.fail("truncated group", tagStart)
          const start = this.pos
          this.tag()
          const type = this.wireType
          if (type === EGROUP) {
            if (open.pop() !== this.fieldNumber) this.fail("mismatched end group", start)
          } else if (type === SGROUP) {
            if (open.length >= MAX_DEPTH) this.fail("groups nested too deeply", start)
            open.push(this.fieldNumber)
          } else this.skip(type, this.fieldNumber, start)
        }
        return
      }
      case EGROUP:
        return this.fail("unexpected end group", tagStart)
      default:
        return this.fail(`invalid wire type ${wireType}`, tagStart)
    }
  }
}

// -------------------------------------------------------------------------------------------------
// Descriptors
// -------------------------------------------------------------------------------------------------

/** The scalar and message kinds used by the Vega commands. */
export type Kind = "string" | "bytes" | "bool" | "uint32" | "int32" | "uint64" | "int64" | "enum" | "message"

/** What the codec needs of an open enum (`@vega-effect/schema`'s `Enum.OpenEnum`). */
export interface EnumType {
  readonly protoName: string
  readonly zero: string
  readonly numberOf: (value: any) => number | undefined
  readonly nameOf: (n: number) => string | undefined
}

/** An open enum read and written with another number table (every known name must get a number). */
export const withNumbers = <A>(
  enumType: EnumType & { readonly Type: A },
  values: { readonly [K in Extract<A, string>]: number }
): EnumType & { readonly Type: A } => {
  const table: Readonly<Record<string, number>> = values
  const names = new Map(Object.entries(table).map(([name, n]) => [n, name]))
  return {
    protoName: enumType.protoName,
    zero: names.get(0)!,
    Type: undefined as A,
    numberOf: (v) =>
      typeof v === "string"
        ? Object.hasOwn(table, v)
          ? table[v]
          : undefined
        : typeof v?.value === "number"
          ? v.value
          : undefined,
    nameOf: (n) => names.get(n)
  }
}

/** A field of a message, with its name in the decoded TypeScript value. */
export interface FieldInfo {
  readonly name: string
  readonly number: number
  readonly kind: Kind
  /** Written whenever present: proto3 `optional`, oneof members and sub-messages. */
  readonly explicit: boolean
  readonly repeated: boolean
  /** Repeated numeric field: packed on write, both forms accepted on read. */
  readonly packed: boolean
  readonly oneof: string | undefined
  readonly enumType: EnumType | undefined
  readonly message: MessageType<any> | undefined
  /** Wire type of one element. */
  readonly wireType: number
  /** Tag of one element (`number * 8 + wireType`), or of the packed block. */
  readonly tag: number
}

/** A message: fields in field-number order. `A` is the decoded TypeScript type. */
export interface MessageType<A> {
  readonly protoName: string
  readonly fields: ReadonlyArray<FieldInfo>
  readonly byNumber: ReadonlyMap<number, FieldInfo>
  /** The members of each oneof. */
  readonly oneofs: ReadonlyArray<ReadonlyArray<FieldInfo>>
  /** Builds the value of an empty message: zero values for implicit fields, `[]` for repeated ones. */
  readonly empty: () => A
  /** @internal phantom */
  readonly _A?: (a: A) => A
}

type Presence = "implicit" | "explicit"

type FieldSpec = Omit<FieldInfo, "name" | "wireType" | "tag" | "packed">

/** A field description before it gets its name; `A` is the TypeScript type of its value. */
export interface Field<A, P extends Presence> {
  readonly spec: FieldSpec
  readonly _A: (a: A) => A
  readonly _P: P
}

const field = <A, P extends Presence>(spec: FieldSpec): Field<A, P> => ({ spec }) as Field<A, P>

const scalar =
  <A>(kind: Kind) =>
  (number: number): Field<A, "implicit"> =>
    field({
      number,
      kind,
      explicit: false,
      repeated: false,
      oneof: undefined,
      enumType: undefined,
      message: undefined
    })

export const string = scalar<string>("string")
export const bytes = scalar<Uint8Array>("bytes")
export const bool = scalar<boolean>("bool")
export const uint32 = scalar<number>("uint32")
export const int32 = scalar<number>("int32")
export const uint64 = scalar<bigint>("uint64")
export const int64 = scalar<bigint>("int64")

/** An enum field of an open enum (`Enum.OpenEnum`), whose decoded type is its names or `UnknownEnumValue`. */
export const enumeration = <A>(number: number, enumType: EnumType & { readonly Type: A }): Field<A, "implicit"> =>
  field({ number, kind: "enum", explicit: false, repeated: false, oneof: undefined, enumType, message: undefined })

/** A singular sub-message field (always explicit presence). */
export const message = <A>(number: number, type: MessageType<A>): Field<A, "explicit"> =>
  field({
    number,
    kind: "message",
    explicit: true,
    repeated: false,
    oneof: undefined,
    enumType: undefined,
    message: type
  })

/** A proto3 `optional` field. */
export const optional = <A>(f: Field<A, "implicit">): Field<A, "explicit"> => field({ ...f.spec, explicit: true })

/** A member of the oneof `name`. */
export const oneof = <A>(name: string, f: Field<A, Presence>): Field<A, "explicit"> =>
  field({ ...f.spec, explicit: true, oneof: name })

/** A repeated field. */
export const repeated = <A>(f: Field<A, Presence>): Field<ReadonlyArray<A>, "implicit"> =>
  field({ ...f.spec, explicit: false, repeated: true })

/** Every property of `A` described: optional properties need explicit presence. */
export type Fields<A> = {
  readonly [K in keyof A]-?: {} extends Pick<A, K>
    ? Field<Exclude<A[K], undefined>, "explicit">
    : Field<A[K], "implicit">
}

const wireTypeOf = (kind: Kind): number => (kind === "string" || kind === "bytes" || kind === "message" ? LEN : VARINT)

const zeroOf = (f: FieldInfo): unknown => {
  switch (f.kind) {
    case "string":
      return ""
    case "bytes":
      return new Uint8Array(0)
    case "bool":
      return false
    case "uint32":
    case "int32":
      return 0
    case "uint64":
    case "int64":
      return 0n
    case "enum":
      return f.enumType!.zero
    case "message":
      return undefined
  }
}

/** Defines a message from the descriptions of all the properties of its decoded type. */
export const messageType = <A>(protoName: string, fields: Fields<A>): MessageType<A> => {
  const infos: Array<FieldInfo> = Object.entries(fields as Record<string, Field<unknown, Presence>>)
    .map(([name, { spec }]): FieldInfo => {
      const wireType = wireTypeOf(spec.kind)
      const packed = spec.repeated && wireType === VARINT
      return { ...spec, name, wireType, packed, tag: spec.number * 8 + (packed ? LEN : wireType) }
    })
    .sort((a, b) => a.number - b.number)
  const byNumber = new Map(infos.map((f) => [f.number, f]))
  if (byNumber.size !== infos.length) throw new Error(`${protoName}: duplicate field number`)
  const groups = new Map<string, Array<FieldInfo>>()
  for (const f of infos) {
    if (f.oneof !== undefined) groups.set(f.oneof, [...(groups.get(f.oneof) ?? []), f])
  }
  const defaults = infos.filter((f) => f.repeated || !f.explicit)
  const empty = (): A => {
    const out: Record<string, unknown> = {}
    for (const f of defaults) out[f.name] = f.repeated ? [] : zeroOf(f)
    return out as A
  }
  return { protoName, fields: infos, byNumber, oneofs: [...groups.values()], empty }
}

// -------------------------------------------------------------------------------------------------
// Encoding
// -------------------------------------------------------------------------------------------------

const isEnumValue = (v: unknown): boolean => typeof v === "string" || (typeof v === "object" && v !== null)

const isZero = (f: FieldInfo, v: any): boolean => {
  switch (f.kind) {
    case "string":
      return v === ""
    case "bytes":
      return v.length === 0
    case "bool":
      return v === false
    case "uint32":
    case "int32":
      return v === 0
    case "uint64":
    case "int64":
      return v === 0n
    case "enum":
      return isEnumValue(v) && f.enumType!.numberOf(v) === 0
    case "message":
      return false
  }
}

const describe = (v: unknown): string =>
  typeof v === "bigint" ? `${v}n` : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)

const invalid = (v: unknown, expected: string): never => {
  throw new EncodeFailure(`expected ${expected}, got ${describe(v)}`)
}

const writeValue = (w: Writer, f: FieldInfo, v: any): void => {
  switch (f.kind) {
    case "string":
      if (typeof v !== "string") return invalid(v, "a string")
      if (!w.string(v)) throw new EncodeFailure("string is not valid Unicode (lone surrogate)")
      return
    case "bytes":
      if (!(v instanceof Uint8Array)) return invalid(v, "a Uint8Array")
      return w.bytes(v)
    case "bool":
      if (typeof v !== "boolean") return invalid(v, "a boolean")
      return w.uint32(v ? 1 : 0)
    case "uint32":
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) return invalid(v, "a uint32")
      return w.uint32(v)
    case "int32":
      if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) return invalid(v, "an int32")
      return w.int32(v)
    case "uint64":
      if (typeof v !== "bigint" || v < 0n || v > UINT64_MAX) return invalid(v, "a uint64 bigint")
      return w.uint64(v)
    case "int64":
      if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) return invalid(v, "an int64 bigint")
      return w.uint64(v)
    case "enum": {
      const n = isEnumValue(v) ? f.enumType!.numberOf(v) : undefined
      if (typeof n !== "number") {
        throw new EncodeFailure(`${f.enumType!.protoName} value ${describe(v)} has no known number`)
      }
      if (!Number.isInteger(n) || n < -0x80000000 || n > 0x7fffffff) {
        throw new EncodeFailure(`${f.enumType!.protoName} value ${n} is not an int32`)
      }
      return w.int32(n)
    }
    case "message": {
      if (typeof v !== "object" || v === null) return invalid(v, `a ${f.message!.protoName} object`)
      const mark = w.fork()
      encodeMessage(w, f.message!, v)
      return w.ldelim(mark)
    }
  }
}

const withSegment = (e: unknown, segment: string | number): never => {
  if (e instanceof EncodeFailure || e instanceof DecodeFailure) e.path.unshift(segment)
  throw e
}

/** Writes the fields of `value` (without tag or length) in field-number order. */
export const encodeMessage = <A>(w: Writer, type: MessageType<A>, value: A): void => {
  const record = value as Record<string, unknown>
  const oneofs = type.oneofs
  for (let i = 0; i < oneofs.length; i++) {
    const members = oneofs[i]
    let present: string | undefined
    for (let j = 0; j < members.length; j++) {
      if (record[members[j].name] === undefined) continue
      if (present !== undefined) {
        throw new EncodeFailure(
          `oneof ${members[j].oneof} of ${type.protoName} holds both ${present} and ${members[j].name}`
        )
      }
      present = members[j].name
    }
  }
  const fields = type.fields
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]
    const v = record[f.name]
    if (v === undefined) continue
    try {
      if (f.repeated) {
        if (!Array.isArray(v)) return invalid(v, "an array")
        if (v.length === 0) continue
        if (f.packed) {
          w.uint32(f.tag)
          const mark = w.fork()
          for (let j = 0; j < v.length; j++) writeValueAt(w, f, v[j], j)
          w.ldelim(mark)
        } else {
          for (let j = 0; j < v.length; j++) {
            w.uint32(f.tag)
            writeValueAt(w, f, v[j], j)
          }
        }
      } else if (f.explicit || !isZero(f, v)) {
        w.uint32(f.tag)
        writeValue(w, f, v)
      }
    } catch (e) {
      withSegment(e, f.name)
    }
  }
}

const writeValueAt = (w: Writer, f: FieldInfo, v: unknown, index: number): void => {
  try {
    writeValue(w, f, v)
  } catch (e) {
    withSegment(e, index)
  }
}

// -------------------------------------------------------------------------------------------------
// Decoding
// -------------------------------------------------------------------------------------------------

const readScalar = (r: Reader, f: FieldInfo): unknown => {
  switch (f.kind) {
    case "string":
      return r.string()
    case "bytes":
      return r.bytes()
    case "bool":
      return r.bool()
    case "uint32":
      return r.uint32()
    case "int32":
      return r.int32()
    case "uint64":
      return r.uint64()
    case "int64":
      return r.int64()
    case "enum": {
      const n = r.int32()
      return f.enumType!.nameOf(n) ?? { _tag: "UnknownEnumValue", value: n }
    }
    case "message":
      throw new Error("BUG: message read as scalar")
  }
}

/** Decodes a sub-message of `end - r.pos` bytes into `target` (a fresh empty value when undefined). */
const readMessage = <A>(r: Reader, type: MessageType<A>, target: A | undefined): A => {
  const end = r.delimited()
  const outer = r.end
  r.end = end
  const value = decodeMessage(r, type, target)
  r.end = outer
  return value
}

/**
 * Reads fields until `r.end` into `target` (merging, as Go does when a message occurs twice) or
 * into a fresh empty value.
 */
export const decodeMessage = <A>(r: Reader, type: MessageType<A>, target?: A): A => {
  const out = (target ?? type.empty()) as Record<string, any>
  const byNumber = type.byNumber
  while (r.pos < r.end) {
    const tagStart = r.pos
    r.tag()
    const number = r.fieldNumber
    const wireType = r.wireType
    const f = byNumber.get(number)
    if (f === undefined) {
      r.skip(wireType, number, tagStart)
      continue
    }
    try {
      if (f.repeated) {
        const list = out[f.name] as Array<unknown>
        if (wireType === f.wireType) {
          list.push(f.kind === "message" ? readMessage(r, f.message!, undefined) : readScalar(r, f))
        } else if (wireType === LEN && f.wireType === VARINT) {
          const end = r.delimited()
          const outer = r.end
          r.end = end
          while (r.pos < end) list.push(readScalar(r, f))
          r.end = outer
        } else r.skip(wireType, number, tagStart)
        continue
      }
      if (wireType !== f.wireType) {
        r.skip(wireType, number, tagStart)
        continue
      }
      if (f.oneof !== undefined) {
        for (const member of type.oneofs.find((members) => members[0].oneof === f.oneof)!) {
          if (member !== f && out[member.name] !== undefined) delete out[member.name]
        }
      }
      out[f.name] = f.kind === "message" ? readMessage(r, f.message!, out[f.name]) : readScalar(r, f)
    } catch (e) {
      if (e instanceof DecodeFailure && e.path.length === 0 && e.fieldNumber === undefined) {
        throw new DecodeFailure(e.message, e.offset, [f.name], number)
      }
      withSegment(e, f.name)
    }
  }
  return out as A
}
