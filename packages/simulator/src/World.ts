/**
 * The simulated network: parties, assets, markets and validators, and the seven resources the
 * data node serves, generated deterministically from a seed and evolving block by block.
 *
 * The same seed, scale and number of blocks always give the same world, byte for byte. Every state
 * a row goes through stays readable for a while, so nodes that lag behind the chain can serve the
 * world as it was at their own height.
 *
 * @since 0.1.0
 */
import { makeRandom, mix, type Random, scramble32, seedOf } from "./internal/random.js"
import * as Defaults from "./internal/world/defaults.js"
import { Journal } from "./internal/world/journal.js"
import { LiquidityProvisions } from "./internal/world/liquidity.js"
import { SignerBundles } from "./internal/world/bundles.js"
import { KeyRotations } from "./internal/world/keyRotations.js"
import { Notary } from "./internal/world/notary.js"
import { SignerRemovals } from "./internal/world/signerRemovals.js"
import { type Catalog, makeCatalog } from "./internal/world/catalog.js"
import { type Chain, makeChain } from "./internal/world/chain.js"
import { Accounts } from "./internal/world/accounts.js"
import { Funding } from "./internal/world/funding.js"
import { Candles } from "./internal/world/candles.js"
import { MarketData } from "./internal/world/marketData.js"
import { FeesStats } from "./internal/world/feesStats.js"
import { Exchange } from "./internal/world/orders.js"
import { Positions } from "./internal/world/positions.js"
import { Profiles } from "./internal/world/profiles.js"
import { Governance } from "./internal/world/governance.js"
import { History } from "./internal/world/history.js"
import { NetworkParameters } from "./internal/world/networkParameters.js"
import { Programs } from "./internal/world/programs.js"
import { ReferralSets } from "./internal/world/referrals.js"
import { Rewards } from "./internal/world/rewards.js"
import { StakeLinkings } from "./internal/world/stake.js"
import { StopOrders } from "./internal/world/stopOrders.js"
import { Transfers } from "./internal/world/transfers.js"
import { Notionals } from "./internal/world/notionals.js"
import { TEAM_STATS_STREAM, Teams } from "./internal/world/teams.js"

/**
 * How big the world is.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Scale {
  readonly parties: number
  readonly assets: number
  readonly markets: number
  readonly validators: number
  readonly positions: number
  readonly stakeLinkings: number
  readonly liquidityProvisions: number
  readonly referralSets: number
  readonly refereesPerSet: number
  readonly signerBundles: number
  /** Share of parties that set a profile. */
  readonly profileShare: number
  /**
   * Stop orders the world's parties have placed when it starts (a few more come later); none when
   * the world's parties do not trade (`activity.positionTrades` 0).
   */
  readonly stopOrders: number
  /** Epochs of history before the first block the simulator serves. */
  readonly epochs: number
  /** One-off transfers the world's parties have made when it starts (a few more come later). */
  readonly transfers: number
  /** Recurring transfers running when the world starts. */
  readonly recurringTransfers: number
}

/**
 * How much changes per block (counts are per block unless stated).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Activity {
  readonly positionTrades: number
  readonly stakeEvents: number
  readonly liquidityChanges: number
  readonly profileChanges: number
  /** Share of parties paid a reward at each epoch end. */
  readonly rewardShare: number
  /** A new signer bundle every this many epochs. */
  readonly bundleEveryEpochs: number
  /** The chance a block has a new governance proposal (0 for none). */
  readonly proposalChance: number
}

/**
 * How to build a world: its seed, scale and activity, epoch length, genesis time and chain id;
 * defaults give a small world.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  readonly seed?: number | string
  readonly scale?: Partial<Scale>
  readonly activity?: Partial<Activity>
  readonly blocksPerEpoch?: number
  /** Chain time of block 1 (RFC 3339). */
  readonly genesis?: string
  /** The chain id the nodes answer and transactions are signed for; default {@link chainIdOf} the seed. */
  readonly chainId?: string
  /**
   * Seconds between perpetuals' funding settlements, from block 1 on; default
   * {@link DEFAULT_FUNDING_PERIOD_SECONDS}. Shorter periods let a test or a demo see funding paid.
   *
   * @since 0.2.0
   */
  readonly fundingPeriodSeconds?: number
}

