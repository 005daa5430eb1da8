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
 * backslash: an escaped character does not sort as itself. The writer notes a line that holds one
 * ({@link Written.orderable}), and one with a negative integer (a payout time before 1970), which
 * is written after a NUL for that: their window is sorted by `compareRows` on the parsed rows.
 */
import type { RowFields } from "../RowOrder.js"
import { MARK } from "../RowTemplate.js"
import { escape, LastParsed, unescape } from "./rowLines.js"

/** The character before the one that gives an integer's digit count of 1. */
const SIZE_BASE = 0x5d

/** A character that no orderable line holds: it marks a negative integer. */
const NEGATIVE = "\u0000"

/** An integer as text that sorts as the integer does (a negative one after {@link NEGATIVE}). */
const sized = (text: string): string =>
  text.charCodeAt(0) === 0x2d ? `${NEGATIVE}${text}` : `${String.fromCharCode(SIZE_BASE + text.length)}${text}`

/** Whether an integer written by {@link sized} is negative. */
const isNegative = (field: string): boolean => field.startsWith(NEGATIVE)

/** The integer of a field written by {@link sized}. */
const unsized = (field: string): string => field.slice(1)

/** What makes a line's text order differ from report order: a control character or an escape. */
// eslint-disable-next-line no-control-regex
const misordering = /[\u0000-\u0008\u000b-\u001f\\]/

/** Text a field is looked at more closely for: any control character, a backslash, a surrogate. */
// eslint-disable-next-line no-control-regex
const unusual = /[\u0000-\u001f\\\ud800-\udfff]/

/** What the lines written since the last {@link OrderedLineWriter.take} hold. */
export interface Written {
  /** Their text order is report order: none holds an escape, a control character or a negative integer. */
  readonly orderable: boolean
  /** No text of theirs holds a `\u0001` (the mark of a laid-out row's slots). */
  readonly plain: boolean
}

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
 * Writes rows' lines (with their line ends), noting what they hold ({@link Written}): the reading
 * thread knows it as it writes them, with no second look at the text. Consecutive rows mostly share
 * their epoch, time, lock and type: each is printed once per run of equal ones.
 */
export class OrderedLineWriter {
  private readonly epochs = new LastSized()
  private readonly times = new LastSized()
  private readonly locks = new LastSized()
  private type: string | undefined = undefined
  private typeText = ""
  private orderable = true
  private plain = true

  line(f: LineFields, rewardType: string): string {
    // the type's text is looked at once per run (and again after a take)
    if (rewardType !== this.type) this.typeText = this.text((this.type = rewardType))
    const presence = `${f.gameId === undefined ? 0 : 1}${f.teamId === undefined ? 0 : 1}`
    const epoch = this.epochs.of(f.epoch)
    const amount = sized(f.amount.toString())
    const lock = this.locks.of(f.lockedUntilEpoch)
    const time = this.times.of(f.receivedAt)
    if (isNegative(epoch) || isNegative(amount) || isNegative(lock) || isNegative(time)) this.orderable = false
    return (
      `${epoch}\t${f.partyId}\t${f.assetId}\t${this.typeText}\t` +
      `${this.text(f.gameId ?? "")}\t${amount}\t${this.text(f.percentageOfTotal)}\t` +
      `${lock}\t${this.text(f.teamId ?? "")}\t${presence}\t${time}\n`
    )
  }

  /** What the lines since the last take hold; the next ones are noted afresh. */
  take(): Written {
    const written = { orderable: this.orderable, plain: this.plain }
    this.orderable = this.plain = true
    this.type = undefined
    return written
  }

  /** A text field, escaped, and noted. */
  private text(text: string): string {
    if (!unusual.test(text)) return text
    if (text.includes(MARK)) this.plain = false
    const escaped = escape(text)
    if (misordering.test(escaped)) this.orderable = false
    return escaped
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
