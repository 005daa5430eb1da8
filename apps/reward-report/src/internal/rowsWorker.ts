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
import { Amounts, Ids } from "../Amounts.js"
import { templateNamed } from "../formats/templates.js"
import type { AssetInfo, EpochRow } from "../Report.js"
import { RowExtents, type RowExtentsState } from "../RowExtents.js"
import { compareRows, type RowFields, rowKey, sameKey } from "../RowOrder.js"
import { byTime, rowMaker, type Segment, timesGoBack } from "../RowStore.js"
import { MARK, type RowTemplate, SlotWriter } from "../RowTemplate.js"
import { ASSET, isOrderable, OrderedLineReader, PARTY } from "./orderedLines.js"
import { SpillFile } from "./spillFile.js"

export interface Setup {
  /** Every row is laid out by the template named so, into the file open as `fd`. */
  readonly template: string
  readonly fd: number
  /** The assets known when the read starts; others are sent before the first row paid in them. */
  readonly assets: ReadonlyArray<AssetInfo>
}

export type Request =
  /** Rows, their lines in pieces of whole lines. */
  | { readonly kind: "rows"; readonly pieces: ReadonlyArray<Uint8Array> }
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

export interface Finished {
  /** The rows' ids, numbered as `pairs` and the alias slots of a body number them. */
  readonly ids: ReadonlyArray<string>
  /** The sums' pairs: an asset's number, then a party's, for each. */
  readonly pairs: Int32Array
  /** The pairs' amounts, comma-separated. */
  readonly amounts: string
  readonly kept: Kept
}

export type Reply =
  | { readonly kind: "ack" }
  | { readonly kind: "finished"; readonly finished: Finished }
  | { readonly kind: "failed"; readonly message: string }

/**
 * A window's laid-out rows in the file, written in pieces of whole rows: `cuts` are where each
 * piece after the first starts (the text is read back piece by piece, a few kilobytes each).
 */
export interface RenderedSegment extends Segment {
  readonly cuts: ReadonlyArray<number>
}

const MARK_BYTE = MARK.charCodeAt(0)

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
  const sums = new Amounts(ids)
  const reader = new OrderedLineReader()
  const assets = new Map(setup.assets.map((asset) => [asset.id, asset]))
  const body = new Body(templateNamed(setup.template), setup.fd, assets)

  /** Whether no asset's text holds a `\u0001`. */
  const plainAssets = () => [...assets.values()].every((a) => !`${a.id}${a.symbol}${a.name}`.includes(MARK))

  const addRows = (pieces: ReadonlyArray<Uint8Array>): void => {
    const lines: Array<string> = []
    let plain = plainAssets()
    let orderable = true
    for (const piece of pieces) {
      // a piece at a time (a few kilobytes): no string of a whole window to collect
      if (piece.includes(MARK_BYTE)) plain = false
      const text = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString("utf8")
      if (orderable && !isOrderable(text)) orderable = false
      for (let from = 0, end = text.indexOf("\n"); end >= 0; from = end + 1, end = text.indexOf("\n", from)) {
        lines.push(text.slice(from, end))
      }
    }
    if (lines.length > 0) body.add(inReportOrder(lines, orderable), take, plain)
  }

  // rows come mostly a few assets over and over: the last one is kept at hand
  let lastAssetId = ""
  let lastAsset = -1

  /** A line's row with its ids numbered (the read's strings from here on: one per id), added up. */
  const take = (line: string): Numbered => {
    const f = line.split("\t")
    const party = ids.numberOf(f[PARTY])
    if (f[ASSET] !== lastAssetId) lastAsset = ids.numberOf((lastAssetId = f[ASSET]))
    const asset = lastAsset
    const fields = reader.row(f, ids.idOf(party), ids.idOf(asset))
    sums.addAt(party, asset, fields.amount)
    return { fields, party, asset }
  }

  const finish = (): Finished => {
    const pairs: Array<number> = []
    const amounts: Array<string> = []
    sums.forEachPair((party, asset, amount) => {
      pairs.push(asset, party)
      amounts.push(amount.toString())
    })
    return {
      ids: ids.all(),
      pairs: Int32Array.from(pairs),
      amounts: amounts.join(","),
      kept: {
        segments: body.segments,
        notInTimeOrder: timesGoBack(body.segments),
        extents: body.extents?.state()
      }
    }
  }

  port.on("message", (request: Request) => {
    try {
      switch (request.kind) {
        case "rows":
          addRows(request.pieces)
          port.postMessage({ kind: "ack" } satisfies Reply)
          return
        case "assets":
          for (const asset of request.assets) assets.set(asset.id, asset)
          return
        case "finish":
          port.postMessage({ kind: "finished", finished: finish() } satisfies Reply)
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
