/**
 * Fees statistics: what each market's fee engine tallies over an epoch, published when the epoch
 * ends (one `FeesStats` event per market and epoch, markets without trades included).
 *
 * As the core tallies them (`core/fee/engine.go` `CalculateForContinuousMode` and
 * `applyDiscountsAndRewards`, `core/fee/rebate_stats.go`, v0.75.8): every continuous-trading fill
 * adds its maker fee to the maker's total received and to the taker's "generated" tally for that
 * maker (zero amounts included), and registers the taker's referral and volume discounts, zero when
 * the taker has none; referrer rewards are registered only for a taker with a non-zero reward
 * multiplier. Network close-out trades go through position resolution, which tallies nothing.
 *
 * The world's trades apply no discounts and pay no referrer rewards (see `fees.ts`), so every
 * taker's discounts are zero and the reward lists are empty. The stats are derived from the
 * world's own trades: they draw nothing random.
 */
import type { Chain } from "./chain.js"
import type { MarketInfo } from "./catalog.js"
import type { Trades } from "./trades.js"

export interface MarketEpochFees {
  readonly market: MarketInfo
  readonly epoch: number
  /** Maker party id → maker fees received. */
  readonly makerReceived: ReadonlyMap<string, bigint>
  /** Taker party id → maker party id → maker fees the taker paid that maker. */
  readonly makerGenerated: ReadonlyMap<string, ReadonlyMap<string, bigint>>
  /** Taker party ids (each has a zero referral and volume discount). */
  readonly takers: ReadonlySet<string>
}

interface MarketTally {
  /** How many of the market's trades were counted. */
  counted: number
  readonly byEpoch: Map<number, MarketEpochFees>
}

const add = (map: Map<string, bigint>, key: string, amount: bigint): void => {
  map.set(key, (map.get(key) ?? 0n) + amount)
}

export class FeesStats {
  private readonly tallies: Array<MarketTally | undefined> = []

  constructor(
    private readonly chain: Chain,
    private readonly trades: Trades
  ) {}

  /** The first height at which the stats of `epoch` are published: the block that ends it. */
  publishedAt(epoch: number): number {
    return this.chain.epochLastBlock(epoch)
  }

  /** The last epoch whose stats are published at `height` (0 when none). */
  latestEpoch(height: number): number {
    const epoch = this.chain.epochOf(height)
    return this.publishedAt(epoch) <= height ? epoch : epoch - 1
  }

  /** A market's tally of an epoch (empty lists when it had no trades). */
  of(market: MarketInfo, epoch: number): MarketEpochFees {
    const tally = this.tally(market)
    return (
      tally.byEpoch.get(epoch) ?? {
        market,
        epoch,
        makerReceived: new Map(),
        makerGenerated: new Map(),
        takers: new Set()
      }
    )
  }

  private tally(market: MarketInfo): MarketTally {
    const trades = this.trades.byMarket[market.index] ?? []
    let tally = this.tallies[market.index]
    if (tally !== undefined && tally.counted === trades.length) return tally
    // trades are only appended (a rare one slots in before the last few): count them afresh
    tally = { counted: trades.length, byEpoch: new Map() }
    for (const trade of trades) {
      if (trade.type !== "TYPE_DEFAULT" || trade.aggressor === "SIDE_UNSPECIFIED") continue
      const epoch = this.chain.epochOf(trade.height)
      let fees = tally.byEpoch.get(epoch) as
        | {
            market: MarketInfo
            epoch: number
            makerReceived: Map<string, bigint>
            makerGenerated: Map<string, Map<string, bigint>>
            takers: Set<string>
          }
        | undefined
      if (fees === undefined) {
        fees = { market, epoch, makerReceived: new Map(), makerGenerated: new Map(), takers: new Set() }
        tally.byEpoch.set(epoch, fees)
      }
      const buy = trade.aggressor === "SIDE_BUY"
      const taker = buy ? trade.buyer.id : trade.seller.id
      const maker = buy ? trade.seller.id : trade.buyer.id
      const makerFee = (buy ? trade.buyerFee : trade.sellerFee).makerFee
      add(fees.makerReceived, maker, makerFee)
      let generated = fees.makerGenerated.get(taker)
      if (generated === undefined) fees.makerGenerated.set(taker, (generated = new Map()))
      add(generated, maker, makerFee)
      fees.takers.add(taker)
    }
    this.tallies[market.index] = tally
    return tally
  }
}
