/**
 * Times as the data node handles them. The world keeps times in unix microseconds (Postgres
 * `timestamptz` precision); the API writes them as unix nanoseconds (ending in `000`) and cursors
 * hold Go's `time.Time` JSON form: RFC 3339 with the fraction's trailing zeros trimmed.
 */

/** Unix microseconds → unix nanoseconds as a decimal string. */
export const microsToNanos = (micros: number): string => (micros === 0 ? "0" : `${micros}000`)

/**
 * Unix nanoseconds → unix microseconds, truncated towards the past, as pgx writes a Go time with
 * nanoseconds to a Postgres `timestamptz`.
 */
export const nanosToMicros = (nanos: bigint): number => {
  const q = nanos / 1000n
  return Number(nanos < 0n && q * 1000n !== nanos ? q - 1n : q)
}

/** Unix microseconds → Go `time.Time.MarshalJSON` text (UTC), e.g. `2024-03-01T12:00:00.123456Z`. */
export const microsToRfc3339 = (micros: number): string => {
  const millis = Math.floor(micros / 1000)
  const iso = new Date(millis).toISOString() // 2024-03-01T12:00:00.123Z
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "")
  return `${iso.slice(0, 19)}${fraction === "" ? "" : `.${fraction}`}Z`
}

/**
 * Unix microseconds → Postgres's text of a `timestamptz` in a UTC session, as `COPY … (FORMAT csv)`
 * writes it: `2024-03-01 12:00:00.123456+00`, the fraction's trailing zeros trimmed.
 */
export const microsToPostgresText = (micros: number): string =>
  microsToRfc3339(micros).replace("T", " ").replace(/Z$/, "+00")

/** Go `time.Time` JSON text → unix microseconds, or undefined when it is not RFC 3339. */
export const rfc3339ToMicros = (text: string): number | undefined => {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text)
  if (match === null) return undefined
  const seconds = Date.parse(`${match[1]}${match[3]}`)
  if (Number.isNaN(seconds)) return undefined
  const fraction = (match[2] ?? "").padEnd(9, "0")
  return seconds * 1000 + Math.floor(Number(fraction) / 1000)
}
