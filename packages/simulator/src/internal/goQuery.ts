/**
 * Query strings and paths decoded the way the data node's gateway decodes them: Go's
 * `url.ParseQuery` / `url.PathUnescape` and grpc-gateway v2.9.0's `PopulateQueryParameters`
 * (runtime/query.go), with Go's exact error texts.
 *
 * Go strings are bytes, so everything here works on "byte strings" (one char per byte, as Node
 * hands over the request target) and turns them into UTF-8 text only at the end.
 */
import * as Either from "effect/Either"
import type { ParamSpec, ParamType, ParamValue } from "./route.js"

// ---------------------------------------------------------------------------------------------
// Go's strconv.Quote
// ---------------------------------------------------------------------------------------------

const HEX = "0123456789abcdef"
const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0")
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u

/** Decodes one UTF-8 rune at `i` like Go's `utf8.DecodeRuneInString`: `[rune, width]`, `[-1, 1]` when invalid. */
const decodeRune = (s: string, i: number): readonly [number, number] => {
  const b0 = s.charCodeAt(i)
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const b = i + k < s.length ? s.charCodeAt(i + k) : -1
    return b >= lo && b <= hi ? b & 0x3f : -1
  }
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1)
    return c1 < 0 ? [-1, 1] : [((b0 & 0x1f) << 6) | c1, 2]
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf)
    const c2 = c1 < 0 ? -1 : cont(2)
    return c2 < 0 ? [-1, 1] : [((b0 & 0x0f) << 12) | (c1 << 6) | c2, 3]
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf)
    const c2 = c1 < 0 ? -1 : cont(2)
    const c3 = c2 < 0 ? -1 : cont(3)
    return c3 < 0 ? [-1, 1] : [((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4]
  }
  return [-1, 1]
}

const escapeRune = (r: number, bytes: string): string => {
  if (r === 0x22 || r === 0x5c) return "\\" + String.fromCharCode(r)
  if (r === 0x20 || PRINTABLE.test(String.fromCodePoint(r))) return bytes
  switch (r) {
    case 0x07:
      return "\\a"
    case 0x08:
      return "\\b"
    case 0x0c:
      return "\\f"
    case 0x0a:
      return "\\n"
    case 0x0d:
      return "\\r"
    case 0x09:
      return "\\t"
    case 0x0b:
      return "\\v"
  }
  if (r < 0x20 || r === 0x7f) return "\\x" + hex(r, 2)
  return r < 0x10000 ? "\\u" + hex(r, 4) : "\\U" + hex(r, 8)
}

/**
 * Go's `strconv.Quote` of a byte string; the result is a byte string too (printable runes keep
 * their UTF-8 bytes, invalid bytes become `\xNN`).
 */
export const goQuote = (s: string): string => {
  let out = '"'
  for (let i = 0; i < s.length;) {
    const b0 = s.charCodeAt(i)
    if (b0 < 0x80) {
      out += escapeRune(b0, s[i])
      i++
      continue
    }
    const [r, width] = decodeRune(s, i)
    if (r < 0) {
      out += "\\x" + HEX[b0 >> 4] + HEX[b0 & 0xf]
      i++
      continue
    }
    out += escapeRune(r, s.slice(i, i + width))
    i += width
  }
  return out + '"'
}

const HIGH_BYTE = /[\x80-\xff]/

/** A byte string read as UTF-8 (invalid sequences become U+FFFD). */
export const bytesToText = (s: string): string => (HIGH_BYTE.test(s) ? Buffer.from(s, "latin1").toString("utf8") : s)

// ---------------------------------------------------------------------------------------------
// net/url
// ---------------------------------------------------------------------------------------------

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

class EscapeError {
  constructor(readonly message: string) {}
}

