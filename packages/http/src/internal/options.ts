/**
 * The client's options checked as they arrive: JavaScript callers and hand-built configuration can
 * pass anything, and a bad value should be a `ConfigError` naming the option, not a `TypeError`
 * or a request to `undefined/api/v2/...`.
 */
import * as Input from "@vega-effect/schema/Input"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Options } from "../DataNodeClient.js"

const invalid = (path: string, message: string): Either.Either<never, ConfigError.ConfigError> =>
  Either.left(ConfigError.InvalidData(path === "" ? [] : path.split("."), message))

/** An `http:` or `https:` URL. */
const isNodeUrl = (u: unknown): boolean => {
  if (!Input.isNonEmptyString(u) || !URL.canParse(u)) return false
  const { protocol } = new URL(u)
  return protocol === "http:" || protocol === "https:"
}

/** The problem with an optional duration, if any. */
const durationProblem = (u: unknown): boolean => u !== undefined && Option.isNone(Duration.decodeUnknown(u))

/** The problem with an optional count (an integer from `min`), if any. */
const countProblem = (u: unknown, min: number): boolean =>
  u !== undefined && (typeof u !== "number" || !Number.isInteger(u) || u < min)

/**
 * What is wrong with retry options (`{ retries?, base?, max?, jitter? }`, each member optional),
 * as the failing member's path and a message; `undefined` when they are usable.
 */
export const retryOptionsProblem = (options: unknown): readonly [string, string] | undefined => {
  if (!Input.isRecord(options)) return ["", `Expected { retries?, base?, max?, jitter? }, got ${Input.show(options)}`]
  if (countProblem(options.retries, 0)) {
    return ["retries", `Expected an integer from 0, got ${Input.show(options.retries)}`]
  }
  for (const name of ["base", "max"] as const) {
    if (durationProblem(options[name])) return [name, `Expected a duration, got ${Input.show(options[name])}`]
  }
  if (options.jitter !== undefined && typeof options.jitter !== "boolean") {
    return ["jitter", `Expected true or false, got ${Input.show(options.jitter)}`]
  }
  return undefined
}

const urlsOf = (urls: unknown): Either.Either<ReadonlyArray<string>, ConfigError.ConfigError> => {
  const list: ReadonlyArray<unknown> | undefined =
    typeof urls === "string" ? [urls] : Array.isArray(urls) ? urls : undefined
  if (list === undefined || list.length === 0) {
    return invalid("urls", `Expected at least one node URL (http:// or https://), got ${Input.show(urls)}`)
  }
  // an index, not the element: the bad element may itself be `undefined`
  const bad = list.findIndex((u) => !isNodeUrl(u))
  return bad === -1
    ? Either.right(list as ReadonlyArray<string>)
    : invalid("urls", `Expected node URLs (http:// or https://), got ${Input.show(list[bad])}`)
}

/** `options` when every member it has is usable, else what is wrong with the first that is not. */
export const checkOptions = (options: unknown): Either.Either<Options, ConfigError.ConfigError> => {
  if (!Input.isRecord(options)) {
    return invalid("", `Expected the client's options (an object with urls), got ${Input.show(options)}`)
  }
  const urls = urlsOf(options.urls)
  if (Either.isLeft(urls)) return Either.left(urls.left)
  for (const name of ["timeout", "healthInterval"] as const) {
    if (durationProblem(options[name])) {
      return invalid(name, `Expected a duration, got ${Input.show(options[name])}`)
    }
  }
  if (countProblem(options.retries, 0)) {
    return invalid("retries", `Expected an integer from 0, got ${Input.show(options.retries)}`)
  }
  const backoff = options.backoff
  if (backoff !== undefined && !Input.isRecord(backoff)) {
    return invalid("backoff", `Expected { base?, max?, jitter? }, got ${Input.show(backoff)}`)
  }
  const backoffProblem = backoff === undefined ? undefined : retryOptionsProblem({ ...backoff, retries: undefined })
  if (backoffProblem !== undefined) return invalid(`backoff.${backoffProblem[0]}`, backoffProblem[1])
  const rateLimit = options.rateLimit
  if (rateLimit !== undefined && rateLimit !== false && !Input.isRecord(rateLimit)) {
    return invalid("rateLimit", `Expected false or { rate?, burst? }, got ${Input.show(rateLimit)}`)
  }
  const pool = options.pool
  if (pool !== undefined && !Input.isRecord(pool)) {
    return invalid("pool", `Expected { maxLag?, slowFactor? }, got ${Input.show(pool)}`)
  }
  return Either.right(options as unknown as Options)
}
