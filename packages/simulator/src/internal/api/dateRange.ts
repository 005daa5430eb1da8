/**
 * The `dateRange` of list requests (entities/date_range.go, v0.75.8): unix nanoseconds, start
 * inclusive and end exclusive. Stores compare them as `timestamptz`, so a bound is cut to whole
 * microseconds first, as pgx encodes a `time.Time`; the ledger cuts them to whole seconds (see
 * ledger.ts).
 */
import type { Params } from "../route.js"
import { int64 } from "./params.js"

export interface DateRange {
  /** Unix nanoseconds. */
  readonly start: bigint | undefined
  readonly end: bigint | undefined
}

/** The `<prefix>.startTimestamp` and `<prefix>.endTimestamp` parameters (orders nest it in `filter.`). */
export const dateRange = (params: Params, prefix = "dateRange"): DateRange => ({
  start: int64(params, `${prefix}.startTimestamp`),
  end: int64(params, `${prefix}.endTimestamp`)
})

/** A nanosecond bound as the microseconds Postgres compares (pgx truncates toward minus infinity). */
export const toMicros = (nanos: bigint): number => {
  const q = nanos / 1000n
  return Number(nanos < 0n && q * 1000n !== nanos ? q - 1n : q)
}

/** Whether a time in microseconds is inside the range. */
export const inRange = (range: DateRange, micros: number): boolean =>
  (range.start === undefined || micros >= toMicros(range.start)) &&
  (range.end === undefined || micros < toMicros(range.end))

const MINIMUM = BigInt(Date.UTC(2020, 0, 1)) * 1_000_000n
const ONE_YEAR = 365n * 86_400n * 1_000_000_000n

/**
 * `DateRange.Validate`: the error text, or undefined. `now` (unix nanoseconds) stands for
 * `time.Now()`; the simulated node takes the block time it has reached.
 */
export const validate = (range: DateRange, required: boolean, now: bigint): string | undefined => {
  const { start, end } = range
  if (start === undefined && end === undefined) {
    return required ? "invalid date range, date range is required" : undefined
  }
  if ((start !== undefined && start < MINIMUM) || (end !== undefined && end < MINIMUM)) {
    return "date range start must be after 2020-01-01"
  }
  if (start !== undefined && end !== undefined && start > end) return "date range start must be before end"
  if ((end ?? now) - (start ?? MINIMUM) > ONE_YEAR) return "date range is too long"
  return undefined
}
