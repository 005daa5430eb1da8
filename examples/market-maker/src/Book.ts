/**
 * The market maker's own accounting, from its trades alone: inventory, average entry price,
 * realised PnL and fees, exact (bigints), by the rules the Vega node uses for positions, so that
 * what the bot prints can be checked against what the node says.
 */
import * as BigDecimal from "effect/BigDecimal"

/** What the bot needs of a market: its decimals. */
export interface MarketDecimals {
  /** Price decimals of the market (`decimalPlaces`). */
  readonly price: number
  /** Position decimals (`positionDecimalPlaces`), may be negative. */
  readonly position: number
  /** Decimals of the settlement asset. */
  readonly asset: number
}

export interface Book {
  /** Signed, position decimals. */
  readonly inventory: bigint
  /** Market decimals; 0 when flat. */
  readonly averageEntry: bigint
  /** Settlement-asset units. */
  readonly realised: bigint
  /** Fees paid as the aggressor, asset units. */
  readonly feesPaid: bigint
  /** Maker fees received as the passive side, asset units. */
  readonly makerFeesReceived: bigint
  readonly trades: number
}

export const empty: Book = {
  inventory: 0n,
  averageEntry: 0n,
  realised: 0n,
  feesPaid: 0n,
  makerFeesReceived: 0n,
  trades: 0
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n)

/** `n / d` rounded half away from zero (`d > 0`), as the node rounds PnL and entry prices. */
const divRound = (n: bigint, d: bigint): bigint => {
  const q = n / d
  return 2n * abs(n % d) >= d ? q + (n < 0n ? -1n : 1n) : q
}

/** A price difference times a volume, in settlement-asset units. */
export const toAsset = (decimals: MarketDecimals, priceTimesVolume: bigint): bigint => {
  const exponent = decimals.asset - decimals.price - decimals.position
  return exponent >= 0
    ? priceTimesVolume * 10n ** BigInt(exponent)
    : divRound(priceTimesVolume, 10n ** BigInt(-exponent))
}

/** The book after a fill of signed `size` (+ bought, − sold) at `price`. */
export const fill = (decimals: MarketDecimals, book: Book, size: bigint, price: bigint): Book => {
  const v = book.inventory
  const volume = v + size
  if (v === 0n || v > 0n === size > 0n) {
    return {
      ...book,
      inventory: volume,
      averageEntry: divRound(book.averageEntry * abs(v) + price * abs(size), abs(volume))
    }
  }
  const closed = abs(size) < abs(v) ? abs(size) : abs(v)
  return {
    ...book,
    inventory: volume,
    averageEntry: volume === 0n ? 0n : abs(size) > abs(v) ? price : book.averageEntry,
    realised: book.realised + toAsset(decimals, (price - book.averageEntry) * closed * (v > 0n ? 1n : -1n))
  }
}

/** The unrealised PnL of the book at a mark price. */
export const unrealised = (decimals: MarketDecimals, book: Book, mark: bigint): bigint =>
  book.inventory === 0n ? 0n : toAsset(decimals, (mark - book.averageEntry) * book.inventory)

/** An integer amount with `decimals` decimals, in human units (`12.5`, `-0.001`, `300`). */
export const human = (amount: bigint, decimals: number): string =>
  BigDecimal.format(BigDecimal.normalize(BigDecimal.make(amount, decimals)))
