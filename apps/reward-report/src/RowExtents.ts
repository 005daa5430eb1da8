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

export class RowExtents {
  private first: RowFields | undefined
  private firstEpoch = 0n
  private lastEpoch = 0n
  private earliest = 0n
  private latest = 0n
  private readonly parties = new Set<number>()
  private readonly types = new Set<string>()
  private readonly amounts = new Map<number, AmountExtent>()

  /** Counts a kept row in; `party` and `asset` are the numbers of its ids, `amount` its amount as text. */
  add(row: RowFields, party: number, asset: number, amount: string): void {
    if (this.first === undefined) {
      this.first = row
      this.firstEpoch = this.lastEpoch = row.epoch
      this.earliest = this.latest = row.receivedAt
    }
    if (row.epoch < this.firstEpoch) this.firstEpoch = row.epoch
    if (row.epoch > this.lastEpoch) this.lastEpoch = row.epoch
    if (row.receivedAt < this.earliest) this.earliest = row.receivedAt
    if (row.receivedAt > this.latest) this.latest = row.receivedAt
    this.parties.add(party)
    this.types.add(row.rewardType)
    let extent = this.amounts.get(asset)
    if (extent === undefined) {
      extent = { digits: 0, negativeDigits: 0, trailingZeros: Infinity }
      this.amounts.set(asset, extent)
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
  *standIns(ids: Ids): Generator<RowFields> {
    const first = this.first
    if (first === undefined) return
    yield { ...first, epoch: this.firstEpoch, receivedAt: this.earliest }
    yield { ...first, epoch: this.lastEpoch, receivedAt: this.latest }
    for (const party of this.parties) yield { ...first, partyId: ids.idOf(party) }
    for (const rewardType of this.types) yield { ...first, rewardType }
    for (const [asset, extent] of this.amounts) {
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
