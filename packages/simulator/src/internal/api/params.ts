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

/** A repeated parameter's texts (a repeated enum's value names). */
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

/** An `int64` or `uint64` parameter (the gateway parses 64-bit integers to bigints). */
export const int64 = (params: Params, path: string): bigint | undefined => {
  const value = params.query.get(path)
  return typeof value === "bigint" ? value : undefined
}
