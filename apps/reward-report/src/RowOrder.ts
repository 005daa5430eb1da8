/**
 * The order of the per-epoch rows in a report and their stable ids. The node's order within an
 * epoch is unspecified, so rows are sorted by every field: rows sharing a key (epoch, party, asset,
 * type, game) get their index among equals by amount and the other fields, and rows equal in every
 * field are interchangeable, so an id does not depend on the order the node sent the rows in.
 */
import type { Reward } from "@vega-effect/schema"
// the module alone: the thread that lays out rows loads no more of the schema than it needs
import * as Enum from "@vega-effect/schema/Enum"
import { hash } from "node:crypto"

/** A reward type's name as the node sent it, known to this version or not. */
export const rewardTypeName = (type: Reward.Reward["rewardType"]): string =>
  Enum.isUnknownEnumValue(type) ? String(type.value) : type

export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
export const compareBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

/** A per-epoch row as the report keeps it: the reward type by name, nothing else changed. */
export interface RowFields {
  readonly epoch: bigint
  /** Unix nanoseconds of the block that paid it. */
  readonly receivedAt: bigint
  readonly partyId: string
  readonly assetId: string
  readonly rewardType: string
  readonly amount: bigint
  readonly percentageOfTotal: string
  readonly lockedUntilEpoch: bigint
  readonly gameId: string | undefined
  readonly teamId: string | undefined
}

/** The fields of a row as read; the ids may be given as strings equal to the row's (kept ones). */
export const fieldsOf = (r: Reward.Reward, partyId: string = r.partyId, assetId: string = r.assetId): RowFields => ({
  epoch: r.epoch,
  receivedAt: r.receivedAt,
  partyId,
  assetId,
  rewardType: rewardTypeName(r.rewardType),
  amount: r.amount,
  percentageOfTotal: r.percentageOfTotal,
  lockedUntilEpoch: r.lockedUntilEpoch,
  gameId: r.gameId,
  teamId: r.teamId
})

/** What makes rows "the same payout" for the id: equal keys are told apart by their index. */
export const rowKey = (r: RowFields): string => `${r.epoch}|${r.partyId}|${r.assetId}|${r.rewardType}|${r.gameId ?? ""}`

const absentFirst = (a: string | undefined, b: string | undefined): number =>
  a === undefined ? (b === undefined ? 0 : -1) : b === undefined ? 1 : 0

/**
 * Report order: epoch, party, asset, type, game, then the remaining fields, the payout time last
 * (a total order: rows it finds equal are equal in every field).
 */
export const compareRows = (a: RowFields, b: RowFields): number =>
  compareBig(a.epoch, b.epoch) ||
  compareText(a.partyId, b.partyId) ||
  compareText(a.assetId, b.assetId) ||
  compareText(a.rewardType, b.rewardType) ||
  compareText(a.gameId ?? "", b.gameId ?? "") ||
  compareBig(a.amount, b.amount) ||
  compareText(a.percentageOfTotal, b.percentageOfTotal) ||
  compareBig(a.lockedUntilEpoch, b.lockedUntilEpoch) ||
  compareText(a.teamId ?? "", b.teamId ?? "") ||
  absentFirst(a.gameId, b.gameId) ||
  absentFirst(a.teamId, b.teamId) ||
  compareBig(a.receivedAt, b.receivedAt)

/** SHA-256 hex of the key and the row's index among rows of that key. */
export const rowIdOf = (key: string, index: number): string => hash("sha256", `vega-reward|${key}|${index}`, "hex")

/**
 * Whether two rows have the same key: the fields of {@link rowKey}, compared without building it
 * (the two change together; `RowStore.test.ts` checks the ids against `rowKey` alone).
 */
export const sameKey = (a: RowFields, b: RowFields): boolean =>
  a.epoch === b.epoch &&
  a.partyId === b.partyId &&
  a.assetId === b.assetId &&
  a.rewardType === b.rewardType &&
  (a.gameId ?? "") === (b.gameId ?? "")

/**
 * Counts each row's index among the rows of its key, for rows coming in report order (equal keys
 * are then next to each other): call the function it returns with each row in turn.
 */
export const keyIndexes = (): ((row: RowFields) => number) => {
  let previous: RowFields | undefined
  let index = 0
  return (row) => {
    index = previous !== undefined && sameKey(previous, row) ? index + 1 : 0
    previous = row
    return index
  }
}
