/**
 * Reading parsed query parameters (see the gateway) in a handler.
 */
import type { PaginationInput } from "../paging.js"
import type { ParamValue, Params } from "../route.js"

export const str = (params: Params, path: string): string | undefined => {
  const value = params.query.get(path)
  return typeof value === "string" ? value : undefined
}

export const bool = (params: Params, path: string): boolean | undefined => {
  const value = params.query.get(path)
  return typeof value === "boolean" ? value : undefined
}

export const int = (params: Params, path: string): number | undefined => {
  const value = params.query.get(path)
  return typeof value === "number" ? value : undefined
}

/** A 64-bit parameter (`int64` or `uint64`). */
export const uint64 = (params: Params, path: string): bigint | undefined => {
  const value = params.query.get(path)
  return typeof value === "bigint" ? value : undefined
}

export const strings = (params: Params, path: string): ReadonlyArray<string> => {
  const value = params.query.get(path)
  if (value === undefined) return []
  const list: ReadonlyArray<ParamValue> = Array.isArray(value) ? value : [value as ParamValue]
  return list.filter((v): v is string => typeof v === "string")
}

/** The `pagination.*` parameters. */
export const pagination = (params: Params): PaginationInput => {
  const input: { -readonly [K in keyof PaginationInput]: PaginationInput[K] } = {}
  const first = int(params, "pagination.first")
  const after = str(params, "pagination.after")
  const last = int(params, "pagination.last")
  const before = str(params, "pagination.before")
  const newestFirst = bool(params, "pagination.newestFirst")
  if (first !== undefined) input.first = first
  if (after !== undefined) input.after = after
  if (last !== undefined) input.last = last
  if (before !== undefined) input.before = before
  if (newestFirst !== undefined) input.newestFirst = newestFirst
  return input
}

/** A `DateRange` filter's bounds, unix microseconds (absent bounds undefined). */
export interface DateRangeMicros {
  readonly start: bigint | undefined
  readonly end: bigint | undefined
}

/** Unix nanoseconds as whole microseconds, rounded down (pgx sends a time to Postgres so). */
const floorMicros = (nanos: bigint): bigint => {
  const q = nanos / 1000n
  return nanos % 1000n < 0n ? q - 1n : q
}

/**
 * The `<prefix>.startTimestamp` and `<prefix>.endTimestamp` parameters (unix nanoseconds) as the
 * store compares them with its microsecond columns (`DateRangeFromProto`, then pgx's timestamptz
 * encoding, which drops what is below a microsecond).
 */
export const dateRange = (params: Params, prefix: string): DateRangeMicros => {
  const start = uint64(params, `${prefix}.startTimestamp`)
  const end = uint64(params, `${prefix}.endTimestamp`)
  return {
    start: start === undefined ? undefined : floorMicros(start),
    end: end === undefined ? undefined : floorMicros(end)
  }
}

/** `filterDateRange` (sqlstore/utils.go, v0.75.8): the start is inclusive, the end exclusive. */
export const inDateRange = (micros: number, range: DateRangeMicros): boolean => {
  const t = BigInt(micros)
  return (range.start === undefined || t >= range.start) && (range.end === undefined || t < range.end)
}

/** A repeated enum parameter: its values' names. */
export const enums = (params: Params, path: string): ReadonlyArray<string> => {
  const value = params.query.get(path)
  if (value === undefined) return []
  const list: ReadonlyArray<ParamValue> = Array.isArray(value) ? value : [value as ParamValue]
  return list.filter((v): v is string => typeof v === "string")
}

/** An `int64` parameter (the gateway parses 64-bit integers to bigints). */
export const int64 = (params: Params, path: string): bigint | undefined => {
  const value = params.query.get(path)
  return typeof value === "bigint" ? value : undefined
}