// Go's url.unescape: `%XX` everywhere, `+` → space only for query components.
const unescape = (s: string, plusIsSpace: boolean): string | EscapeError => {
  const percent = s.indexOf("%")
  if (percent === -1 && (!plusIsSpace || s.indexOf("+") === -1)) return s
  let out = ""
  let start = 0
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i)
    if (c === 37) {
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) {
        return new EscapeError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`)
      }
      out += s.slice(start, i) + String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16))
      i += 3
      start = i
    } else if (c === 43 && plusIsSpace) {
      out += s.slice(start, i) + " "
      i++
      start = i
    } else {
      i++
    }
  }
  return out + s.slice(start)
}

/**
 * Go's `url.PathUnescape` (also what `url.Parse` does to a request path): `%XX` decoded, `+`
 * kept, and `invalid URL escape "%zz"` for a malformed escape. Works on and returns byte strings.
 */
export const unescapePath = (raw: string): Either.Either<string, string> => {
  const result = unescape(raw, false)
  return result instanceof EscapeError ? Either.left(result.message) : Either.right(result)
}

/**
 * The result of Go's `url.ParseQuery`: every pair that decoded, keys in order of first
 * appearance, and the error Go returns alongside (the pairs are kept either way, as Go does).
 */
export interface RawQuery {
  readonly values: ReadonlyMap<string, ReadonlyArray<string>>
  readonly error: string | undefined
}

const EMPTY_QUERY: RawQuery = { values: new Map(), error: undefined }

/** Go's `url.ParseQuery` on a raw (byte string) query. */
export const parseRawQuery = (query: string): RawQuery => {
  if (query === "") return EMPTY_QUERY
  const values = new Map<string, Array<string>>()
  let error: string | undefined
  let pos = 0
  while (pos <= query.length) {
    let amp = query.indexOf("&", pos)
    if (amp === -1) amp = query.length
    const pair = query.slice(pos, amp)
    pos = amp + 1
    if (pair.includes(";")) {
      // Go sets this one unconditionally, overriding an earlier escape error
      error = "invalid semicolon separator in query"
      continue
    }
    if (pair === "") continue
    const eq = pair.indexOf("=")
    const key = unescape(eq === -1 ? pair : pair.slice(0, eq), true)
    if (key instanceof EscapeError) {
      error ??= key.message
      continue
    }
    const value = unescape(eq === -1 ? "" : pair.slice(eq + 1), true)
    if (value instanceof EscapeError) {
      error ??= value.message
      continue
    }
    const list = values.get(key)
    if (list === undefined) values.set(key, [value])
    else list.push(value)
  }
  return { values, error }
}

// ---------------------------------------------------------------------------------------------
// strconv
// ---------------------------------------------------------------------------------------------

const syntaxError = (fn: string, s: string): string => `strconv.${fn}: parsing ${goQuote(s)}: invalid syntax`
const rangeError = (fn: string, s: string): string => `strconv.${fn}: parsing ${goQuote(s)}: value out of range`

const MAX_UINT32 = 0xffffffffn
const MAX_UINT64 = 0xffffffffffffffffn

// strconv.ParseUint base 10: stops at the first bad byte (syntax) or at the first digit that
// overflows (range), whichever comes first, exactly like Go's loop.
const parseUintCore = (s: string, bitSize: 32 | 64): bigint | "syntax" | "range" => {
  if (s.length === 0) return "syntax"
  const max = bitSize === 32 ? MAX_UINT32 : MAX_UINT64
  if (s.length < 10) {
    let n = 0
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c < 48 || c > 57) return "syntax"
      n = n * 10 + (c - 48)
    }
    return BigInt(n)
  }
  let n = 0n
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return "syntax"
    n = n * 10n + BigInt(c - 48)
    if (n > max) return "range"
  }
  return n
}

/** Go's `strconv.ParseUint(s, 10, bitSize)`: the value or the error text. */
export const parseUint = (s: string, bitSize: 32 | 64): bigint | { readonly error: string } => {
  const n = parseUintCore(s, bitSize)
  if (n === "syntax") return { error: syntaxError("ParseUint", s) }
  if (n === "range") return { error: rangeError("ParseUint", s) }
  return n
}

/** Go's `strconv.ParseInt(s, 10, bitSize)`: the value or the error text. */
export const parseInt64 = (s: string, bitSize: 32 | 64): bigint | { readonly error: string } => {
  if (s.length === 0) return { error: syntaxError("ParseInt", s) }
  const sign = s.charCodeAt(0)
  const neg = sign === 45
  const un = parseUintCore(sign === 43 || neg ? s.slice(1) : s, bitSize)
  if (un === "syntax") return { error: syntaxError("ParseInt", s) }
  const cutoff = bitSize === 32 ? 0x80000000n : 0x8000000000000000n
  if (un === "range" || (!neg && un >= cutoff) || (neg && un > cutoff)) return { error: rangeError("ParseInt", s) }
  return neg ? -un : un
}

/** Go's `strconv.ParseBool`. */
export const parseBool = (s: string): boolean | { readonly error: string } => {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "true":
    case "TRUE":
    case "True":
      return true
    case "0":
    case "f":
    case "F":
    case "false":
    case "FALSE":
    case "False":
      return false
  }
  return { error: syntaxError("ParseBool", s) }
}

/**
 * grpc-gateway v2.9.0 runtime/query.go: an enum value is looked up by name, then (when it is an
 * integer to strconv.Atoi) by number; anything else is `"x" is not a valid value`.
 */
const parseEnum = (values: Readonly<Record<string, number>>, s: string): number | { readonly error: string } => {
  const text = bytesToText(s)
  const invalid = { error: `${goQuote(s)} is not a valid value` }
  if (Object.prototype.hasOwnProperty.call(values, text)) return values[text]
  if (!/^[+-]?\d+$/.test(text)) return invalid
  const n = Number(text)
  return Object.values(values).includes(n) && Number.isSafeInteger(n) ? n : invalid
}

const parseValue = (spec: ParamSpec, s: string): ParamValue | { readonly error: string } => {
  const type: ParamType = spec.type
  switch (type) {
    case "enum":
      return parseEnum(spec.enumValues ?? {}, s)
    case "string":
      return bytesToText(s)
    case "bool":
      return parseBool(s)
    case "int32": {
      const n = parseInt64(s, 32)
      return typeof n === "bigint" ? Number(n) : n
    }
    case "uint32": {
      const n = parseUint(s, 32)
      return typeof n === "bigint" ? Number(n) : n
    }
    case "int64":
      return parseInt64(s, 64)
    case "uint64":
      return parseUint(s, 64)
  }
}

// ---------------------------------------------------------------------------------------------
// grpc-gateway PopulateQueryParameters
// ---------------------------------------------------------------------------------------------

interface Field {
  /** The proto name of this segment, used in error texts. */
  readonly protoName: string
  /** Set on scalar fields. */
  readonly spec: ParamSpec | undefined
  /** Set on message fields. */
  readonly message: Message | undefined
}

interface Message {
  readonly byProtoName: Map<string, Field>
  readonly byJsonName: Map<string, Field>
}

/**
 * A route's query parameters, prepared for {@link parseQuery}.
 */
export interface CompiledParams {
  readonly root: Message
  /** Proto names of the path parameters: query keys starting with one of them are skipped. */
  readonly filter: ReadonlySet<string>
}

const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const newMessage = (): Message => ({ byProtoName: new Map(), byJsonName: new Map() })

const addSpec = (root: Message, spec: ParamSpec): void => {
  const json = spec.path.split(".")
  const proto = spec.protoPath.split(".")
  let message = root
  for (let i = 0; i < json.length; i++) {
    const last = i === json.length - 1
    let field = message.byProtoName.get(proto[i])
    if (field === undefined || (!last && field.message === undefined)) {
      field = { protoName: proto[i], spec: last ? spec : undefined, message: last ? undefined : newMessage() }
      message.byProtoName.set(proto[i], field)
      message.byJsonName.set(json[i], field)
    }
    if (!last) message = field.message!
  }
}

/**
 * Prepares a route's query parameters. `pathParams` are the names (lowerCamel) of the route's
 * path parameters: as in the generated gateway code, a query key naming one by its proto name is
 * skipped, while one naming it by its JSON name is parsed as a string (and then overrides the path
 * value, see the gateway).
 */
export const compileParams = (
  specs: ReadonlyArray<ParamSpec>,
  pathParams: ReadonlyArray<string> = []
): CompiledParams => {
  const root = newMessage()
  for (const spec of specs) addSpec(root, spec)
  const filter = new Set<string>()
  for (const name of pathParams) {
    const protoPath = snake(name)
    filter.add(protoPath)
    if (!root.byProtoName.has(protoPath)) addSpec(root, { path: name, protoPath, type: "string", repeated: false })
  }
  return { root, filter }
}

const compiledCache = new WeakMap<ReadonlyArray<ParamSpec>, CompiledParams>()

/** Parsed query parameters keyed by lowerCamel dotted path; repeated parameters map to arrays. */
export type Query = Map<string, ParamValue | Array<ParamValue>>

// Map fields are written `key[mapKey]=value`; grpc-gateway rewrites them before the lookup.
const MAP_KEY = /^(.*)\[(.*)\]$/

/**
 * Populates the query parameters from Go's decoded query values, as grpc-gateway v2.9.0 does; the
 * error text (a byte string) on failure. Keys are visited in order of first appearance (Go visits
 * them in map order, which is random, so which of several errors wins is not fixed there).
 */
export const populate = (
  values: ReadonlyMap<string, ReadonlyArray<string>>,
  params: CompiledParams
): Query | string => {
  const query: Query = new Map()
  for (const [rawKey, rawValues] of values) {
    let key = rawKey
    let list = rawValues
    const match = key.includes("[") ? MAP_KEY.exec(key) : null
    if (match !== null) {
      key = match[1]
      list = [match[2], ...rawValues]
    }
    const segments = key.split(".")
    if (params.filter.has(segments[0])) continue
    let message = params.root
    let field: Field | undefined
    for (let i = 0; i < segments.length; i++) {
      field = message.byProtoName.get(segments[i]) ?? message.byJsonName.get(segments[i])
      if (field === undefined) break
      if (i === segments.length - 1) break
      if (field.message === undefined) return `invalid path: ${goQuote(segments[i])} is not a message`
      message = field.message
    }
    // unknown field, or a message field given a value: not populated
    const spec = field?.spec
    if (spec === undefined) continue
    if (spec.repeated) {
      const existing = query.get(spec.path)
      const out: Array<ParamValue> = Array.isArray(existing) ? existing : []
      for (const raw of list) {
        const value = parseValue(spec, raw)
        if (typeof value === "object") return value.error
        out.push(value)
      }
      query.set(spec.path, out)
    } else {
      if (list.length > 1) return `too many values for field ${goQuote(field!.protoName)}: ${list.join(", ")}`
      const value = parseValue(spec, list[0])
      if (typeof value === "object") return value.error
      query.set(spec.path, value)
    }
  }
  return query
}

/**
 * Parses a raw query string (the bytes after `?`) for a route with these parameters, as the data
 * node's gateway does: `Right` with the parsed values, or `Left` with the gateway's error text
 * (sent as `{"code":3,"message":…,"details":[]}`).
 */
export const parseQuery = (
  rawQuery: string,
  specs: ReadonlyArray<ParamSpec> | CompiledParams
): Either.Either<Query, string> => {
  let params: CompiledParams
  if ("root" in specs) {
    params = specs
  } else {
    params = compiledCache.get(specs) ?? compileParams(specs)
    compiledCache.set(specs, params)
  }
  const raw = parseRawQuery(rawQuery)
  return populateRaw(raw, params)
}

/** {@link parseQuery} on an already split query. */
export const populateRaw = (raw: RawQuery, params: CompiledParams): Either.Either<Query, string> => {
  if (raw.error !== undefined) return Either.left(bytesToText(raw.error))
  const result = populate(raw.values, params)
  return typeof result === "string" ? Either.left(bytesToText(result)) : Either.right(result)
}
