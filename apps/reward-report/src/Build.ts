/**
 * From what was read to the report: exact totals, shares and ranks, the lines of the chosen view in
 * display order, per-epoch rows with stable ids, and the cross-check of rows against summaries.
 * Pure: the same snapshot and request always give the same report.
 */
import type { Reward } from "@vega-effect/schema"
import { Enum, Timestamp } from "@vega-effect/schema"
import { createHash } from "node:crypto"
import { unitsOf } from "./formats/text.js"
import type {
  AssetInfo,
  AssetTotal,
  CrossCheck,
  EpochRow,
  Filters,
  Mismatch,
  PartyLine,
  Provenance,
  Report,
  View
} from "./Report.js"

/** One (party, asset) total as `/api/v2/rewards/summaries` gives it. */
export interface Summary {
  readonly partyId: string
  readonly assetId: string
  readonly amount: bigint
}

/** Everything the report is made from. */
export interface Snapshot {
  /** Every asset a summary or row refers to, by id. */
  readonly assets: ReadonlyMap<string, AssetInfo>
  readonly summaries: ReadonlyArray<Summary>
  /** Party id → alias, for parties with a non-empty alias. */
  readonly aliases: ReadonlyMap<string, string>
  /** The per-epoch rows, when they were read and kept (the output lists them). */
  readonly rows: ReadonlyArray<Reward.Reward> | undefined
  /** The per-epoch rows added up per party and asset, and how many there were, when they were read. */
  readonly rowSums: { readonly sums: ReadonlyArray<Summary>; readonly count: number } | undefined
  /** Why the rows cannot be compared with the summaries (they cover only some epochs or types). */
  readonly notComparable: string | undefined
  readonly provenance: Omit<Provenance, "filters" | "generatedAt" | "generator">
}

export interface BuildRequest {
  readonly view: View
  readonly filters: Filters
  /** ISO 8601 UTC. */
  readonly generatedAt: string
  readonly generator: string
}

/** A reward type's name as the node sent it, known to this version or not. */
export const rewardTypeName = (type: Reward.Reward["rewardType"]): string =>
  Enum.isUnknownEnumValue(type) ? String(type.value) : type

