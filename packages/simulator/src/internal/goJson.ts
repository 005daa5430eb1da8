/**
 * What cursors need of Go's encoding/json and encoding/base64: marshalling strings the way Go
 * does (HTML-safe escapes), and strict standard base64 decoding with Go's error texts.
 */

/** A JSON string literal as Go's `json.Marshal` writes it (`<`, `>`, `&`, U+2028 and U+2029 escaped). */
export const goString = (s: string): string =>
  JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const DECODE = new Int16Array(256).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

/** Standard base64 with padding. */
export const base64 = (text: string): string => Buffer.from(text, "utf8").toString("base64")

/**
 * Decodes standard padded base64 like Go's `base64.StdEncoding.DecodeString`: the text, or the
 * error `illegal base64 data at input byte N`. Go skips `\r` and `\n`.
 */
export const decodeBase64 = (input: string): { readonly text: string } | { readonly error: string } => {
  const bytes: Array<number> = []
  const illegal = (at: number) => ({ error: `illegal base64 data at input byte ${at}` })
  let i = 0
  const n = input.length
  // Read quanta of 4 characters, honouring padding the way Go's decodeQuantum does.
  while (i < n) {
    const quantum: Array<number> = []
    let j = 0
    while (j < 4) {
      if (i === n) {
        if (j === 0) return { text: Buffer.from(bytes).toString("utf8") }
        return illegal(i - j)
      }
      const ch = input.charCodeAt(i)
      const at = i
      i++
      if (ch === 0x0a || ch === 0x0d) continue
      if (ch === 0x3d /* = */) {
        // padding: only allowed at positions 2 or 3 of a quantum
        if (j === 0 || j === 1) return illegal(at)
        if (j === 2) {
          // expect a second '='
          while (i < n && (input.charCodeAt(i) === 0x0a || input.charCodeAt(i) === 0x0d)) i++
          if (i === n) return illegal(n)
          if (input.charCodeAt(i) !== 0x3d) return illegal(i - 1)
          i++
        }
        while (i < n && (input.charCodeAt(i) === 0x0a || input.charCodeAt(i) === 0x0d)) i++
        if (i < n) return illegal(i)
        return finish(bytes, quantum, j)
      }
      const value = ch < 256 ? DECODE[ch] : -1
      if (value < 0) return illegal(at)
      quantum.push(value)
      j++
    }
    bytes.push(
      ((quantum[0] << 2) | (quantum[1] >> 4)) & 0xff,
      ((quantum[1] << 4) | (quantum[2] >> 2)) & 0xff,
      ((quantum[2] << 6) | quantum[3]) & 0xff
    )
  }
  return { text: Buffer.from(bytes).toString("utf8") }
}

const finish = (bytes: Array<number>, quantum: ReadonlyArray<number>, count: number) => {
  if (count >= 2) bytes.push(((quantum[0] << 2) | (quantum[1] >> 4)) & 0xff)
  if (count >= 3) bytes.push(((quantum[1] << 4) | (quantum[2] >> 2)) & 0xff)
  return { text: Buffer.from(bytes).toString("utf8") }
}

/**
 * A `float` proto field as the gateway's jsonpb writes it: Go's `strconv.FormatFloat(f, 'g', -1,
 * 32)`, the shortest digits that read back as the same float32, in exponent form below 1e-4 or
 * from 1e6 (NaN and infinities, quoted by jsonpb, are not handled).
 */
export const goFloat32 = (value: number): string => {
  const f = Math.fround(value)
  if (f === 0) return Object.is(f, -0) ? "-0" : "0"
  let digits = f.toPrecision(9)
  for (let p = 1; p <= 9; p++) {
    const candidate = f.toPrecision(p)
    if (Math.fround(Number(candidate)) === f) {
      digits = candidate
      break
    }
  }
  const [mantissa, exponent] = Number(digits).toExponential().split("e")
  const exp = Number(exponent)
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`
  return String(Number(digits))
}
