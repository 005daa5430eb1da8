/**
 * A watched resource: how to read its current rows, and what a change of one row means.
 *
 * Each resource keys its rows by a stable key (a position is market + party, a stake linking its
 * id...) and reads them either completely (keys not read are gone) or incrementally (only rows
 * that may have changed, where the node's ordering lets it stop early). The watcher compares the
 * rows with those it holds, asks `diff` what each change means, and stores both in one transaction.
 */
import type { SqlError } from "@effect/sql/SqlError"
import type { DataNodeError } from "@vega-effect/http"
import type * as Effect from "effect/Effect"
import type { Change, ResourceName, Row } from "./Event.js"
import { fingerprintOf, type HeldRows } from "./Fingerprints.js"

/** An asset as a diff needs it: to say amounts in the asset's own units. */
export interface AssetInfo {
  readonly symbol: string
  readonly decimals: number
}

export interface ReadContext {
  /**
   * The rows held after the last cycle, by key, as fingerprints (see `fingerprint`): enough to
   * tell whether a row read now is the one held, for a fraction of the memory of the rows.
   */
  readonly previous: HeldRows
  /** The keys held, from the store, for a read that needs them (the fingerprints keep no keys). */
  readonly heldKeys: Effect.Effect<ReadonlyArray<string>, SqlError>
  /** What the last read left for this one (`Snapshot.resume`), committed with the rows held. */
  readonly resume?: string | undefined
}

export interface DiffContext {
  readonly asset: (assetId: string) => AssetInfo | undefined
}

export interface Snapshot {
  readonly rows: ReadonlyMap<string, Row>
  /** `true`: every row there is (a held key missing here is gone); `false`: only rows that may have changed. */
  readonly complete: boolean
  /**
   * Where the next read may start (the positions' watermark, say), committed with the rows in the
   * same transaction, so that whoever reads the slice next, after a restart or a takeover, can
   * start there too. Absent: the next read starts over.
   */
  readonly resume?: string | undefined
}

export interface Resource {
  readonly name: ResourceName
  readonly read: (context: ReadContext) => Effect.Effect<Snapshot, DataNodeError.DataNodeError | SqlError>
  /**
   * Reads again only what live hints name (what a hint is depends on the resource: a party for
   * stake, `<market>/<party>/<id>` for a liquidity provision): the rows under those names, and
   * `null` for a key that is gone. Absent: a hint reads the whole slice again with `read`.
   */
  readonly readHinted?: (
    hints: ReadonlyArray<string>,
    context: ReadContext
  ) => Effect.Effect<ReadonlyMap<string, Row | null>, DataNodeError.DataNodeError>
  /**
   * Whether a row a live source carries is one this resource watches (its configured parties and
   * markets); absent: every row. Rows a hint's read returns are filtered by the read itself.
   */
  readonly watches?: (key: string, row: Row) => boolean
  /** What the change from `before` to `after` (either absent: created or gone) means; may be nothing. */
  readonly diff: (before: Row | undefined, after: Row | undefined, context: DiffContext) => ReadonlyArray<Change>
}

/** The stored form of a row: its JSON, fields in the order they were read (the wire order). */
export const canonical = (row: Row): string => JSON.stringify(row)

export const fingerprint = (row: Row): string => fingerprintOf(canonical(row))
