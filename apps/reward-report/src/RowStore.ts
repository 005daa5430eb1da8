/**
 * Where the per-epoch rows wait between the read and the output when they are not laid out as they
 * are read (`RowThread.ts` lays out the rows of a read of one filter). A report may list millions
 * of payouts: held as objects they would take gigabytes, so they are written to a temporary file as
 * they are read ({@link RowSpill}), sorted a window of epochs at a time, and read back lazily in
 * report order by each pass of the output ({@link EpochRows}). An output that shows only the first
 * rows keeps only those ({@link RowHead}).
 *
 * The node delivers a window of epochs whole, windows in ascending order, so sorting each window
 * gives report order for the whole read. Several reads (one per party or asset asked for) give one
 * sorted run each; runs are merged as they are read back.
 */
import { Ids } from "./Amounts.js"
import { isoOfNanos, unitsOf } from "./formats/text.js"
import { RowLineReader, RowLineWriter } from "./internal/rowLines.js"
import { SpillFile } from "./internal/spillFile.js"
import { renderRows, type RowTemplate } from "./RowTemplate.js"
import type { AssetInfo, EpochRow, EpochRows, UnidentifiedRow } from "./Report.js"
import { RowExtents } from "./RowExtents.js"
import { compareRows, keyIndexes, rowIdOf, rowKey, type RowFields, sameKey } from "./RowOrder.js"

/** What a row names, as the report shows it: assets and aliases are read after the rows. */
export interface Resolve {
  readonly asset: (id: string) => AssetInfo
  readonly alias: (partyId: string) => string | undefined
}

/** Rows read and kept, to be listed once their assets and aliases are known; `close` lets them go. */
export interface RowSource {
  readonly count: number
  readonly rows: (resolve: Resolve) => EpochRows
  readonly close: () => void
}

/**
 * Where the read puts the rows it keeps: `add` the rows of an answer, `seal` when every row of the
 * epochs added so far has been added (a window, or one epoch read in parts).
 */
export interface RowSink extends RowSource {
  /** Adds a row; `party` and `asset` are the numbers of its ids in the read's {@link Ids}. */
  readonly add: (row: RowFields, party: number, asset: number) => void
  readonly seal: () => void
}

/**
 * Which rows a read keeps: only the first in report order (an output that shows those only), or
 * every one for an output that lays them out by `template` (as they are read where they come in
 * report order, see `RowThread.ts`; otherwise from a row file).
 */
export type RowKeeping = { readonly first: number } | { readonly template: RowTemplate }

/** A sink for the rows `keeping` asks for, of a read numbering its ids in `ids`. */
export const sinkFor = (keeping: RowKeeping, ids: Ids): RowSink =>
  "first" in keeping ? new RowHead(keeping.first) : new RowSpill(ids)

/**
 * Rows in full from what was kept and the assets and aliases read, taken in report order: a row's
 * index among the rows of its key is counted as they come, and its id made from it (ids are not
 * kept in the file: hashing as the rows are read back costs about what reading a stored id does,
 * and the read of the node is spared it). `withIds: false` makes no ids, for outputs that do not
 * show them.
 */
export function rowMaker(resolve: Resolve, withIds: false): (fields: RowFields) => UnidentifiedRow
export function rowMaker(resolve: Resolve, withIds?: true): (fields: RowFields) => EpochRow
export function rowMaker(resolve: Resolve, withIds?: boolean): (fields: RowFields) => UnidentifiedRow | EpochRow
export function rowMaker(resolve: Resolve, withIds = true): (fields: RowFields) => UnidentifiedRow | EpochRow {
  // rows share the few timestamps of the blocks that paid them (and mostly come a block's together)
  const isoCache = new Map<bigint, string>()
  let lastTime = -1n
  let lastIso = ""
  const indexOf = keyIndexes()
  return (fields) => {
    const asset = resolve.asset(fields.assetId)
    if (fields.receivedAt !== lastTime) {
      lastTime = fields.receivedAt
      let iso = isoCache.get(lastTime)
      if (iso === undefined) {
        if (isoCache.size > 10_000) isoCache.clear()
        isoCache.set(lastTime, (iso = isoOfNanos(lastTime)))
      }
      lastIso = iso
    }
    const iso = lastIso
    return {
      epoch: fields.epoch,
      receivedAt: fields.receivedAt,
      receivedAtIso: iso,
      partyId: fields.partyId,
      alias: resolve.alias(fields.partyId),
      asset,
      rewardType: fields.rewardType,
      amount: fields.amount,
      units: unitsOf(fields.amount, asset.decimals),
      percentageOfTotal: fields.percentageOfTotal,
      lockedUntilEpoch: fields.lockedUntilEpoch,
      gameId: fields.gameId,
      teamId: fields.teamId,
      // one shape either way (undefined where not made; the type says it is not there)
      rowId: withIds ? rowIdOf(rowKey(fields), indexOf(fields)) : undefined
    }
  }
}