/**
 * A small world, quick to build, for tests and demos.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaultScale: Scale = Defaults.defaultScale

/**
 * How much a world changes per block unless told otherwise.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaultActivity: Activity = {
  positionTrades: 20,
  stakeEvents: 2,
  liquidityChanges: 1,
  profileChanges: 1,
  rewardShare: 0.3,
  bundleEveryEpochs: 3,
  proposalChance: 0.04
}

/**
 * The seed of a world built without one.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULT_SEED = Defaults.DEFAULT_SEED

/**
 * Blocks per epoch when not told otherwise.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULT_BLOCKS_PER_EPOCH = Defaults.DEFAULT_BLOCKS_PER_EPOCH

/**
 * Seconds between perpetuals' funding settlements when not told otherwise: 8 hours, as Vega's
 * perpetual markets settled.
 *
 * @since 0.2.0
 * @category Constants
 */
export const DEFAULT_FUNDING_PERIOD_SECONDS = Defaults.DEFAULT_FUNDING_PERIOD_SECONDS

const DEFAULT_GENESIS = "2024-04-01T00:00:00Z"

/** The per-block random stream of stop orders, and the chance a block has a new one. */
const STOP_ORDER_STREAM = 113
const STOP_ORDER_CHANCE = 0.3
/** The per-block random stream of governance. */
const GOVERNANCE_STREAM = 127
const governanceRandom = (seed: number, height: number) => makeRandom(mix(seed, height, GOVERNANCE_STREAM))
/** The per-block random stream of governance's asset updates. */
const ASSET_UPDATE_STREAM = 260
const assetUpdateRandom = (seed: number, height: number) => makeRandom(mix(seed, height, ASSET_UPDATE_STREAM))
/** The per-block random stream of transfers. */
const TRANSFER_STREAM = 200
/** The per-block random stream of validators leaving the multisig signer set. */
const SIGNER_REMOVAL_STREAM = 240
/** Key rotations of each kind, at most, per validator in the world's history. */
const ROTATIONS_PER_VALIDATOR = 3
const teamsRandom = (seed: number, height: number) => makeRandom(mix(seed, height, TEAM_STATS_STREAM))

/**
 * The chain id of a world built without one: `vega-sim-` and eight hex digits drawn from the seed,
 * shaped like a real network's (`vega-mainnet-0011`). Worlds of different seeds are different
 * networks, as real ones are: the digits are the seed scrambled one to one, so no two seeds share
 * a chain id, and a seed always has the same one.
 *
 * @example
 * ```ts
 * import { World } from "@vega-effect/simulator"
 *
 * console.log(World.chainIdOf(1)) // "vega-sim-…", the same at every run
 * console.log(World.chainIdOf(1) !== World.chainIdOf(2)) // true
 * console.log(new World.World({ seed: 7 }).chain.chainId === World.chainIdOf(7)) // true
 * ```
 *
 * @since 0.1.0
 * @category Constructors
 */
export const chainIdOf = (seed: number | string): string =>
  `vega-sim-${scramble32(seedOf(seed)).toString(16).padStart(8, "0")}`

/**
 * The world. Read it through a node; it changes with {@link World.advance} and with the user
 * transactions the core applies to it (`internal/world/apply.ts`).
 *
 * @since 0.1.0
 * @category Models
 */
