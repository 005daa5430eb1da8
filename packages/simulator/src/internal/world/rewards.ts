/**
 * Rewards: paid at the end of each epoch (staking rewards in VEGA, fee rewards in the settlement
 * assets), kept as running totals per party and asset, which is what reward summaries report.
 */
import type { Random } from "../random.js"
import type { AssetInfo, Catalog, Party } from "./catalog.js"

export interface RewardTotal {
  readonly from: number
  readonly total: bigint
}

export class Rewards {
  /** party id → asset id → totals over time (ascending `from`). */
  readonly totals = new Map<string, Map<string, Array<RewardTotal>>>()

  constructor(private readonly catalog: Catalog) {}

  /** Pays one epoch's rewards at block `from` to about `share` of the parties. */
  payEpoch(random: Random, from: number, share: number): void {
    const parties = this.catalog.parties.slice(1)
    for (const party of parties) {
      if (!random.chance(share)) continue
      this.pay(party, this.catalog.vega, from, BigInt(1 + random.int(5_000_000)) * 1_000_000_000_000n)
      if (random.chance(0.3)) {
        const asset = random.pick(this.catalog.assets.slice(1))
        this.pay(party, asset, from, BigInt(1 + random.int(1_000_000)) * 10n ** BigInt(Math.max(0, asset.decimals - 4)))
      }
    }
  }

  private pay(party: Party, asset: AssetInfo, from: number, amount: bigint): void {
    let byAsset = this.totals.get(party.id)
    if (byAsset === undefined) {
      byAsset = new Map()
      this.totals.set(party.id, byAsset)
    }
    const history = byAsset.get(asset.id)
    if (history === undefined) {
      byAsset.set(asset.id, [{ from, total: amount }])
    } else {
      history.push({ from, total: history[history.length - 1].total + amount })
    }
  }

  /** The total visible at `height`, if any. */
  static at(history: ReadonlyArray<RewardTotal>, height: number): bigint | undefined {
    for (let i = history.length - 1; i >= 0; i--) if (history[i].from <= height) return history[i].total
    return undefined
  }

  /** Drops totals superseded before `minHeight` (keeping the one visible at it). */
  prune(minHeight: number): void {
    for (const byAsset of this.totals.values()) {
      for (const history of byAsset.values()) {
        let keep = 0
        while (keep + 1 < history.length && history[keep + 1].from <= minHeight) keep++
        if (keep > 0) history.splice(0, keep)
      }
    }
  }
}
