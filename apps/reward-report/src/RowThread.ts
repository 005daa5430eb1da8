/**
 * The per-epoch rows of a read handed to a thread of their own (`internal/rowsWorker.ts`): the
 * reading thread decodes the node's answers and writes each row as a line; the other thread adds
 * them up and lays out every row as the output lists it. So a report of millions of rows is written
 * in little more than the time the reads take: its work is done while the node is answering, on
 * the machine's other core.
 *
 * A window of epochs goes over once sealed, as bytes moved rather than copied; at most
 * {@link IN_FLIGHT_BYTES} are on their way, so a thread that falls behind for long slows the read
 * instead of filling memory. The rows must come in report order, a window of whole epochs at a
 * time (a read of one filter); `RowCollector.inThread` takes the others, and the reads whose rows
 * are only added up (or only the first few kept): that costs less where the rows are decoded than
 * writing them out for another thread and reading them there.
 */
import type { Reward } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { readFileSync } from "node:fs"
import { createRequire as requireFrom } from "node:module"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import { Amounts, type Ids } from "./Amounts.js"
import type { ReadError } from "./ReadError.js"
import { RenderedRows } from "./RenderedRows.js"
import type { AssetInfo } from "./Report.js"
import type { RowCollector, Rows } from "./RowCollector.js"
import { rewardTypeName } from "./RowOrder.js"
import { RowExtents } from "./RowExtents.js"
import type { RowTemplate } from "./RowTemplate.js"
import { OrderedLineWriter } from "./internal/orderedLines.js"
import type { Kept, Reply, Request, Setup, SumsPart } from "./internal/rowsWorker.js"
import { SpillFile } from "./internal/spillFile.js"

/**
 * Bytes of rows sent and not yet handled, at most: a few windows, so that the thread catches up
 * when it falls behind for a while (it has until the read's last answers come to finish).
 */
export const IN_FLIGHT_BYTES = 16 << 20

/**
 * The thread's young generation, in megabytes (a third of it for new objects, rounded up to a
 * power of two: 8). Nearly all the thread makes is garbage by the next row, but a window's lines
 * live until the window is laid out: in a smaller young generation they outlive two collections
 * and are moved to the old one, to be collected there. Measured at a million rows: 12 MB took
 * about 1,000 young and 60 full collections, 1.5 s of the thread's time; 24 MB about 510 and 25,
 * 0.8 s; 32 MB (16 for new objects) 260 and 6, 0.4 s, but its peak while the rows are read came
 * to 20-30 MB more, too close to the process's highest.
 */
export const YOUNG_GENERATION_MB = 24

/** Lines are encoded once about this long (short strings stay cheap to collect). */
const PIECE = 32_768

const encoder = new TextEncoder()

export interface ThreadOptions {
  /** The read's ids: the sums come back numbered by them. */
  readonly ids: Ids
  /** Only rows of these types are counted; empty = every type. */
  readonly types: ReadonlySet<string>
  /** Lays out every row as the output lists it. */
  readonly template: RowTemplate
  /** The assets known so far; an asset a row is paid in is described (and added here) before the row is sent. */
  readonly assets: Map<string, AssetInfo>
  readonly describeAsset: (assetId: string) => Effect.Effect<AssetInfo, ReadError>
}

/**
 * The thread's script: beside the bundle's entry when bundled (`scripts/bundle-app.mjs` writes it
 * there), which is one folder above the chunks this module may be bundled into;
 * from source, the TypeScript module, loaded once tsx's loader is registered in the thread (a
 * `--import` of the loader is not applied to a thread on Node 20).
 */
