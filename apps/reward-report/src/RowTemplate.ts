/**
 * How an output lays out one per-epoch row, written once and used two ways: on rows in memory, all
 * at once ({@link renderRow}), and on rows as they are read, before what only the end of the read
 * tells is known ({@link SlotWriter}, then a {@link SlotFiller} once it is).
 *
 * A report of millions of rows is written in about the time the node takes to send them when the
 * rows are laid out while they arrive (on a second thread, `RowThread.ts`) rather than after. What
 * is not known then is the {@link RowLayout}: the parties' aliases (read after the rows), the
 * provenance (the heights of every answer, the time the report was made) and, for a table, how
 * wide its columns are (the widest cell of every row). A template writes them as slots: `alias`
 * for the row's party, `constant(i)` for the output's i-th text made from the provenance, `pad` for
 * the spaces that fill a cell to its column's width. The text with its slots is kept on disk and
 * the slots filled as it is written out.
 *
 * Slots sit in the text itself: `\u0001`, a kind letter, numbers, `\u0002`. A `\u0001` of the
 * row's own text is written twice, so any text is kept exactly.
 */
import type { EpochRow, EpochRows } from "./Report.js"

/** Where a template writes one row. */
export interface RowWriter {
  readonly text: (text: string) => void
  /** The alias of the row's party, as {@link RowTemplate.alias} shows it. */
  readonly alias: () => void
  /** The layout's `index`th constant. */
  readonly constant: (index: number) => void
  /** As many spaces as the layout's `index`th width is more than `width` (none when it is not). */
  readonly pad: (index: number, width: number) => void
}

/** What a template's slots are filled from, known once the read is over. */
export interface RowLayout {
  /** Texts the output makes from the provenance. */
  readonly constants: ReadonlyArray<string>
  /** Widths the output pads cells to (a table's columns). */
  readonly widths?: ReadonlyArray<number>
}

/** The order of the rows an output lists. */
export type RowListing = "report" | "oldest" | "newest"

/** One output's layout of a per-epoch row. */
export interface RowTemplate {
  /** Tells templates apart (a body laid out by one is not given to another). */
  readonly name: string
  /** Whether the rows need their ids (a hash each). */
  readonly withIds: boolean
  /** The rows in report order, or by payout time (rows paid in one block in report order). */
  readonly listing: RowListing
  /**
   * Whether the output sizes its columns from the rows' widest cells (`EpochRows.widest`), which
   * are then gathered as the rows are laid out.
   */
  readonly measured?: boolean
  /** Lays out `row`; its alias only through `out.alias` (a row laid out as it is read has none yet). */
  readonly row: (row: EpochRow, out: RowWriter) => void
  /** The text of a party's alias slot (the party may have no alias). */
  readonly alias: (partyId: string, alias: string | undefined, layout: RowLayout) => string
}

/** Starts a slot (see above). */
export const MARK = "\u0001"
const END = "\u0002"
const ALIAS = "a"
const CONSTANT = "c"
const PAD = "p"

/** Text with a `\u0001` doubled, so it does not read as a slot. */
const escaped = (text: string): string => (text.includes(MARK) ? text.replaceAll(MARK, MARK + MARK) : text)

/** How many spaces fill `width` to the layout's `index`th width. */
const padding = (layout: RowLayout, index: number, width: number): number => {
  const to = layout.widths?.[index]
  if (to === undefined) throw new Error(`a row pads to width ${index}, which its layout does not give`)
  return to > width ? to - width : 0
}

/**
 * Rows laid out with their slots, one after another: `row` each, then `take` the text. Alias
 * slots carry the number the caller gives the row's party (`party`).
 */
export class SlotWriter implements RowWriter {
  private written = ""
  private party = 0
  private plain = false

  constructor(private readonly template: RowTemplate) {}

  readonly text = (text: string): void => {
    this.written += this.plain ? text : escaped(text)
  }

  readonly alias = (): void => {
    this.written += `${MARK}${ALIAS}${this.party}${END}`
  }

  readonly constant = (index: number): void => {
    this.written += `${MARK}${CONSTANT}${index}${END}`
  }

  readonly pad = (index: number, width: number): void => {
    this.written += `${MARK}${PAD}${index}.${width}${END}`
  }

  /**
   * Lays out `row`, whose party is numbered `party`. `plain`: the caller knows no text of the row
   * holds a `\u0001` (it checked the text the row was made from), so none is looked for.
   */
  row(row: EpochRow, party: number, plain = false): void {
    this.party = party
    this.plain = plain
    this.template.row(row, this)
  }

