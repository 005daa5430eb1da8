/**
 * Per-epoch rows as lines of text: one line a row, its fields separated by tabs, text from the node
 * escaped so it cannot split them. The row file (`RowStore.ts`) keeps rows so, with its ids as
 * numbers; rows go to the thread that lays them out (`RowThread.ts`) so, with their ids whole.
 */
import type { RowFields } from "../RowOrder.js"

/** What a line's field cannot hold as it is: tabs, line ends, backslashes, and surrogates (lone ones do not survive UTF-8). */
const special = /[\t\n\\\ud800-\udfff]/
const escapes = /[\t\n\\]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Text with tabs, line ends and backslashes escaped, and lone surrogates written as `\uXXXX`. */
export const escape = (text: string): string =>
  special.test(text)
    ? text.replace(escapes, (c) =>
        c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\\" ? "\\\\" : `\\u${c.charCodeAt(0).toString(16)}`
      )
    : text

export const unescape = (text: string): string =>
  text.includes("\\")
    ? text.replace(/\\(u[0-9a-f]{4}|.)/g, (_, c: string) =>
        c === "t" ? "\t" : c === "n" ? "\n" : c.length > 1 ? String.fromCharCode(parseInt(c.slice(1), 16)) : c
      )
    : text

/** Text that may be absent: empty when it is, `+` and the text when it is not. */
export const optional = (text: string | undefined): string => (text === undefined ? "" : `+${escape(text)}`)

export const unoptional = (text: string): string | undefined => (text === "" ? undefined : unescape(text.slice(1)))

/** An integer field's last value and text: printing a `bigint` costs more than comparing it. */
export class LastPrinted {
  private value: bigint | undefined = undefined
  private text = ""

  of(value: bigint): string {
    if (value !== this.value) {
      this.text = value.toString()
      this.value = value
    }
    return this.text
  }
}

/** An integer field's last text and value: parsing a `bigint` costs more than comparing short text. */
export class LastParsed {
  private text = ""
  private value = 0n

  of(text: string): bigint {
    if (text !== this.text) {
      this.value = BigInt(text)
      this.text = text
    }
    return this.value
  }
}

/** The fields of a row's line that are written as they are. */
interface PlainFields {
  readonly epoch: bigint
  readonly receivedAt: bigint
  readonly percentageOfTotal: string
  readonly lockedUntilEpoch: bigint
  readonly gameId?: string | undefined
  readonly teamId?: string | undefined
}

/**
 * Writes rows' lines (with their line ends); a row's party, asset, type and amount are given (the
 * party and asset as ids or as their numbers). Consecutive rows mostly share their epoch, time,
 * lock and type: each is printed once per run of equal ones.
 */
export class RowLineWriter {
  private readonly epochs = new LastPrinted()
  private readonly times = new LastPrinted()
  private readonly locks = new LastPrinted()
  private type = ""
  private typeText = ""

  line(f: PlainFields, party: string | number, asset: string | number, rewardType: string, amount: string | bigint) {
    if (rewardType !== this.type) this.typeText = escape((this.type = rewardType))
    return (
      `${this.epochs.of(f.epoch)}\t${this.times.of(f.receivedAt)}\t${party}\t${asset}\t${this.typeText}\t` +
      `${amount}\t${escape(f.percentageOfTotal)}\t${this.locks.of(f.lockedUntilEpoch)}\t${optional(f.gameId)}\t` +
      `${optional(f.teamId)}\n`
    )
  }
}

/**
 * Reads lines written by a {@link RowLineWriter} back into rows; consecutive rows mostly share their
 * epoch, time and lock, each parsed once per run of equal ones.
 */
export class RowLineReader {
  private readonly epochs = new LastParsed()
  private readonly times = new LastParsed()
  private readonly locks = new LastParsed()

  /** The row of a line's fields (the line split at its tabs), with its ids as the caller read them. */
  row(f: ReadonlyArray<string>, partyId: string, assetId: string): RowFields {
    return {
      epoch: this.epochs.of(f[0]),
      receivedAt: this.times.of(f[1]),
      partyId,
      assetId,
      rewardType: unescape(f[4]),
      amount: BigInt(f[5]),
      percentageOfTotal: unescape(f[6]),
      lockedUntilEpoch: this.locks.of(f[7]),
      gameId: unoptional(f[8]),
      teamId: unoptional(f[9])
    }
  }
}
