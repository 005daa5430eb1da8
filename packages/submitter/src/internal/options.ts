/**
 * The submitter's options checked as they arrive: JavaScript callers and hand-built configuration
 * can pass anything. A key that is not one is a `KeyError`; another unusable option is a
 * `ConfigError` naming it. Neither is a `TypeError`.
 */
import { Keys } from "@vega-effect/crypto"
import { Input } from "@vega-effect/schema"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Options } from "../TransactionSubmitter.js"
import { MODES } from "./deliver.js"

const DURATIONS = ["requestTimeout", "headTtl", "powTimeout", "resultTimeout"] as const
const COUNTS = ["safetyBlocks", "maxExtraDifficulty", "poolSize", "probes"] as const

const invalid = (name: string, message: string): Either.Either<never, ConfigError.ConfigError> =>
  Either.left(ConfigError.InvalidData([name], message))

/** The signing key: a key pair, or its hex (redacted or not). The message never shows the value. */
export const keyOf = (options: unknown): Either.Either<Keys.KeyPair, Keys.KeyError> => {
  const key = Input.isRecord(options) ? options.key : undefined
  if (Redacted.isRedacted(key) || typeof key === "string") return Keys.fromHex(key as Redacted.Redacted<string>)
  if (Keys.isKeyPair(key)) return Either.right(key)
  const what = !Input.isRecord(options) ? `options ${Input.show(options)}` : key === null ? "null" : typeof key
  return Either.left(
    new Keys.KeyError({
      reason: "InvalidKeyPair",
      message: `the submitter needs a key: a key pair or its hex (redacted), got ${what}`
    })
  )
}

/** `options` when every other member it has is usable, else what is wrong with the first that is not. */
export const checkOptions = (options: Options): Either.Either<Options, ConfigError.ConfigError> => {
  const record = options as unknown as Readonly<Record<string, unknown>>
  if (record.mode !== undefined && !MODES.includes(record.mode as never)) {
    return invalid("mode", `Expected one of ${MODES.join(", ")}, got ${Input.show(record.mode)}`)
  }
  if (record.chainId !== undefined && !Input.isNonEmptyString(record.chainId)) {
    return invalid("chainId", `Expected a chain id, got ${Input.show(record.chainId)}`)
  }
  for (const name of DURATIONS) {
    if (record[name] !== undefined && Option.isNone(Duration.decodeUnknown(record[name]))) {
      return invalid(name, `Expected a duration, got ${Input.show(record[name])}`)
    }
  }
  for (const name of COUNTS) {
    const value = record[name]
    if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0)) {
      return invalid(name, `Expected an integer from 0, got ${Input.show(value)}`)
    }
  }
  if (record.syncSpamStatistics !== undefined && typeof record.syncSpamStatistics !== "boolean") {
    return invalid("syncSpamStatistics", `Expected a boolean, got ${Input.show(record.syncSpamStatistics)}`)
  }
  return Either.right(options)
}