  /** How much text was laid out since the last take, in UTF-16 code units. */
  get length(): number {
    return this.written.length
  }

  /** What was laid out since the last take. */
  take(): string {
    const text = this.written
    this.written = ""
    return text
  }
}

const MARK_BYTE = MARK.charCodeAt(0)
const END_BYTE = END.charCodeAt(0)
const encoder = new TextEncoder()

/**
 * Fills the slots of text laid out by a {@link SlotWriter}, as UTF-8 (the slot characters are
 * ASCII, so they are found byte by byte: no string of the text is made). `alias(n)` gives the text
 * of the alias slot of the party numbered `n`, the others come from `layout`; each is encoded once.
 */
export class SlotFiller {
  private readonly aliases: Array<Uint8Array | undefined> = []
  private readonly constants: ReadonlyArray<Uint8Array>
  private readonly spaces: Array<Uint8Array> = []

  constructor(
    private readonly alias: (party: number) => string,
    private readonly layout: RowLayout
  ) {
    this.constants = layout.constants.map((text) => encoder.encode(text))
  }

  /** The text of the slot whose kind is the byte at `kind` and whose numbers run to `end`. */
  private slot(bytes: Uint8Array, kind: number, end: number): Uint8Array {
    let n = 0
    let m = 0
    let second = false
    for (let i = kind + 1; i < end; i++) {
      const c = bytes[i]
      if (c === 0x2e) second = true
      else if (second) m = m * 10 + c - 48
      else n = n * 10 + c - 48
    }
    switch (String.fromCharCode(bytes[kind])) {
      case ALIAS:
        return (this.aliases[n] ??= encoder.encode(this.alias(n)))
      case CONSTANT:
        if (n < this.constants.length) return this.constants[n]
        break
      case PAD: {
        const count = padding(this.layout, n, m)
        return (this.spaces[count] ??= encoder.encode(" ".repeat(count)))
      }
    }
    throw new Error(
      `a row's text holds an unknown slot: ${JSON.stringify(Buffer.from(bytes.subarray(kind - 1, end + 1)).toString())}`
    )
  }

  /**
   * The laid-out text in `bytes` from `start` on, its slots filled. Filled text is written from the
   * start of `bytes` (the room before `start` takes what the slots add), moved within it, not
   * copied out piece by piece; new memory only when that room runs out.
   */
  fill(bytes: Uint8Array, start = 0): Uint8Array {
    let into = bytes
    let end = bytes.length
    let written = 0
    let from = start
    for (let at = into.indexOf(MARK_BYTE, from); ; at = into.indexOf(MARK_BYTE, from)) {
      const plain = (at < 0 ? end : at) - from
      if (written !== from) into.copyWithin(written, from, from + plain)
      written += plain
      if (at < 0) return into.subarray(0, written)
      if (into[at + 1] === MARK_BYTE) {
        into[written++] = MARK_BYTE
        from = at + 2
        continue
      }
      const slotEnd = into.indexOf(END_BYTE, at + 2)
      const text = this.slot(into, at + 1, slotEnd)
      from = slotEnd + 1
      if (written + text.length > from) {
        // the room is taken: the rest moves to new memory with room for as much again
        const rest = end - from
        const more = new Uint8Array(written + text.length + 2 * rest + (rest >> 1) + 256)
        more.set(into.subarray(0, written))
        more.set(into.subarray(from, end), more.length - rest)
        into = more
        end = more.length
        from = end - rest
      }
      into.set(text, written)
      written += text.length
    }
  }
}

/** A row in memory laid out whole: its alias and the layout are known. */
export const renderRow = (template: RowTemplate, row: EpochRow, layout: RowLayout): string => {
  let text = ""
  template.row(row, {
    text: (piece) => {
      text += piece
    },
    alias: () => {
      text += template.alias(row.partyId, row.alias, layout)
    },
    constant: (index) => {
      text += layout.constants[index]
    },
    pad: (index, width) => {
      text += " ".repeat(padding(layout, index, width))
    }
  })
  return text
}

/** Rows in memory (or read back from disk) laid out by `template`, a piece each, in its order. */
export function* renderRows(rows: EpochRows, template: RowTemplate, layout: RowLayout): Generator<string> {
  const listed: Iterable<EpochRow> =
    template.listing !== "report"
      ? rows.byReceivedAt(template.listing)
      : template.withIds
        ? rows
        : // a template without ids never reads them
          (rows.withoutIds() as Iterable<EpochRow>)
  for (const row of listed) yield renderRow(template, row, layout)
}
