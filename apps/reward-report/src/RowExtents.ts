/**
 * What the widest cells of a listing of per-epoch rows depend on, gathered as the rows are kept,
 * so that a table sizes its columns without going through millions of rows a second time.
 *
 * From them come a few stand-in rows that hold, column by column, the widest cell of the kept rows:
 * the first and last epoch and payout time, every party and reward type, and for each asset 0 and
 * amounts as long as its longest (positive and negative) and with as many fraction digits shown. Each
 * stand-in is the first kept row with one field changed, so every other cell of it is one the rows
 * have. Measured with the same functions as the rows themselves, they give the same widths.
 */
import type { Ids } from "./Amounts.js"
import type { RowFields } from "./RowOrder.js"

/** An asset's amounts, by what sets the width of their integer and fraction parts. */
interface AmountExtent {
  /** Most digits of an amount above 0, and of one below 0 (0 when there is none). */
  digits: number
  negativeDigits: number
  /** Fewest trailing zeros of an amount other than 0 (`Infinity` when there is none). */
  trailingZeros: number
}

const trailingZerosOf = (digits: string): number => {
  let zeros = 0
  for (let i = digits.length - 1; i >= 0 && digits.charCodeAt(i) === 48; i--) zeros++
  return zeros
}

/**
 * A one and `zeros` zeros, negative when asked. With as many digits as an amount, it has as wide an
 * integer part, and no more fraction digits shown (that amount has at most as many trailing zeros).
 */
const oneAnd = (zeros: number, negative = false): bigint => (negative ? -(10n ** BigInt(zeros)) : 10n ** BigInt(zeros))

/** What {@link RowExtents} gathered, as plain data (it can be handed to another thread). */
export interface RowExtentsState {
  first: RowFields | undefined
  firstEpoch: bigint
  lastEpoch: bigint
  earliest: bigint
  latest: bigint
  readonly parties: Set<number>
  readonly types: Set<string>
  readonly amounts: Map<number, AmountExtent>
}

export class RowExtents {
  private constructor(private readonly s: RowExtentsState) {}

  /** Nothing gathered yet. */
  static empty(): RowExtents {
    return new RowExtents({
      first: undefined,
      firstEpoch: 0n,
      lastEpoch: 0n,
      earliest: 0n,
      latest: 0n,
      parties: new Set(),
      types: new Set(),
      amounts: new Map()
    })
  }

  /** What another thread gathered (its {@link state}). */
  static of(state: RowExtentsState): RowExtents {
    return new RowExtents(state)
  }

  /** What was gathered, as plain data. */
  state(): RowExtentsState {
    return this.s
  }

  /** Counts a kept row in; `party` and `asset` are the numbers of its ids, `amount` its amount as text. */
  add(row: RowFields, party: number, asset: number, amount: string): void {
    const s = this.s
    if (s.first === undefined) {
      s.first = row
      s.firstEpoch = s.lastEpoch = row.epoch
      s.earliest = s.latest = row.receivedAt
    }
    if (row.epoch < s.firstEpoch) s.firstEpoch = row.epoch
    if (row.epoch > s.lastEpoch) s.lastEpoch = row.epoch
    if (row.receivedAt < s.earliest) s.earliest = row.receivedAt
    if (row.receivedAt > s.latest) s.latest = row.receivedAt
    s.parties.add(party)
    s.types.add(row.rewardType)
    let extent = s.amounts.get(asset)
    if (extent === undefined) {
      extent = { digits: 0, negativeDigits: 0, trailingZeros: Infinity }
      s.amounts.set(asset, extent)
    }
    // 0 is shown as 0 (no fraction), which the asset's own stand-in of 0 covers
    if (row.amount === 0n) return
    const negative = amount.charCodeAt(0) === 45
    const digits = negative ? amount.length - 1 : amount.length
    if (negative) extent.negativeDigits = Math.max(extent.negativeDigits, digits)
    else extent.digits = Math.max(extent.digits, digits)
    extent.trailingZeros = Math.min(extent.trailingZeros, trailingZerosOf(amount))
  }

  /** The stand-in rows (none when no row was kept); `ids` numbers the rows' parties and assets. */
  *standIns(ids: Pick<Ids, "idOf">): Generator<RowFields> {
    const s = this.s
    const first = s.first
    if (first === undefined) return
    yield { ...first, epoch: s.firstEpoch, receivedAt: s.earliest }
    yield { ...first, epoch: s.lastEpoch, receivedAt: s.latest }
    for (const party of s.parties) yield { ...first, partyId: ids.idOf(party) }
    for (const rewardType of s.types) yield { ...first, rewardType }
    for (const [asset, extent] of s.amounts) {
      const assetId = ids.idOf(asset)
      // the asset's symbol, after the narrowest amount
      yield { ...first, assetId, amount: 0n }
      if (extent.digits > 0) yield { ...first, assetId, amount: oneAnd(extent.digits - 1) }
      if (extent.negativeDigits > 0) yield { ...first, assetId, amount: oneAnd(extent.negativeDigits - 1, true) }
      // as many fraction digits shown as the amount with the fewest trailing zeros
      if (extent.trailingZeros !== Infinity) yield { ...first, assetId, amount: oneAnd(extent.trailingZeros) }
    }
  }
}
