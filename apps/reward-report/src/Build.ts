/**
 * From what was read to the report: exact totals, shares and ranks, the lines of the chosen view in
 * display order, per-epoch rows with stable ids, and the cross-check of rows against summaries.
 * Pure: the same snapshot and request always give the same report.
 */
import { Amounts } from "./Amounts.js"
import { unitsOf } from "./formats/text.js"
import type {
  AssetInfo,
  AssetTotal,
  CrossCheck,
  Filters,
  Mismatch,
  PartyLine,
  Provenance,
  Report,
  View
} from "./Report.js"
import { compareBig, compareText } from "./RowOrder.js"
import type { RowSource } from "./RowStore.js"

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
  readonly summaries: Iterable<Summary>
  /** Party id → alias, for parties with a non-empty alias. */
  readonly aliases: ReadonlyMap<string, string>
  /** The per-epoch rows, when they were read and kept (the output lists them). */
  readonly rows: RowSource | undefined
  /** The per-epoch rows added up per party and asset, and how many there were, when they were read. */
  readonly rowSums: { readonly sums: Iterable<Summary>; readonly count: number } | undefined
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

const compareAssets = (a: AssetInfo, b: AssetInfo): number => compareText(a.symbol, b.symbol) || compareText(a.id, b.id)

/** The asset a summary or row names; the reader guarantees every one is known. */
const assetOf = (assets: Snapshot["assets"], id: string): AssetInfo => {
  const asset = assets.get(id)
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
      const asset = assetOf(snapshot.assets, id)
      return { asset, parties: total.parties, amount: total.amount, units: unitsOf(total.amount, asset.decimals) }
    })
    .sort((a, b) => compareAssets(a.asset, b.asset))
}

/**
 * A party's line; its texts are made when shown (a big network has hundreds of thousands of lines,
 * held while the report is written).
 */
class RankedLine implements PartyLine {
  constructor(
    readonly rank: number,
    readonly partyId: string,
    readonly alias: string | undefined,
    readonly asset: AssetInfo,
    readonly amount: bigint,
    /** The asset's total, for the share. */
    private readonly total: bigint
  ) {}

  get units(): string {
    return unitsOf(this.amount, this.asset.decimals)
  }

  get share(): string {
    return shareOf(this.amount, this.total)
  }
}

/** Every (party, asset) line with its rank and share, grouped by asset in `totals` order, largest first. */
const rankedLines = (snapshot: Snapshot, totals: ReadonlyArray<AssetTotal>): ReadonlyArray<Array<PartyLine>> => {
  const table = snapshot.summaries instanceof Amounts ? snapshot.summaries : Amounts.of(snapshot.summaries)
  return totals.map(({ amount: total, asset }) => {
    const lines: Array<PartyLine> = []
    let previous: bigint | undefined
    let rank = 0
    table.forEachByAmount(asset.id, (partyId, amount) => {
      if (amount !== previous) rank = lines.length + 1
      previous = amount
      lines.push(new RankedLine(rank, partyId, snapshot.aliases.get(partyId), asset, amount, total))
    })
    return lines
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

/** The lines of the view (none for the totals and epochs views, which do not list them). */
const linesOf = (
  view: View,
  filters: Filters,
  ranked: () => ReadonlyArray<Array<PartyLine>>
): ReadonlyArray<PartyLine> => {
  if (view === "totals" || view === "epochs") return []
  const top = filters.top
  const kept = ranked().map((lines) => (top === undefined ? lines : lines.filter((l) => l.rank <= top)))
  if (view === "parties") return groupByParty(kept.flat(), filters)
  const order = lineOrder(filters)
  return kept.flatMap((lines) => lines.sort(order))
}

/**
 * The rows' sums per (party, asset), compared with the summaries (a pair missing on one side counts
 * 0). Tables already read are compared as they are; other lists are added up first.
 */
export const crossCheck = (
  summaries: Iterable<Summary>,
  rowSums: Iterable<Summary>,
  rowCount: number,
  assetOfId: (id: string) => AssetInfo,
  aliasOf: (partyId: string) => string | undefined = () => undefined
): CrossCheck => {
  const expected = summaries instanceof Amounts ? summaries : Amounts.of(summaries)
  const read = rowSums instanceof Amounts ? rowSums : Amounts.of(rowSums, expected.ids)
  const mismatches: Array<Mismatch> = []
  let pairs = 0
  for (const { assetId, left, partyId, right } of expected.pairsWith(read)) {
    pairs++
    const summary = left ?? 0n
    const rows = right ?? 0n
    if (summary !== rows)
      mismatches.push({ partyId, alias: aliasOf(partyId), asset: assetOfId(assetId), summary, rows })
  }
  mismatches.sort((a, b) => compareAssets(a.asset, b.asset) || compareText(a.partyId, b.partyId))
  const counts = { pairs, rows: rowCount }
  return mismatches.length === 0 ? { status: "passed", ...counts } : { status: "failed", ...counts, mismatches }
}

export const build = (snapshot: Snapshot, request: BuildRequest): Report => {
  const totals = totalsOf(snapshot)
  const { aliases, assets, rowSums, rows } = snapshot
  return {
    provenance: {
      ...snapshot.provenance,
      filters: request.filters,
      generatedAt: request.generatedAt,
      generator: request.generator
    },
    view: request.view,
    totals,
    lines: linesOf(request.view, request.filters, () => rankedLines(snapshot, totals)),
    epochs:
      rows === undefined
        ? undefined
        : // the rows are read while the report is written: they keep the assets and aliases, not the
          // whole snapshot (its tables of totals are not needed any more)
          rows.rows({ asset: (id) => assetOf(assets, id), alias: (id) => aliases.get(id) }),
    crossCheck:
      rowSums === undefined
        ? undefined
        : snapshot.notComparable !== undefined
          ? { status: "skipped", reason: snapshot.notComparable }
          : crossCheck(
              snapshot.summaries,
              rowSums.sums,
              rowSums.count,
              (id) => assetOf(assets, id),
              (id) => aliases.get(id)
            )
  }
}
