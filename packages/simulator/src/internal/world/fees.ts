/**
 * Trading fees: the factors every simulated market charges (the markets' `fees.factors` print
 * them) and the amounts a trade pays.
 *
 * As the core computes them in continuous trading (`core/fee/engine.go`,
 * `calculateContinuousModeFees`, v0.75.8): the trade's value for fee purposes is its price in
 * asset units times its size divided by the position factor (10^positionDecimals), and each fee is
 * that value times its factor, rounded up to a whole asset unit. The aggressor pays all three; the
 * passive side's fee is zero. The maker fee goes to the passive party, the infrastructure fee to
 * the asset's infrastructure fee account and the liquidity fee to the market's liquidity fee
 * account. No referral or volume discounts are modelled (the simulator runs no programs).
 */
import type { MarketInfo } from "./catalog.js"

/** A fee factor as an exact fraction: `numerator / FACTOR_DENOMINATOR`. */
const FACTOR_DENOMINATOR = 10_000n

/** The factors as the market configuration prints them, and as exact fractions. */
export const FeeFactors = {
  makerFee: { text: "0.0002", numerator: 2n },
  infrastructureFee: { text: "0.0005", numerator: 5n },
  liquidityFee: { text: "0.0001", numerator: 1n }
} as const

export interface TradeFees {
  readonly makerFee: bigint
  readonly infrastructureFee: bigint
  readonly liquidityFee: bigint
}

export const NO_FEES: TradeFees = { makerFee: 0n, infrastructureFee: 0n, liquidityFee: 0n }

const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d

/** The fees of a trade of `size` (position decimals) at `price` (market decimals). */
export const feesOf = (market: MarketInfo, price: bigint, size: bigint): TradeFees => {
  // value = price · 10^(asset − price decimals) · size / 10^positionDecimals, kept as a fraction
  const exponent = market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
  const numerator = price * size * (exponent > 0 ? 10n ** BigInt(exponent) : 1n)
  const denominator = FACTOR_DENOMINATOR * (exponent < 0 ? 10n ** BigInt(-exponent) : 1n)
  const fee = (factor: bigint) => ceilDiv(numerator * factor, denominator)
  return {
    makerFee: fee(FeeFactors.makerFee.numerator),
    infrastructureFee: fee(FeeFactors.infrastructureFee.numerator),
    liquidityFee: fee(FeeFactors.liquidityFee.numerator)
  }
}