export class World {
  /**
   * The seed every random stream of the world derives from (a string seed is hashed to a
   * number).
   *
   * @since 0.1.0
   */
  readonly seed: number
  /**
   * How big the world is: {@link defaultScale} with the options' overrides.
   *
   * @since 0.1.0
   */
  readonly scale: Scale
  /**
   * How much changes per block: {@link defaultActivity} with the options' overrides.
   *
   * @since 0.1.0
   */
  readonly activity: Activity
  /**
   * The chain: its id, genesis time and epoch length, and the time, hash and epoch of each block.
   *
   * @since 0.1.0
   */
  readonly chain: Chain
  /**
   * The parties (the network party first), assets, markets, validators and stake addresses.
   *
   * @since 0.1.0
   */
  readonly catalog: Catalog
  /**
   * Positions, one row per party and market, every version kept while a node can still read it.
   *
   * @since 0.1.0
   */
  readonly positions: Positions
  /**
   * Stake linkings: VEGA associated with and dissociated from parties' keys.
   *
   * @since 0.1.0
   */
  readonly stakeLinkings: StakeLinkings
  /**
   * Liquidity provisions, current and pending.
   *
   * @since 0.1.0
   */
  readonly liquidityProvisions: LiquidityProvisions
  /**
   * Referral sets, their referees and their statistics per epoch.
   *
   * @since 0.1.0
   */
  readonly referralSets: ReferralSets
  /**
   * The referral and volume discount programs, the volume discount statistics and the parties'
   * activity streaks per epoch.
   *
   * @since 0.2.0
   */
  readonly programs: Programs
  /**
   * Teams (referral sets created as teams), their members and their statistics per epoch.
   *
   * @since 0.2.0
   */
  readonly teams: Teams
  /**
   * The time-weighted notional positions core reports for the reward games that require one.
   *
   * @since 0.2.0
   */
  readonly notionals: Notionals
  /**
   * Signer bundles adding validators to the multisig control contract.
   *
   * @since 0.1.0
   */
  readonly signerBundles: SignerBundles
  /**
   * Signer bundles removing validators from the multisig control contract.
   *
   * @since 0.2.0
   */
  readonly signerRemovals: SignerRemovals
  /**
   * The validators' Vega and Ethereum key rotations.
   *
   * @since 0.2.0
   */
  readonly keyRotations: KeyRotations
  /**
   * The validators' signatures of signer bundles, asset listings and withdrawals, by resource.
   *
   * @since 0.2.0
   */
  readonly notary: Notary
  /**
   * Party profiles: aliases and metadata.
   *
   * @since 0.1.0
   */
  readonly profiles: Profiles
  /**
   * Reward payouts, paid at the end of each epoch.
   *
   * @since 0.1.0
   */
  readonly rewards: Rewards
  /**
   * Accounts and their balances, the ledger, deposits and withdrawals.
   *
   * @since 0.2.0
   */
  readonly accounts: Accounts
  /**
   * The markets' order books, every order and trade, and the fills that move positions.
   *
   * @since 0.2.0
   */
  readonly exchange: Exchange
  /**
   * Stop orders: order submissions held until the market's price crosses their triggers.
   *
   * @since 0.2.0
   */
  readonly stopOrders: StopOrders
  /**
   * Each market's book, depth and market data as of any height since the exchange opened.
   *
   * @since 0.2.0
   */
  readonly marketData: MarketData
  /**
   * Perpetuals' funding periods, their data points and the payments made.
   *
   * @since 0.2.0
   */
  readonly funding: Funding
  /**
   * Each market's candles of every interval the node offers, from the trades.
   *
   * @since 0.2.0
   */
  readonly candles: Candles
  /**
   * Each market's fees statistics per epoch, tallied from its trades.
   *
   * @since 0.2.0
   */
  readonly feesStats: FeesStats
  /**
   * Transfers between parties and the network's accounts, their fees and fee discounts.
   *
   * @since 0.2.0
   */
  readonly transfers: Transfers
  /**
   * The network parameters: Vega testnet's set, changed by the proposals governance enacts.
   *
   * @since 0.2.0
   */
  readonly networkParameters = new NetworkParameters()
  /**
   * Governance proposals, their votes, and their states as the blocks close and enact them.
   *
   * @since 0.2.0
   */
  readonly governance: Governance
  /**
   * Checkpoints, core snapshots, network history segments and protocol upgrade proposals.
   *
   * @since 0.2.0
   */
  readonly history: History
  /**
   * What each block changed, until the core publishes the block (see `internal/world/journal.ts`).
   *
   * @since 0.1.0
   */
  readonly journal = new Journal()
  /**
   * The height of the last block processed.
   *
   * @since 0.1.0
   */
  height: number

