/**
 * Accounts, their balances and the ledger: every movement of money is one ledger entry from one
 * account to another, and an account's balance is what its entries left. Money enters only by
 * deposits and leaves only by withdrawals, so per asset the balances sum to deposits minus
 * withdrawals.
 *
 * What the world models, and how it simplifies the core:
 * - **Deposits**: every party of the world starts with a deposit in each settlement asset (at the
 *   height the world starts from, as a snapshot would hold it), and a party a transaction brings in
 *   is credited one in each when it joins (the simulator's faucet). Each asset's network treasury
 *   is funded by a deposit too, and funds each of the asset's markets' insurance pools.
 * - **Fees** (`fees.ts`): the aggressor's general account (then its margin account) pays the maker fee into the market's
 *   maker fee account, from which the maker's general account receives it, the infrastructure fee
 *   into the asset's infrastructure fee account and the liquidity fee into the market's liquidity
 *   fee account, as the core's collateral engine moves them. The network's close-out fees come from
 *   the insurance pool.
 * - **Settlement**: a party's PnL is settled when it is realised, at the fill that realises it,
 *   against the market's insurance pool (a gain from the pool to the general account, a loss from
 *   the margin account, then the general account, to the pool), not at every move of the mark
 *   price as the core's mark-to-market does. What a party cannot pay stays unpaid (no loss
 *   socialisation).
 * - **Margin** (`margin.ts`): after each fill a party's margin levels are computed from its new
 *   open volume at the mark price and written, and its margin account is brought to the initial
 *   margin, from or back to its general account (as much as there is). Positions of the snapshot
 *   that never trade hold no margin account and have no margin levels. The network party holds
 *   no accounts, and has no margin levels, for its positions.
 * - **Funding** (`funding.ts`): a perpetual's funding payments, settled against the insurance pool
 *   like PnL when a period ends.
 * - **Withdrawals**: now and then a party of the world withdraws part of its general balance.
 * - **Transfers** (`transfers.ts`): a party's transfers move money from its general account through
 *   the pending transfers account to another party, the treasury or the global reward pool, and
 *   pay their fee into the infrastructure fee account.
 */
