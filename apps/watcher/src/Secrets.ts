/**
 * Secrets (webhook header values, NATS passwords and tokens, a PostgreSQL URL's password) are
 * never printed: text that may quote one (a receiver's answer, a client's error, a configuration
 * problem) goes through {@link scrub} first.
 */
import * as Redacted from "effect/Redacted"

/** What stands in for a secret in logs, messages and `--check`. */
export const REDACTED = "<redacted>"

/** The secrets' values, empty ones left out (hiding "" would garble every text). */
export const valuesOf = (secrets: Iterable<Redacted.Redacted<string> | string | undefined>): ReadonlyArray<string> =>
  Array.from(secrets, (secret) => (Redacted.isRedacted(secret) ? Redacted.value(secret) : secret)).filter(
    (secret): secret is string => secret !== undefined && secret !== ""
  )

/** `text` with every occurrence of each secret replaced with {@link REDACTED}. */
export const scrub = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text)