/** Oldest or newest first by payout time; equal times keep their order (`sort` is stable). */
export const byTime = <A>(
  items: Array<A>,
  first: "oldest" | "newest",
  timeOf: (item: A) => bigint = (item) => (item as EpochRow).receivedAt
): Array<A> => {
  const direction = first === "oldest" ? 1 : -1
  return items.sort((a, b) => {
    const x = timeOf(a)
    const y = timeOf(b)
    return x === y ? 0 : x < y ? -direction : direction
  })
}

/** Rows already in memory (a small report, or a test) as {@link EpochRows}. */
export const listOf = (rows: ReadonlyArray<EpochRow>): EpochRows => {
  const list: EpochRows = {
    length: rows.length,
    [Symbol.iterator]: () => rows[Symbol.iterator](),
    withoutIds: () => rows,
    byReceivedAt: (first) => byTime([...rows], first),
    // sorted all at once: any times can be ordered
    notInTimeOrder: () => undefined,
    head: (n) => rows.slice(0, n),
    render: (template, layout) => renderRows(list, template, layout)
  }
  return list
}

/** A stretch of a file holding whole epochs, sorted, and the first and last payout time in it. */
export interface Segment {
  readonly start: number
  readonly end: number
  readonly earliest: bigint
  readonly latest: bigint
}

/**
 * Why rows kept in `segments` cannot be listed by time, if they cannot: rows are sorted by time a
 * segment at a time, so a segment's times must not overlap the next one's. Rewards are paid when
 * their epoch ends, so a later epoch is never paid earlier on a chain.
 */
export const timesGoBack = (segments: ReadonlyArray<Segment>): string | undefined => {
  for (let i = 1; i < segments.length; i++) {
    if (segments[i].earliest < segments[i - 1].latest) {
      return "the node's payout times go back from one epoch to a later one: the rows cannot be listed by time"
    }
  }
  return undefined
}

/** A row waiting to be sorted and written, with its ids' numbers. */
interface Waiting {
  readonly fields: RowFields
  readonly party: number
  readonly asset: number
}

const compareWaiting = (a: Waiting, b: Waiting): number => compareRows(a.fields, b.fields)

/** Consecutive segments in report order. */
interface Run {
  readonly segments: Array<Segment>
  last: RowFields
}

/**
 * Rows written to a temporary file as they are read. `add` the rows of an answer, `seal` when every
 * row of the epochs added so far has been added (a window, or one epoch read in parts); `close`
 * when the report is written.
 */
export class RowSpill implements RowSink {
  private readonly file = SpillFile.create("vega-reward-report-")
  private pending: Array<Waiting> = []
  private readonly runs: Array<Run> = []
  /** Files made from this one (its runs merged), closed with it. */
  private readonly closing: Array<RowSpill> = []
  count = 0

  /** `ids`: the read's; ids recur on every row and are written as their numbers. */
  constructor(private readonly ids: Ids = new Ids()) {}

  /** Adds a row; `party` and `asset` are the numbers of its ids, when the caller has them. */
  add(row: RowFields, party = this.ids.numberOf(row.partyId), asset = this.ids.numberOf(row.assetId)): void {
    this.pending.push({ fields: row, party, asset })
  }

