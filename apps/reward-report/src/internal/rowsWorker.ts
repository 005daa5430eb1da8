/**
 * The thread a read hands its per-epoch rows to (started by `RowThread.ts`), so that the reading
 * thread does little more than decode the node's answers. It adds the rows up per party and asset
 * and lays out every row by the output's template (`RowTemplate.ts`) into a file the reading
 * thread owns and writes out once the read is over.
 *
 * Rows come as lines (`orderedLines.ts`), a window of whole epochs a message, windows in report order;
 * each message is acknowledged once handled, so the reading thread keeps only a few in flight.
 */
import { parentPort, workerData } from "node:worker_threads"
import { Ids } from "../Amounts.js"
import { templateNamed } from "../formats/templates.js"
import type { AssetInfo, EpochRow } from "../Report.js"
import { RowExtents, type RowExtentsState } from "../RowExtents.js"
import { compareRows, type RowFields, rowKey, sameKey } from "../RowOrder.js"
import { byTime, rowMaker, type Segment, timesGoBack } from "../RowStore.js"
import { MARK, type RowTemplate, SlotWriter } from "../RowTemplate.js"
import { ASSET, OrderedLineReader, PARTY, type Written } from "./orderedLines.js"
import { RunningTotals } from "./runningTotals.js"
import { SpillFile } from "./spillFile.js"

export interface Setup {
  /** Every row is laid out by the template named so, into the file open as `fd`. */
  readonly template: string
  readonly fd: number
  /** The assets known when the read starts; others are sent before the first row paid in them. */
  readonly assets: ReadonlyArray<AssetInfo>
}

export type Request =
  /** Rows, their lines in pieces of whole lines, and what the lines hold. */
  | { readonly kind: "rows"; readonly pieces: ReadonlyArray<Uint8Array>; readonly written: Written }
  | { readonly kind: "assets"; readonly assets: ReadonlyArray<AssetInfo> }
  | { readonly kind: "finish" }

/** Where the laid-out rows are in the file. */
export interface Kept {
  /** A window's rows each, in report order. */
  readonly segments: ReadonlyArray<RenderedSegment>
  readonly notInTimeOrder: string | undefined
  /** What the widest cells depend on, for a template that is `measured`. */
  readonly extents: RowExtentsState | undefined
}

/** Some of the sums, numbered by the ids the thread sent before them. */
export interface SumsPart {
  /** An asset's number, then a party's, for each pair. */
  readonly pairs: Int32Array
  /** The pairs' amounts, comma-separated. */
  readonly amounts: string
}

/**
 * Once the rows are finished, the thread replies `ids`, then the sums in parts of at most
 * {@link SUMS_PART} pairs, then `finished`.
 */
export type Reply =
  | { readonly kind: "ack" }
  /** The rows' ids, numbered as the sums' pairs and the alias slots of a body number them. */
  | { readonly kind: "ids"; readonly ids: ReadonlyArray<string> }
  | { readonly kind: "sums"; readonly part: SumsPart }
  | { readonly kind: "finished"; readonly kept: Kept }
  | { readonly kind: "failed"; readonly message: string }

/**
 * Pairs a message of sums holds at most: handed over whole, the sums of a big network (some
 * 300,000 pairs at five million rows) were copied three times over at once, in both threads.
 */
export const SUMS_PART = 16_384

/**
 * A window's laid-out rows in the file, written in pieces of whole rows: `cuts` are where each
 * piece after the first starts (the text is read back piece by piece, a few kilobytes each).
 */
export interface RenderedSegment extends Segment {
  readonly cuts: ReadonlyArray<number>
}

/** Assets compared by id before their number is looked up in the table of every id. */
const FEW_ASSETS = 8

/** Laid-out text is written to the file once it is about this long (short strings stay cheap to collect). */
const PIECE = 32_768

/** A row of a window with the numbers of its party and asset. */
interface Numbered {
  readonly fields: RowFields
  readonly party: number
  readonly asset: number
}

/** Every row laid out by a template, a window at a time, each appended to the file as it is done. */
class Body {
  private readonly file: SpillFile
  private readonly writer: SlotWriter
  private readonly make: (fields: RowFields) => EpochRow
  readonly segments: Array<RenderedSegment> = []
  readonly extents: RowExtents | undefined
  private last: RowFields | undefined

  constructor(
    private readonly template: RowTemplate,
    fd: number,
    assets: ReadonlyMap<string, AssetInfo>
  ) {
    this.file = SpillFile.writer(fd)
    this.writer = new SlotWriter(template)
    this.extents = template.measured === true ? RowExtents.empty() : undefined
    // the alias is a slot: it is read after the rows
    this.make = rowMaker(
      {
        asset: (id) => {
          const asset = assets.get(id)
          if (asset === undefined) throw new Error(`asset ${id} of a row was not described before it`)
          return asset
        },
        alias: () => undefined
      },
      template.withIds
    ) as (fields: RowFields) => EpochRow
  }

