/**
 * Per-epoch rows as lines whose text order is report order: the lines the reading thread sends to
 * the thread that lays rows out (`RowThread.ts`), which sorts a window's lines as they are
 * (`Array.prototype.sort` with no comparator, in native code) instead of parsing every row of the
 * window into objects first and sorting those.
 *
 * A line holds the fields of `RowOrder.compareRows` in its order, tab-separated, so that comparing
 * two lines compares them field by field:
 *
 * - integers carry their digit count first, as one character (`]` plus the count: `^5`, `_42`;
 *   above the backslash, so that no count is one), so a longer integer sorts after a shorter one
 *   and equal lengths compare digit by digit;
 * - an absent game or team id is written empty (as `compareRows` compares it), and a field after
 *   the team's tells absent from empty (`0` absent, `1` present: absent first), before the time;
 * - text is escaped as in `rowLines.ts`, but for the ids, which are written as they are (the
 *   schema holds them to hexadecimal or `network`).
 *
 * That holds while the fields hold no character below the tab and no other control character or
 * backslash: an escaped character does not sort as itself. A window whose lines hold one
 * ({@link isOrderable} says not) is sorted by `compareRows` on the parsed rows instead, and so is
 * one with a negative integer (a payout time before 1970), which is written after a NUL for that.
 */
import type { RowFields } from "../RowOrder.js"
import { escape, LastParsed, unescape } from "./rowLines.js"

/** The character before the one that gives an integer's digit count of 1. */
const SIZE_BASE = 0x5d

/** A character that no orderable line holds: it marks a negative integer. */
const NEGATIVE = "\u0000"

/** An integer as text that sorts as the integer does (a negative one after {@link NEGATIVE}). */
const sized = (text: string): string =>
  text.charCodeAt(0) === 0x2d ? `${NEGATIVE}${text}` : `${String.fromCharCode(SIZE_BASE + text.length)}${text}`

/** The integer of a field written by {@link sized}. */
const unsized = (field: string): string => field.slice(1)

/** What makes a line's text order differ from report order: a control character or an escape. */
// eslint-disable-next-line no-control-regex
const misordering = /[\u0000-\u0008\u000b-\u001f\\]/

/** Whether lines hold nothing that makes their text order differ from report order. */
export const isOrderable = (text: string): boolean => !misordering.test(text)

/** A sized integer's last value and text: printing a `bigint` costs more than comparing it. */
class LastSized {
  private value: bigint | undefined = undefined
  private text = ""

  of(value: bigint): string {
    if (value !== this.value) {
      this.text = sized(value.toString())
      this.value = value
    }
    return this.text
  }
}

/** The fields of a row's line apart from its reward type, which is given by name. */
interface LineFields {
  readonly epoch: bigint
  readonly receivedAt: bigint
  readonly partyId: string
  readonly assetId: string
  readonly amount: bigint
  readonly percentageOfTotal: string
  readonly lockedUntilEpoch: bigint
  readonly gameId?: string | undefined
  readonly teamId?: string | undefined
}

/**
 * Writes rows' lines (with their line ends). Consecutive rows mostly share their epoch, time, lock
 * and type: each is printed once per run of equal ones.
 */
export class OrderedLineWriter {
  private readonly epochs = new LastSized()
  private readonly times = new LastSized()
  private readonly locks = new LastSized()
  private type = ""
  private typeText = ""

  line(f: LineFields, rewardType: string): string {
    if (rewardType !== this.type) this.typeText = escape((this.type = rewardType))
    const presence = `${f.gameId === undefined ? 0 : 1}${f.teamId === undefined ? 0 : 1}`
    return (
      `${this.epochs.of(f.epoch)}\t${f.partyId}\t${f.assetId}\t${this.typeText}\t` +
      `${escape(f.gameId ?? "")}\t${sized(f.amount.toString())}\t${escape(f.percentageOfTotal)}\t` +
      `${this.locks.of(f.lockedUntilEpoch)}\t${escape(f.teamId ?? "")}\t${presence}\t${this.times.of(f.receivedAt)}\n`
    )
  }
}

/** Where a line's ids are, split at its tabs (as written: never escaped). */
export const PARTY = 1
export const ASSET = 2

/**
 * Reads lines written by an {@link OrderedLineWriter} back into rows; consecutive rows mostly share
 * their epoch, time and lock, each parsed once per run of equal ones.
 */
export class OrderedLineReader {
  private readonly epochs = new LastParsed()
  private readonly times = new LastParsed()
  private readonly locks = new LastParsed()

  /** The row of a line's fields (the line split at its tabs), with its ids as the caller keeps them. */
  row(f: ReadonlyArray<string>, partyId: string, assetId: string): RowFields {
    const presence = f[9]
    return {
      epoch: this.epochs.of(unsized(f[0])),
      receivedAt: this.times.of(unsized(f[10])),
      partyId,
      assetId,
      rewardType: unescape(f[3]),
      amount: BigInt(unsized(f[5])),
      percentageOfTotal: unescape(f[6]),
      lockedUntilEpoch: this.locks.of(unsized(f[7])),
      gameId: presence.charCodeAt(0) === 0x31 ? unescape(f[4]) : undefined,
      teamId: presence.charCodeAt(1) === 0x31 ? unescape(f[8]) : undefined
    }
  }
}