/** `amount` as a percentage of `total` with 4 decimals, rounded half to even (exact integer arithmetic). */
export const shareOf = (amount: bigint, total: bigint): string => {
  if (total === 0n) return "0.0000"
  const scaled = amount * 1_000_000n
  let q = scaled / total
  const twice = (scaled % total) * 2n
  if (twice > total || (twice === total && q % 2n === 1n)) q += 1n
  const digits = q.toString().padStart(5, "0")
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`
}

/** Unix nanoseconds as ISO 8601 UTC: microseconds (what the node keeps), or nanoseconds when it has them. */
export const isoOfNanos = (nanos: bigint): string => {
  const iso = Timestamp.vegaTimeToIsoString(Timestamp.vegaTimestamp(nanos))
  return iso.endsWith("000Z") ? `${iso.slice(0, -4)}Z` : iso
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const compareBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

const compareAssets = (a: AssetInfo, b: AssetInfo): number => compareText(a.symbol, b.symbol) || compareText(a.id, b.id)

/** The asset a summary or row names; the reader guarantees every one is known. */
const assetOf = (snapshot: Snapshot, id: string): AssetInfo => {
  const asset = snapshot.assets.get(id)
  if (asset === undefined) throw new Error(`asset ${id} was not read`)
  return asset
}

const totalsOf = (snapshot: Snapshot): ReadonlyArray<AssetTotal> => {
  const byAsset = new Map<string, { parties: number; amount: bigint }>()
  for (const s of snapshot.summaries) {
    const total = byAsset.get(s.assetId) ?? { parties: 0, amount: 0n }
    byAsset.set(s.assetId, { parties: total.parties + 1, amount: total.amount + s.amount })
  }
  return [...byAsset]
    .map(([id, total]) => {
      const asset = assetOf(snapshot, id)
      return { asset, parties: total.parties, amount: total.amount, units: unitsOf(total.amount, asset.decimals) }
    })
    .sort((a, b) => compareAssets(a.asset, b.asset))
}

/** Every (party, asset) line with its rank and share, grouped by asset in `totals` order, largest first. */
const rankedLines = (snapshot: Snapshot, totals: ReadonlyArray<AssetTotal>): ReadonlyArray<Array<PartyLine>> => {
  const byAsset = new Map<string, Array<Summary>>()
  for (const s of snapshot.summaries) {
    const list = byAsset.get(s.assetId)
    if (list === undefined) byAsset.set(s.assetId, [s])
    else list.push(s)
  }
  return totals.map(({ amount: total, asset }) => {
    const summaries = (byAsset.get(asset.id) ?? []).sort(
      (a, b) => compareBig(b.amount, a.amount) || compareText(a.partyId, b.partyId)
    )
    let rank = 0
    return summaries.map((s, i): PartyLine => {
      if (i === 0 || summaries[i - 1].amount !== s.amount) rank = i + 1
      return {
        rank,
        partyId: s.partyId,
        alias: snapshot.aliases.get(s.partyId),
        asset,
        amount: s.amount,
        units: unitsOf(s.amount, asset.decimals),
        share: shareOf(s.amount, total)
      }
    })
  })
}

/** Parties without an alias sort after those with one. */
const compareAlias = (a: PartyLine, b: PartyLine): number =>
  a.alias === b.alias ? 0 : a.alias === undefined ? 1 : b.alias === undefined ? -1 : compareText(a.alias, b.alias)

const lineOrder = (filters: Filters): ((a: PartyLine, b: PartyLine) => number) => {
  switch (filters.sort) {
    case "amount":
      return (a, b) => compareBig(b.amount, a.amount) || compareText(a.partyId, b.partyId)
    case "amount-asc":
      return (a, b) => compareBig(a.amount, b.amount) || compareText(a.partyId, b.partyId)
    case "party":
      return (a, b) => compareText(a.partyId, b.partyId)
    case "alias":
      return (a, b) => compareAlias(a, b) || compareText(a.partyId, b.partyId)
  }
}

/** The `parties` view: a party's lines together; parties ordered by the sort, their assets in `totals` order. */
const groupByParty = (kept: ReadonlyArray<PartyLine>, filters: Filters): ReadonlyArray<PartyLine> => {
  const groups = new Map<string, Array<PartyLine>>()
  for (const line of kept) {
    const group = groups.get(line.partyId)
    if (group === undefined) groups.set(line.partyId, [line])
    else group.push(line)
  }
  // a party's place for an amount sort is its best rank (then its largest share) over its assets
  const best = (lines: ReadonlyArray<PartyLine>) => lines.reduce((min, l) => Math.min(min, l.rank), Infinity)
  const order = (a: Array<PartyLine>, b: Array<PartyLine>): number => {
    switch (filters.sort) {
      case "amount":
        return best(a) - best(b) || compareText(a[0].partyId, b[0].partyId)
      case "amount-asc":
        return best(b) - best(a) || compareText(a[0].partyId, b[0].partyId)
      case "party":
        return compareText(a[0].partyId, b[0].partyId)
      case "alias":
        return compareAlias(a[0], b[0]) || compareText(a[0].partyId, b[0].partyId)
    }
  }
  return [...groups.values()].sort(order).flat()
}

const linesOf = (view: View, filters: Filters, ranked: ReadonlyArray<Array<PartyLine>>): ReadonlyArray<PartyLine> => {
  if (view === "totals" || view === "epochs") return []
  const top = filters.top
  const kept = ranked.map((lines) => (top === undefined ? lines : lines.filter((l) => l.rank <= top)))
  if (view === "parties") return groupByParty(kept.flat(), filters)
  const order = lineOrder(filters)
  return kept.flatMap((lines) => lines.sort(order))
}

const rowKey = (r: Reward.Reward): string =>
  `${r.epoch}|${r.partyId}|${r.assetId}|${rewardTypeName(r.rewardType)}|${r.gameId ?? ""}`

const compareRows = (a: Reward.Reward, b: Reward.Reward): number =>
  compareBig(a.epoch, b.epoch) ||
  compareText(a.partyId, b.partyId) ||
  compareText(a.assetId, b.assetId) ||
  compareText(rewardTypeName(a.rewardType), rewardTypeName(b.rewardType)) ||
  compareText(a.gameId ?? "", b.gameId ?? "") ||
  compareBig(a.amount, b.amount) ||
  compareText(a.percentageOfTotal, b.percentageOfTotal) ||
  compareBig(a.lockedUntilEpoch, b.lockedUntilEpoch) ||
  compareText(a.teamId ?? "", b.teamId ?? "")

/**
 * The rows in a fixed order with their ids. The node's order within an epoch is unspecified, so
 * rows are sorted by every field first: rows sharing a key get their index by amount and the other
 * fields, and rows equal in every field are interchangeable, so the ids do not depend on the read.
 */
const epochRowsOf = (snapshot: Snapshot, rows: ReadonlyArray<Reward.Reward>): ReadonlyArray<EpochRow> => {
  const sorted = [...rows].sort(compareRows)
  const isoCache = new Map<bigint, string>()
  let previousKey = ""
  let index = 0
  return sorted.map((r): EpochRow => {
    const key = rowKey(r)
    index = key === previousKey ? index + 1 : 0
    previousKey = key
    const asset = assetOf(snapshot, r.assetId)
    let iso = isoCache.get(r.receivedAt)
    if (iso === undefined) isoCache.set(r.receivedAt, (iso = isoOfNanos(r.receivedAt)))
    return {
      epoch: r.epoch,
      receivedAt: r.receivedAt,
      receivedAtIso: iso,
      partyId: r.partyId,
      alias: snapshot.aliases.get(r.partyId),
      asset,
      rewardType: rewardTypeName(r.rewardType),
      amount: r.amount,
      units: unitsOf(r.amount, asset.decimals),
      percentageOfTotal: r.percentageOfTotal,
      lockedUntilEpoch: r.lockedUntilEpoch,
      gameId: r.gameId,
      teamId: r.teamId,
      rowId: createHash("sha256").update(`vega-reward|${key}|${index}`).digest("hex")
    }
  })
}

/** The rows' sums per (party, asset), compared with the summaries. */
export const crossCheck = (
  summaries: ReadonlyArray<Summary>,
  rowSums: ReadonlyArray<Summary>,
  rowCount: number,
  assetOfId: (id: string) => AssetInfo
): CrossCheck => {
  const pairs = new Map<string, { partyId: string; assetId: string; summary: bigint; rows: bigint }>()
  const entry = (partyId: string, assetId: string) => {
    const key = `${partyId}|${assetId}`
    let e = pairs.get(key)
    if (e === undefined) pairs.set(key, (e = { partyId, assetId, summary: 0n, rows: 0n }))
    return e
  }
  for (const s of summaries) entry(s.partyId, s.assetId).summary += s.amount
  for (const r of rowSums) entry(r.partyId, r.assetId).rows += r.amount
  const mismatches: Array<Mismatch> = []
  for (const e of pairs.values()) {
    if (e.summary !== e.rows) {
      mismatches.push({ partyId: e.partyId, asset: assetOfId(e.assetId), summary: e.summary, rows: e.rows })
    }
  }
  mismatches.sort((a, b) => compareAssets(a.asset, b.asset) || compareText(a.partyId, b.partyId))
  const counts = { pairs: pairs.size, rows: rowCount }
  return mismatches.length === 0 ? { status: "passed", ...counts } : { status: "failed", ...counts, mismatches }
}

export const build = (snapshot: Snapshot, request: BuildRequest): Report => {
  const totals = totalsOf(snapshot)
  const { rowSums, rows } = snapshot
  return {
    provenance: {
      ...snapshot.provenance,
      filters: request.filters,
      generatedAt: request.generatedAt,
      generator: request.generator
    },
    view: request.view,
    totals,
    lines: linesOf(request.view, request.filters, rankedLines(snapshot, totals)),
    epochs: rows === undefined ? undefined : epochRowsOf(snapshot, rows),
    crossCheck:
      rowSums === undefined
        ? undefined
        : snapshot.notComparable !== undefined
          ? { status: "skipped", reason: snapshot.notComparable }
          : crossCheck(snapshot.summaries, rowSums.sums, rowSums.count, (id) => assetOf(snapshot, id))
  }
}
