/**
 * The risk model of every simulated market, and the margin levels and margin modes it gives.
 *
 * Every number of the risk model lives here: the risk factors (the same for every market, as
 * the log-normal model's parameters are, `marketJson.ts`), and the margin calculator's scaling
 * factors. The accounts (`accounts.ts`), the markets' JSON and the estimates read them from here.
 *
 * The margin formula is the core's (`core/risk/margins_calculation.go`, v0.75.8), simplified:
 * the maintenance margin of a position is `|openVolume| × mark price × risk factor` in asset
 * units (the long factor for a long position, the short one for a short one), rounded up to a
 * whole unit. The core also counts the party's open orders and the slippage of closing the
 * position on the book (linear and quadratic slippage factors), and the funding of perpetuals;
 * the simulator counts neither. The other levels scale the maintenance margin as the core does:
 * `maintenance × factor`, the factor held as an integer over 10^5 and the product rounded down.
 *
 * Margin levels are computed when a party's position changes (each fill), at the mark price of
 * that moment, and the party's margin account is then brought to the initial margin
 * (`Accounts.settle`); the core re-evaluates them at every mark-to-market and only moves money
 * when the balance leaves the search / collateral-release band. Every position is in cross
 * margin: isolated margin is not modelled.
 */
import type { Account } from "./accounts.js"
import type { MarketInfo, Party } from "./catalog.js"
import type { Journal } from "./journal.js"
import type { Versioned } from "./versioned.js"

/** A decimal factor as its text and an exact fraction `numerator / 10^scale`. */
export interface Factor {
  readonly text: string
  readonly numerator: bigint
  readonly denominator: bigint
}

const factor = (text: string): Factor => {
  const [whole, fraction = ""] = text.split(".")
  return { text, numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) }
}

/**
 * The risk factors of every market, as the data node prints them (decimal strings). Values of
 * the size the log-normal model gives for the markets' parameters (`marketJson.ts`).
 */
export const RiskFactors = {
  long: factor("0.0650384227172035"),
  short: factor("0.0682511405327962")
} as const

/**
 * The margin calculator's scaling factors: `json` as the market's `marginCalculator` prints them
 * (doubles), `scaled` the factor times 10^5 as the core multiplies by it.
 */
export const ScalingFactors = {
  searchLevel: { json: 1.1, scaled: 110_000n },
  initialMargin: { json: 1.5, scaled: 150_000n },
  collateralRelease: { json: 1.7, scaled: 170_000n }
} as const

/**
 * The markets' slippage factors (`linearSlippageFactor`, `quadraticSlippageFactor`): printed by the
 * market and used by the position estimate; the world's own margin levels leave slippage out.
 */
export const SlippageFactors = {
  linear: factor("0.001"),
  quadratic: factor("0")
} as const

const SCALE = 100_000n

export interface Levels {
  readonly maintenance: bigint
  readonly search: bigint
  readonly initial: bigint
  readonly release: bigint
}

export const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d

/**
 * `|openVolume| × mark` in asset units, as an exact fraction: the mark in market decimals times
 * 10^(asset − price decimals), over the position factor 10^positionDecimals.
 */
const notional = (market: MarketInfo, volume: bigint, mark: bigint): { n: bigint; d: bigint } => {
  const exponent = market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
  return {
    n: volume * mark * (exponent > 0 ? 10n ** BigInt(exponent) : 1n),
    d: exponent < 0 ? 10n ** BigInt(-exponent) : 1n
  }
}

/** The levels of a maintenance margin, scaled as the core scales them. */
export const scaled = (maintenance: bigint): Levels => ({
  maintenance,
  search: (maintenance * ScalingFactors.searchLevel.scaled) / SCALE,
  initial: (maintenance * ScalingFactors.initialMargin.scaled) / SCALE,
  release: (maintenance * ScalingFactors.collateralRelease.scaled) / SCALE
})

/** The margin levels of a position of `openVolume` (position decimals) at `mark` (market decimals). */
export const levelsOf = (market: MarketInfo, openVolume: bigint, mark: bigint): Levels => {
  const long = openVolume >= 0n
  const volume = long ? openVolume : -openVolume
  const rf = long ? RiskFactors.long : RiskFactors.short
  const { d, n } = notional(market, volume, mark)
  return scaled(ceilDiv(n * rf.numerator, d * rf.denominator))
}

/** A party's margin levels in a market, from a fill on: the version a view at a height sees. */
export interface MarginLevelRow extends Versioned {
  readonly party: Party
  readonly market: MarketInfo
  /** The party's margin account in the market, whose id the node keys the levels by. */
  readonly account: Account
  /** Block time, unix microseconds (`vega_time`, and the levels' `timestamp`). */
  readonly vt: number
  readonly levels: Levels
}

/** The margin levels of every party and market, each a list of versions, oldest first. */
export class MarginLevels {
  /** Versions by margin account key. */
  readonly byAccount = new Map<string, Array<MarginLevelRow>>()
  /** Margin account keys by party id, in the order first written. */
  readonly byParty = new Map<string, Array<string>>()

  constructor(private readonly journal: Journal) {}

  /** Writes a party's levels at `row.from`; a version written at the same height is replaced. */
  record(row: MarginLevelRow): void {
    const key = row.account.key
    let versions = this.byAccount.get(key)
    if (versions === undefined) {
      this.byAccount.set(key, (versions = []))
      let keys = this.byParty.get(row.party.id)
      if (keys === undefined) this.byParty.set(row.party.id, (keys = []))
      keys.push(key)
    }
    const last = versions[versions.length - 1]
    if (last !== undefined && last.from === row.from) versions[versions.length - 1] = row
    else {
      if (last !== undefined) last.to = row.from
      versions.push(row)
    }
    this.journal.margin(row.from, key, row)
  }
}

/** A party's margin mode in a market, as an `updateMarginMode` instruction left it. */
export interface MarginModeRow extends Versioned {
  readonly party: Party
  readonly market: MarketInfo
  readonly mode: "MARGIN_MODE_CROSS_MARGIN"
  /** The epoch of the update. */
  readonly atEpoch: number
}

/**
 * Margin modes (`party_margin_modes`): one row per party and market that sent a successful
 * margin mode update. The core emits `PartyMarginModeUpdated` for every successful update, even
 * one that leaves the mode as it was (`core/execution/future/market.go` `UpdateMarginMode`,
 * v0.75.8); only cross margin succeeds in the simulator.
 */
export class MarginModes {
  /** Versions by `partyId/marketId`. */
  readonly byKey = new Map<string, Array<MarginModeRow>>()

  record(row: MarginModeRow): void {
    const key = `${row.party.id}/${row.market.id}`
    let versions = this.byKey.get(key)
    if (versions === undefined) this.byKey.set(key, (versions = []))
    const last = versions[versions.length - 1]
    if (last !== undefined && last.from === row.from) versions[versions.length - 1] = row
    else {
      if (last !== undefined) last.to = row.from
      versions.push(row)
    }
  }
}