  /**
   * Lays out a window's rows, their lines in report order; `take` gives a line's row (and adds it
   * up). `plain`: no text of these rows or their assets holds a `\u0001` (nothing to escape).
   */
  add(lines: ReadonlyArray<string>, take: (line: string) => Numbered, plain: boolean): void {
    const start = this.file.size
    const cuts: Array<number> = []
    let earliest = 0n
    let latest = 0n
    const write = (row: EpochRow, party: number) => {
      if (row.receivedAt < earliest) earliest = row.receivedAt
      if (row.receivedAt > latest) latest = row.receivedAt
      this.writer.row(row, party, plain)
      if (this.writer.length >= PIECE) cuts.push(this.file.append(this.writer.take()).end)
    }
    const listing = this.template.listing
    // made in report order (their ids count rows of a key as they come); laid out so too, each row
    // in turn (none is held beyond it), or afterwards by time
    const byTimeLater: Array<{ readonly row: EpochRow; readonly party: number }> = []
    let fields: RowFields | undefined
    for (let i = 0; i < lines.length; i++) {
      const taken = take(lines[i])
      fields = taken.fields
      if (i === 0) {
        const last = this.last
        if (last !== undefined && (compareRows(fields, last) <= 0 || sameKey(fields, last))) {
          // windows hold whole epochs, oldest first: the ids count rows of a key, all in one window
          throw new Error(`rows of ${rowKey(fields)} came after rows that follow them, or in two windows`)
        }
        earliest = latest = fields.receivedAt
      }
      this.extents?.add(fields, taken.party, taken.asset, fields.amount.toString())
      const row = this.make(fields)
      if (listing === "report") write(row, taken.party)
      else byTimeLater.push({ row, party: taken.party })
    }
    this.last = fields
    if (listing !== "report") {
      for (const { party, row } of byTime(byTimeLater, listing, ({ row }) => row.receivedAt)) write(row, party)
    }
    if (this.writer.length > 0) this.file.append(this.writer.take())
    else cuts.pop()
    this.segments.push({ start, end: this.file.size, earliest, latest, cuts })
  }

  /** Writes what the file has gathered: the rows are read back by the thread that owns it. */
  flush(): void {
    this.file.flush()
  }
}

/**
 * A window's lines in report order: as text where that is report order, else by the rows parsed
 * (`orderedLines.ts` says when).
 */
const inReportOrder = (lines: Array<string>, orderable: boolean): Array<string> => {
  if (orderable) return lines.sort()
  const reader = new OrderedLineReader()
  return lines
    .map((line) => {
      const f = line.split("\t")
      return { line, fields: reader.row(f, f[PARTY], f[ASSET]) }
    })
    .sort((a, b) => compareRows(a.fields, b.fields))
    .map(({ line }) => line)
}

const serve = (port: NonNullable<typeof parentPort>, setup: Setup): void => {
  const ids = new Ids()
  const sums = new RunningTotals()
  const reader = new OrderedLineReader()
  const assets = new Map(setup.assets.map((asset) => [asset.id, asset]))
  const body = new Body(templateNamed(setup.template), setup.fd, assets)

  /** Whether no asset's text holds a `\u0001`. */
  const plainAssets = () => [...assets.values()].every((a) => !`${a.id}${a.symbol}${a.name}`.includes(MARK))

  const addRows = (pieces: ReadonlyArray<Uint8Array>, written: Written): void => {
    const lines: Array<string> = []
    for (const piece of pieces) {
      // a piece at a time (a few kilobytes): no string of a whole window to collect
      const text = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString("utf8")
      for (let from = 0, end = text.indexOf("\n"); end >= 0; from = end + 1, end = text.indexOf("\n", from)) {
        lines.push(text.slice(from, end))
      }
    }
    if (lines.length > 0) body.add(inReportOrder(lines, written.orderable), take, written.plain && plainAssets())
  }

  // rows are paid in a few assets, in turn (a party's rows follow each other): the first few
  // assets' ids are compared with a row's, cheaper than a lookup in the table of every id
  const fewAssets: Array<string> = []
  const fewNumbers: Array<number> = []
  const assetNumber = (id: string): number => {
    for (let i = 0; i < fewAssets.length; i++) if (fewAssets[i] === id) return fewNumbers[i]
    const n = ids.numberOf(id)
    if (fewAssets.length < FEW_ASSETS) {
      fewAssets.push(ids.idOf(n))
      fewNumbers.push(n)
    }
    return n
  }

  /** A line's row with its ids numbered (the read's strings from here on: one per id), added up. */
  const take = (line: string): Numbered => {
    const f = line.split("\t")
    const party = ids.numberOf(f[PARTY])
    const asset = assetNumber(f[ASSET])
    const fields = reader.row(f, ids.idOf(party), ids.idOf(asset))
    sums.add(party, asset, fields.amount)
    return { fields, party, asset }
  }

  /** Replies the ids, the sums part by part, then what was kept. */
  const finish = (): void => {
    port.postMessage({ kind: "ids", ids: ids.all() } satisfies Reply)
    let pairs = new Int32Array(2 * SUMS_PART)
    let amounts: Array<string> = []
    const send = () => {
      const part = { pairs: pairs.subarray(0, 2 * amounts.length), amounts: amounts.join(",") }
      port.postMessage({ kind: "sums", part } satisfies Reply, [pairs.buffer])
      pairs = new Int32Array(2 * SUMS_PART)
      amounts = []
    }
    sums.forEachPair((party, asset, amount) => {
      pairs[2 * amounts.length] = asset
      pairs[2 * amounts.length + 1] = party
      amounts.push(amount.toString())
      if (amounts.length === SUMS_PART) send()
    })
    if (amounts.length > 0) send()
    body.flush()
    const kept = { segments: body.segments, notInTimeOrder: timesGoBack(body.segments), extents: body.extents?.state() }
    port.postMessage({ kind: "finished", kept } satisfies Reply)
  }

  port.on("message", (request: Request) => {
    try {
      switch (request.kind) {
        case "rows":
          addRows(request.pieces, request.written)
          port.postMessage({ kind: "ack" } satisfies Reply)
          return
        case "assets":
          for (const asset of request.assets) assets.set(asset.id, asset)
          return
        case "finish":
          finish()
      }
    } catch (error) {
      port.postMessage({
        kind: "failed",
        message: error instanceof Error ? (error.stack ?? error.message) : String(error)
      } satisfies Reply)
    }
  })
}

if (parentPort !== null) serve(parentPort, workerData as Setup)