const startWorker = (workerData: Setup): Worker => {
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
  if (!import.meta.url.endsWith(".ts")) {
    const beside = import.meta.url.includes("/chunks/") ? "../rowsWorker.js" : "./rowsWorker.js"
    return new Worker(new URL(beside, import.meta.url), { workerData, resourceLimits })
  }
  // the loader's ES module entry, as its package.json names it (`require.resolve` would give the CommonJS one)
  const manifest = requireFrom(import.meta.url).resolve("tsx/package.json")
  const exported = JSON.parse(readFileSync(manifest, "utf8")).exports["./esm/api"].import.default as string
  const loader = new URL(exported, pathToFileURL(manifest)).href
  const script = new URL("./internal/rowsWorker.ts", import.meta.url).href
  const source = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(script)}) })`
  return new Worker(source, { eval: true, execArgv: ["--conditions=@vega-effect/source"], workerData, resourceLimits })
}

class RowThread implements RowCollector {
  private readonly worker: Worker
  private readonly body: SpillFile
  /** Lines of the window being read, not yet encoded; then encoded, in pieces of whole lines. */
  private text = ""
  private pieces: Array<Uint8Array> = []
  private readonly lines = new OrderedLineWriter()
  private count = 0
  /** The sizes of the messages sent and not yet handled, oldest first. */
  private readonly inFlight: Array<number> = []
  private inFlightBytes = 0
  private readonly assetsPaid = new Set<string>()
  private failure: Error | undefined
  /** The thread's ids, and each one's number in the read's ids (-1 until looked up). */
  private threadIds: ReadonlyArray<string> = []
  private numbers = new Int32Array(0)
  /** The thread's sums in the read's ids, added up as they come. */
  private readonly sums: Amounts
  /** What the thread kept, once it is finished. */
  private kept: Kept | undefined
  /** Called when a reply changes what a waiting read waits for. */
  private wake: (() => void) | undefined
  private readonly unknownAssets = new Set<string>()
  /** The last asset a row was checked against the known ones (rows of an answer mostly share one). */
  private lastAsset = ""

  constructor(private readonly options: ThreadOptions) {
    this.body = SpillFile.create("vega-reward-report-")
    const setup: Setup = { template: options.template.name, fd: this.body.fd, assets: [...options.assets.values()] }
    this.worker = startWorker(setup)
    this.sums = new Amounts(options.ids)
    this.worker.on("message", (reply: Reply) => {
      switch (reply.kind) {
        case "ack":
          this.inFlightBytes -= this.inFlight.shift() ?? 0
          break
        case "ids":
          this.threadIds = reply.ids
          this.numbers = new Int32Array(reply.ids.length).fill(-1)
          break
        case "sums":
          this.addSums(reply.part)
          break
        case "finished":
          this.kept = reply.kept
          // its work is done: its memory is let go at once (the rest of the read goes on meanwhile)
          void this.worker.terminate()
          break
        case "failed":
          this.failure = new Error(`the per-epoch rows' thread failed: ${reply.message}`)
      }
      this.wake?.()
    })
    this.worker.on("error", (error) => {
      this.failure = error
      this.wake?.()
    })
    this.worker.on("exit", (code) => {
      this.failure ??= this.kept === undefined ? new Error(`the per-epoch rows' thread exited (${code})`) : undefined
      this.wake?.()
    })
  }

  readonly add = (rows: Iterable<Reward.Reward>): void => {
    const { assets, types } = this.options
    for (const row of rows) {
      const type = rewardTypeName(row.rewardType)
      if (types.size > 0 && !types.has(type)) continue
      if (row.assetId !== this.lastAsset) {
        if (!assets.has(row.assetId)) this.unknownAssets.add(row.assetId)
        this.assetsPaid.add(row.assetId)
        this.lastAsset = row.assetId
      }
      this.text += this.lines.line(row, type)
      this.count++
      if (this.text.length >= PIECE) this.encode()
    }
  }

  /** The lines so far as bytes: short strings, and buffers of their own (not from a shared pool) to move. */
  private encode(): void {
    if (this.text === "") return
    this.pieces.push(encoder.encode(this.text))
    this.text = ""
  }

  /** Waits until `done` says so, or fails with the thread's failure. */
  private until(done: () => boolean): Effect.Effect<void> {
    return Effect.async<void>((resume) => {
      const check = () => {
        if (this.failure !== undefined) resume(Effect.die(this.failure))
        else if (done()) resume(Effect.void)
        else return false
        this.wake = undefined
        return true
      }
      if (!check()) this.wake = check
      return Effect.sync(() => {
        this.wake = undefined
      })
    })
  }

  /** Describes the assets rows were paid in that were not known, here and to the thread. */
  private readonly describeNew = Effect.suspend(() => {
    if (this.unknownAssets.size === 0) return Effect.void
    const ids = [...this.unknownAssets]
    this.unknownAssets.clear()
    return Effect.forEach(ids, this.options.describeAsset).pipe(
      Effect.map((described) => {
        for (const asset of described) this.options.assets.set(asset.id, asset)
        this.send({ kind: "assets", assets: described })
      })
    )
  })

  private send(request: Request, transfer?: ReadonlyArray<ArrayBuffer>): void {
    this.worker.postMessage(request, transfer as Array<ArrayBuffer> | undefined)
  }

  readonly seal: Effect.Effect<void, ReadError> = Effect.suspend(() =>
    this.describeNew.pipe(
      Effect.zipRight(
        Effect.suspend(() => {
          this.encode()
          if (this.pieces.length === 0) return Effect.void
          const pieces = this.pieces
          this.pieces = []
          const size = pieces.reduce((sum, piece) => sum + piece.byteLength, 0)
          this.inFlight.push(size)
          this.inFlightBytes += size
          this.send(
            { kind: "rows", pieces, written: this.lines.take() },
            pieces.map((piece) => piece.buffer as ArrayBuffer)
          )
          return this.until(() => this.inFlightBytes <= IN_FLIGHT_BYTES)
        })
      )
    )
  )

  readonly paidIn = (): ReadonlyArray<string> => [...this.assetsPaid]

  private finishing = false

  readonly done = (): void => {
    if (this.finishing) return
    this.finishing = true
    this.send({ kind: "finish" })
  }

  readonly result: Effect.Effect<Rows, ReadError> = Effect.suspend(() => {
    this.done()
    return this.until(() => this.kept !== undefined).pipe(Effect.map(() => this.rows(this.kept!)))
  })

  /** Adds a part of the thread's sums, its numbers turned into the read's (each id looked up once). */
  private addSums({ amounts, pairs }: SumsPart): void {
    const { ids } = this.options
    const numberOf = (n: number) => {
      const known = this.numbers[n]
      return known >= 0 ? known : (this.numbers[n] = ids.numberOf(this.threadIds[n]))
    }
    const each = amounts.split(",")
    for (let i = 0; i < each.length; i++) {
      this.sums.addAt(numberOf(pairs[2 * i + 1]), numberOf(pairs[2 * i]), BigInt(each[i]))
    }
  }

  /** The thread's sums, and what it kept. */
  private rows(kept: Kept): Rows {
    return {
      sums: this.sums,
      count: this.count,
      kept: new RenderedRows(
        this.body,
        this.options.template,
        kept.segments,
        this.threadIds,
        this.count,
        kept.notInTimeOrder,
        kept.extents === undefined ? undefined : RowExtents.of(kept.extents)
      )
    }
  }

  /** Stops the thread (it has stopped already when its work was finished). */
  stop(): Promise<unknown> {
    return this.worker.terminate()
  }

  /** Lets go of the laid-out rows' file (also when the rows are closed). */
  close(): void {
    this.body.close()
  }
}

/** Rows handed to a thread of their own, stopped (and their file let go) when the scope closes. */
export const threaded = (options: ThreadOptions): Effect.Effect<RowCollector, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => new RowThread(options)),
    (thread) => Effect.promise(() => thread.stop()).pipe(Effect.zipRight(Effect.sync(() => thread.close())))
  )
