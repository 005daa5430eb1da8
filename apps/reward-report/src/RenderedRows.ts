/**
 * Per-epoch rows laid out by an output's template while they were read (`RowThread.ts`): text on
 * disk with slots for the aliases, the provenance and the padding of cells, a window of epochs a
 * segment, read back about a megabyte at a time and written out as the UTF-8 it is, its slots
 * filled (in place). Nothing else can be done with them (they are no longer rows).
 */
import type { EpochRow, EpochRows, UnidentifiedRow } from "./Report.js"
import { type RowLayout, type RowTemplate, SlotFiller } from "./RowTemplate.js"
import type { RowExtents } from "./RowExtents.js"
import { type Resolve, rowMaker, type RowSource } from "./RowStore.js"
import type { RenderedSegment } from "./internal/rowsWorker.js"
import type { SpillFile } from "./internal/spillFile.js"

/**
 * Bytes read back at a time, at least (up to the next cut): few calls to the system, and pieces
 * the output writes as they are, not gathered first.
 */
const READ = 1 << 20

export class RenderedRows implements RowSource {
  constructor(
    private readonly file: SpillFile,
    /** The template the rows were laid out by. */
    private readonly template: RowTemplate,
    /** A window's rows each, in report order. */
    private readonly segments: ReadonlyArray<RenderedSegment>,
    /** The ids the alias slots number parties by. */
    private readonly ids: ReadonlyArray<string>,
    readonly count: number,
    private readonly timeOrder: string | undefined,
    /** What the rows' widest cells depend on, gathered where the template is `measured`. */
    private readonly extents: RowExtents | undefined
  ) {}

  /** The laid-out text as UTF-8, segment by segment in the template's order, its slots filled. */
  private *filled(resolve: Resolve, layout: RowLayout): Generator<Uint8Array> {
    const template = this.template
    // a party's alias is laid out once (the filler keeps it): parties are paid in epoch after epoch
    const filler = new SlotFiller((party) => {
      const partyId = this.ids[party]
      return template.alias(partyId, resolve.alias(partyId), layout)
    }, layout)
    const segments = template.listing === "newest" ? [...this.segments].reverse() : this.segments
    // room before the text for what its slots add, as much as they added so far (a guess at first)
    let growth = 0.5
    for (const { cuts, end, start } of segments) {
      let from = start
      for (const to of [...cuts, end]) {
        if (to - from < READ && to < end) continue
        const room = Math.ceil((to - from) * growth) + 1024
        const filled = filler.fill(this.file.bytes(from, to, room), room)
        growth = Math.max(0, filled.length / (to - from) - 1) * 1.1
        yield filled
        from = to
      }
    }
  }

  /** Stand-in rows holding the rows' widest cells (see `RowExtents.ts`). */
  private *widest(resolve: Resolve, extents: RowExtents): Generator<UnidentifiedRow> {
    const make = rowMaker(resolve, false)
    for (const fields of extents.standIns({ idOf: (n) => this.ids[n] })) yield make(fields)
  }

  rows(resolve: Resolve): EpochRows {
    const unlisted = (): never => {
      throw new Error(`the per-epoch rows were laid out for ${this.template.name} as they were read`)
    }
    return {
      length: this.count,
      [Symbol.iterator]: (): Iterator<EpochRow> => unlisted(),
      withoutIds: (): Iterable<UnidentifiedRow> => unlisted(),
      byReceivedAt: (): Iterable<EpochRow> => unlisted(),
      head: (): ReadonlyArray<EpochRow> => unlisted(),
      notInTimeOrder: () => this.timeOrder,
      ...(this.extents === undefined ? {} : { widest: () => this.widest(resolve, this.extents!) }),
      render: (template, layout) => {
        if (template.name !== this.template.name) unlisted()
        return { [Symbol.iterator]: () => this.filled(resolve, layout) }
      }
    }
  }

  close(): void {
    this.file.close()
  }
}
