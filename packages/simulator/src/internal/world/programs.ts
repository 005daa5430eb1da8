/**
 * The referral and volume discount programs, the parties' notional taker volume per epoch, the
 * volume discount statistics and the activity streaks the core derives from it at each epoch end.
 *
 * Both programs start with the first epoch and are never updated (version 1, never ended). A
 * party's notional taker volume in an epoch is its referee volume in that epoch's referral
 * statistics when it is a referee (the first of its sets by id), otherwise the value of the trades
 * it took in the epoch (price in asset units times size over the position factor; the network's
 * close-out trades count for no one); the epochs
 * before the exchange opened have no trades, so only referees have volume there.
 *
 * As the core does it (vegaprotocol/vega v0.75.8, `core/volumediscount/engine.go`): at each epoch
 * end every party that ever had volume gets a row, its running volume being the sum of its
 * volumes over the program's window (this epoch and the ones before it), its discount factor the
 * one of the highest tier whose minimum it reaches, `"0"` when none. The activity streak
 * (`core/activitystreak/activitiystreak.go`): every party ever seen gets a row at each epoch end;
 * an epoch with volume makes it active one epoch more and resets its inactivity, an epoch without
 * adds one to its inactivity and, once that reaches `rewards.activityStreak.inactivityLimit`,
 * resets its streak and multipliers to 1; an active party takes the multipliers of the last tier
 * of `rewards.activityStreak.benefitTiers` whose minimum streak it reaches. The world has no
 * separate open volume (always `"0"`); the traded volume is the epoch's notional taker volume,
 * and a party is active when it is positive (the world's volumes are far above the parameters'
 * minimums).
 *
 * The fees the world's trades pay are not discounted by either program (see `fees.ts`).
 */
import type { Random } from "../random.js"
import type { Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { NetworkParameters } from "./networkParameters.js"
import { DISCOUNTS, MULTIPLIERS, REWARDS, type ReferralSets } from "./referrals.js"
import type { Trades } from "./trades.js"
import { compareStrings } from "./versioned.js"

export interface BenefitTier {
  readonly minimumRunningNotionalTakerVolume: bigint
  readonly minimumEpochs: bigint
  readonly referralRewardFactor: string
  readonly referralDiscountFactor: string
}

export interface StakingTier {
  readonly minimumStakedTokens: bigint
  readonly referralRewardMultiplier: string
}

export interface VolumeBenefitTier {
  readonly minimumRunningNotionalTakerVolume: bigint
  readonly volumeDiscountFactor: string
}

interface Program {
  readonly id: string
  readonly version: bigint
  /** Unix seconds, as the core keeps it (the node answers it in nanoseconds). */
  readonly endOfProgramSeconds: number
  readonly windowLength: number
  /** The block that started it. */
  readonly from: number
}

export interface ReferralProgram extends Program {
  readonly benefitTiers: ReadonlyArray<BenefitTier>
  readonly stakingTiers: ReadonlyArray<StakingTier>
}

export interface VolumeDiscountProgram extends Program {
  readonly benefitTiers: ReadonlyArray<VolumeBenefitTier>
}

export interface VolumeDiscountStatsRow {
  readonly from: number
  /** Time of the block that closed the epoch, unix microseconds. */
  readonly vt: number
  readonly epoch: number
  readonly party: Party
  readonly runningVolume: bigint
  readonly discountFactor: string
}

export interface ActivityStreakRow {
  readonly from: number
  readonly epoch: number
  readonly party: Party
  readonly activeFor: number
  readonly inactiveFor: number
  readonly isActive: boolean
  readonly rewardDistributionActivityMultiplier: string
  readonly rewardVestingActivityMultiplier: string
  readonly tradedVolume: bigint
  readonly openVolume: bigint
}

/** Base order of the volume discount statistics: `at_epoch DESC, party_id ASC`. */
export const compareVolumeDiscountStats = (a: VolumeDiscountStatsRow, b: VolumeDiscountStatsRow): number =>
  b.epoch - a.epoch || compareStrings(a.party.id, b.party.id)

const MILLION = 1_000_000n
const YEAR_SECONDS = 365 * 24 * 3600

/** The tiers' factors are the ones the referral statistics show (`referrals.ts`). */
const referralTiers = (): ReadonlyArray<BenefitTier> =>
  DISCOUNTS.slice(1).map((discount, i) => ({
    minimumRunningNotionalTakerVolume: BigInt(i + 1) * 5_000_000n * MILLION,
    minimumEpochs: BigInt(i + 1),
    referralRewardFactor: REWARDS[Math.min(i, REWARDS.length - 1)],
    referralDiscountFactor: discount
  }))

const stakingTiers = (): ReadonlyArray<StakingTier> =>
  MULTIPLIERS.slice(1).map((multiplier, i) => ({
    minimumStakedTokens: BigInt(i + 1) * 1_000n * 10n ** 18n,
    referralRewardMultiplier: multiplier
  }))

const VOLUME_TIERS: ReadonlyArray<VolumeBenefitTier> = [
  { minimumRunningNotionalTakerVolume: 1_000_000n * MILLION, volumeDiscountFactor: "0.01" },
  { minimumRunningNotionalTakerVolume: 5_000_000n * MILLION, volumeDiscountFactor: "0.025" },
  { minimumRunningNotionalTakerVolume: 20_000_000n * MILLION, volumeDiscountFactor: "0.05" }
]

/** The value of a trade for fee and volume purposes, in asset units (truncated). */
const notional = (trade: Trades["log"][number]): bigint => {
  const { market } = trade
  const exponent = market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
  const value = trade.price * trade.size
  return exponent >= 0 ? value * 10n ** BigInt(exponent) : value / 10n ** BigInt(-exponent)
}

/** A Go `num.Decimal` string of a decimal text: no trailing fractional zeros. */
const decimalText = (s: string): string => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s)

