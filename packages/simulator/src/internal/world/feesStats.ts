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
 *
 * Paid liquidity fees: the core allocates the liquidity fees a market collects to its providers
 * and, at epoch end, publishes what each provider was allocated over the epoch, only when the
 * total is not zero (`core/execution/common/liquidity_provision.go` `OnEpochEnd`,
 * `core/types/liquidity_fee_stats.go`, v0.75.8). The world allocates the liquidity fees of the
 * epoch's trades (close-outs included: they pay into the same account) at once, to the providers
 * ACTIVE at the epoch's last block in proportion to their commitments (the fee shares its market
 * data publishes), each share rounded down; the total is the sum allocated. The ledger does not
 * show these allocations: the fees stay in the market's liquidity fee account.
 */
import type { Chain } from "./chain.js"
import type { MarketInfo, Party } from "./catalog.js"
import type { Trades } from "./trades.js"
import { compareStrings } from "./versioned.js"

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

export interface PaidLiquidityFees {
  readonly market: MarketInfo
  readonly epoch: number
  readonly total: bigint
  /** Party id → fees allocated, by party id. */
  readonly perParty: ReadonlyArray<readonly [string, bigint]>
}

interface MarketTally {
  /** How many of the market's trades were counted. */
  counted: number
  readonly byEpoch: Map<number, MarketEpochFees>
  /** Liquidity fees collected per epoch. */
  readonly liquidity: Map<number, bigint>
}

const add = (map: Map<string, bigint>, key: string, amount: bigint): void => {
  map.set(key, (map.get(key) ?? 0n) + amount)
}

export class FeesStats {
  private readonly tallies: Array<MarketTally | undefined> = []

  private readonly paid = new Map<string, PaidLiquidityFees | undefined>()

  constructor(
    private readonly chain: Chain,
    private readonly trades: Trades,
    private readonly providersAt: (
      market: MarketInfo,
      height: number
    ) => ReadonlyArray<{ readonly party: Party; readonly commitment: bigint }>
  ) {}

  /**
   * A market's paid liquidity fees of an ended epoch, or undefined when it allocated nothing.
   * Call only for an epoch whose last block is processed.
   */
  paidLiquidity(market: MarketInfo, epoch: number): PaidLiquidityFees | undefined {
    const key = `${market.index}:${epoch}`
    if (this.paid.has(key)) return this.paid.get(key)
    const collected = this.tally(market).liquidity.get(epoch) ?? 0n
    const providers = this.providersAt(market, this.publishedAt(epoch))
    const supplied = providers.reduce((sum, p) => sum + p.commitment, 0n)
    let result: PaidLiquidityFees | undefined
    if (collected > 0n && supplied > 0n) {
      const perParty = providers
        .map((p) => [p.party.id, (collected * p.commitment) / supplied] as const)
        .sort(([a], [b]) => compareStrings(a, b))
      const total = perParty.reduce((sum, [, amount]) => sum + amount, 0n)
      if (total > 0n) result = { market, epoch, total, perParty }
    }
    this.paid.set(key, result)
    return result
  }

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
    tally = { counted: trades.length, byEpoch: new Map(), liquidity: new Map() }
    for (const trade of trades) {
      const epoch = this.chain.epochOf(trade.height)
      const liquidityFee = trade.buyerFee.liquidityFee + trade.sellerFee.liquidityFee
      if (liquidityFee > 0n) tally.liquidity.set(epoch, (tally.liquidity.get(epoch) ?? 0n) + liquidityFee)
      if (trade.type !== "TYPE_DEFAULT" || trade.aggressor === "SIDE_UNSPECIFIED") continue
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