  constructor(options: Options = {}) {
    this.seed = seedOf(options.seed ?? DEFAULT_SEED)
    this.scale = { ...defaultScale, ...options.scale }
    this.activity = { ...defaultActivity, ...options.activity }
    this.chain = chainOf(this.seed, options)
    this.height = Math.max(1, this.scale.epochs) * this.chain.blocksPerEpoch + 1
    const random = makeRandom(mix(this.seed, 0))
    const fundingPeriod = options.fundingPeriodSeconds ?? DEFAULT_FUNDING_PERIOD_SECONDS
    this.catalog = makeCatalog(random, this.scale, this.chain.genesisMicros, fundingPeriod)
    const journal = this.journal
    this.positions = new Positions(this.catalog, this.chain, journal)
    this.notionals = new Notionals(this.chain, this.positions, (m, h) => this.exchange.markPrice(m, h))
    this.stakeLinkings = new StakeLinkings(this.catalog, this.chain, journal)
    this.liquidityProvisions = new LiquidityProvisions(this.catalog, this.chain, journal)
    this.referralSets = new ReferralSets(this.catalog, this.chain, journal)
    this.signerBundles = new SignerBundles(this.catalog, this.chain, journal)
    this.signerRemovals = new SignerRemovals(this.catalog, this.chain)
    this.keyRotations = new KeyRotations(this.catalog, this.chain)
    this.profiles = new Profiles(this.catalog, journal)
    this.rewards = new Rewards(this.catalog, this.chain, journal)
    this.accounts = new Accounts(this.catalog, this.chain, journal)
    this.exchange = new Exchange(this.seed, this.catalog, this.chain, this.positions, this.accounts, journal)
    this.notary = new Notary(
      this.catalog,
      this.chain,
      this.signerBundles.rows,
      this.signerRemovals.rows,
      this.accounts.withdrawals
    )

    const stream = (n: number) => makeRandom(mix(this.seed, 0, n))
    this.positions.generate(stream(1), this.scale.positions, this.height)
    this.stakeLinkings.generate(stream(2), this.scale.stakeLinkings, this.height)
    this.liquidityProvisions.generate(stream(3), this.scale.liquidityProvisions, this.height)
    this.referralSets.generate(stream(4), this.scale.referralSets, this.scale.refereesPerSet, this.height)
    this.signerBundles.generate(stream(5), this.scale.signerBundles, this.height)
    this.profiles.generate(stream(6), this.scale.profileShare, this.height)
    this.signerRemovals.generate(stream(28), Math.floor(this.scale.signerBundles / 4), this.height)
    this.keyRotations.generate(stream(29), ROTATIONS_PER_VALIDATOR, this.height)
    this.accounts.open(this.height)
    this.exchange.open(this.height)
    this.transfers = new Transfers(this.catalog, this.chain, this.accounts, this.networkParameters)
    this.accounts.onTradingFees = (payer, asset, amount) => this.transfers.registerTradingFees(payer, asset, amount)
    this.transfers.generate(stream(20), stream(21), this.scale.transfers, this.scale.recurringTransfers, this.height)
    this.stopOrders = new StopOrders(this.chain, this.exchange, this.positions)
    // the world's parties protect positions with stop orders only in a world that trades
    const stops = stream(13)
    const ownStops = this.activity.positionTrades > 0 ? this.scale.stopOrders : 0
    for (let i = 0; i < ownStops; i++) this.stopOrders.generate(stops, this.height)
    this.funding = new Funding(this.chain, this.catalog, this.exchange, this.positions, this.accounts, this.height)
    this.marketData = new MarketData(
      this.chain,
      this.exchange,
      this.funding,
      this.positions,
      this.liquidityProvisions,
      this.catalog.markets,
      this.height,
      () => this.height
    )
    this.candles = new Candles(this.exchange.trades, this.marketData.times)
    this.feesStats = new FeesStats(this.chain, this.exchange.trades, (market, height) =>
      this.marketData.providersAt(market, height)
    )
    this.governance = new Governance(this.catalog, this.chain, this.networkParameters, journal)
    this.notary.followAssetUpdates(this.governance.assetUpdatesEnacted)
    governanceHistory(this)
    // the sets' dates and the programs draw from streams of their own
    this.referralSets.date(stream(22))
    this.programs = new Programs(this.chain, this.referralSets, this.exchange.trades, this.networkParameters)
    this.programs.generate(stream(23), this.height)
    this.history = new History(this.seed, this.chain, this.networkParameters)
    this.history.generateProposals(stream(30), this.catalog.validators, this.height)
    rewardsHistory(this, stream(7))
    this.teams = new Teams(this.catalog, this.chain)
    teamsHistory(this, stream(24), stream(25))
    // the games' notional requirements draw from a stream of their own
    this.notionals.generate(stream(34), this.teams.games)
    journal.enable()
  }

  /**
   * The epoch of the current block.
   *
   * @since 0.1.0
   */
  get epoch(): number {
    return this.chain.epochOf(this.height)
  }