  /** What the widest cells of the rows depend on, for a table's column widths. */
  private readonly extents = RowExtents.empty()

  private readonly reader = new RowLineReader()
  private readonly writer = new RowLineWriter()

  private decode(line: string): RowFields {
    const f = line.split("\t")
    return this.reader.row(f, this.ids.idOf(Number(f[2])), this.ids.idOf(Number(f[3])))
  }

  /** Sorts the rows added since the last seal and writes them out. */
  seal(): void {
    if (this.pending.length === 0) return
    const sorted = this.pending.sort(compareWaiting)
    this.pending = []
    const first = sorted[0].fields
    let run = this.runs.at(-1)
    if (run !== undefined && sameKey(first, run.last)) {
      // the ids count rows of a key: its rows must all be sorted together
      throw new Error(`rows of ${rowKey(first)} were sealed in two parts`)
    }
    if (run === undefined || compareRows(first, run.last) < 0) {
      run = { segments: [], last: first }
      this.runs.push(run)
    }
    let earliest = first.receivedAt
    let latest = first.receivedAt
    let text = ""
    for (const row of sorted) {
      const time = row.fields.receivedAt
      if (time < earliest) earliest = time
      if (time > latest) latest = time
      const amount = row.fields.amount.toString()
      this.extents.add(row.fields, row.party, row.asset, amount)
      text += this.writer.line(row.fields, row.party, row.asset, row.fields.rewardType, amount)
    }
    run.segments.push({ ...this.file.append(text), earliest, latest })
    run.last = sorted[sorted.length - 1].fields
    this.count += sorted.length
  }

  private *segment(segment: Segment): Generator<RowFields> {
    for (const line of this.file.lines(segment.start, segment.end)) yield this.decode(line)
  }

  private *run(run: Run): Generator<RowFields> {
    for (const segment of run.segments) yield* this.segment(segment)
  }

  /** Every row in report order: the runs merged (they are few: one per party or asset asked for). */
  private *merged(): Generator<RowFields> {
    if (this.runs.length === 1) return yield* this.run(this.runs[0])
    const readers = this.runs.map((run) => this.run(run))
    const heads = readers.map((reader) => reader.next())
    for (;;) {
      let best = -1
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]
        if (head.done === true) continue
        if (best < 0 || compareRows(head.value, heads[best].value as RowFields) < 0) best = i
      }
      if (best < 0) return
      yield heads[best].value as RowFields
      heads[best] = readers[best].next()
    }
  }

  /** {@link single}'s result, once made. */
  private oneRun: { readonly spill: RowSpill; readonly segments: ReadonlyArray<Segment> } | undefined

  /**
   * The segments in report order, as one run: the file itself when it holds one, otherwise the
   * runs merged into a new file (made once, closed with this one).
   */
  private single(): { readonly spill: RowSpill; readonly segments: ReadonlyArray<Segment> } {
    if (this.oneRun !== undefined) return this.oneRun
    if (this.runs.length <= 1) return (this.oneRun = { spill: this, segments: this.runs[0]?.segments ?? [] })
    const merged = new RowSpill(this.ids)
    this.closing.push(merged)
    for (const fields of this.merged()) {
      // whole epochs per segment, as when read
      if (merged.pending.length >= 5_000 && merged.pending[merged.pending.length - 1].fields.epoch !== fields.epoch) {
        merged.seal()
      }
      merged.add(fields)
    }
    merged.seal()
    return (this.oneRun = merged.single())
  }

  /** Why the rows cannot be listed by time, if they cannot (see {@link timesGoBack}). */
  notInTimeOrder(): string | undefined {
    return timesGoBack(this.single().segments)
  }

  /** Segment by segment, each sorted by time (see {@link notInTimeOrder}). */
  private *byTime(resolve: Resolve, first: "oldest" | "newest"): Generator<EpochRow> {
    const problem = this.notInTimeOrder()
    if (problem !== undefined) throw new Error(problem)
    const { segments, spill } = this.single()
    const make = rowMaker(resolve)
    const ordered = first === "oldest" ? segments : [...segments].reverse()
    for (const segment of ordered) {
      yield* byTime(Array.from(spill.segment(segment), make), first)
    }
  }

  rows(resolve: Resolve): EpochRows {
    const reportOrder = function* (spill: RowSpill): Generator<EpochRow> {
      const make = rowMaker(resolve)
      for (const fields of spill.merged()) yield make(fields)
    }
    const withoutIds = function* (spill: RowSpill): Generator<UnidentifiedRow> {
      const make = rowMaker(resolve, false)
      for (const fields of spill.merged()) yield make(fields)
    }
    const widest = function* (spill: RowSpill): Generator<UnidentifiedRow> {
      const make = rowMaker(resolve, false)
      for (const fields of spill.extents.standIns(spill.ids)) yield make(fields)
    }
    const rows: EpochRows = {
      length: this.count,
      [Symbol.iterator]: () => reportOrder(this),
      withoutIds: () => ({ [Symbol.iterator]: () => withoutIds(this) }),
      byReceivedAt: (first) => ({ [Symbol.iterator]: () => this.byTime(resolve, first) }),
      notInTimeOrder: () => this.notInTimeOrder(),
      widest: () => ({ [Symbol.iterator]: () => widest(this) }),
      head: (n) => {
        const first: Array<EpochRow> = []
        if (n <= 0) return first
        for (const row of reportOrder(this)) if (first.push(row) >= n) break
        return first
      },
      render: (template, layout) => ({ [Symbol.iterator]: () => renderRows(rows, template, layout) })
    }
    return rows
  }

  close(): void {
    for (const spill of this.closing) spill.close()
    this.file.close()
  }
}

