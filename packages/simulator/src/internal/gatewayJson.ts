/**
 * The JSON text the gateway itself writes and reads: error bodies, `?pretty` indentation as
 * golang/protobuf's jsonpb does it, and Go's `encoding/json` syntax errors for request bodies.
 */
import { GatewayError } from "@vega-effect/schema"
import * as Schema from "effect/Schema"

const encodeErrorBody = Schema.encodeSync(GatewayError.ErrorBody)

// Go's json.Marshal (which jsonpb uses for strings) escapes these; they only occur inside strings.
const HTML_UNSAFE = /[<>&\u2028\u2029]/g

/** Compact JSON with Go's HTML-safe escapes: `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX`. */
export const goSafe = (json: string): string =>
  json.replace(HTML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** An error body as the gateway writes it (compact, Go's HTML-safe string escapes). */
export const errorBodyText = (body: GatewayError.ErrorBody): string => goSafe(JSON.stringify(encodeErrorBody(body)))

/** A gateway error body (`details: []`) for a gRPC code and message. */
export const gatewayErrorText = (code: GatewayError.GrpcCode, message: string): string =>
  errorBodyText(GatewayError.gatewayError(code, message))

const indents: Array<string> = [""]
const indent = (depth: number): string => {
  while (indents.length <= depth) indents.push(indents[indents.length - 1] + " ")
  return indents[depth]
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

const nextNonSpace = (text: string, from: number): number => {
  let j = from
  while (j < text.length && isWhitespace(text.charCodeAt(j))) j++
  return j
}

/** The end (exclusive) of the string starting at `i`: after its closing quote, or the end of the text. */
const stringEnd = (text: string, i: number): number => {
  let j = i + 1
  for (;;) {
    j = text.indexOf('"', j)
    if (j === -1) return text.length
    let backslashes = 0
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return j + 1
    j++
  }
}

/** The end (exclusive) of the number or literal starting at `i`. */
const bareEnd = (text: string, i: number): number => {
  let j = i + 1
  while (j < text.length) {
    const d = text.charCodeAt(j)
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === COLON || isWhitespace(d)) break
    j++
  }
  return j
}

interface Printed {
  out: string
  depth: number
}

/** Writes the `{` or `[` at `i`, or the empty object or list it starts; the index after what was read. */
const openContainer = (p: Printed, text: string, i: number): number => {
  const close = text.charCodeAt(i) === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET
  const j = nextNonSpace(text, i + 1)
  if (text.charCodeAt(j) === close) {
    // an empty message is written `{}` here; jsonpb's exact form for it is unverified
    p.out += close === CLOSE_BRACE ? "{}" : "[\n" + indent(p.depth) + "]"
    return j + 1
  }
  p.depth++
  p.out += text[i] + "\n" + indent(p.depth)
  return i + 1
}

/**
 * Re-indents compact JSON the way the node's `?pretty` marshaller (golang/protobuf jsonpb with a
 * one-space indent) writes it: `"key": value`, one space per level, and jsonpb's quirk for empty
 * lists, which still get a line break (`"details": [\n ]`). Strings and numbers are copied as
 * they are.
 */
export const prettyJson = (text: string): string => {
  const p: Printed = { out: "", depth: 0 }
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      p.out += text.slice(i, end)
      i = end
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      i = openContainer(p, text, i)
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      p.depth--
      p.out += "\n" + indent(p.depth) + text[i++]
    } else if (c === COMMA) {
      p.out += ",\n" + indent(p.depth)
      i++
    } else if (c === COLON) {
      p.out += ": "
      i++
    } else if (isWhitespace(c)) {
      i++
    } else {
      const end = bareEnd(text, i)
      p.out += text.slice(i, end)
      i = end
    }
  }
  return p.out
}

// ---------------------------------------------------------------------------------------------
// encoding/json Decoder syntax check
// ---------------------------------------------------------------------------------------------

/** What Go's `json.Decoder.Decode` makes of a request body. */
export type BodyScan =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Value"; readonly end: number }
  | { readonly _tag: "Error"; readonly message: string }

class Failure {
  constructor(readonly message: string) {}
}

const UNEXPECTED_EOF = new Failure("unexpected EOF")
const MAX_DEPTH = 10000

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u

// encoding/json quoteChar: the byte as a Latin-1 rune, quoted with strconv.Quote in single quotes.
const quoteChar = (c: number): string => {
  if (c === 0x27) return "'\\''"
  if (c === 0x22) return "'\"'"
  const ch = String.fromCharCode(c)
  if (c === 0x5c) return "'\\\\'"
  if (PRINTABLE.test(ch)) return `'${ch}'`
  const named: Record<number, string> = { 7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v" }
  if (named[c] !== undefined) return `'\\${named[c]}'`
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, "0")}'`
  return `'\\u${c.toString(16).padStart(4, "0")}'`
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/** The one-letter escapes after a backslash: `b f n r t \\ / "`. */
const SIMPLE_ESCAPES = new Set([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22])

/** encoding/json's scanner over one body: each method returns the index after what it read, or throws a {@link Failure}. */
class Scanner {
  private readonly n: number

  constructor(private readonly buf: Uint8Array) {
    this.n = buf.length
  }

  private invalid(i: number, context: string): Failure {
    return i >= this.n ? UNEXPECTED_EOF : new Failure(`invalid character ${quoteChar(this.buf[i])} ${context}`)
  }

