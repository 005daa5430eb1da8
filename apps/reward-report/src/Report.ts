/**
 * The report: what was read, from where, and what it adds up to. Every output format renders this
 * one value, so they all say the same thing.
 *
 * Amounts are kept twice: `amount` in the asset's base units (a `bigint`, as the node sends it) and
 * `units` in asset units as an exact decimal string (`amount` ÷ 10^decimals, trailing zeros
 * trimmed, never exponent notation). Nothing here passes through a JS float.
 */
import type { RowLayout, RowTemplate } from "./RowTemplate.js"

/** The asset an amount is in. */
export interface AssetInfo {
  readonly id: string
  readonly symbol: string
  readonly name: string
  readonly decimals: number
}

/** How the lines are grouped. */
export type View = "assets" | "parties" | "totals" | "epochs"
export const views: ReadonlyArray<View> = ["assets", "parties", "totals", "epochs"]

/**
 * Order of the lines within their group: `amount` largest first (the default), `amount-asc`
 * smallest first, `party` by party id, `alias` by alias (parties without one last, by id).
 */
export type SortOrder = "amount" | "amount-asc" | "party" | "alias"
export const sortOrders: ReadonlyArray<SortOrder> = ["amount", "amount-asc", "party", "alias"]

/** What the report was asked for. Ids are lowercase hex. */
export interface Filters {
  /** Only these parties; empty = every party. */
  readonly parties: ReadonlyArray<string>
  /** Only these assets; empty = every asset. */
  readonly assets: ReadonlyArray<string>
  /** Per-epoch rows from this epoch on (inclusive); none = from the first. */
  readonly fromEpoch: bigint | undefined
  /** Per-epoch rows up to this epoch (inclusive); none = to the last. */
  readonly toEpoch: bigint | undefined
  /** Per-epoch rows of these reward types only; empty = every type. */
  readonly rewardTypes: ReadonlyArray<string>
  /** Only the best `top` parties of each asset; none = all. */
  readonly top: number | undefined
  readonly sort: SortOrder
}

/** Everything: every party, asset, epoch and type, largest first. */
export const noFilters: Filters = {
  parties: [],
  assets: [],
  fromEpoch: undefined,
  toEpoch: undefined,
  rewardTypes: [],
  top: undefined,
  sort: "amount"
}

/** Where and when the data was read. */
export interface Provenance {
  /** The nodes that answered (base URLs), in the order they first did. */
  readonly nodes: ReadonlyArray<string>
  /** The highest block height an answer was given at. */
  readonly height: bigint
  /** The lowest; equal to `height` when every answer came from one block. */
  readonly lowestHeight: bigint
  /** Block time at `height`, ISO 8601 UTC with the node's precision, e.g. `2024-04-01T10:00:00.123456Z`. */
  readonly blockTime: string
  readonly filters: Filters
  /** When the report was made, ISO 8601 UTC (milliseconds). */
  readonly generatedAt: string
  /** The program and version that made it. */
  readonly generator: string
}

/** One party's total in one asset (from the reward summaries). */
export interface PartyLine {
  /** 1 for the largest amount of this asset; equal amounts share a rank (1, 2, 2, 4). */
  readonly rank: number
  readonly partyId: string
  /** From the party's profile; undefined when it has none (or an empty one). */
  readonly alias: string | undefined
  readonly asset: AssetInfo
  /** Base units. */
  readonly amount: bigint
  /** Asset units, exact. */
  readonly units: string
  /** Percent of the asset's total over all parties read, 4 decimals rounded half to even, e.g. `"12.3457"`. */
  readonly share: string
}

/** One asset's total over the parties read. */
export interface AssetTotal {
  readonly asset: AssetInfo
  /** Parties with a summary in this asset. */
  readonly parties: number
  readonly amount: bigint
  readonly units: string
}

