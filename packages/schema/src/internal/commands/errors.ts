/**
 * The node's `commands.Errors` (vega `commands/errors.go`): a map from property to the errors
 * added for it, in insertion order. `Error()` formats each property as `<property> (<e1>, <e2>)`,
 * sorts those strings and joins them with `, `.
 */

/** Property → messages, in the order the node adds them. */
export type ErrorMap = { readonly [property: string]: ReadonlyArray<string> }

export class ErrorsBuilder {
  private readonly entries = new Map<string, Array<string>>()

  add(property: string, message: string): void {
    const messages = this.entries.get(property)
    if (messages === undefined) this.entries.set(property, [message])
    else messages.push(message)
  }

  get isEmpty(): boolean {
    return this.entries.size === 0
  }

  toMap(): ErrorMap {
    const out: Record<string, ReadonlyArray<string>> = {}
    for (const [property, messages] of this.entries) out[property] = [...messages]
    return out
  }
}

// Go's sort.Strings compares UTF-8 bytes, which orders like code points (not like UTF-16 units).
const compareCodePoints = (a: string, b: string): number => {
  const ai = a[Symbol.iterator]()
  const bi = b[Symbol.iterator]()
  for (;;) {
    const x = ai.next()
    const y = bi.next()
    if (x.done === true) return y.done === true ? 0 : -1
    if (y.done === true) return 1
    const cx = x.value.codePointAt(0)!
    const cy = y.value.codePointAt(0)!
    if (cx !== cy) return cx < cy ? -1 : 1
  }
}

/** The node's error string: `a.b (e1, e2), a.c (e3)`. */
export const formatErrors = (errors: ErrorMap): string =>
  Object.keys(errors)
    .map((property) => `${property} (${errors[property].join(", ")})`)
    .sort(compareCodePoints)
    .join(", ")

/** Length in UTF-8 bytes, which is what Go's `len(string)` measures. */
export const utf8Length = (s: string): number => {
  let n = 0
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
  }
  return n
}
