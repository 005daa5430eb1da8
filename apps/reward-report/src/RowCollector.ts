/**
 * Where a read of the per-epoch rows puts them: it adds them up per party and asset, counts them
 * and keeps what the output lists. Two kinds: on another thread (`RowThread.ts`, a read of one
 * filter whose rows the output lists in full, laid out there) and in the reading thread
 * ({@link inThread}, for the rest).
 */
import type { Reward } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import { Amounts, type Ids } from "./Amounts.js"
import type { ReadError } from "./ReadError.js"
import { fieldsOf, rewardTypeName } from "./RowOrder.js"
import { RunningTotals } from "./internal/runningTotals.js"
import type { RowSink, RowSource } from "./RowStore.js"

/** What was read: the sums per party and asset, how many rows, and the rows themselves if kept. */
export interface Rows {
  readonly kept: RowSource | undefined
  readonly sums: Amounts
  readonly count: number
}

/**
 * `add` the rows of an answer; `seal` once every row of the epochs added so far has been added (a
 * window, or one epoch read in parts); `result` once the read is over (the rows' thread may still
 * be at work until then).
 */
export interface RowCollector {
  readonly add: (rows: Iterable<Reward.Reward>) => void
  readonly seal: Effect.Effect<void, ReadError>
  /** The assets the rows added so far were paid in. */
  readonly paidIn: () => ReadonlyArray<string>
  /** No more rows will come: the work with them can be finished (before `result` is asked for). */
  readonly done: () => void
  readonly result: Effect.Effect<Rows, ReadError>
}

/** The rows counted and kept in the reading thread: sums in the read's `ids`, rows in `sink`. */
export const inThread = (ids: Ids, types: ReadonlySet<string>, sink: RowSink | undefined): RowCollector => {
  // added up in limbs while read (no long-lived bigint per total), a table once the read is over
  const totals = new RunningTotals()
  let count = 0
  // rows mostly come an asset's together: its number is kept at hand
  let lastAssetId = ""
  let asset = -1
  return {
    add: (rows) => {
      for (const row of rows) {
        if (types.size > 0 && !types.has(rewardTypeName(row.rewardType))) continue
        // each id looked up once (a table of every party: the lookups cost more than the rest);
        // the read's strings from here on, the answer's own are let go with it
        const party = ids.numberOf(row.partyId)
        if (row.assetId !== lastAssetId) asset = ids.numberOf((lastAssetId = row.assetId))
        totals.add(party, asset, row.amount)
        count++
        if (sink !== undefined) sink.add(fieldsOf(row, ids.idOf(party), ids.idOf(asset)), party, asset)
      }
    },
    seal: Effect.sync(() => sink?.seal()),
    paidIn: () => totals.assets().map((asset) => ids.idOf(asset)),
    done: () => undefined,
    result: Effect.sync(() => {
      const sums = new Amounts(ids)
      totals.forEachPair((party, asset, amount) => sums.addAt(party, asset, amount))
      return { kept: sink, sums, count }
    })
  }
}