/** One row of `GET /api/v2/rewards`: one payout to one party in one epoch. */
export interface EpochRow {
  readonly epoch: bigint
  /** Unix nanoseconds of the block that paid it. */
  readonly receivedAt: bigint
  /** The same as ISO 8601 UTC with microseconds, e.g. `2024-04-01T10:00:00.123456Z`. */
  readonly receivedAtIso: string
  readonly partyId: string
  readonly alias: string | undefined
  readonly asset: AssetInfo
  /** Reward account type name, e.g. `ACCOUNT_TYPE_GLOBAL_REWARD`. */
  readonly rewardType: string
  readonly amount: bigint
  readonly units: string
  /** The node's text (Go float, 0–100), kept as sent, e.g. `"33.333333333333336"` or `"5e-05"`. */
  readonly percentageOfTotal: string
  readonly lockedUntilEpoch: bigint
  readonly gameId: string | undefined
  readonly teamId: string | undefined
  /**
   * A stable id of this row for tax tools' duplicate checks (the API has no transaction hash):
   * SHA-256 hex of epoch, party, asset, reward type, game and the row's index among equal keys.
   */
  readonly rowId: string
}

/**
 * A piece of an output as it is written: text, or text already encoded as UTF-8 (rows laid out as
 * they were read are kept so).
 */
export type Piece = string | Uint8Array

/** A per-epoch row without its id, for outputs that do not show ids. */
export type UnidentifiedRow = Omit<EpochRow, "rowId">

/**
 * The per-epoch rows of a report in report order, read lazily: a report may list millions, so they
 * are kept on disk while it is made and each pass over them reads them again.
 */
export interface EpochRows extends Iterable<EpochRow> {
  readonly length: number
  /** The same rows in the same order without their ids, which are not made (a hash each). */
  withoutIds(): Iterable<UnidentifiedRow>
  /** The rows by payout time, `oldest` or `newest` first; rows paid in the same block keep their report order. */
  byReceivedAt(first: "oldest" | "newest"): Iterable<EpochRow>
  /** Why {@link byReceivedAt} cannot list these rows (the node's times go back), or undefined when it can. */
  notInTimeOrder(): string | undefined
  /** The first `n` rows (or all, when there are fewer). */
  head(n: number): ReadonlyArray<EpochRow>
  /**
   * The rows laid out by `template`, its layout given, as text pieces in the template's order.
   * Rows read for that template may have been laid out as they were read (only its slots are filled
   * now); rows read for another cannot be.
   */
  render(template: RowTemplate, layout: RowLayout): Iterable<Piece>
  /**
   * A few rows, not all real, holding column by column the widest cell of these rows (epoch, time,
   * party, type, amount), so a table sizes its columns without going through the rows twice.
   * Absent where the rows are few enough to measure.
   */
  widest?(): Iterable<UnidentifiedRow>
}

/** A party and asset whose per-epoch rows do not add up to its summary. */
export interface Mismatch {
  readonly partyId: string
  /** From the party's profile; undefined when it has none (or an empty one). */
  readonly alias: string | undefined
  readonly asset: AssetInfo
  /** From `/api/v2/rewards/summaries`, base units (0 when there is no summary). */
  readonly summary: bigint
  /** Sum of the per-epoch rows, base units (0 when there are none). */
  readonly rows: bigint
}

/** Whether the per-epoch rows add up to the summaries. */
export type CrossCheck =
  | { readonly status: "passed"; readonly pairs: number; readonly rows: number }
  | {
      readonly status: "failed"
      readonly pairs: number
      readonly rows: number
      readonly mismatches: ReadonlyArray<Mismatch>
    }
  /** Not comparable: the rows were limited to an epoch range or to some reward types. */
  | { readonly status: "skipped"; readonly reason: string }

export interface Report {
  readonly provenance: Provenance
  readonly view: View
  /** Per asset, ordered by symbol then id (assets with no rewards read are left out). */
  readonly totals: ReadonlyArray<AssetTotal>
  /**
   * Party totals after `top`, in display order: for the `assets` view grouped by asset (in
   * `totals` order) and sorted within; for the `parties` view grouped by party (groups in sort
   * order) with each party's assets in `totals` order. Empty for the `totals` view.
   */
  readonly lines: ReadonlyArray<PartyLine>
  /** Per-epoch rows, oldest epoch first (then party, asset, type, amount); undefined when not read. */
  readonly epochs: EpochRows | undefined
  /** Undefined when the per-epoch rows were not read. */
  readonly crossCheck: CrossCheck | undefined
}