interface StreakTier {
  readonly minimum: number
  readonly reward: string
  readonly vesting: string
}

interface Streak {
  active: number
  inactive: number
  reward: string
  vesting: string
}

export class Programs {
  referralProgram: ReferralProgram | undefined
  volumeDiscountProgram: VolumeDiscountProgram | undefined
  /** Volume discount statistics by epoch, each list in base order. */
  readonly discountStats = new Map<number, Array<VolumeDiscountStatsRow>>()
  /** Each party's activity streak rows, oldest epoch first. */
  readonly streaks = new Map<string, Array<ActivityStreakRow>>()
  /** Each party's volume by epoch, for the programs' windows. */
  private readonly volumes = new Map<number, Map<string, bigint>>()
  private readonly seen = new Map<string, Party>()
  private readonly streakState = new Map<string, Streak>()
  private tradesCounted = 0

  constructor(
    private readonly chain: Chain,
    private readonly referralSets: ReferralSets,
    private readonly trades: Trades,
    private readonly parameters: NetworkParameters
  ) {}

  /** Starts both programs in the first block and closes the epochs before `height`. */
  generate(random: Random, height: number): void {
    const genesisSeconds = Math.floor(this.chain.genesisMicros / 1_000_000)
    const base = { version: 1n, endOfProgramSeconds: genesisSeconds + YEAR_SECONDS, from: 1 }
    this.referralProgram = {
      ...base,
      id: random.hex(32),
      windowLength: 3,
      benefitTiers: referralTiers(),
      stakingTiers: stakingTiers()
    }
    this.volumeDiscountProgram = { ...base, id: random.hex(32), windowLength: 7, benefitTiers: VOLUME_TIERS }
    const lastEpoch = this.chain.epochOf(height)
    for (let epoch = 1; epoch < lastEpoch; epoch++) this.close(epoch)
  }