import { createHash } from "node:crypto"
import type { Random } from "../random.js"
import type { AssetInfo, Catalog, MarketInfo, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { TradeFees } from "./fees.js"
import type { Journal } from "./journal.js"
import { levelsOf, MarginLevels, MarginModes } from "./margin.js"
import type { Versioned } from "./versioned.js"

export type AccountType =
  | "ACCOUNT_TYPE_INSURANCE"
  | "ACCOUNT_TYPE_GENERAL"
  | "ACCOUNT_TYPE_MARGIN"
  | "ACCOUNT_TYPE_FEES_INFRASTRUCTURE"
  | "ACCOUNT_TYPE_FEES_LIQUIDITY"
  | "ACCOUNT_TYPE_FEES_MAKER"
  | "ACCOUNT_TYPE_EXTERNAL"
  | "ACCOUNT_TYPE_NETWORK_TREASURY"
  | "ACCOUNT_TYPE_GLOBAL_REWARD"
  | "ACCOUNT_TYPE_PENDING_TRANSFERS"

export type TransferType =
  | "TRANSFER_TYPE_MTM_LOSS"
  | "TRANSFER_TYPE_MTM_WIN"
  | "TRANSFER_TYPE_MARGIN_LOW"
  | "TRANSFER_TYPE_MARGIN_HIGH"
  | "TRANSFER_TYPE_MAKER_FEE_PAY"
  | "TRANSFER_TYPE_MAKER_FEE_RECEIVE"
  | "TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY"
  | "TRANSFER_TYPE_LIQUIDITY_FEE_PAY"
  | "TRANSFER_TYPE_DEPOSIT"
  | "TRANSFER_TYPE_WITHDRAW"
  | "TRANSFER_TYPE_TRANSFER"
  | "TRANSFER_TYPE_TRANSFER_FUNDS_SEND"
  | "TRANSFER_TYPE_TRANSFER_FUNDS_DISTRIBUTE"
  | "TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS"
  | "TRANSFER_TYPE_PERPETUALS_FUNDING_WIN"

/** The owner of system accounts, as the data node writes it. */
export const SYSTEM_OWNER = "network"

export interface Account {
  /** `owner/asset/market/type`: unique per account. */
  readonly key: string
  readonly owner: string
  readonly asset: AssetInfo
  readonly market: MarketInfo | undefined
  readonly type: AccountType
  /** Every balance it had, oldest first. */
  readonly versions: Array<BalanceRow>
}

export interface BalanceRow extends Versioned {
  readonly account: Account
  readonly balance: bigint
  /** Block time, unix microseconds. */
  readonly vt: number
}

export interface LedgerRow {
  readonly seq: number
  readonly height: number
  readonly vt: number
  readonly from: Account
  readonly to: Account
  readonly amount: bigint
  readonly type: TransferType
  /** Balances after the movement (an external account's is 0). */
  readonly fromBalance: bigint
  readonly toBalance: bigint
}

export interface CashRow {
  readonly id: string
  readonly party: Party
  readonly asset: AssetInfo
  readonly amount: bigint
  /** The Ethereum transaction that carried it, 0x-prefixed. */
  readonly txHash: string
  readonly height: number
  readonly vt: number
}

/**
 * The deposit each party of the world starts with, in whole units of the asset: enough for the
 * margin of the snapshot's largest positions (50,000 contracts at positionDecimals −2).
 */
const OPENING_UNITS = 10n ** 12n
/** Each asset's network treasury, in whole units, and what it gives each market's insurance pool. */
const TREASURY_UNITS = 10n ** 18n
const INSURANCE_UNITS = 10n ** 15n

const units = (asset: AssetInfo, whole: bigint): bigint => whole * 10n ** BigInt(asset.decimals)

export class Accounts {
  readonly byKey = new Map<string, Account>()
  /** Accounts by owner, in the order opened. */
  readonly byOwner = new Map<string, Array<Account>>()
  readonly ledger: Array<LedgerRow> = []
  readonly deposits: Array<CashRow> = []
  readonly withdrawals: Array<CashRow> = []
  /** Every party's margin levels per market, as each fill left them. */
  readonly marginLevels: MarginLevels
  /** The margin modes parties set per market. */
  readonly marginModes = new MarginModes()
  private readonly settlementAssets: ReadonlyArray<AssetInfo>
  /** Told the trading fees each aggressor pays (the transfer fee discounts count them). */
  onTradingFees: ((payer: Party, asset: AssetInfo, amount: bigint) => void) | undefined

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal: Journal
  ) {
    this.settlementAssets = [...new Set(catalog.markets.map((m) => m.settlementAsset))]
    this.marginLevels = new MarginLevels(journal)
  }

  /** The account, opened with a zero balance at `height` if it did not exist. */
  account(owner: string, asset: AssetInfo, market: MarketInfo | undefined, type: AccountType, height: number) {
    const key = `${owner}/${asset.id}/${market?.id ?? ""}/${type}`
    let account = this.byKey.get(key)
    if (account === undefined) {
      account = { key, owner, asset, market, type, versions: [] }
      if (type !== "ACCOUNT_TYPE_EXTERNAL") {
        const row: BalanceRow = { account, balance: 0n, from: height, to: Infinity, vt: this.chain.blockTime(height) }
        account.versions.push(row)
        this.journal.balance(height, key, row)
      }
      this.byKey.set(key, account)
      let own = this.byOwner.get(owner)
      if (own === undefined) this.byOwner.set(owner, (own = []))
      own.push(account)
    }
    return account
  }

  balance(account: Account): bigint {
    return account.versions[account.versions.length - 1]?.balance ?? 0n
  }

  private setBalance(account: Account, balance: bigint, height: number): bigint {
    if (account.type === "ACCOUNT_TYPE_EXTERNAL") return 0n
    const last = account.versions[account.versions.length - 1]
    const row: BalanceRow = { account, balance, from: height, to: Infinity, vt: this.chain.blockTime(height) }
    if (last.from === height) account.versions[account.versions.length - 1] = row
    else {
      last.to = height
      account.versions.push(row)
    }
    this.journal.balance(height, account.key, row)
    return balance
  }

  /** Moves up to `amount` (never more than `from` holds, unless it is external); returns what moved. */
  move(from: Account, to: Account, amount: bigint, type: TransferType, height: number): bigint {
    const available = from.type === "ACCOUNT_TYPE_EXTERNAL" ? amount : this.balance(from)
    const moved = amount < available ? amount : available
    if (moved <= 0n) return 0n
    const fromBalance = this.setBalance(from, this.balance(from) - moved, height)
    const toBalance = this.setBalance(to, this.balance(to) + moved, height)
    this.ledger.push({
      seq: this.ledger.length,
      height,
      vt: this.chain.blockTime(height),
      from,
      to,
      amount: moved,
      type,
      fromBalance,
      toBalance
    })
    return moved
  }

  private general(party: Party, asset: AssetInfo, height: number): Account {
    return this.account(party.id, asset, undefined, "ACCOUNT_TYPE_GENERAL", height)
  }

  private insurance(market: MarketInfo, height: number): Account {
    return this.account(SYSTEM_OWNER, market.settlementAsset, market, "ACCOUNT_TYPE_INSURANCE", height)
  }

  /** A deposit from Ethereum into the party's general account (the network's: its treasury). */
  deposit(party: Party, asset: AssetInfo, amount: bigint, height: number): CashRow {
    const row = this.cashRow(party, asset, amount, height, this.deposits.length, "deposit")
    this.deposits.push(row)
    const to =
      party === this.catalog.network
        ? this.account(SYSTEM_OWNER, asset, undefined, "ACCOUNT_TYPE_NETWORK_TREASURY", height)
        : this.general(party, asset, height)
    this.move(this.external(asset, height), to, amount, "TRANSFER_TYPE_DEPOSIT", height)
    return row
  }

  /** A withdrawal of up to `amount` from the party's general account; none when it holds nothing. */
  withdraw(party: Party, asset: AssetInfo, amount: bigint, height: number): CashRow | undefined {
    const moved = this.move(
      this.general(party, asset, height),
      this.external(asset, height),
      amount,
      "TRANSFER_TYPE_WITHDRAW",
      height
    )
    if (moved === 0n) return undefined
    const row = this.cashRow(party, asset, moved, height, this.withdrawals.length, "withdrawal")
    this.withdrawals.push(row)
    return row
  }

  private external(asset: AssetInfo, height: number): Account {
    return this.account(SYSTEM_OWNER, asset, undefined, "ACCOUNT_TYPE_EXTERNAL", height)
  }

  private cashRow(party: Party, asset: AssetInfo, amount: bigint, height: number, n: number, kind: string): CashRow {
    const digest = (salt: string) =>
      createHash("sha256").update(`${this.chain.chainId}/${kind}/${n}/${salt}`).digest("hex")
    return {
      id: digest("id"),
      party,
      asset,
      amount,
      txHash: `0x${digest("tx")}`,
      height,
      vt: this.chain.blockTime(height)
    }
  }

  /** The world's opening money: every party's deposits, the treasuries and the insurance pools. */
  open(height: number): void {
    const { network, parties } = this.catalog
    for (const asset of this.settlementAssets) this.deposit(network, asset, units(asset, TREASURY_UNITS), height)
    for (const market of this.catalog.markets) {
      const asset = market.settlementAsset
      const treasury = this.account(SYSTEM_OWNER, asset, undefined, "ACCOUNT_TYPE_NETWORK_TREASURY", height)
      this.move(
        treasury,
        this.insurance(market, height),
        units(asset, INSURANCE_UNITS),
        "TRANSFER_TYPE_TRANSFER",
        height
      )
    }
    for (const party of parties) if (party !== network) this.fund(party, height)
  }

  /** A party's deposit in every settlement asset. */
  fund(party: Party, height: number): void {
    for (const asset of this.settlementAssets) this.deposit(party, asset, units(asset, OPENING_UNITS), height)
  }

  /** The fees of a trade, from the aggressor (the insurance pool for the network). */
  payFees(market: MarketInfo, payer: Party, maker: Party, fees: TradeFees, height: number): void {
    const asset = market.settlementAsset
    // the core takes fees from the general account, then the margin account (the network's: its pool)
    const sources =
      payer === this.catalog.network
        ? [this.insurance(market, height)]
        : [this.general(payer, asset, height), this.account(payer.id, asset, market, "ACCOUNT_TYPE_MARGIN", height)]
    const pay = (to: Account, amount: bigint, type: TransferType) => {
      let paid = 0n
      for (const source of sources) paid += this.move(source, to, amount - paid, type, height)
      return paid
    }
    const makerFees = this.account(SYSTEM_OWNER, asset, market, "ACCOUNT_TYPE_FEES_MAKER", height)
    const received = pay(makerFees, fees.makerFee, "TRANSFER_TYPE_MAKER_FEE_PAY")
    if (maker !== this.catalog.network) {
      this.move(makerFees, this.general(maker, asset, height), received, "TRANSFER_TYPE_MAKER_FEE_RECEIVE", height)
    }
    const infrastructure = pay(
      this.account(SYSTEM_OWNER, asset, undefined, "ACCOUNT_TYPE_FEES_INFRASTRUCTURE", height),
      fees.infrastructureFee,
      "TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY"
    )
    const liquidity = pay(
      this.account(SYSTEM_OWNER, asset, market, "ACCOUNT_TYPE_FEES_LIQUIDITY", height),
      fees.liquidityFee,
      "TRANSFER_TYPE_LIQUIDITY_FEE_PAY"
    )
    this.onTradingFees?.(payer, asset, received + infrastructure + liquidity)
  }

  /**
   * After a fill: the PnL it realised settled against the insurance pool, then the margin levels
   * of the new open volume at the mark price written and the margin account brought to their
   * initial margin.
   */
  settle(party: Party, market: MarketInfo, realised: bigint, openVolume: bigint, mark: bigint, height: number): void {
    if (party === this.catalog.network) return
    const asset = market.settlementAsset
    const general = this.general(party, asset, height)
    const margin = this.account(party.id, asset, market, "ACCOUNT_TYPE_MARGIN", height)
    const pool = this.insurance(market, height)
    if (realised > 0n) this.move(pool, general, realised, "TRANSFER_TYPE_MTM_WIN", height)
    if (realised < 0n) this.collect(party, market, -realised, "TRANSFER_TYPE_MTM_LOSS", height)
    const levels = levelsOf(market, openVolume, mark)
    this.marginLevels.record({
      party,
      market,
      account: margin,
      from: height,
      to: Infinity,
      vt: this.chain.blockTime(height),
      levels
    })
    const required = levels.initial
    const held = this.balance(margin)
    if (held < required) this.move(general, margin, required - held, "TRANSFER_TYPE_MARGIN_LOW", height)
    if (held > required) this.move(margin, general, held - required, "TRANSFER_TYPE_MARGIN_HIGH", height)
  }

  /** A loss into the market's insurance pool: from the party's margin account (if it has one), then its general account. */
  private collect(party: Party, market: MarketInfo, amount: bigint, type: TransferType, height: number): void {
    const asset = market.settlementAsset
    const pool = this.insurance(market, height)
    const margin = this.byKey.get(`${party.id}/${asset.id}/${market.id}/ACCOUNT_TYPE_MARGIN`)
    const fromMargin = margin === undefined ? 0n : this.move(margin, pool, amount, type, height)
    this.move(this.general(party, asset, height), pool, amount - fromMargin, type, height)
  }

  /**
   * A perpetual's funding payments (`funding.ts`), settled against the market's insurance pool as
   * the world settles PnL: every loss collected first ({@link collect}), then every win paid to
   * the party's general account. The network party's flows stay in the pool, which is its own.
   */
  settleFunding(market: MarketInfo, flows: ReadonlyArray<readonly [Party, bigint]>, height: number): void {
    const people = flows.filter(([party]) => party !== this.catalog.network)
    for (const [party, amount] of people) {
      if (amount < 0n) this.collect(party, market, -amount, "TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS", height)
    }
    const pool = this.insurance(market, height)
    for (const [party, amount] of people) {
      if (amount > 0n) {
        const general = this.general(party, market.settlementAsset, height)
        this.move(pool, general, amount, "TRANSFER_TYPE_PERPETUALS_FUNDING_WIN", height)
      }
    }
  }

  /** One block: now and then a party of the world withdraws a part of a general balance. */
  advance(random: Random, height: number): void {
    if (!random.chance(0.2)) return
    const people = this.catalog.parties
    const party = people[1 + random.int(people.length - 1)]
    const asset = random.pick(this.settlementAssets)
    const held = this.balance(this.general(party, asset, height))
    if (held > 0n) this.withdraw(party, asset, held / BigInt(2 + random.int(20)), height)
  }
}