/**
 * Only the first `limit` rows in report order, and how many there were: for an output that shows
 * no more (HTML lists a thousand), nothing of the rest is kept. Listing more than were kept fails
 * rather than leaving rows out; when all the rows fit, they are all there.
 */
export class RowHead implements RowSink {
  /** The first rows so far, in report order, at most `limit`. */
  private kept: Array<RowFields> = []
  private pending: Array<RowFields> = []
  count = 0

  constructor(private readonly limit: number) {}

  add(row: RowFields): void {
    this.count++
    // windows come mostly in report order: once the head is full, later rows are passed over
    // unsorted
    const last = this.kept.length >= this.limit ? this.kept[this.kept.length - 1] : undefined
    if (last === undefined || compareRows(row, last) < 0) this.pending.push(row)
  }

  seal(): void {
    if (this.pending.length === 0) return
    const sorted = this.pending.sort(compareRows)
    this.pending = []
    const merged: Array<RowFields> = []
    let i = 0
    let j = 0
    while (merged.length < this.limit && (i < this.kept.length || j < sorted.length)) {
      const takeKept = j >= sorted.length || (i < this.kept.length && compareRows(this.kept[i], sorted[j]) <= 0)
      merged.push(takeKept ? this.kept[i++] : sorted[j++])
    }
    this.kept = merged
  }

  /** The kept rows, when they are every row; otherwise why they cannot be listed. */
  private all(): ReadonlyArray<RowFields> {
    if (this.count > this.kept.length) {
      throw new Error(`only the first ${this.kept.length} of ${this.count} per-epoch rows were kept`)
    }
    return this.kept
  }

  rows(resolve: Resolve): EpochRows {
    const made = (fields: ReadonlyArray<RowFields>) => fields.map(rowMaker(resolve))
    const rows: EpochRows = {
      length: this.count,
      [Symbol.iterator]: () => made(this.all())[Symbol.iterator](),
      withoutIds: () => this.all().map(rowMaker(resolve, false)),
      byReceivedAt: (first) => byTime(made(this.all()), first),
      notInTimeOrder: () => {
        // every row is here, sorted by time at once: any times can be ordered
        this.all()
        return undefined
      },
      head: (n) => {
        if (n > this.kept.length && this.count > this.kept.length) this.all()
        return made(this.kept.slice(0, Math.max(0, n)))
      },
      render: (template, layout) => ({ [Symbol.iterator]: () => renderRows(rows, template, layout) })
    }
    return rows
  }

  close(): void {
    this.kept = []
    this.pending = []
  }
}