  /** The epoch's volumes, statistics and streaks; after the referral statistics of the epoch. */
  close(epoch: number): void {
    const from = this.chain.epochLastBlock(epoch)
    const vt = this.chain.blockTime(from)
    const volumes = new Map<string, bigint>()
    const log = this.trades.log
    for (; this.tradesCounted < log.length; this.tradesCounted++) {
      const trade = log[this.tradesCounted]
      if (trade.height > from) break
      // the network's close-out trades count for no one
      if (trade.type !== "TYPE_DEFAULT") continue
      const taker =
        trade.aggressor === "SIDE_BUY" ? trade.buyer : trade.aggressor === "SIDE_SELL" ? trade.seller : undefined
      if (taker === undefined) continue
      volumes.set(taker.id, (volumes.get(taker.id) ?? 0n) + notional(trade))
      this.seen.set(taker.id, taker)
    }
    const referees = new Set<string>()
    for (const row of this.referralSets.byEpoch.get(epoch) ?? []) {
      // rows are in set id order: the first set's figure is the party's
      if (referees.has(row.referee.id)) continue
      referees.add(row.referee.id)
      volumes.set(row.referee.id, row.epochVolume)
      this.seen.set(row.referee.id, row.referee)
    }
    for (const [id, volume] of volumes) if (volume === 0n) volumes.delete(id)
    this.volumes.set(epoch, volumes)
    const parties = [...this.seen.values()].sort((a, b) => compareStrings(a.id, b.id))
    const program = this.volumeDiscountProgram
    if (program !== undefined) {
      const rows: Array<VolumeDiscountStatsRow> = []
      for (const party of parties) {
        let running = 0n
        for (let e = epoch; e > epoch - program.windowLength && e >= 1; e--) {
          running += this.volumes.get(e)?.get(party.id) ?? 0n
        }
        let factor = "0"
        for (const tier of program.benefitTiers) {
          if (running >= tier.minimumRunningNotionalTakerVolume) factor = tier.volumeDiscountFactor
        }
        rows.push({ from, vt, epoch, party, runningVolume: running, discountFactor: factor })
      }
      this.discountStats.set(epoch, rows)
    }
    this.updateStreaks(parties, volumes, from, epoch)
  }

  /** Each party's activity streak after the epoch. */
  private updateStreaks(
    parties: ReadonlyArray<Party>,
    volumes: ReadonlyMap<string, bigint>,
    from: number,
    epoch: number
  ): void {
    const { tiers, inactivityLimit } = this.streakParameters(from)
    for (const party of parties) {
      const traded = volumes.get(party.id) ?? 0n
      let state = this.streakState.get(party.id)
      if (state === undefined)
        this.streakState.set(party.id, (state = { active: 0, inactive: 0, reward: "1", vesting: "1" }))
      if (traded > 0n) {
        state.active++
        state.inactive = 0
      } else {
        state.inactive++
        if (state.inactive >= inactivityLimit) {
          state.active = 0
          state.reward = "1"
          state.vesting = "1"
        }
      }
      const isActive = state.active !== 0 && state.inactive === 0
      if (isActive) {
        for (const tier of tiers) {
          if (state.active < tier.minimum) break
          state.reward = tier.reward
          state.vesting = tier.vesting
        }
      }
      let own = this.streaks.get(party.id)
      if (own === undefined) this.streaks.set(party.id, (own = []))
      own.push({
        from,
        epoch,
        party,
        activeFor: state.active,
        inactiveFor: state.inactive,
        isActive,
        rewardDistributionActivityMultiplier: state.reward,
        rewardVestingActivityMultiplier: state.vesting,
        tradedVolume: traded,
        openVolume: 0n
      })
    }
  }

  /** The last epoch with volume discount statistics visible at `height`. */
  latestDiscountEpoch(height: number): number | undefined {
    let latest: number | undefined
    for (const [epoch, rows] of this.discountStats) {
      if (rows.length > 0 && rows[0].from <= height && (latest === undefined || epoch > latest)) latest = epoch
    }
    return latest
  }

  private streakParameters(height: number): {
    readonly tiers: ReadonlyArray<StreakTier>
    readonly inactivityLimit: number
  } {
    const text = this.parameters.at("rewards.activityStreak.benefitTiers", height)?.value ?? '{"tiers":[]}'
    let tiers: Array<StreakTier> = []
    try {
      const parsed = JSON.parse(text) as {
        tiers?: Array<{ minimum_activity_streak?: number; reward_multiplier?: string; vesting_multiplier?: string }>
      }
      tiers = (parsed.tiers ?? []).map((t) => ({
        minimum: Number(t.minimum_activity_streak ?? 0),
        reward: decimalText(t.reward_multiplier ?? "1"),
        vesting: decimalText(t.vesting_multiplier ?? "1")
      }))
    } catch {
      tiers = []
    }
    tiers.sort((a, b) => a.minimum - b.minimum)
    const limit = Number(this.parameters.at("rewards.activityStreak.inactivityLimit", height)?.value ?? "24")
    return { tiers, inactivityLimit: Number.isFinite(limit) ? limit : 24 }
  }
}