  skip(i: number): number {
    while (i < this.n && isWhitespace(this.buf[i])) i++
    return i
  }

  private isDigit(i: number): boolean {
    return i < this.n && this.buf[i] >= 0x30 && this.buf[i] <= 0x39
  }

  private literal(i: number, word: string): number {
    for (let k = 1; k < word.length; k++) {
      if (i + k >= this.n) throw UNEXPECTED_EOF
      if (this.buf[i + k] !== word.charCodeAt(k))
        throw this.invalid(i + k, `in literal ${word} (expecting '${word[k]}')`)
    }
    return i + word.length
  }

  /** The escape after the backslash at `i - 1`. */
  private escape(i: number): number {
    if (i >= this.n) throw UNEXPECTED_EOF
    const e = this.buf[i]
    if (SIMPLE_ESCAPES.has(e)) return i + 1
    if (e !== 0x75) throw this.invalid(i, "in string escape code")
    for (let k = 1; k <= 4; k++) {
      if (i + k >= this.n) throw UNEXPECTED_EOF
      if (!isHex(this.buf[i + k])) throw this.invalid(i + k, "in \\u hexadecimal character escape")
    }
    return i + 5
  }

  private string(start: number): number {
    let i = start + 1
    for (;;) {
      if (i >= this.n) throw UNEXPECTED_EOF
      const c = this.buf[i]
      if (c === 0x22) return i + 1
      if (c === 0x5c) i = this.escape(i + 1)
      else if (c < 0x20) throw this.invalid(i, "in string literal")
      else i++
    }
  }

  private digits(i: number, context: string): number {
    if (i >= this.n) throw UNEXPECTED_EOF
    if (!this.isDigit(i)) throw this.invalid(i, context)
    while (this.isDigit(i)) i++
    return i
  }

  private number(start: number): number {
    let i = start
    if (this.buf[i] === 0x2d) {
      i++
      if (i >= this.n) throw UNEXPECTED_EOF
      if (!this.isDigit(i)) throw this.invalid(i, "in numeric literal")
    }
    if (this.buf[i] === 0x30) i++
    else while (this.isDigit(i)) i++
    if (i < this.n && this.buf[i] === 0x2e) i = this.digits(i + 1, "after decimal point in numeric literal")
    if (i < this.n && (this.buf[i] === 0x65 || this.buf[i] === 0x45)) {
      i++
      if (i < this.n && (this.buf[i] === 0x2b || this.buf[i] === 0x2d)) i++
      i = this.digits(i, "in exponent of numeric literal")
    }
    return i
  }

  private object(i: number, depth: number): number {
    if (depth >= MAX_DEPTH) throw this.invalid(i, "exceeded max depth")
    let j = this.skip(i + 1)
    if (j < this.n && this.buf[j] === 0x7d) return j + 1
    for (;;) {
      j = this.skip(j)
      if (j >= this.n) throw UNEXPECTED_EOF
      if (this.buf[j] !== 0x22) throw this.invalid(j, "looking for beginning of object key string")
      j = this.skip(this.string(j))
      if (j >= this.n) throw UNEXPECTED_EOF
      if (this.buf[j] !== 0x3a) throw this.invalid(j, "after object key")
      j = this.skip(this.value(j + 1, depth + 1))
      if (j >= this.n) throw UNEXPECTED_EOF
      if (this.buf[j] === 0x7d) return j + 1
      if (this.buf[j] !== 0x2c) throw this.invalid(j, "after object key:value pair")
      j++
    }
  }

  private array(i: number, depth: number): number {
    if (depth >= MAX_DEPTH) throw this.invalid(i, "exceeded max depth")
    let j = this.skip(i + 1)
    if (j < this.n && this.buf[j] === 0x5d) return j + 1
    for (;;) {
      j = this.skip(this.value(j, depth + 1))
      if (j >= this.n) throw UNEXPECTED_EOF
      if (this.buf[j] === 0x5d) return j + 1
      if (this.buf[j] !== 0x2c) throw this.invalid(j, "after array element")
      j++
    }
  }

  value(start: number, depth: number): number {
    const i = this.skip(start)
    if (i >= this.n) throw UNEXPECTED_EOF
    const c = this.buf[i]
    if (c === 0x7b) return this.object(i, depth)
    if (c === 0x5b) return this.array(i, depth)
    if (c === 0x22) return this.string(i)
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number(i)
    if (c === 0x74) return this.literal(i, "true")
    if (c === 0x66) return this.literal(i, "false")
    if (c === 0x6e) return this.literal(i, "null")
    throw this.invalid(i, "looking for beginning of value")
  }
}

/**
 * Scans the first JSON value of a body the way Go's `json.Decoder` does, with its error texts
 * (`invalid character 'x' looking for beginning of value`, `unexpected EOF`). Bytes after the
 * first value are ignored, as the Decoder ignores them; an empty or blank body is `Empty`
 * (`io.EOF`, which the gateway treats as an empty request).
 */
export const scanJsonBody = (buf: Uint8Array): BodyScan => {
  const scanner = new Scanner(buf)
  const first = scanner.skip(0)
  if (first >= buf.length) return { _tag: "Empty" }
  try {
    return { _tag: "Value", end: scanner.value(first, 0) }
  } catch (e) {
    if (e instanceof Failure) return { _tag: "Error", message: e.message }
    throw e
  }
}