  /**
   * Processes the next `blocks` blocks. Each block's changes come from its own random stream, so
   * the world at a height does not depend on how the blocks were batched.
   *
   * @since 0.1.0
   */
  advance(blocks = 1): void {
    const { activity, chain } = this
    for (let i = 0; i < blocks; i++) {
      // the block before is done (its transactions applied): what it ends with is settled
      this.marketData.settle(this.height)
      const height = this.height + 1
      const random = makeRandom(mix(this.seed, height))
      // a perpetual's funding is settled as its period ends, before the block's trades
      this.funding.settle(height)
      this.exchange.advance(random, height, activity.positionTrades)
      this.accounts.advance(random, height)
      for (const row of this.positions.advanceStatuses(random, height, activity.positionTrades)) {
        this.exchange.closeOut(row, height)
      }
      // stop orders draw from a stream of their own, so the other domains draw as they did
      const stops = makeRandom(mix(this.seed, height, STOP_ORDER_STREAM))
      this.stopOrders.advance(height)
      if (activity.positionTrades > 0 && stops.chance(STOP_ORDER_CHANCE)) this.stopOrders.generate(stops, height)
      const assets = assetUpdateRandom(this.seed, height)
      this.governance.advance(governanceRandom(this.seed, height), height, activity.proposalChance, assets)
      this.transfers.advance(makeRandom(mix(this.seed, height, TRANSFER_STREAM)), height)
      this.stakeLinkings.advance(random, height, activity.stakeEvents)
      this.liquidityProvisions.advance(random, height, activity.liquidityChanges)
      for (let p = 0; p < activity.profileChanges; p++) {
        if (random.chance(0.2)) this.profiles.update(random, random.pick(this.catalog.parties.slice(1)), height)
      }
      if (chain.epochLastBlock(chain.epochOf(height)) === height) {
        const epoch = chain.epochOf(height)
        // the block that closes an epoch ends it and starts the next
        this.journal.record(height, { _tag: "Epoch", epoch, action: "END" })
        this.journal.record(height, { _tag: "Epoch", epoch: epoch + 1, action: "START" })
        this.referralSets.close(random, epoch)
        this.programs.close(epoch)
        this.transfers.endEpoch(epoch, height)
        this.rewards.payEpoch(random, height, activity.rewardShare)
        this.teams.close(teamsRandom(this.seed, height), epoch)
        const every = Math.max(1, activity.bundleEveryEpochs)
        if (epoch % every === 0) this.signerBundles.promote(random, epoch + 1, height)
        // a validator leaves the signer set every other bundle epoch, from a stream of its own
        if (epoch % (2 * every) === every) {
          this.signerRemovals.remove(makeRandom(mix(this.seed, height, SIGNER_REMOVAL_STREAM)), epoch + 1, height)
        }
      }
      this.height = height
    }
  }

  /**
   * Forgets versions that no view at `minHeight` or later can see.
   *
   * @since 0.1.0
   */
  prune(minHeight: number): void {
    this.positions.prune(minHeight)
    this.stakeLinkings.prune(minHeight)
    this.rewards.prune(minHeight)
  }
}

/** The chain a world's options describe. */
const chainOf = (seed: number, options: Options): Chain =>
  makeChain({
    seed,
    genesisMicros: Date.parse(options.genesis ?? DEFAULT_GENESIS) * 1000,
    blocksPerEpoch: Math.max(2, options.blocksPerEpoch ?? DEFAULT_BLOCKS_PER_EPOCH),
    chainId: options.chainId ?? chainIdOf(seed)
  })

/** The rewards of each past epoch. */
const rewardsHistory = (world: World, random: Random): void => {
  for (let epoch = 1; epoch < world.chain.epochOf(world.height); epoch++) {
    world.rewards.payEpoch(random, world.chain.epochLastBlock(epoch), world.activity.rewardShare)
  }
}

/** Governance from the first block to the world's start, each block with a stream of its own. */
const governanceHistory = (world: World): void => {
  for (let h = 2; h <= world.height; h++) {
    const assets = assetUpdateRandom(world.seed, h)
    world.governance.advance(governanceRandom(world.seed, h), h, world.activity.proposalChance, assets)
  }
}

/** The teams, from streams of their own, and their statistics of each past epoch, from a per-block stream. */
const teamsHistory = (world: World, random: Random, switches: Random): void => {
  world.teams.generate(random, switches, world.referralSets.sets, world.height)
  for (let epoch = 1; epoch < world.chain.epochOf(world.height); epoch++) {
    world.teams.close(teamsRandom(world.seed, world.chain.epochLastBlock(epoch)), epoch)
  }
}
