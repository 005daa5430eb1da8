/**
 * What each block changed in the world: the rows `World.advance` and the applied transactions
 * wrote at that height, recorded as they are written (never by scanning the world, so a block's
 * journal costs what the block changed). The core takes a block's changes when it publishes the
 * block; the streams read them from there (the event bus, the positions, liquidity-provision and
 * accounts streams).
 *
 * Nothing is recorded while the world is generated: the journal is switched on once the world
 * exists.
 */
import type { BalanceRow } from "./accounts.js"
import type { BundleRow } from "./bundles.js"
import type { Party } from "./catalog.js"
import type { ProposalRow, VoteRow } from "./governance.js"
import type { LpRow } from "./liquidity.js"
import type { MarginLevelRow } from "./margin.js"
import type { OrderRow } from "./orderTable.js"
import type { PositionRow } from "./positions.js"
import type { ProfileRow } from "./profiles.js"
import type { ReferralStatsRow } from "./referrals.js"
import type { RewardRow } from "./rewards.js"
import type { StakeRow } from "./stake.js"
import type { TradeRow } from "./trades.js"

/** One change, in the order the block made it. */
export type Change =
  | { readonly _tag: "Party"; readonly party: Party }
  | { readonly _tag: "Stake"; readonly row: StakeRow }
  | { readonly _tag: "Provision"; readonly row: LpRow }
  | { readonly _tag: "Profile"; readonly row: ProfileRow }
  /** A set's statistics at an epoch's end: every referee's row, in base order. */
  | { readonly _tag: "ReferralStats"; readonly rows: ReadonlyArray<ReferralStatsRow> }
  /** One epoch's payouts, every one of them. */
  | { readonly _tag: "Rewards"; readonly rows: ReadonlyArray<RewardRow> }
  | { readonly _tag: "BundleIssued"; readonly row: BundleRow }
  /** The bundle's signatures became readable. */
  | { readonly _tag: "BundleSigned"; readonly row: BundleRow }
  | { readonly _tag: "Epoch"; readonly epoch: number; readonly action: "START" | "END" }
  /** A change of an order (every one, in the order made). */
  | { readonly _tag: "Order"; readonly row: OrderRow }
  | { readonly _tag: "Trade"; readonly row: TradeRow }
  /** A proposal's new state, and a vote cast or counted. */
  | { readonly _tag: "Proposal"; readonly row: ProposalRow }
  | { readonly _tag: "Vote"; readonly row: VoteRow }

/** A change and the transaction that made it (`""` for the block's own processing). */
export interface Entry {
  readonly txHash: string
  readonly change: Change
}

/** What one block changed. */
export interface BlockChanges {
  readonly height: number
  /** Every change but positions, in the order made. */
  readonly entries: ReadonlyArray<Entry>
  /** The positions the block changed, each in its final state in the block (one per party and market). */
  readonly positions: ReadonlyMap<number, PositionRow>
  /**
   * The balances the block set, one per account (by key) in its final state in the block, in the
   * order of each account's last change (as the node's balance batcher flushes them).
   */
  readonly balances: ReadonlyMap<string, BalanceRow>
  /** The margin levels the block set, one per margin account (by key), as `balances` orders them. */
  readonly margins: ReadonlyMap<string, MarginLevelRow>
}

interface OpenBlock {
  readonly height: number
  readonly entries: Array<Entry>
  readonly positions: Map<number, PositionRow>
  /** Every balance set, in order: a map that moved each key last would rehash without end in a busy block. */
  readonly balanceLog: Array<readonly [string, BalanceRow]>
  readonly margins: Map<string, MarginLevelRow>
}

/** Each key's last value, in the order of each key's last setting. */
const lastOfEach = <V>(log: ReadonlyArray<readonly [string, V]>): Map<string, V> => {
  const seen = new Set<string>()
  const kept: Array<readonly [string, V]> = []
  for (let i = log.length - 1; i >= 0; i--) {
    if (seen.has(log[i][0])) continue
    seen.add(log[i][0])
    kept.push(log[i])
  }
  return new Map(kept.reverse())
}

/** Blocks changes are kept for until the core takes them (a world advanced without a core drops them). */
const KEEP_UNTAKEN = 64

export const emptyChanges = (height: number): BlockChanges => ({
  height,
  entries: [],
  positions: new Map(),
  balances: new Map(),
  margins: new Map()
})

export class Journal {
  private readonly open = new Map<number, OpenBlock>()
  private enabled = false
  private txHash = ""

  /** Starts recording (after the world is generated). */
  enable(): void {
    this.enabled = true
  }

  /** The transaction whose changes follow (`""` after it). */
  during(txHash: string): void {
    this.txHash = txHash
  }

  private block(height: number): OpenBlock | undefined {
    if (!this.enabled) return undefined
    let block = this.open.get(height)
    if (block === undefined) {
      block = { height, entries: [], positions: new Map(), balanceLog: [], margins: new Map() }
      this.open.set(height, block)
      for (const old of this.open.keys()) if (old <= height - KEEP_UNTAKEN) this.open.delete(old)
    }
    return block
  }

  record(height: number, change: Change): void {
    this.block(height)?.entries.push({ txHash: this.txHash, change })
  }

  /** A position's new state in block `height` (a later state of the same block replaces it). */
  position(height: number, key: number, row: PositionRow): void {
    this.block(height)?.positions.set(key, row)
  }

  /** An account's new balance in block `height`: a later one replaces it and moves it last. */
  balance(height: number, key: string, row: BalanceRow): void {
    this.block(height)?.balanceLog.push([key, row])
  }

  /** A party's new margin levels in block `height`: a later one replaces them and moves them last. */
  margin(height: number, key: string, row: MarginLevelRow): void {
    const margins = this.block(height)?.margins
    if (margins === undefined) return
    margins.delete(key)
    margins.set(key, row)
  }

  /** Hands over the changes of block `height` and forgets them. */
  take(height: number): BlockChanges {
    const block = this.open.get(height)
    this.open.delete(height)
    if (block === undefined) return emptyChanges(height)
    const { balanceLog, ...rest } = block
    return { ...rest, balances: lastOfEach(balanceLog) }
  }
}
