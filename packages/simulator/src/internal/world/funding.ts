/**
 * Perpetuals' funding periods. A perpetual's settlement schedule triggers every
 * {@link FUNDING_PERIOD_SECONDS} from its opening, each trigger ending a period and starting the
 * next (numbered from 1), as the market data's `perpetualData` reports the period in progress.
 *
 * The world's perpetuals pay no funding (no external price is ever published), so an ended
 * period's funding payment and rate are zero, and both its TWAPs are the mark price of the last
 * block at or before its end; the period in progress carries the mark price at its start
 * (the core writes a period's TWAPs as of its start when it begins and as of its end when it is
 * settled: `core/products/perpetual.go`, v0.75.8). No funding payment is ever made: the core
 * settles nothing when the payment is zero (`core/settlement/engine.go` `SettleFundingPeriod`).
 * Derived from the chain and the mark prices: nothing random is drawn.
 */
import type { MarketInfo } from "./catalog.js"
import type { Chain } from "./chain.js"
import { FUNDING_PERIOD_SECONDS } from "./marketData.js"

const PERIOD_MICROS = FUNDING_PERIOD_SECONDS * 1_000_000

export interface FundingPeriodRow {
  readonly market: MarketInfo
  readonly seq: number
  /** Unix microseconds. */
  readonly start: number
  /** Unix microseconds, when ended. */
  readonly end: number | undefined
  /** Both TWAPs (market decimals, as the market data writes them). */
  readonly twap: bigint
}

/** The last block at or before a time (a block a second from genesis; before it, the count goes on). */
export const blockAt = (chain: Chain, micros: number): number => {
  const height = Math.floor((micros - chain.genesisMicros) / 1_000_000) + 1
  return height >= 1 && chain.blockTime(height) > micros ? height - 1 : height
}

/** The period in progress at a time (0 before the market opened). */
export const currentSeq = (market: MarketInfo, micros: number): number =>
  micros < market.openMicros ? 0 : Math.floor((micros - market.openMicros) / PERIOD_MICROS) + 1

/** A perpetual's funding periods as of a node's time, oldest first; none for a future. */
export const fundingPeriods = (
  chain: Chain,
  markPrice: (market: MarketInfo, height: number) => bigint,
  market: MarketInfo,
  nowMicros: number
): Array<FundingPeriodRow> => {
  if (market.product !== "perpetual") return []
  const rows: Array<FundingPeriodRow> = []
  const current = currentSeq(market, nowMicros)
  for (let seq = 1; seq <= current; seq++) {
    const start = market.openMicros + (seq - 1) * PERIOD_MICROS
    const end = seq < current ? start + PERIOD_MICROS : undefined
    rows.push({ market, seq, start, end, twap: markPrice(market, blockAt(chain, end ?? start)) })
  }
  return rows
}
