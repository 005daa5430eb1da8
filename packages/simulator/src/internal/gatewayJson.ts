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

/**
 * Re-indents compact JSON the way the node's `?pretty` marshaller (golang/protobuf jsonpb with a
 * one-space indent) writes it: `"key": value`, one space per level, and jsonpb's quirk for empty
 * lists, which still get a line break (`"details": [\n ]`). Strings and numbers are copied as
 * they are.
 */
export const prettyJson = (text: string): string => {
  let out = ""
  let depth = 0
  const n = text.length
  let i = 0
  const nextNonSpace = (from: number): number => {
    let j = from
    while (j < n && isWhitespace(text.charCodeAt(j))) j++
    return j
  }
  while (i < n) {
    const c = text.charCodeAt(i)
    switch (c) {
      case 0x22: {
        let j = i + 1
        for (;;) {
          j = text.indexOf('"', j)
          if (j === -1) {
            j = n - 1
            break
          }
          let backslashes = 0
          while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++
          if (backslashes % 2 === 0) break
          j++
        }
        out += text.slice(i, j + 1)
        i = j + 1
        break
      }
      case 0x7b: {
        const j = nextNonSpace(i + 1)
        if (text.charCodeAt(j) === 0x7d) {
          // an empty message is written `{}` here; jsonpb's exact form for it is unverified
          out += "{}"
          i = j + 1
        } else {
          depth++
          out += "{\n" + indent(depth)
          i++
        }
        break
      }
      case 0x5b: {
        const j = nextNonSpace(i + 1)
        if (text.charCodeAt(j) === 0x5d) {
          out += "[\n" + indent(depth) + "]"
          i = j + 1
        } else {
          depth++
          out += "[\n" + indent(depth)
          i++
        }
        break
      }
      case 0x7d:
      case 0x5d:
        depth--
        out += "\n" + indent(depth) + text[i]
        i++
        break
      case 0x2c:
        out += ",\n" + indent(depth)
        i++
        break
      case 0x3a:
        out += ": "
        i++
        break
      default: {
        if (isWhitespace(c)) {
          i++
          break
        }
        let j = i + 1
        while (j < n) {
          const d = text.charCodeAt(j)
          if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x3a || isWhitespace(d)) break
          j++
        }
        out += text.slice(i, j)
        i = j
      }
    }
  }
  return out
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

/**
 * Scans the first JSON value of a body the way Go's `json.Decoder` does, with its error texts
 * (`invalid character 'x' looking for beginning of value`, `unexpected EOF`). Bytes after the
 * first value are ignored, as the Decoder ignores them; an empty or blank body is `Empty`
 * (`io.EOF`, which the gateway treats as an empty request).
 */
export const scanJsonBody = (buf: Uint8Array): BodyScan => {
  const n = buf.length
  const invalid = (i: number, context: string): Failure =>
    i >= n ? UNEXPECTED_EOF : new Failure(`invalid character ${quoteChar(buf[i])} ${context}`)
  const skip = (i: number): number => {
    while (i < n && isWhitespace(buf[i])) i++
    return i
  }
  const isDigit = (i: number): boolean => i < n && buf[i] >= 0x30 && buf[i] <= 0x39
  const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
  const literal = (i: number, word: string): number => {
    for (let k = 1; k < word.length; k++) {
      if (i + k >= n) throw UNEXPECTED_EOF
      if (buf[i + k] !== word.charCodeAt(k)) throw invalid(i + k, `in literal ${word} (expecting '${word[k]}')`)
    }
    return i + word.length
  }
  const string = (start: number): number => {
    let i = start + 1
    for (;;) {
      if (i >= n) throw UNEXPECTED_EOF
      const c = buf[i]
      if (c === 0x22) return i + 1
      if (c === 0x5c) {
        i++
        if (i >= n) throw UNEXPECTED_EOF
        const e = buf[i]
        if (e === 0x75) {
          for (let k = 1; k <= 4; k++) {
            if (i + k >= n) throw UNEXPECTED_EOF
            if (!isHex(buf[i + k])) throw invalid(i + k, "in \\u hexadecimal character escape")
          }
          i += 5
        } else if (
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74 ||
          e === 0x5c ||
          e === 0x2f ||
          e === 0x22
        ) {
          i++
        } else {
          throw invalid(i, "in string escape code")
        }
      } else if (c < 0x20) {
        throw invalid(i, "in string literal")
      } else {
        i++
      }
    }
  }
  const number = (start: number): number => {
    let i = start
    if (buf[i] === 0x2d) {
      i++
      if (i >= n) throw UNEXPECTED_EOF
      if (!isDigit(i)) throw invalid(i, "in numeric literal")
    }
    if (buf[i] === 0x30) i++
    else while (isDigit(i)) i++
    if (i < n && buf[i] === 0x2e) {
      i++
      if (i >= n) throw UNEXPECTED_EOF
      if (!isDigit(i)) throw invalid(i, "after decimal point in numeric literal")
      while (isDigit(i)) i++
    }
    if (i < n && (buf[i] === 0x65 || buf[i] === 0x45)) {
      i++
      if (i < n && (buf[i] === 0x2b || buf[i] === 0x2d)) i++
      if (i >= n) throw UNEXPECTED_EOF
      if (!isDigit(i)) throw invalid(i, "in exponent of numeric literal")
      while (isDigit(i)) i++
    }
    return i
  }
  const value = (start: number, depth: number): number => {
    const i = skip(start)
    if (i >= n) throw UNEXPECTED_EOF
    const c = buf[i]
    if (c === 0x7b) {
      if (depth >= MAX_DEPTH) throw invalid(i, "exceeded max depth")
      let j = skip(i + 1)
      if (j < n && buf[j] === 0x7d) return j + 1
      for (;;) {
        j = skip(j)
        if (j >= n) throw UNEXPECTED_EOF
        if (buf[j] !== 0x22) throw invalid(j, "looking for beginning of object key string")
        j = skip(string(j))
        if (j >= n) throw UNEXPECTED_EOF
        if (buf[j] !== 0x3a) throw invalid(j, "after object key")
        j = skip(value(j + 1, depth + 1))
        if (j >= n) throw UNEXPECTED_EOF
        if (buf[j] === 0x7d) return j + 1
        if (buf[j] !== 0x2c) throw invalid(j, "after object key:value pair")
        j++
      }
    }
    if (c === 0x5b) {
      if (depth >= MAX_DEPTH) throw invalid(i, "exceeded max depth")
      let j = skip(i + 1)
      if (j < n && buf[j] === 0x5d) return j + 1
      for (;;) {
        j = skip(value(j, depth + 1))
        if (j >= n) throw UNEXPECTED_EOF
        if (buf[j] === 0x5d) return j + 1
        if (buf[j] !== 0x2c) throw invalid(j, "after array element")
        j++
      }
    }
    if (c === 0x22) return string(i)
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number(i)
    if (c === 0x74) return literal(i, "true")
    if (c === 0x66) return literal(i, "false")
    if (c === 0x6e) return literal(i, "null")
    throw invalid(i, "looking for beginning of value")
  }
  const first = skip(0)
  if (first >= n) return { _tag: "Empty" }
  try {
    return { _tag: "Value", end: value(first, 0) }
  } catch (e) {
    if (e instanceof Failure) return { _tag: "Error", message: e.message }
    throw e
  }
}
